"""cli: the `balance` command (Typer), thin commands over simcore/analysis/reports."""
