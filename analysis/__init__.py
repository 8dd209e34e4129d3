"""analysis: pure frame -> frame statistics over run folders (polars)."""
