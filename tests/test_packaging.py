"""The distribution carries every package and the game data (pyproject.toml)."""
import tomllib
from pathlib import Path

from balance.simcore import registry
from balance.simcore.files import data_file, data_root

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(("balance",) + p.parent.relative_to(ROOT).parts) for top in ("simcore", "analysis", "cli", "reports")
             for p in (ROOT / top).rglob("__init__.py")}
    assert found - listed == set(), "add these packages to [tool.setuptools] packages"


def test_game_data_is_read_from_the_installed_package():
    assert (data_root() / "__init__.py").is_file()
    shipped = [name for name in registry.names() if registry.GAMES[name].startswith("balance.simcore.")]
    folders = {f.parent.name for f in (ROOT / "simcore").glob("*/spec.py")}  # every game folder (the shared layout)
    assert folders == {registry.GAMES[name].split(".")[2] for name in shipped}, "a game folder not in simcore/registry.py"
    for name in shipped:
        assert data_file(name, "rules.toml").is_file(), name
        data = registry.get(name).load_data({})
        assert data.files and all(f.startswith("data/") for f, _ in data.files), data.files


def test_the_version_is_read_from_this_distribution_not_another_projects_balance():
    from balance.analysis.runs import DISTRIBUTION, package_version

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert DISTRIBUTION == project["name"]  # the index's `balance` is another project: never read its version
    assert package_version() == project["version"]
