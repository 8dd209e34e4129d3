"""Load, validate and compile Overtime's data files into kernel tables.

Errors raise `BalanceError` naming the file, the card and the field, and the
allowed values. `compile_tables(resolved_params)` returns the tuple of numpy
arrays the kernels read: (rules, kinds, effects, inst_kind).
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import BalanceError
from ..spec import DATA_DIR, Param, cards_param
from . import constants as C

GAME_DIR = DATA_DIR / "overtime"
RULES_FILE = GAME_DIR / "rules.toml"
CARDS_FILE = GAME_DIR / "cards.toml"

OPCODES = {
    "work": C.OP_WORK,
    "tokens": C.OP_TOKENS,
    "snooze": C.OP_SNOOZE,
    "draw": C.OP_DRAW,
    "take_discard": C.OP_TAKE_DISCARD,
    "cancel": C.OP_CANCEL,
    "copy": C.OP_COPY,
    "give_assignment": C.OP_GIVE_ASSIGNMENT,
    "take_assignment": C.OP_TAKE_ASSIGNMENT,
    "skip_turn": C.OP_SKIP_TURN,
    "discard_work": C.OP_DISCARD_WORK,
    "discard_snooze": C.OP_DISCARD_SNOOZE,
    "work_bonus": C.OP_WORK_BONUS,
    "snooze_shield": C.OP_SNOOZE_SHIELD,
}
PASSIVE_OPS = {"work_bonus", "snooze_shield"}
NEEDS_N = {"work", "tokens", "snooze", "draw", "take_discard", "work_bonus", "snooze_shield"}
NEEDS_WHO = {"snooze", "draw", "give_assignment", "take_assignment", "skip_turn", "discard_work", "discard_snooze"}
NEEDS_TYPES = {"take_discard", "cancel"}
WHO = {
    "self": C.W_SELF, "another": C.W_ANOTHER, "any": C.W_ANY, "all": C.W_ALL, "others": C.W_OTHERS,
    "target_owner": C.W_TARGET_OWNER, "least_assignments": C.W_LEAST_ASSIGNMENTS, "current": C.W_CURRENT,
}
REACTION_ONLY_WHO = {"target_owner"}
ABILITIES = {"none": C.AB_NONE, "action": C.AB_ACTION, "reaction": C.AB_REACTION, "passive": C.AB_PASSIVE}
REACT_BY = {"other": C.RB_OTHER, "any": C.RB_ANY}
CARD_FIELDS = {"name", "type", "count", "text", "effects", "react_to", "react_by", "stats", "tiredness_shift",
               "ability", "ability_effects", "ability_uses_per_round", "ability_react_to", "ability_react_by", "flavor"}

PARAMS = (
    Param("rounds", "int", 8, "rounds before everybody loses (Round tracker)", 1, C.MAX_ROUNDS),
    Param("snooze_thresholds", "ints", [4, 7, 10],
          "Average Joe's tiredness ratings: snooze counts where levels 4-6, 7-9 and 10+ start (increasing)",
          1, 40, length=3),
    Param("tired_productiveness_penalty", "ints", [1, 2], "Productiveness lost at the two tired levels", 0, 6, length=2),
    Param("work_die_targets", "ints", [3, 5, 5],
          "Work die roll needed to play a W card at tired levels 1, 2 and 10+ (outside your turn)", 1, 7, length=3),
    Param("work_die_sides", "int", 6, "sides of the Work die", 2, 20),
    Param("time_snooze", "ints", [0, 1, 1, 1, 1, 2, 2, 2],
          "Time card: snooze each player gains at the start of round r (round 1 skipped; last value repeats)", 0, 10),
    Param("starting_snooze", "int", 1, "snooze tokens dealt at setup", 0, 20),
    Param("starting_hand", "int", 4, "cards dealt from the Main deck at setup", 0, 15),
    Param("skip_turn_draw", "int", 2, "cards drawn by a player who skips their turn", 0, 10),
    Param("exhaustion_skips_turn", "bool", True,
          "10+ snooze counts as 'skip your turn' (draw skip_turn_draw); false: the turn just ends"),
    Param("first_employee_free", "bool", True, "an E card played as the first action of a turn costs no action"),
    Param("joe_productiveness", "int", 3, "Average Joe/Joanna Productiveness (actions per turn)", 0, 10),
    Param("joe_laziness", "int", 2, "Average Joe/Joanna Laziness (cards drawn per turn)", 0, 10),
    Param("joe_determination", "int", 5, "Average Joe/Joanna Determination (hand size kept)", 0, 20),
    cards_param(CARDS_FILE),
)


def _err(file: Path, where: str, field: str, msg: str, allowed: str) -> BalanceError:
    extra = f"; allowed: {allowed}" if allowed else ""
    return BalanceError(f"{file.name}: {where}, field '{field}': {msg}{extra}")


def _load_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise BalanceError(f"{path}: file does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{path.name}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise BalanceError(f"{path.name}: not a text file (not UTF-8); allowed: a TOML file") from None
    except OSError as exc:
        raise BalanceError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def rule_defaults() -> dict:
    data = _load_toml(RULES_FILE)
    from ..params import coerce

    known = {p.name: p for p in PARAMS}
    out = {p.name: p.default for p in PARAMS}
    for k, v in data.items():
        if k not in known:
            raise _err(RULES_FILE, "rules", k, "unknown parameter", ", ".join(known))
        out[k] = coerce(known[k], v, RULES_FILE.name)
    return out


def resolve_params(user: dict) -> dict:
    """Defaults from rules.toml, then the user's values; checks across values."""
    out = rule_defaults()
    out.update(user)
    t = list(out["snooze_thresholds"])
    if not (t[0] < t[1] < t[2]):
        raise BalanceError(f"--set: snooze_thresholds={','.join(map(str, t))} is not allowed (must be increasing); "
                           "allowed: 3 increasing integers in 1..40, e.g. 4,7,10")
    if not out["time_snooze"]:
        raise BalanceError("--set: time_snooze needs at least one value; allowed: integers in 0..10")
    for d in out["work_die_targets"]:
        if d > out["work_die_sides"] + 1:
            raise BalanceError(f"--set: work_die_targets={out['work_die_targets']} exceed the die "
                               f"(work_die_sides={out['work_die_sides']}); allowed: 1..{out['work_die_sides'] + 1}")
    return out


