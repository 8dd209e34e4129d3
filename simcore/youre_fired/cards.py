"""Load and validate the card list and rules, compile them into tables.

`tables = (cards, rules)`: `cards` is int64 (n_cards, CF_WIDTH), one row per
card type (company cards first, then consultants); `rules` is int64 (R_WIDTH).
Every error raises BalanceError naming the file, the card and the field.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import numpy as np

from ..errors import BalanceError
from ..spec import DATA_DIR, Param, cards_param
from . import constants as K

GAME_DIR = DATA_DIR / "youre-fired"
CARDS_FILE = GAME_DIR / "cards.toml"
RULES_FILE = GAME_DIR / "rules.toml"

_CARD_FIELDS = {"name", "count", "effect", "n", "trigger", "text"}


def _rules_defaults() -> dict:
    with open(RULES_FILE, "rb") as f:
        return tomllib.load(f)


_D = _rules_defaults()

PARAMS = (
    Param("hand_size", "int", _D["hand_size"], "draw up to this many cards each turn", 1, 8),
    Param("start_hand", "int", _D["start_hand"], "cards in the starting hand", 1, 6),
    Param("redraw_hand", "int", _D["redraw_hand"], "cards drawn after a reshuffle of hand, deck and break room", 1, 6),
    Param("consultants_2p", "int", _D["consultants_2p"], "consultants dealt to each player with 2 players", 0, 2),
    Param("consultants_multi", "int", _D["consultants_multi"], "consultants dealt to each player with 3-4 players", 0, 1),
    Param("boss_reveal_at_deal", "bool", _D["boss_reveal_at_deal"],
          "a Boss in the starting hand is revealed, replaced by a 4th card and shuffled back"),
    Param("boss_reveal_on_redraw", "bool", _D["boss_reveal_on_redraw"],
          "the same Boss reveal on every 3-card redraw after a reshuffle"),
    Param("teams", "bool", _D["teams"], "4 players: the team variant (seats 1+3 against 2+4)"),
    Param("replace_fired", "bool", _D["replace_fired"], "a card fired from a hand is replaced at once by a draw"),
    Param("failed_firing_reshuffle", "bool", _D["failed_firing_reshuffle"],
          "a failed attempt to fire a Boss makes its owner reshuffle hand, break room and deck and draw anew"),
    Param("spouse_revives_boss_in_teams", "bool", _D["spouse_revives_boss_in_teams"],
          "team variant: the Boss's Spouse may bring back a fired Boss (rulebook: no)"),
    cards_param(CARDS_FILE),
)


def resolve_params(user: dict) -> dict:
    out = {p.name: p.default for p in PARAMS}
    for k, v in user.items():
        if k not in out:
            raise BalanceError(f"youre-fired: no parameter '{k}'; allowed: {', '.join(out)}")
        out[k] = v
    return out


def _bad(path: Path, card: str, field: str, why: str, allowed: str) -> BalanceError:
    return BalanceError(f"{path}: card '{card}', field '{field}': {why}; allowed: {allowed}")


def load_cards(path: Path | str = CARDS_FILE) -> list[dict]:
    """Validated card rows: dicts with name, kind, count, effect, n, trigger."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise BalanceError(f"{path}: card file does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise BalanceError(f"{path}: not a text file (not UTF-8); allowed: a TOML card list") from None
    except OSError as exc:
        raise BalanceError(f"{path}: cannot read the card file ({exc.strerror or exc})") from None
    extra = set(data) - {"company", "consultant"}
    if extra:
        raise BalanceError(f"{path}: unknown section(s) {sorted(extra)}; allowed: company, consultant")
    rows: list[dict] = []
    names = set()
    for section, kind in (("company", K.KIND_COMPANY), ("consultant", K.KIND_CONSULTANT)):
        for i, raw in enumerate(data.get(section, [])):
            name = raw.get("name")
            label = name if isinstance(name, str) and name else f"{section} #{i + 1}"
            if not isinstance(name, str) or not name.strip():
                raise _bad(path, label, "name", "missing or empty", "a non-empty string")
            if name in names:
                raise _bad(path, label, "name", "duplicate card name", "unique names")
            names.add(name)
            unknown = set(raw) - _CARD_FIELDS
            if unknown:
                f = sorted(unknown)[0]
                raise _bad(path, label, f, "unknown field", ", ".join(sorted(_CARD_FIELDS)))
            effect = raw.get("effect")
            if not isinstance(effect, str) or effect not in K.EFFECT_NAMES:
                raise _bad(path, label, "effect", f"unknown effect {effect!r}", ", ".join(K.EFFECT_NAMES))
            if kind == K.KIND_COMPANY:
                count = raw.get("count")
                if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 8:
                    raise _bad(path, label, "count", f"bad count {count!r}", "an integer in 1..8")
            else:
                count = raw.get("count", 1)
                if count != 1:
                    raise _bad(path, label, "count", f"bad count {count!r}", "1 (each consultant is unique)")
            if effect == "boss" and kind != K.KIND_COMPANY:
                raise _bad(path, label, "effect", "a consultant cannot be a Boss", "any effect but boss")
            n = raw.get("n")
            if effect in K.N_RANGE:
                lo, hi = K.N_RANGE[effect]
                if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
                    raise _bad(path, label, "n", f"bad value {n!r} for effect {effect}", f"an integer in {lo}..{hi}")
            elif n is not None:
                raise _bad(path, label, "n", f"effect {effect} takes no n", "omit n")
            trigger = raw.get("trigger")
            if effect in K.TRIGGERS:
                allowed = K.TRIGGERS[effect]
                if not isinstance(trigger, str) or trigger not in allowed:
                    raise _bad(path, label, "trigger", f"bad trigger {trigger!r} for effect {effect}", ", ".join(allowed))
                trig = allowed[trigger]
            elif trigger is not None:
                raise _bad(path, label, "trigger", f"effect {effect} takes no trigger", "omit trigger")
            else:
                trig = K.TRIG_NONE
            rows.append({"name": name, "kind": kind, "count": count, "effect": effect,
                         "n": n or 0, "trigger": trig, "text": raw.get("text", "")})
    bosses = [r for r in rows if r["effect"] == "boss"]
    if len(bosses) != 1 or bosses[0]["count"] != 1:
        raise BalanceError(f"{path}: card '{bosses[0]['name'] if bosses else 'Boss'}', field 'effect': "
                           f"the company needs exactly one card with effect boss and count 1; allowed: one Boss")
    company = sum(r["count"] for r in rows if r["kind"] == K.KIND_COMPANY)
    if company < 2 or company > 24:
        raise BalanceError(f"{path}: card '(company)', field 'count': {company} company cards in all; allowed: 2..24")
    if sum(1 for r in rows if r["kind"] == K.KIND_CONSULTANT) > 8:
        raise BalanceError(f"{path}: card '(consultant)', field 'name': more than 8 consultants; allowed: 0..8")
    return rows


