"""Reading the files a user hands us, and the game data shipped with the package.

Every file a command reads (a card list, a `--params` file, a game's own
rules) goes through `read_toml`: a regular file only (not a folder, a pipe
or `/dev/zero`), at most `MAX_FILE_BYTES`, UTF-8, valid TOML, no deeper than
`MAX_DEPTH` tables and lists, and no `inf` or `nan` (TOML allows them; no
rule or card of ours takes one). A refusal is a `BalanceError` that names
the file and says what is allowed. Nothing read is ever executed.

The game data (`data/<game>/*.toml` in a checkout) is installed inside the
package as `balance.data`, so an installed `balance` finds it wherever it
runs; `data_file(game, name)` is the one way to reach it.
"""
from __future__ import annotations

import math
import os
import stat
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import BalanceError

MAX_FILE_BYTES = 4 * 2**20  # a card list of a few hundred cards is ~50 KB
MAX_DEPTH = 12  # nested tables/lists: card effects need 4


@lru_cache(maxsize=1)
def data_root() -> Path:
    """The folder holding one folder of data files per game."""
    try:
        from importlib.resources import files

        root = Path(str(files("balance.data")))
        if root.is_dir():
            return root
    except (ImportError, TypeError):  # not installed: a bare checkout on sys.path
        pass
    return Path(__file__).resolve().parent.parent / "data"


def data_file(game: str, name: str) -> Path:
    """A data file shipped with the game (`data/<game>/<name>` in the checkout)."""
    return data_root() / game / name


def shown(path: Path) -> str:
    """A path as the user should read it: relative to the game data when it is
    one of ours (`data/overtime/cards.toml`), else as given."""
    path = Path(path)
    try:
        return "data/" + path.resolve().relative_to(data_root().resolve()).as_posix()
    except ValueError:
        return str(path)


def read_bytes(path: Path, role: str, allowed: str) -> bytes:
    """The content of a regular file of at most MAX_FILE_BYTES."""
    path = Path(path)
    where = shown(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise BalanceError(f"{role}{where}: file does not exist; allowed: {allowed}") from None
    except OSError as exc:
        raise BalanceError(f"{role}{where}: cannot read it ({exc.strerror or exc}); allowed: {allowed}") from None
    if not stat.S_ISREG(st.st_mode):
        raise BalanceError(f"{role}{where}: not a regular file; allowed: {allowed}")
    if st.st_size > MAX_FILE_BYTES:
        raise BalanceError(f"{role}{where}: {st.st_size:,} bytes is too large; allowed: {allowed} "
                           f"of at most {MAX_FILE_BYTES // 2**20} MB")
    try:  # opened without blocking and checked again: a file swapped for a pipe after the stat cannot hang us
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise BalanceError(f"{role}{where}: not a regular file; allowed: {allowed}")
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise BalanceError(f"{role}{where}: cannot read it ({exc.strerror or exc}); allowed: {allowed}") from None
    if len(data) > MAX_FILE_BYTES:
        raise BalanceError(f"{role}{where}: too large; allowed: {allowed} of at most {MAX_FILE_BYTES // 2**20} MB")
    return data


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def _depth(obj: Any, limit: int) -> int:
    stack = [(obj, 1)]
    deepest = 0
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return deepest


def parse_toml(data: bytes, where: str, role: str = "", allowed: str = "a TOML file") -> dict:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BalanceError(f"{role}{where}: not a text file (not UTF-8); allowed: {allowed}") from None
    try:
        parsed = tomllib.loads(text, parse_float=_finite)
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{role}{where}: not valid TOML ({exc}); allowed: {allowed}") from None
    except ValueError as exc:  # parse_float: inf, nan, 1e400
        raise BalanceError(f"{role}{where}: {exc}; allowed: finite numbers only") from None
    except RecursionError:
        raise BalanceError(f"{role}{where}: nested too deeply; allowed: {allowed} at most {MAX_DEPTH} levels deep") from None
    if _depth(parsed, MAX_DEPTH) > MAX_DEPTH:
        raise BalanceError(f"{role}{where}: nested too deeply; allowed: {allowed} at most {MAX_DEPTH} levels deep")
    return parsed


def read_toml(path: Path, role: str = "", allowed: str = "a TOML file") -> dict:
    """A TOML file as a dict, or a BalanceError naming the file. `role` is the
    option it came from, with its colon (`"--params: "`), or empty."""
    return parse_toml(read_bytes(path, role, allowed), shown(path), role, allowed)
