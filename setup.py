"""The package list, found from the folders: every folder under the layers that holds Python code
installs as `balance.<layer>...` (pyproject.toml maps each layer to its folder), so a new game's
folder needs no line anywhere, and no `__init__.py` either (docs/adding-a-game.md). Everything else
is in pyproject.toml."""
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
LAYERS = ("simcore", "analysis", "cli", "reports")


def packages() -> list[str]:
    folders = {p.parent.relative_to(ROOT) for layer in LAYERS for p in (ROOT / layer).rglob("*.py")
               if "__pycache__" not in p.parts}
    return ["balance", "balance.data"] + sorted(".".join(("balance",) + f.parts) for f in folders)


setup(packages=packages())
