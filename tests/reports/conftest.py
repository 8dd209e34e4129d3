import sys
from pathlib import Path

# the synthetic run-folder builder lives with the analysis tests
_ANALYSIS = str(Path(__file__).resolve().parent.parent / "analysis")
if _ANALYSIS not in sys.path:
    sys.path.insert(0, _ANALYSIS)
