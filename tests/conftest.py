import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # tests/toygame.py, a tiny game for the core's tests
sys.path.insert(0, str(HERE.parent))

# The fixture game of docs/adding-a-game.md, registered for the tests only:
# every test that runs "every registered game" runs it too.
from balance.simcore import registry  # noqa: E402

registry.GAMES.setdefault("shed", "shedgame.spec")


# Under pytest-xdist (`-n auto`, as pyproject's addopts say), every test of one
# game runs in one worker, so a game's engine compiles once (numba's cache is
# per process until written): a test belongs to the game its folder or its
# parameters name; any other test stays with the other tests of its file
# (module fixtures and the README tour's order hold). A scheduler of our own
# (xdist's loadscope, with this scope), not `--dist loadgroup`, whose marks
# pytest 9 no longer carries into the test ids.
def _game_dirs() -> dict[str, str]:
    """Test folder -> game: tests/<package>/ holds the tests of the game in simcore/<package>/ (or of
    a fixture game's own package, tests/shedgame), as the registry names them."""
    out = {}
    for game, module in registry.GAMES.items():
        parts = module.removeprefix("balance.").split(".")
        out[parts[1] if parts[0] == "simcore" and len(parts) > 1 else parts[0]] = game
    return out


def test_scope(nodeid: str) -> str:
    """The worker group of a test id: its game, or its file."""
    path, _, rest = nodeid.partition("::")
    dirs = _game_dirs()
    for part in Path(path).parts[:-1]:
        if part in dirs:
            return dirs[part]
    if "[" in rest:
        ident = rest[rest.index("[") + 1:rest.rindex("]")] if "]" in rest else ""
        for game in sorted(registry.GAMES, key=len, reverse=True):
            if ident == game or ident.startswith(game + "-") or ident.endswith("-" + game) or f"-{game}-" in ident:
                return game
    return path


def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ByGame(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return test_scope(nodeid)

    return ByGame(config, log)
