"""Before a command compiles or writes anything: its run folder checked, read only.

A command checks all its input first (policies, parameters, card files, the
folder it will write) and only then compiles the engine and writes the folder
(issue 40 item 9): a refused command leaves no folder behind, or the one it was
given untouched. `check_out` is the folder's part: the same checks
`analysis.runs.open_run` makes under the folder's lock (which stays the last
word), made here without taking the lock or writing, so that they come before
the compile; and a folder that holds another configuration is refused naming
the settings that differ in the words of the command line ("policies: greedy,
random vs greedy, greedy, greedy"), not the identity's parameter vectors.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from balance.simcore.batch import BalanceError, seat_labels
from balance.simcore.spec import GameSpec

from . import runs
from .folder_entries import MANIFEST


def check_out(run_dir: Path, spec: GameSpec, config: "runs.RunConfig", n_games: int) -> bool:
    """The folder a run will write: a name the file system holds, not a file, a folder of this very
    configuration when it is a run folder (and of this build of the engine), on a disk with room for the
    games. Returns whether it is a run folder to resume. Writes nothing."""
    run_dir = runs.check_out_path(Path(run_dir))
    if run_dir.exists() and not run_dir.is_dir():
        raise BalanceError(f"--out: {run_dir} is a file, not a folder; allowed: a new or existing run folder")
    resumed = run_dir.is_dir() and (run_dir / MANIFEST).exists()
    need = runs.estimated_bytes(spec, config, n_games)
    if resumed:
        manifest = runs.load_manifest(run_dir, "--out")
        old = manifest["config"].get("identity")
        if not isinstance(old, dict):
            raise BalanceError(f"--out: {run_dir / MANIFEST}: damaged (missing key config.identity); "
                               "use another --out folder")
        words = differences(old, config.identity(spec), spec)
        if words:
            raise BalanceError(f"--out: {run_dir} holds a different configuration (the folder's vs this command's: "
                               f"{'; '.join(words)}); use another --out folder to run this one, or the folder's "
                               f"own settings to resume it")
        stored, now = manifest["config"].get("engine_hash"), runs.engine_hash(spec)
        if stored not in (now, runs.SOURCE_HASH):
            raise BalanceError(
                f"--out: {run_dir} was played by another build of the {config.game} engine (engine_hash {stored}, "
                f"this build {now}); its games could differ from this build's, so it is a new configuration: "
                "use another --out folder")
        have = manifest.get("n_games")
        need = runs.estimated_bytes(spec, config, max(0, n_games - have)) if isinstance(have, int) else need
    check_room(run_dir, need)
    return resumed


def check_target(run_dir: Path) -> None:
    """What can be told of a run folder before its configuration is known (balance impact writes its card lists
    into the folder to make its variants): a path the file system holds, not a file, writable. Writes nothing."""
    run_dir = runs.check_out_path(Path(run_dir))
    if run_dir.exists() and not run_dir.is_dir():
        raise BalanceError(f"--out: {run_dir} is a file, not a folder; allowed: a new or existing run folder")
    check_room(run_dir, 0)


def check_room(run_dir: Path, need: int) -> None:
    """The disk that will hold `run_dir` has room for `need` bytes (and the spare runs.check_writable keeps),
    and its nearest existing folder can be written; nothing is created."""
    at = Path(run_dir).absolute()
    while not at.exists() and at != at.parent:
        at = at.parent
    if not at.is_dir():
        raise BalanceError(f"--out: cannot write the run folder {run_dir} ({at} is a file, not a folder); "
                           "allowed: a folder you can write to, on a disk with free space")
    if not os.access(at, os.W_OK | os.X_OK):
        raise BalanceError(f"--out: cannot write the run folder {run_dir} ({at}: permission denied); "
                           "allowed: a folder you can write to, on a disk with free space")
    free = shutil.disk_usage(at).free
    if free < need + runs.SPARE_BYTES:
        raise BalanceError(f"--out: {run_dir} has {free / 2**20:,.0f} MB free; this run needs about "
                           f"{(need + runs.SPARE_BYTES) / 2**20:,.0f} MB; allowed: a folder on a disk with more room, "
                           "or a smaller -n")


def check_result_folder(folder: Path | None, writes: str) -> None:
    """The folder a command writes only when it ends (tune, campaign, compare of two folders): checked before
    its games, so a refusal never comes after them. `writes`: the file it writes there."""
    if folder is None:
        return
    folder = runs.check_out_path(Path(folder))
    if folder.exists() and not folder.is_dir():
        raise BalanceError(f"--out: {folder} is a file, not a folder; allowed: a new folder, or one this command "
                           f"wrote ({writes})")
    if folder.is_dir() and (folder / MANIFEST).exists():
        raise BalanceError(f"--out: {folder} is a run folder (it holds {MANIFEST}); allowed: a new folder, or one "
                           f"this command wrote ({writes})")
    check_room(folder, 0)


# ------------------------------------------------------------- a different configuration, in the user's words
def differences(old: dict, new: dict, spec: GameSpec) -> list[str]:
    """What differs between a folder's identity and a command's, as the command line says it: [] when they are
    the same configuration. Equality is `analysis.runs`'s own (card lists by content, not by path), so this
    refuses exactly what open_run would; the words name each differing setting and its two values."""
    a, b = runs._by_content(old), runs._by_content(runs._jsonable(new))
    paths = runs._diff(a, b)
    if not paths:
        return []
    keys = list(dict.fromkeys(p.split(":")[0].split(".")[0].split("[")[0] for p in paths))
    words: list[str] = []
    for key in keys:
        if key == "policies":
            words += _policy_words(old.get("policies"), new.get("policies"), old.get("players"), new.get("players"),
                                   spec)
        elif key == "variants":
            words += _variant_words(old.get("variants"), new.get("variants"))
        else:
            label = {"rule_version": "rule version"}.get(key, key)
            words.append(f"{label}: {_show(old.get(key))} vs {_show(new.get(key))}")
    return words or [p for p in paths[:3]]


def _show(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (list, tuple)):
        return ",".join(_show(x) for x in v)
    if v is None:
        return "none"
    return str(v)


def _policy_words(a, b, pa, pb, spec) -> list[str]:
    a, b = list(a or []), list(b or [])
    la, lb = seat_labels(spec, a, len(a)), seat_labels(spec, b, len(b))

    def listed(labels, n):
        return ", ".join(labels) + (" (every seat)" if n == 1 and (pa or pb or 1) > 1 else "")

    players = pa if isinstance(pa, int) and pa == pb else None
    if la != lb and players and seat_labels(spec, a, players) == seat_labels(spec, b, players):
        return [f"policies: {listed(la, len(a))} vs {listed(lb, len(b))}, the same seats written another way: "
                "give --policy as the folder's own command did (manifest.json's command)"]
    if la != lb:
        return [f"policies: {listed(la, len(a))} vs {listed(lb, len(b))}"]
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if not (isinstance(x, dict) and isinstance(y, dict)):
            continue
        if x.get("file_sha256") != y.get("file_sha256"):
            out.append(f"policy file {y.get('name')}: edited since the folder's run (sha256 "
                       f"{str(x.get('file_sha256'))[:12]}... vs {str(y.get('file_sha256'))[:12]}...)")
        elif x != y:
            out.append(f"policy of seat {i + 1}: {la[i]} with other parameter values")
    return out or [f"policies: {', '.join(la)} vs {', '.join(lb)}"]


def _variant_words(a, b) -> list[str]:
    a, b = list(a or []), list(b or [])
    if len(a) != len(b) or [_vname(v) for v in a] != [_vname(v) for v in b]:
        return [f"variants: {len(a)} ({_names(a)}) vs {len(b)} ({_names(b)})"]
    out = []
    for x, y in zip(a, b):
        if not (isinstance(x, dict) and isinstance(y, dict)):
            continue
        where = f"variant {_vname(x)}: " if len(a) > 1 else ""
        xp, yp = x.get("params") or {}, y.get("params") or {}
        before = len(out)
        for k in sorted(set(xp) | set(yp)):
            if k != "cards" and xp.get(k) != yp.get(k):
                out.append(f"{where}{k}: {_show(xp.get(k))} vs {_show(yp.get(k))}")
        xc, yc = x.get("card_list") or {}, y.get("card_list") or {}
        if (xc.get("sha256"), x.get("card_list_hash")) != (yc.get("sha256"), y.get("card_list_hash")):
            out.append(f"{where}card list: {_card(xc, x)} vs {_card(yc, y)}")
        elif len(out) == before and x.get("data_hash") != y.get("data_hash"):  # the same settings, other data
            out.append(f"{where}the game's data files (rules, levels): changed since the folder's run")
        xv = {k: v for k, v in (x.get("varied") or {}).items() if k not in ("file", "sha256")}
        yv = {k: v for k, v in (y.get("varied") or {}).items() if k not in ("file", "sha256")}
        if xv != yv:
            out.append(f"{where}grid point: {_point(xv)} vs {_point(yv)}")
    return out


def _vname(v) -> str:
    return str(v.get("name")) if isinstance(v, dict) else "?"


def _names(vs: list) -> str:
    names = [_vname(v) for v in vs]
    return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _card(cl: dict, v: dict) -> str:
    sha = cl.get("sha256") or v.get("card_list_hash") or "none"
    name = Path(str(cl["file"])).name if cl.get("file") else "the game's own list"
    return f"{name} (sha256 {str(sha)[:12]})"


def _point(varied: dict) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in sorted(varied.items())) or "none"
