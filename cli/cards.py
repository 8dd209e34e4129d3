"""`balance cards export --game G [FILE]`: a game's shipped card list written where the user can edit it.

Registered by its import in cli/__init__.py (the `cards` group). The list is read from the installed
package data (simcore.files.data_root), so a `pip install` user gets it as a checkout does: TOML as
shipped (comments and all), or CSV when FILE ends in .csv (simcore.cardcsv, docs/card-lists.md)."""
from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from balance.simcore.errors import BalanceError

from .app import GameOpt, Group, _spec, app, err, out

cards_app = typer.Typer(cls=Group, no_args_is_help=True, help="Card lists: write a game's own list to edit it.")
app.add_typer(cards_app, name="cards")


def _one_line_errors(f):
    """A BalanceError is one line on stderr and exit 2, as for every other command (cli.app.command)."""

    @functools.wraps(f)
    def wrapper(*a, **kw):
        try:
            return f(*a, **kw)
        except BalanceError as exc:
            err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


def header_note(toml_text: str) -> str:
    """The comment block a shipped card file opens with (its reconstruction note), without the '#'."""
    lines = []
    for line in toml_text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].removeprefix(" "))
    return "\n".join(lines).strip("\n")


def export_card_list(game: str, file: Path | None = None, force: bool = False) -> tuple[Path, object]:
    """Write `game`'s shipped card list to `file` (default `<game>-cards.toml` here): TOML as shipped, or
    CSV when the name ends in .csv. Returns (the path written, the list's CardList). Refuses a game without
    a card list, another extension, and an existing file unless `force`."""
    from balance.simcore import cardcsv
    from balance.simcore.files import parse_toml, read_bytes

    spec = _spec(game)
    cards = spec.load_data({}).cards if spec.param("cards") is not None else None
    if cards is None:
        raise BalanceError(f"--game: {spec.name} has no card list to export (its cards are fixed by its rules); "
                           "allowed: a game with a card list (see `balance games`)")
    target = Path(file) if file is not None else Path(f"{spec.name}-cards.toml")
    suffix = target.suffix.lower()
    if suffix not in (".toml", ".csv"):
        raise BalanceError(f"FILE: {target} is neither .toml nor .csv; allowed: a file name ending in .toml (the "
                           "card list as shipped) or .csv (a spreadsheet, docs/card-lists.md)")
    check_new_file(target, force, ".toml or .csv")
    shipped = Path(cards.path)
    data = read_bytes(shipped, "", "the game's own card list")
    if suffix == ".csv":
        doc = parse_toml(data, cards.file)
        data = cardcsv.write(doc, tuple(s.section for s in cards.sections),
                             note=header_note(data.decode("utf-8"))).encode("utf-8")
    write_file(target, data)
    return target, cards


def check_new_file(target: Path, force: bool, endings: str) -> None:
    """FILE of an export: not a folder, not an existing file unless --force, in an existing folder."""
    if target.is_dir():
        raise BalanceError(f"FILE: {target} is a folder; allowed: a file name ending in {endings}")
    if (target.exists() or target.is_symlink()) and not force:
        raise BalanceError(f"FILE: {target} exists; allowed: a new file name, or --force to overwrite it")
    if not target.parent.is_dir():
        raise BalanceError(f"FILE: {target.parent} is not a folder; allowed: a file in an existing folder")


def write_file(target: Path, data: bytes) -> None:
    """Write an export's bytes; --force replaces a link itself, never the file it points to."""
    try:
        if target.is_symlink():
            target.unlink()
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise BalanceError(f"FILE: cannot write {target} ({exc.strerror or exc}); allowed: a file in a folder you "
                           "can write to") from None


@cards_app.command("export")
@_one_line_errors
def export(
    file: Annotated[Optional[Path], typer.Argument(
        metavar="FILE", help="where to write it (default: GAME-cards.toml here): .toml as shipped, or .csv for a "
                             "spreadsheet (docs/card-lists.md)", show_default=False)] = None,
    game: GameOpt = "overtime",
    force: Annotated[bool, typer.Option("--force", help="overwrite FILE if it exists")] = False,
):
    """Write a game's own card list to FILE, to edit and play with --set cards=FILE."""
    target, cards = export_card_list(game, file, force)
    out.print(f"wrote {target}: the card list of {game} ({cards.file}, hash {cards.hash})", highlight=False,
              markup=False)
    if cards.reconstruction:
        out.print("note: a reconstruction, not the printed cards: the rulebook does not print the full list, so "
                  "invented cards stand in for the missing ones (the file's opening comment says which)",
                  highlight=False, markup=False)
    out.print(f"play it: balance simulate --game {game} --set cards={target}", highlight=False, markup=False)
