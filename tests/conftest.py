import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # tests/toygame.py, a tiny game for the core's tests
sys.path.insert(0, str(HERE.parent))

# The fixture game of docs/adding-a-game.md, registered for the tests only:
# every test that runs "every registered game" runs it too.
from simcore import registry  # noqa: E402

registry.GAMES.setdefault("shed", "shedgame.spec")
