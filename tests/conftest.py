import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # tests/toygame.py, a tiny game for the core's tests
sys.path.insert(0, str(HERE.parent))