def _types(file, where, field, raw) -> int:
    if not isinstance(raw, str) or not raw.strip():
        raise _err(file, where, field, f"{raw!r} is not a card type", "W, R, E, S, B or duals such as S/W, or a list W,R")
    mask = 0
    for part in raw.replace("/", ",").split(","):
        part = part.strip().upper()
        if part not in C.TYPE_BITS or part == "A":
            raise _err(file, where, field, f"unknown card type '{part}'", "W, R, E, S, B (duals as S/W)")
        mask |= C.TYPE_BITS[part]
    return mask


def _effects(file, where, field, raw, passive_ok: bool, reaction: bool) -> list[tuple[int, int, int, int]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _err(file, where, field, "must be a list of {op = ..., ...} tables", "a list such as [{op = \"work\", n = 2}]")
    if len(raw) > C.MAX_EFF:
        raise _err(file, where, field, f"{len(raw)} effects is too many", f"at most {C.MAX_EFF} effects")
    out = []
    for i, e in enumerate(raw):
        f = f"{field}[{i}]"
        if not isinstance(e, dict) or "op" not in e:
            raise _err(file, where, f, "each effect is a table with an 'op'", ", ".join(OPCODES))
        op = e["op"]
        if not isinstance(op, str) or op not in OPCODES:
            raise _err(file, where, f + ".op", f"unknown opcode '{op}'", ", ".join(OPCODES))
        if (op in PASSIVE_OPS) != passive_ok:
            allowed = ", ".join(PASSIVE_OPS) if passive_ok else ", ".join(k for k in OPCODES if k not in PASSIVE_OPS)
            raise _err(file, where, f + ".op", f"'{op}' is not allowed here", allowed)
        for k in e:
            if k not in ("op", "n", "who", "types"):
                raise _err(file, where, f + "." + k, "unknown effect field", "op, n, who, types")
        n = e.get("n", 0)
        if op in NEEDS_N:
            if not isinstance(n, int) or isinstance(n, bool) or not (-20 <= n <= 20) or (n <= 0 and op != "snooze"):
                raise _err(file, where, f + ".n", f"{n!r} is not allowed for '{op}'",
                           "an integer in -20..20 (snooze) or 1..20")
        who = e.get("who", "self")
        if op in NEEDS_WHO or "who" in e:
            if not isinstance(who, str) or who not in WHO:
                raise _err(file, where, f + ".who", f"unknown player '{who}'", ", ".join(WHO))
            if who in REACTION_ONLY_WHO and not reaction:
                raise _err(file, where, f + ".who", f"'{who}' needs a card reacted to (a reaction)",
                           ", ".join(k for k in WHO if k not in REACTION_ONLY_WHO))
        if op in ("cancel", "copy") and not reaction:
            raise _err(file, where, f + ".op", f"'{op}' needs a card reacted to", "give the card a react_to, or another opcode")
        mask = 0
        if op in NEEDS_TYPES:
            mask = _types(file, where, f + ".types", e.get("types", "W,R,E,S,B"))
        out.append((OPCODES[op], int(n), WHO[who], mask))
    return out


def _target(effects) -> int:
    t = C.TG_NONE
    for op, n, who, mask in effects:
        if op == C.OP_WORK:
            t = C.TG_ASSIGNMENT
    for op, n, who, mask in effects:
        if op in (C.OP_SNOOZE, C.OP_DRAW, C.OP_GIVE_ASSIGNMENT, C.OP_TAKE_ASSIGNMENT, C.OP_SKIP_TURN,
                  C.OP_DISCARD_WORK, C.OP_DISCARD_SNOOZE) and who in (C.W_ANOTHER, C.W_ANY):
            if t == C.TG_ASSIGNMENT:
                return -1
            t = C.TG_ANOTHER if who == C.W_ANOTHER else C.TG_ANY
    return t


def _load_cards(path_s: str) -> dict:
    """The validated card list of a file, parsed again whenever its content changes."""
    try:
        digest = hashlib.sha256(Path(path_s).read_bytes()).hexdigest()
    except OSError:
        digest = ""  # _parse_cards reports the missing or unreadable file
    return _parse_cards(path_s, digest)


@lru_cache(maxsize=8)
def _parse_cards(path_s: str, digest: str) -> dict:
    path = Path(path_s)
    data = _load_toml(path)
    for k in data:
        if k not in ("assignment", "starting_employee", "card"):
            raise _err(path, "top level", k, "unknown section", "assignment, starting_employee, card")
    assigns = data.get("assignment", [])
    if len(assigns) < 1:
        raise _err(path, "assignment", "assignment", "no [[assignment]] entries", "at least one [[assignment]] with name and tasks")
    copies = None
    for i, a in enumerate(assigns):
        where = f"assignment '{a.get('name', i)}'"
        if not isinstance(a.get("name"), str):
            raise _err(path, where, "name", "missing or not text", "a non-empty text name")
        t = a.get("tasks")
        if not isinstance(t, int) or not (1 <= t <= 30):
            raise _err(path, where, "tasks", f"{t!r} is not allowed", "an integer in 1..30")
        c = a.get("copies", 6)
        if not isinstance(c, int) or not (C.PMAX <= c <= 20):
            raise _err(path, where, "copies", f"{c!r} is not allowed", f"an integer in {C.PMAX}..20 (one per player)")
        if copies is not None and c != copies:
            raise _err(path, where, "copies", f"{c} differs from the other assignments", f"the same copies for every assignment kind ({copies})")
        copies = c
        for k in a:
            if k not in ("name", "tasks", "copies", "text", "flavor"):
                raise _err(path, where, k, "unknown field", "name, tasks, copies, text")
    joe = data.get("starting_employee")
    if not isinstance(joe, dict):
        raise _err(path, "starting_employee", "starting_employee", "missing or not a table", "a [starting_employee] table")
    cards = data.get("card", [])
    if not cards:
        raise _err(path, "card", "card", "no [[card]] entries", "at least one [[card]] with name, type and count")
    kinds = []
    names = set()
    for i, c in enumerate(cards):
        where = f"card '{c.get('name', f'#{i + 1}')}'"
        for k in c:
            if k not in CARD_FIELDS:
                raise _err(path, where, k, "unknown field", ", ".join(sorted(CARD_FIELDS)))
        if not isinstance(c.get("name"), str) or not c["name"]:
            raise _err(path, where, "name", "missing or not text", "a non-empty text name")
        if c["name"] in names:
            raise _err(path, where, "name", "duplicate card name", "a name no other card has")
        names.add(c["name"])
        kinds.append(_card(path, where, c, is_joe=False))
    kinds.append(_card(path, f"starting_employee '{joe.get('name', '?')}'", dict(joe, type="E"), is_joe=True))
    # the state has room for NINST_MAX card instances and NKINDS_MAX kinds (state.py)
    n_kinds = len(kinds) + len(assigns)
    if n_kinds > C.NKINDS_MAX:
        raise _err(path, "card", "card", f"{len(kinds) - 1} cards and {len(assigns)} assignments make "
                   f"{n_kinds} kinds (the starting employee included)", f"at most {C.NKINDS_MAX} kinds in all")
    n_inst = sum(k["count"] for k in kinds[:-1]) + len(assigns) * copies + joe.get("copies", C.PMAX)
    if n_inst > C.NINST_MAX:
        raise _err(path, "card", "count", f"the counts add up to {n_inst} cards (assignment copies and "
                   "starting employees included)", f"at most {C.NINST_MAX} cards in all")
    return {"cards": kinds, "assignments": [(a["name"], a["tasks"]) for a in assigns], "copies": copies,
            "joe_copies": joe.get("copies", C.PMAX)}


def _card(path, where, c, is_joe: bool) -> dict:
    type_mask = _types(path, where, "type", c.get("type"))
    count = c.get("copies" if is_joe else "count", 1)
    if not isinstance(count, int) or not (0 <= count <= 200) or (is_joe and count < C.PMAX):
        raise _err(path, where, "count", f"{count!r} is not allowed", "an integer in 0..200" if not is_joe else "6 or more")
    react_to = c.get("react_to")
    reaction = react_to is not None
    if reaction and not (type_mask & C.T_REACTION):
        raise _err(path, where, "react_to", "only S and B cards react", "give the card type S or B, or drop react_to")
    if not reaction and not (type_mask & C.T_ACTION):
        raise _err(path, where, "react_to", "an S or B card needs a react_to (what it reacts to)", "W, R, E, S, B lists or 'completed'")
    react_mask, react_event = _react(path, where, "react_to", react_to)
    react_by = c.get("react_by", "other")
    if not isinstance(react_by, str) or react_by not in REACT_BY:
        raise _err(path, where, "react_by", f"'{react_by}' is not allowed", ", ".join(REACT_BY))
    effects = _effects(path, where, "effects", c.get("effects"), False, reaction)
    target = _target(effects)
    if target < 0:
        raise _err(path, where, "effects", "a card can choose one target: an A card (work) or a player (another/any), not both", "effects with one kind of target")
    if reaction:
        target = C.TG_NONE  # reactions aim at the card reacted to; secondary choices follow fixed rules
    row = dict(name=c.get("name"), type=type_mask, count=count, react_mask=react_mask, react_event=react_event,
               react_by=REACT_BY[react_by], reaction=int(reaction), target=target, effects=effects,
               text=c.get("text", ""), stats=(0, 0, 0), shift=0, ability=C.AB_NONE, abil_uses=0,
               abil_react_mask=0, abil_react_event=0, abil_react_by=0, abil_effects=[], is_joe=is_joe)
    if type_mask & C.T_E:
        stats = c.get("stats", [0, 0, 0]) if not is_joe else [0, 0, 0]
        if (not is_joe) and (not isinstance(stats, list) or len(stats) != 3 or not all(isinstance(x, int) and 0 <= x <= 20 for x in stats)):
            raise _err(path, where, "stats", f"{stats!r} is not allowed", "[productiveness, laziness, determination], integers in 0..20")
        shift = c.get("tiredness_shift", 0)
        if not isinstance(shift, int) or not (-10 <= shift <= 20):
            raise _err(path, where, "tiredness_shift", f"{shift!r} is not allowed", "an integer in -10..20")
        ab = c.get("ability", "none")
        if not isinstance(ab, str) or ab not in ABILITIES:
            raise _err(path, where, "ability", f"'{ab}' is not allowed", ", ".join(ABILITIES))
        uses = c.get("ability_uses_per_round", 0)
        if not isinstance(uses, int) or not (0 <= uses <= 10):
            raise _err(path, where, "ability_uses_per_round", f"{uses!r} is not allowed", "an integer in 0..10 (0: unlimited)")
        ab_reaction = ab == "reaction"
        ar_mask, ar_event = _react(path, where, "ability_react_to", c.get("ability_react_to")) if ab_reaction else (0, 0)
        if ab_reaction and c.get("ability_react_to") is None:
            raise _err(path, where, "ability_react_to", "a reaction ability needs what it reacts to", "W, R, E, S, B lists or 'completed'")
        ar_by = c.get("ability_react_by", "other")
        if not isinstance(ar_by, str) or ar_by not in REACT_BY:
            raise _err(path, where, "ability_react_by", f"'{ar_by}' is not allowed", ", ".join(REACT_BY))
        abil_eff = _effects(path, where, "ability_effects", c.get("ability_effects"), ab == "passive", ab_reaction)
        if ab == "action":
            for op, n, who, mask in abil_eff:
                if op == C.OP_WORK or who in (C.W_ANOTHER, C.W_ANY):
                    raise _err(path, where, "ability_effects", "action abilities choose no target (no work, another or any)",
                               "take_discard, draw, snooze self/all/others, tokens, ...")
        if ab != "none" and not abil_eff:
            raise _err(path, where, "ability_effects", f"an '{ab}' ability needs effects", "a list such as [{op = \"draw\", n = 1, who = \"self\"}]")
        row.update(stats=tuple(stats), shift=shift, ability=ABILITIES[ab], abil_uses=uses, abil_react_mask=ar_mask,
                   abil_react_event=ar_event, abil_react_by=REACT_BY[ar_by], abil_effects=abil_eff)
    elif any(k in c for k in ("stats", "ability", "ability_effects")):
        raise _err(path, where, "stats" if "stats" in c else "ability", "only E cards have stats and abilities", "type E, or drop the field")
    return row


def _react(path, where, field, raw) -> tuple[int, int]:
    if raw is None:
        return 0, 0
    if raw == "completed":
        return 0, C.RE_COMPLETED
    return _types(path, where, field, raw), C.RE_CARD


def cards_file(params: dict | None = None) -> Path:
    """The card list in use: `--set cards=FILE`, else the game's own."""
    return Path((params or {}).get("cards") or CARDS_FILE)


def cards_data(params: dict | None = None) -> dict:
    return _load_cards(str(cards_file(params)))


def card_names(params: dict | None = None) -> list[str]:
    d = cards_data(params)
    return [k["name"] for k in d["cards"][:-1]] + [a[0] for a in d["assignments"]] + [d["cards"][-1]["name"]]


def card_list_hash(params: dict) -> str:
    h = hashlib.sha256()
    h.update(cards_file(params).read_bytes())
    h.update(RULES_FILE.read_bytes())
    h.update(json.dumps(params, sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def compile_tables(params: dict) -> tuple:
    """(rules int64[NR], kinds int64[K, NKF], effects int64[K, 2*MAX_EFF, 4], inst_kind int64[N])."""
    p = resolve_params(dict(params))
    d = cards_data(p)
    main = d["cards"][:-1]
    joe = d["cards"][-1]
    n_main_kinds = len(main)
    n_akinds = len(d["assignments"])
    K = n_main_kinds + n_akinds + 1
    joe_kind = K - 1
    kinds = np.zeros((K, C.NKF), np.int64)
    eff = np.zeros((K, 2 * C.MAX_EFF, 4), np.int64)
    for k, row in enumerate(main + [joe]):
        kk = k if k < n_main_kinds else joe_kind
        kinds[kk, C.KF_TYPE] = row["type"]
        kinds[kk, C.KF_REACT_MASK] = row["react_mask"]
        kinds[kk, C.KF_REACT_EVENT] = row["react_event"]
        kinds[kk, C.KF_REACT_BY] = row["react_by"]
        kinds[kk, C.KF_IS_REACTION] = row["reaction"]
        kinds[kk, C.KF_TARGET] = row["target"]
        stats = row["stats"] if not row["is_joe"] else (p["joe_productiveness"], p["joe_laziness"], p["joe_determination"])
        kinds[kk, C.KF_P], kinds[kk, C.KF_L], kinds[kk, C.KF_D] = stats
        kinds[kk, C.KF_SHIFT] = row["shift"]
        kinds[kk, C.KF_ABIL] = row["ability"]
        kinds[kk, C.KF_ABIL_USES] = row["abil_uses"]
        kinds[kk, C.KF_ABIL_REACT_MASK] = row["abil_react_mask"]
        kinds[kk, C.KF_ABIL_REACT_EVENT] = row["abil_react_event"]
        kinds[kk, C.KF_ABIL_REACT_BY] = row["abil_react_by"]
        for j, e in enumerate(row["effects"]):
            eff[kk, j] = e
            if e[0] == C.OP_WORK:
                kinds[kk, C.KF_WORK] += e[1]
            if e[0] == C.OP_TOKENS:
                kinds[kk, C.KF_WORK] += e[1]
        for j, e in enumerate(row["abil_effects"]):
            eff[kk, C.MAX_EFF + j] = e
            if e[0] == C.OP_TAKE_DISCARD and row["ability"] == C.AB_ACTION:
                kinds[kk, C.KF_ABIL_TAKE_MASK] |= e[3]
    for j, (name, tasks) in enumerate(d["assignments"]):
        kinds[n_main_kinds + j, C.KF_TYPE] = C.T_A
        kinds[n_main_kinds + j, C.KF_TASKS] = tasks
    inst = [k for k, row in enumerate(main) for _ in range(row["count"])]
    n_main = len(inst)
    a0 = n_main
    for j in range(n_akinds):
        inst += [n_main_kinds + j] * d["copies"]
    j0 = len(inst)
    inst += [joe_kind] * d["joe_copies"]
    rules = np.zeros(C.NR, np.int64)
    rules[C.R_ROUNDS] = p["rounds"]
    rules[C.R_T1], rules[C.R_T2], rules[C.R_T3] = p["snooze_thresholds"]
    rules[C.R_PEN1], rules[C.R_PEN2] = p["tired_productiveness_penalty"]
    rules[C.R_DIE1], rules[C.R_DIE2], rules[C.R_DIE3] = p["work_die_targets"]
    rules[C.R_DIE_SIDES] = p["work_die_sides"]
    rules[C.R_START_SNOOZE] = p["starting_snooze"]
    rules[C.R_START_HAND] = p["starting_hand"]
    rules[C.R_SKIP_DRAW] = p["skip_turn_draw"]
    rules[C.R_EXHAUST_IS_SKIP] = int(bool(p["exhaustion_skips_turn"]))
    rules[C.R_FIRST_E_FREE] = int(bool(p["first_employee_free"]))
    rules[C.R_JOE_KIND] = joe_kind
    rules[C.R_N_MAIN] = n_main
    rules[C.R_A0] = a0
    rules[C.R_N_AKINDS] = n_akinds
    rules[C.R_A_COPIES] = d["copies"]
    rules[C.R_J0] = j0
    rules[C.R_N_INST] = len(inst)
    rules[C.R_N_KINDS] = K
    rules[C.R_FIRST_ASSIGN_KIND] = n_main_kinds
    ts = list(p["time_snooze"])
    for r in range(C.MAX_ROUNDS):
        rules[C.R_TIME0 + r] = ts[min(r, len(ts) - 1)]
    return (rules, kinds, eff, np.array(inst, np.int64))