def cards_file(params: dict | None, path: Path | str | None = None) -> Path:
    """The card list in use: an explicit path, `--set cards=FILE`, else the game's own."""
    return Path(path or (params or {}).get("cards") or CARDS_FILE)


def compile_tables(params: dict, path: Path | str | None = None) -> tuple:
    rows = load_cards(cards_file(params, path))
    cards = np.zeros((len(rows), K.CF_WIDTH), np.int64)
    for i, r in enumerate(rows):
        cards[i, K.CF_KIND] = r["kind"]
        cards[i, K.CF_COUNT] = r["count"]
        cards[i, K.CF_EFFECT] = K.EFFECT_NAMES[r["effect"]]
        cards[i, K.CF_N] = r["n"]
        cards[i, K.CF_TRIGGER] = r["trigger"]
        cards[i, K.CF_TARGETED] = 1 if r["effect"] in K.TARGETED_NAMES else 0
    p = resolve_params(params)
    rules = np.zeros(K.R_WIDTH, np.int64)
    rules[K.R_HAND] = p["hand_size"]
    rules[K.R_START_HAND] = p["start_hand"]
    rules[K.R_REDRAW_HAND] = p["redraw_hand"]
    rules[K.R_CONS_2P] = p["consultants_2p"]
    rules[K.R_CONS_MULTI] = p["consultants_multi"]
    rules[K.R_BOSS_REVEAL_DEAL] = int(p["boss_reveal_at_deal"])
    rules[K.R_BOSS_REVEAL_REDRAW] = int(p["boss_reveal_on_redraw"])
    rules[K.R_TEAMS] = int(p["teams"])
    rules[K.R_REPLACE_FIRED] = int(p["replace_fired"])
    rules[K.R_FAILED_FIRING_RESHUFFLE] = int(p["failed_firing_reshuffle"])
    rules[K.R_SPOUSE_BOSS_TEAMS] = int(p["spouse_revives_boss_in_teams"])
    rules[K.R_BOSS_ID] = next(i for i, r in enumerate(rows) if r["effect"] == "boss")
    rules[K.R_N_CONSULTANTS] = sum(1 for r in rows if r["kind"] == K.KIND_CONSULTANT)
    # with fewer consultants than the seats need, new_game deals what there is
    return (cards, rules)


def card_names(params: dict, path: Path | str | None = None) -> list[str]:
    return [r["name"] for r in load_cards(cards_file(params, path))]


def card_list_hash(params: dict, path: Path | str | None = None) -> str:
    h = hashlib.sha256()
    h.update(cards_file(params, path).read_bytes())
    h.update(json.dumps(resolve_params(params), sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]
