"""The distribution carries every package and the game data (pyproject.toml)."""
import tomllib
from pathlib import Path

from balance.simcore import registry
from balance.simcore.files import data_file, data_root

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_installs_under_balance():
    """setup.py finds the packages from the folders: each one imports as balance.<layer>...,
    from this installation, not from the checkout's top-level folders."""
    import importlib

    found = {".".join(("balance",) + p.parent.relative_to(ROOT).parts) for top in ("simcore", "analysis", "cli", "reports")
             for p in (ROOT / top).rglob("__init__.py")}
    assert {"balance.simcore.overtime", "balance.analysis", "balance.cli", "balance.reports"} <= found
    for name in sorted(found):
        assert importlib.import_module(name).__name__ == name


def test_setup_lists_every_package_folder():
    import runpy
    import setuptools

    seen = {}
    real = setuptools.setup
    setuptools.setup = lambda **kw: seen.update(kw)
    try:
        runpy.run_path(str(ROOT / "setup.py"))
    finally:
        setuptools.setup = real
    found = {".".join(("balance",) + p.parent.relative_to(ROOT).parts) for top in ("simcore", "analysis", "cli", "reports")
             for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts}
    assert set(seen["packages"]) == found | {"balance", "balance.data"}


def test_every_game_folder_is_a_game_with_its_data():
    assert (data_root() / "__init__.py").is_file()
    shipped = [name for name in registry.names() if registry.GAMES[name].startswith("balance.simcore.")]
    folders = {f.parent.name for f in (ROOT / "simcore").glob("*/spec.py")}  # every game folder (the shared layout)
    assert folders == {registry.GAMES[name].split(".")[2] for name in shipped}
    assert len(folders) >= 5
    for name in shipped:
        assert data_file(name, "rules.toml").is_file(), name
        data = registry.get(name).load_data({})
        assert data.files and all(f.startswith("data/") for f, _ in data.files), data.files


def test_the_version_is_read_from_this_distribution_not_another_projects_balance():
    from balance.analysis.runs import DISTRIBUTION, package_version

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert DISTRIBUTION == project["name"]  # the index's `balance` is another project: never read its version
    assert package_version() == project["version"]
