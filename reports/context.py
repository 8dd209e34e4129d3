"""What a report's numbers are about: which card list was played (and whether it
is the shipped reconstruction), which settings differ from the game's
defaults, whom the figures describe (each seat's policy, and where that policy
stands on a skill ladder when one was measured), and each seat's fair share.

Every function here is read-only and tolerant: a report must render on a
copy of the run folder on another machine, where a designer's card file or
even the game itself may be missing. Nothing here fails a report.

The skill-ladder hook
---------------------
`find_ladder(run_dir, game, players, params)` looks, in this order, for

1. `ladder.json` in the run folder;
2. `ladder.json` beside the run folder (its parent), then in the run folder's
   sibling folders (sorted by name), the first whose game and setting match:
   `balance ladder` writes its folder under runs/ like every run, so a ladder
   measured there speaks for every run of the same game and setting there
   (a ladder.json holding several levels lists them under `ladders`).

ladder.json is read through its schema (analysis.ladder_result.LadderFile,
schema 2): a nearby file made by an older balance, damaged or edited out of
shape is not used (`balance report LADDER_FOLDER` makes it again); such a file
in the run folder itself is refused with one line naming it and how to recover.
(summary.json holds no ladder of policies: its `ladder` is the difficulty
ladder, win rate per level.)

A ladder (the form of ladder.json's settings) is

    {"kind": "ladder", "game": "sickdays-solo", "players": 1, "params": {"level": 1},
     "metric": "win rate",                  # what `value` measures, in words
     "paired": true,                        # every policy played the same deals
     "policies": [                          # weakest first
        {"name": "random", "label": "random", "value": 0.02, "ci": [0.01, 0.03], "n": 2000},
        {"name": "greedy", "value": 0.766, "ci": [0.747, 0.784], "n": 2000},
        {"name": "greedy", "label": "greedy (epsilon=0.1)", "params": {"epsilon": 0.1}, ...},
        {"name": "expert", "value": 0.97, "ci": [...], "n": 2000,
         "vs": {"greedy": {"diff": 0.204, "ci": [0.18, 0.228]}}},   # optional paired differences
        {"name": "oracle", "bound": true, "value": 1.0, "ci": [...], "n": 300}]}

It matches a run when the game is the same, `players` (when given) is the
same, every parameter it lists has the run's value, and, when both record
one, the engine that played it is the run's (`engine_hash`: a ladder from
another build, e.g. before a policy's defaults changed, measured other bots). A policy entry
matches a seat by `name` and, when it lists `params`, by each of them. A
"bound" entry (oracle) is an open-hand search (it sees the hidden cards), never "stronger play" and
never called an upper bound.
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import fmt

if TYPE_CHECKING:
    from balance.analysis.summary_result import Games

# Games whose shipped card list is a reconstruction (GAMES.md: three rulebooks do not
# list their cards). Only a fallback: a GameData's CardList says so itself.


def reconstructed(game: str | None) -> bool:
    """Does the game ship a reconstructed card list (its spec's cards_reconstructed)? False for a game
    unknown here."""
    from balance.simcore import registry
    from balance.simcore.errors import BalanceError

    try:
        return bool(game) and registry.get(str(game)).cards_reconstructed
    except BalanceError:
        return False


def game_named(title: str) -> str | None:
    """The --game of a game by its title ("Overtime" -> "overtime")."""
    from balance.simcore import registry

    return next((g for g in registry.names() if registry.get(g).title == title), None)
BANNER = "Invented cards stand in for the printed ones"

# "the headline would move a lot with stronger play": a significant change of at least this much
MOVES_A_LOT = 0.05


# ---------------------------------------------------------------- card lists


@dataclass(frozen=True)
class CardListNote:
    """The card list one or more variants played."""

    variants: tuple[str, ...]
    file: str  # as the user knows it
    sha256: str | None  # full digest when known, else the manifest's card_list_hash
    shipped: bool
    reconstruction: bool
    here: bool | None  # the file is on this machine (None: unknown)
    same_content: bool | None  # its content on this machine matches the run's (None: unknown)
    # (card names it shares with the shipped reconstruction, card names in it) when it is an edited copy of
    # the reconstruction (`edited_from`): another file, most of whose card names are the invented ones
    edited: tuple[int, int] | None = None

    @property
    def hash(self) -> str:
        return "not recorded" if not self.sha256 or self.sha256 == "none" else self.sha256[:16]

    @property
    def invented(self) -> bool:
        """Its cards are (mostly) the reconstruction's invented ones: the shipped list, or an edited copy of it."""
        return self.reconstruction or self.edited is not None

    def words(self) -> str:
        what = ("the shipped reconstruction (invented cards, not the printed ones)" if self.reconstruction
                else f"an edited copy of the shipped reconstruction ({self.edited[0]} of its {self.edited[1]} card "
                     f"names are the reconstruction's invented cards)" if self.edited is not None
                else "the game's own list" if self.shipped else "a designer's list")
        out = f"{self.file}: {what}, hash {self.hash}"
        if self.here is False:
            out += "; the file is not on this machine (the hash says which list was played)"
        elif self.same_content is False:
            out += "; the file on this machine has changed since the run"
        return out


def _sha256_of(path: Path) -> str | None:
    try:
        if path.is_file() and path.stat().st_size <= 16 * 2**20:
            return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        pass
    return None


def _game_cards_file(game: str) -> Path | None:
    try:
        from balance.simcore.files import data_file

        return data_file(game, "cards.toml")
    except Exception:  # noqa: BLE001  an unknown game on this machine
        return None


# ---------------------------------------------------------------- an edited copy of a reconstruction
#
# The test (issue 43 item 5): a card list that is not the shipped file, of a game whose shipped list is a
# reconstruction, is "an edited copy of the reconstruction" when more than half of its card names are card
# names of the shipped list. Card names, not the file's header comment: a designer who copies the file and
# types in a few printed cards may delete the comment, and one who writes the printed list from scratch
# may keep it as a template; the names are what the report's card figures are about.
EDITED_SHARE = 0.5
MAX_CARD_FILE = 4 * 2**20


def card_names(path: Path | None) -> set[str] | None:
    """The card names of a card list file (the `name` of every table below the top: each [[card]], a
    [starting_employee]), None when it is not readable here as TOML."""
    if path is None:
        return None
    try:
        import tomllib

        path = Path(path)
        if not path.is_file() or path.stat().st_size > MAX_CARD_FILE:
            return None
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    out: set[str] = set()

    def walk(x, top: bool = False) -> None:
        if isinstance(x, dict):
            if not top and isinstance(x.get("name"), str):
                out.add(x["name"].strip())
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(data, top=True)
    return out


def edited_from(game: str, path: Path | None) -> tuple[int, int] | None:
    """(names shared with the shipped reconstruction, names in the file) when the file at `path` is an edited
    copy of `game`'s reconstructed list (EDITED_SHARE of its names shared), else None (also when unknown)."""
    if not reconstructed(game):
        return None
    names, shipped = card_names(path), card_names(_game_cards_file(game))
    if not names or not shipped:
        return None
    k = len(names & shipped)
    return (k, len(names)) if k > EDITED_SHARE * len(names) else None


def run_copy(manifest: dict, run_dir: Path | None, digest: str | None) -> Path | None:
    """The run folder's own copy of the card list with this sha256 (config.card_files), when it is here."""
    if run_dir is None or not digest:
        return None
    for f in (manifest.get("config") or {}).get("card_files") or []:
        if isinstance(f, dict) and f.get("sha256") == digest and f.get("file"):
            path = Path(run_dir) / str(f["file"])
            return path if path.is_file() else None
    return None


def _note_from_block(block: dict, names: tuple[str, ...]) -> CardListNote:
    path = Path(str(block.get("path") or block.get("file") or ""))
    digest = block.get("sha256")
    here = path.is_file() if str(path) else None
    if here is False and block.get("shipped"):
        here = None  # the game's own file, installed elsewhere on this machine: not "missing"
    same = None
    if here and digest and len(str(digest)) == 64:
        same = _sha256_of(path) == digest
    return CardListNote(names, str(block.get("file") or path), digest, bool(block.get("shipped")),
                        bool(block.get("reconstruction")), here, same)


def _derive(game: str, params: dict, names: tuple[str, ...], hash_: str | None) -> CardListNote | None:
    """A manifest from before the card_list record: the cards parameter and hash it recorded (the game's
    data never loaded: a report is made from the run folder alone)."""
    cards_param = params.get("cards") if isinstance(params, dict) else None
    if cards_param:  # a designer's file
        path = Path(str(cards_param))
        here = path.is_file()
        same = None
        if here and hash_ and hash_ != "none":
            d = _sha256_of(path)
            same = None if d is None else (d.startswith(hash_) or None)
        return CardListNote(names, str(cards_param), hash_, False, False, here, same)
    if reconstructed(game) and (cards_param == "" or cards_param is None):
        shipped = _game_cards_file(game)
        file = f"data/{game}/cards.toml"
        return CardListNote(names, file, hash_, True, True, shipped.is_file() if shipped else None, None)
    return None


def card_lists(manifest: dict, spec=None, run_dir: Path | None = None) -> list[CardListNote]:
    """One note per distinct card list the run's variants played (none for a game without cards), from
    the manifest's card_list records (a manifest from before them: from its cards parameter and hash, the
    game's data never loaded: a report is made from the run folder alone); a designer's list of a
    reconstructed game is checked for being an edited copy of the reconstruction (`edited_from`), read
    from the run folder's own copy, else from the file where it was."""
    cfg = manifest.get("config") or {}
    game = cfg.get("game") or getattr(spec, "name", "")
    variants = cfg.get("variants") or [{"name": "base", "params": cfg.get("params") or {}}]
    found: dict[tuple, list] = {}
    for v in variants:
        name = str(v.get("name", "base"))
        params = v.get("params")
        if params is None:
            params = cfg.get("params") or {}
        block = v.get("card_list") or cfg.get("card_list")  # per variant, else the run's
        if isinstance(block, dict) and block.get("file"):
            note = _note_from_block(block, (name,))
        elif "card_list" in v or "card_list" in cfg:  # recorded as none: a game without a card list
            note = None
        else:  # a manifest from before the card_list record: what it does record, never the game's loader
            note = _derive(game, params, (name,), v.get("card_list_hash") or cfg.get("card_list_hash"))
        if note is None:
            continue
        key = (note.file, note.sha256, note.shipped, note.reconstruction)
        found.setdefault(key, [note, []])[1].append(name)
    out = []
    for n, names in found.values():
        edited = None
        if not n.reconstruction and not n.shipped:
            path = run_copy(manifest, run_dir, n.sha256)
            if path is None and n.here and n.same_content is not False:
                path = Path(n.file)
            edited = edited_from(game, path)
        out.append(CardListNote(tuple(names), n.file, n.sha256, n.shipped, n.reconstruction, n.here,
                                n.same_content, edited))
    return out


def card_lists_of(record, game: str) -> list[CardListNote]:
    """The card list a command without a run folder played (tune, campaign), from its result's `card_list`
    record (analysis.results.CardListRecord; None: a game without one), never the game's loader; checked
    for being an edited copy of the reconstruction like a run's (`edited_from`)."""
    if record is None:
        return []
    note = _note_from_block(record.model_dump() if hasattr(record, "model_dump") else dict(record), ("all",))
    edited = None
    if not note.reconstruction and not note.shipped and note.here and note.same_content is not False:
        edited = edited_from(game, Path(note.file))
    return [CardListNote(note.variants, note.file, note.sha256, note.shipped, note.reconstruction, note.here,
                         note.same_content, edited)]


def card_banner(notes: list[CardListNote], n_variants: int = 1, title: str = "", subject: str = "This run",
                at: str = "at") -> list[str]:
    """The banner(s) at the top of every report of a run that plays invented cards (the shipped
    reconstruction or an edited copy of it), or whose designer's file is not on this machine. `subject`
    and `at` word a report of several runs ("This comparison", "side": "(side B)")."""
    out = []
    for n in notes:
        if not n.invented:
            continue
        where = "" if len(n.variants) >= n_variants else f" ({at} {', '.join(n.variants)})"
        game = f" of {title}" if title else ""
        if n.reconstruction:
            cli = game_named(title) or "G"
            out.append(f"{BANNER} ({n.file}). {subject} plays the reconstructed card list{game}{where}, built from "
                       f"the cards the rulebook names, not the published deck: every card name and card figure "
                       f"below is about invented cards, and the headline figures depend on them. Write the list out "
                       f"with `balance cards export --game {cli} FILE` (TOML or CSV), type in the printed cards and run it "
                       f"with --set cards=FILE.")
        else:
            k, m = n.edited
            out.append(f"Mostly invented cards: {subject.lower()} plays {n.file}{where}, an edited copy of the reconstructed card "
                       f"list{game}: {k} of its {m} card names are the reconstruction's invented cards (a list "
                       f"counts as an edited copy when more than half of its card names are), so most card names "
                       f"and card figures below are still about invented cards, not the printed ones.")
    for n in notes:
        if n.here is False and not n.invented:
            out.append(f"The card list this run played ({n.file}, hash {n.hash}) is not on this machine; the report "
                       f"is built from the run folder alone and names the list by its hash.")
        elif n.same_content is False:
            out.append(f"The card list {n.file} on this machine differs from the one this run played (hash {n.hash}).")
    return out


# ---------------------------------------------------------------- settings changed from the defaults


@dataclass(frozen=True)
class Change:
    name: str
    value: Any
    default: Any

    def words(self) -> str:
        return f"{self.name}={fmt.value(self.value)}"

    def long_words(self) -> str:
        if self.name == "level":
            return f"level {fmt.value(self.value)} " + ("(the default level)" if self.is_default else
                                                        f"(default {fmt.value(self.default)})")
        return f"{self.name}={fmt.value(self.value)} (default {fmt.value(self.default)})"

    @property
    def is_default(self) -> bool:
        return _same(self.value, self.default)


def _defaults(spec, level=None) -> dict:
    if spec is None:
        return {}
    try:
        from balance.simcore.params import resolve

        return resolve(spec, {"level": level} if level is not None else {})
    except Exception:  # noqa: BLE001
        try:
            return {p.name: p.default for p in spec.params}
        except Exception:  # noqa: BLE001
            return {}


def _same(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    if a in ("", None) and b in ("", None):
        return True
    return a == b


def rule_changes(params: dict | None, spec) -> list[Change]:
    """The rule parameters that differ from the game's defaults. With levels, the
    level first, always (a figure means nothing without its level; `is_default`
    says whether it is the default one), the rest against that level's own
    defaults (so level 4's table values do not read as changes)."""
    if not params or spec is None:
        return []
    base = _defaults(spec)
    out = []
    level = params.get("level")
    if "level" in base and level is not None:
        out.append(Change("level", level, base["level"]))
        base = _defaults(spec, level)
    for k, v in params.items():
        if k == "level" or k not in base:
            continue
        if not _same(v, base[k]):
            out.append(Change(k, v, base[k]))
    return out


DEFAULT_POLICY = "greedy"


@dataclass(frozen=True)
class SeatPolicy:
    seat: int
    name: str
    changed: tuple[Change, ...]  # its parameters that differ from the policy's defaults
    help: str
    values: tuple[Change, ...] = ()  # every parameter the policy declares, by name, as the run played it

    def words(self) -> str:
        return self.name + (f" ({', '.join(c.words() for c in self.changed)})" if self.changed else "")

    def all_words(self) -> str:
        """'greedy: epsilon=0, w_one=2 (default 1.5), ...': every declared parameter by name (the run's
        record is a vector of slots; the game's declarations name them), the changed ones with their default."""
        if not self.values:
            return self.name
        return f"{self.name}: " + ", ".join(c.long_words() if not c.is_default else c.words() for c in self.values)


def seat_policies(policies: list | None, spec, players: int | None = None) -> list[SeatPolicy]:
    """One per seat (a run records one policy for every seat when all seats play it)."""
    policies = list(policies or [])
    if len(policies) == 1 and players and players > 1:
        policies = policies * int(players)
    out = []
    for i, p in enumerate(policies):
        if not isinstance(p, dict):
            out.append(SeatPolicy(i, str(p), (), ""))
            continue
        name = str(p.get("name", "?"))
        vec = p.get("params") or []
        ps = spec.policy(name) if spec is not None and hasattr(spec, "policy") else None
        values = tuple(Change(q.name, vec[q.slot], q.default) for q in (ps.params if ps is not None else ())
                       if q.slot < len(vec))
        changed = tuple(c for c in values if not _same(c.value, c.default))
        out.append(SeatPolicy(i, name, changed, ps.help if ps is not None else "", values))
    return out


def policy_rows(policies: list | None, spec, players: int | None = None) -> str:
    """The run's policies for a provenance table, each parameter by its name (never the slot vector):
    'every seat greedy: epsilon=0, ...' or one entry a seat when they differ."""
    seats = seat_policies(policies, spec, players)
    if not seats:
        return "–"
    if len({s.all_words() for s in seats}) == 1:
        return ("every seat " if len(seats) > 1 else "") + seats[0].all_words()
    return "; ".join(f"seat {s.seat + 1} {s.all_words()}" for s in seats)


def policy_changes(seats: list[SeatPolicy]) -> list[str]:
    """Seats whose policy is not the default (greedy at its defaults), in words."""
    odd = [s for s in seats if s.name != DEFAULT_POLICY or s.changed]
    if not odd:
        return []
    if len({s.words() for s in seats}) == 1:
        return [f"every seat {seats[0].words()}" if len(seats) > 1 else seats[0].words()]
    return [f"seat {s.seat + 1} {s.words()}" for s in seats]


def settings_words(changes: list[Change], seats: list[SeatPolicy]) -> str:
    """'level 4, ready_pizzas=3, every seat random' — for a title; '' when everything is at its default."""
    bits = [f"level {fmt.value(c.value)}" if c.name == "level" else c.words() for c in changes]
    return ", ".join(bits + policy_changes(seats))


def settings_sentence(changes: list[Change], seats: list[SeatPolicy], scope: str = "") -> str:
    pols = policy_changes(seats)
    level = next((c for c in changes if c.name == "level"), None)
    rest = [c for c in changes if c.name != "level"]
    if not rest and not pols and (level is None or level.is_default):
        lv = f"{level.long_words()}, " if level is not None else ""
        return (f"Settings{scope}: the game's defaults ({lv}every rule parameter at its default, "
                f"greedy at every seat).")
    head = f"{level.long_words()}; " if level is not None else ""
    of = "that level's defaults" if level is not None else "the defaults"
    rules = (f"changed from {of}: " + "; ".join(c.long_words() for c in rest)) if rest else \
        "every other rule parameter at its default" if level is not None else "every rule parameter at its default"
    tail = f"; policies: {', '.join(pols)}" if pols else ""
    return f"Settings{scope}: {head}{rules}{tail}."


# ---------------------------------------------------------------- whom it is about

PLAIN = {
    "random": "random legal moves (a floor, not a player)",
    "greedy": "the game's scripted rule-of-thumb player (it judges each move on its own, without searching ahead)",
    "lookahead": "greedy checked by Monte Carlo rollouts of each option",
    "expert": "a careful player: search over the deals its seat cannot tell apart",
    "oracle": "an open-hand search: the expert's search told the hidden cards (not a player, and not an upper "
              "bound: a longer search can do better)",
}


def plain_policy(s: SeatPolicy) -> str:
    base = PLAIN.get(s.name)
    if base is None:
        base = "your own policy" if ".py:" in s.name else (s.help.split(";")[0] if s.help else "a policy")
    eps = next((c for c in s.changed if c.name == "epsilon"), None)
    if eps is not None and isinstance(eps.value, (int, float)) and eps.value > 0:
        base += f", with {fmt.pct(eps.value)} of its moves random (a weaker player)"
    others = [c for c in s.changed if c.name != "epsilon"]
    if others:
        base += f", with {', '.join(c.words() for c in others)}"
    return base


def _who(seats: list[SeatPolicy], cooperative: bool) -> str:
    if not seats:
        return "The figures are about the policy recorded in the run folder."
    if len({s.words() for s in seats}) == 1:
        s = seats[0]
        who = ("The player" if len(seats) == 1 else "The team: every seat" if cooperative else "Every seat")
        verb = "is" if len(seats) == 1 else "plays"
        return f"{who} {verb} {s.words()}, {plain_policy(s)}."
    return "; ".join(f"{'S' if i == 0 else 's'}eat {s.seat + 1} plays {s.words()}, {plain_policy(s)}"
                     for i, s in enumerate(seats)) + "."


def _matches(ladder: dict, game: str, players, params: dict, engine: str | None = None) -> bool:
    if ladder.get("game") not in (None, game):
        return False
    if engine and ladder.get("engine_hash") and ladder["engine_hash"] != engine:
        return False
    if ladder.get("players") is not None and players is not None and int(ladder["players"]) != int(players):
        return False
    for k, v in (ladder.get("params") or {}).items():
        if k in (params or {}) and not _same(params[k], v):
            return False
        if k not in (params or {}):
            return False
    return isinstance(ladder.get("policies"), list)


_LADDER_MAX_BYTES = 4 * 2**20


@functools.cache
def _run_folder_copy():
    """LadderFile as a run folder's copy of it is read: the same schema, its own way to recover."""
    from balance.analysis.ladder_result import LadderFile

    class RunFolderCopy(LadderFile):
        @classmethod
        def recover(cls, path: Path, data: dict | None) -> str:
            return ("it is a copy of a ladder folder's ladder.json: copy it again from there (`balance report "
                    "LADDER_FOLDER` makes that one anew), or remove it from the run folder")

    return RunFolderCopy


def _read(path: Path, own: bool = False) -> list[dict] | None:
    """A ladder.json's ladders (as the hook's dicts, each with the file's engine_hash), read through its schema
    (analysis.ladder_result.LadderFile); None for a file that is absent. A nearby file that is older, damaged
    or too big is passed over: it never fails a report (`balance report LADDER_FOLDER` makes an older one
    again). The run folder's `own` copy is part of the run folder: such a copy is refused (BalanceError),
    never dropped in silence."""
    from balance.analysis.ladder_result import LadderFile
    from balance.simcore.errors import BalanceError

    RunFolderCopy = _run_folder_copy()
    try:
        if not path.is_file():
            return None
        if path.stat().st_size > _LADDER_MAX_BYTES:
            if own:
                raise BalanceError(f"{path}: larger than {_LADDER_MAX_BYTES // 2**20} MiB, not a ladder.json; "
                                   + RunFolderCopy.recover(path, None))
            return None
        lf = (RunFolderCopy if own else LadderFile).read(path)
    except OSError as exc:
        if own:
            raise BalanceError(f"{path}: not readable ({exc.strerror or exc.__class__.__name__}); "
                               + RunFolderCopy.recover(path, None)) from None
        return None
    except BalanceError:
        if own:
            raise
        return None
    return [{"engine_hash": lf.engine_hash, **lad.model_dump()} for lad in lf.settings]


def find_ladder(run_dir: Path | None, game: str, players, params: dict,
                engine: str | None = None) -> tuple[dict, str] | None:
    """The skill ladder for this game and setting (and, given `engine`, the run's engine_hash), and where
    it was found (module docstring)."""
    if run_dir is None:
        return None
    run_dir = Path(run_dir)
    candidates = [run_dir / "ladder.json", run_dir.parent / "ladder.json"]
    try:
        candidates += sorted(p / "ladder.json" for p in run_dir.parent.iterdir() if p.is_dir() and p != run_dir)
    except OSError:
        pass
    for path in candidates:
        blocks = _read(path, own=path == candidates[0])
        if blocks is None:
            continue
        where = "ladder.json in the run folder" if path.parent == run_dir else str(path)
        for block in blocks:
            if _matches(block, game, players, params, engine):
                return block, where
    return None


def _entry_for(ladder: dict, s: SeatPolicy) -> dict | None:
    mine = {c.name: c.value for c in s.changed}
    for e in ladder.get("policies") or []:
        if e.get("name") != s.name:
            continue
        want = e.get("params") or {}
        if all(_same(mine.get(k, _policy_default(s, k)), v) for k, v in want.items()) and \
                all(k in want for k in mine):
            return e
    return None


def _policy_default(s: SeatPolicy, name: str):
    return next((c.default for c in s.changed if c.name == name), 0.0 if name == "epsilon" else None)


def _label(e: dict) -> str:
    return str(e.get("label") or e.get("name"))


def _value_words(e: dict) -> str:
    return f"{fmt.pct(e.get('value'))} {fmt.ci_pct(e.get('ci'))}"


def _difference(mine: dict, best: dict, ladder: dict) -> dict | None:
    vs = (best.get("vs") or {}).get(_label(mine)) or (best.get("vs") or {}).get(mine.get("name"))
    if isinstance(vs, dict) and vs.get("diff") is not None:
        return {"diff": vs["diff"], "ci": vs.get("ci") or [None, None], "paired": True}
    try:
        from balance.analysis.stats import two_proportions

        n1, n2 = int(mine["n"]), int(best["n"])
        d = two_proportions(round(mine["value"] * n1), n1, round(best["value"] * n2), n2)
        return {"diff": d["diff"], "ci": d["ci"], "paired": False}
    except Exception:  # noqa: BLE001  (an entry without n or value)
        return None


def about_sentences(seats: list[SeatPolicy], cooperative: bool, ladder: tuple[dict, str] | None) -> list[str]:
    """Whom the figures are about (issue 22): each seat's policy in plain words,
    where it stands on the skill ladder when one exists, and whether stronger
    play would move the headline; with no ladder, no claim either way."""
    out = [_who(seats, cooperative)]
    names = list(dict.fromkeys(s.name for s in seats)) or ["these"]
    if ladder is None:
        who = " and ".join(names)
        out.append(f"These figures are what {who} players get; stronger play may differ (no skill ladder has been "
                   f"measured for this game and setting: `balance ladder` measures one).")
        return out
    data, where = ladder
    metric = data.get("metric") or "win rate"
    entries = [e for e in data.get("policies") or [] if isinstance(e, dict)]
    if "among greedy" in metric and sum(1 for s in seats if s.name != "greedy") > 1:
        out.append(f"The skill ladder ({where}) measured one seat among greedy seats; this table seats "
                   f"{' and '.join(names)}, so no standing from it is quoted here.")
        return out
    seen = set()
    for s in seats:
        if s.words() in seen:
            continue
        seen.add(s.words())
        mine = _entry_for(data, s)
        if mine is None:
            out.append(f"The skill ladder for this setting ({where}) does not include {s.words()}; these figures are "
                       f"what {s.words()} players get, and stronger play may differ.")
            continue
        real = [e for e in entries if not e.get("bound") and isinstance(e.get("value"), (int, float))]
        ranked = sorted(real, key=lambda e: -e["value"])
        rank = next((i for i, e in enumerate(ranked) if e is mine), None)
        others = "; ".join(f"{_label(e)} {_value_words(e)}" + (" (open-hand search)" if e.get("bound") else "")
                           for e in entries if e is not mine)
        place = f"{rank + 1} of {len(ranked)}" if rank is not None else "–"
        out.append(f"On the skill ladder for this game and setting ({where}{', same deals' if data.get('paired') else ''}), "
                   f"{_label(mine)} has a {metric} of {_value_words(mine)} (n = {fmt.int_(mine.get('n'))}), place "
                   f"{place} among the real players" + (f"; {others}" if others else "") + ".")
        stronger = [e for e in real if e is not mine and e["value"] > (mine.get("value") or 0)]
        if not stronger:  # none above on its point estimate: say so from the nearest rung's interval
            below = [e for e in real if e is not mine]
            near = max(below, key=lambda e: e["value"]) if below else None
            d = _difference(mine, near, data) if near is not None else None
            if d is None or d["ci"][0] is None:
                out.append(f"No policy on the ladder is measured above {_label(mine)} (no interval to compare with).")
            else:
                out.append(f"No policy on the ladder is shown to do better than {_label(mine)}: the nearest, "
                           f"{_label(near)}, gets {fmt.diff(-d['diff'], [-d['ci'][1], -d['ci'][0]])} against it"
                           f"{' on the same deals' if d['paired'] else ''}.")
            continue
        best = max(stronger, key=lambda e: e["value"])
        d = _difference(mine, best, data)
        if d is None or d["ci"][0] is None:
            out.append(f"{_label(best)} does better ({_value_words(best)}); how much the headline would move is not "
                       f"measured with an interval.")
        elif d["ci"][0] > 0 and d["diff"] >= MOVES_A_LOT:
            out.append(f"The headline would move a lot with stronger play: {_label(best)} gets {fmt.diff(d['diff'], d['ci'])} "
                       f"more than {_label(mine)}{' on the same deals' if d['paired'] else ''}, so read these figures as "
                       f"what {_label(mine)} players get, not as a property of the game.")
        elif d["ci"][0] > 0:
            out.append(f"Stronger play moves the headline a little: {_label(best)} gets {fmt.diff(d['diff'], d['ci'])} "
                       f"more than {_label(mine)}.")
        else:
            out.append(f"The ladder finds no significant difference with stronger play ({_label(best)}: "
                       f"{fmt.diff(d['diff'], d['ci'])}).")
    return out


# ---------------------------------------------------------------- fair share of the seats


@dataclass(frozen=True)
class FairShare:
    value: float
    source: str  # how it was obtained, in words
    seat_rates_sum: float | None  # the seats' win rates added up
    shared: bool  # wins are shared (the seat rates add to more than the games won)
    words: list[str] = field(default_factory=list)


def fair_share(s: "Games") -> FairShare | None:
    """A seat's fair share of wins, as the analysis wrote it (summary.json's `fair_share`, analysis.stats.fair_share:
    it accounts for shared wins), with whether wins are shared; None for a game without seats to compare."""
    if s.fair_share is None:
        return None
    total = s.shared_wins.seat_rates_sum if s.shared_wins is not None else None
    shared = bool(total is not None and s.win_rate is not None and total > s.win_rate + 1e-9)
    return FairShare(s.fair_share, "summary.json's fair share", total, shared)


def fair_share_words(f: FairShare) -> str:
    out = (f"A seat's fair share is {fmt.pct(f.value)}: what every seat would win if the seats were equal "
           f"({f.source}).")
    if f.shared and f.seat_rates_sum is not None:
        out += (f" Wins are shared in some games, so the seats' win rates add up to {fmt.pct(f.seat_rates_sum)}"
                + (", more than 100%." if f.seat_rates_sum > 1 + 1e-9 else ", more than the share of games won."))
    return out
