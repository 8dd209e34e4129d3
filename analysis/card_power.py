"""Card power in competitive games: what one card does for the player who has it.

`balance impact` removes or adds copies to the shared list and measures the
game; in a game someone always wins that answers nothing about a card. Card
power gives ONE seat one more copy of ONE card kind, on the same deals as a
baseline, and measures that seat's win:

- per-seat decks (You're Fired!): one more copy in that seat's own deck,
  after the opening hands, at a place drawn from the deal (every card dealt
  stays where it was);
- shared decks (Overtime): the copy is dealt into that seat's opening hand in
  place of a card of it drawn from the deal; that card goes to the bottom of
  the deck (every other card is where the same deal put it).

The game declares which card ids can be given and how (GameData.info
`power_cards`, `power_how`) and takes two internal rule parameters
(`power_card`: the id, -1 none; `power_seat`: the seat, -1 drawn per game).
With `power_seat` -1 the receiving seat of game i is drawn from game i's deal
key (its deal stream's first state, a function of seed and game index alone),
hashed, never from a stream: `receiving_seats` computes the same seat here, so
one variant per card covers every seat (about 1/players of the games each)
and pairs game by game with the baseline. (One variant per card and seat would
balance the seats exactly but multiply the variants, their summaries and
chunks by the player count; a seat drawn independently of the deal is
unbiased for the average over seats, and `n_by_seat` shows the split.)

The figure, per card: the receiving seat's win in the variant minus the same
seat's win in the baseline game, averaged over the paired games (points), with
`analysis.stats.difference_family`: one family over every card (Bonferroni
intervals at 1 - alpha/m, the verdict read from the interval shown, Holm p
beside, a margin verdict each), ranked strongest first. Game-level effects
(length, nobody wins) of every card are a second family.

Entry points: `power_kinds` (what can be measured), `variants` (card-power
variants for a run: `balance impact`, and `simulate` through
`simulate_variants`), `analyse(run_dir, spec)` (the JSON-able table of a
finished run folder), and reports.card_power for the report's fragment.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from balance.simcore.spec import GameSpec

from .jsonsafe import jsonable
from .stats import ALPHA, DEFAULT_MARGIN
from .runs import SHARE_KEY, Variant
from .stats import difference_family, family_level, mean_ci, rate

POWER_KEY = "card_power"  # in a variant's `varied`: {card, card_id, how, against}
PARAM_CARD = "power_card"
PARAM_SEAT = "power_seat"
CARD_POWER_FILE = "card_power.json"

# the salts of the engines' power_draw (simcore/<game>/constants.py POWER_SEAT_SALT / POWER_SLOT_SALT)
SEAT_SALT = 0x43415244504F5752
SLOT_SALT = 0x534C4F54504F5752
# simcore.rng's SplitMix64 constants
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

# simulate's share (simulate_variants): enough paired games per card for a family-wise interval about
# +-1.5 points (a receiving seat's win changes in about a third of the paired games: sd 0.55, z 3.2 over
# 30 cards), and at most a quarter of the run's games in all
PER_KIND = 12_000
MAX_SHARE = 0.25
MIN_PER_KIND = 500  # fewer paired games per card than this: the intervals would say nothing, so none are played


# ---------------------------------------------------------------- the receiving seat, as the engines draw it
def _mix64(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def deal_keys(seed: int, game_indices) -> np.ndarray:
    """Each game's deal key: its deal stream's first state (simcore.rng.seed_streams, stream DEAL = 0)."""
    idx = np.asarray(game_indices, dtype=np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        s = _mix64(np.array([seed], dtype=np.uint64))[0]
        base = _mix64(s ^ (idx * _GAMMA))
        return _mix64(base + _M2)


def power_draw(keys: np.ndarray, salt: int, n) -> np.ndarray:
    """The engines' power_draw: a number in [0, n) from each deal key."""
    with np.errstate(over="ignore"):
        return (_mix64(keys ^ np.uint64(salt)) % np.asarray(n, dtype=np.uint64)).astype(np.int64)


def receiving_seats(seed: int, game_indices, players: int, power_seat: int = -1) -> np.ndarray:
    """The seat that got the copy in each game: `power_seat` (mod players), or the one drawn from the deal."""
    idx = np.asarray(game_indices, dtype=np.int64)
    if power_seat is not None and power_seat >= 0:
        return np.full(idx.shape, power_seat % players, dtype=np.int64)
    return power_draw(deal_keys(seed, idx), SEAT_SALT, players)


# ---------------------------------------------------------------- what can be measured
@dataclass(frozen=True)
class PowerKind:
    name: str  # the card kind (analysis.cardfile.Kind's name)
    card_id: int  # its id in the game's tables
    how: str  # the game's words: where the copy goes


def supported(spec: GameSpec) -> bool:
    """A competitive game whose engine takes the card-power parameters."""
    return (not spec.cooperative and spec.param(PARAM_CARD) is not None and spec.param(PARAM_SEAT) is not None
            and spec.max_players >= 2)


def power_kinds(spec: GameSpec, params: dict) -> tuple[list[PowerKind], list[dict]]:
    """(the card kinds card power can measure, in the card file's order; the others, each with why not)."""
    if not supported(spec):
        return [], []
    from . import cardfile
    from .cardfile import base_cards

    data = spec.load_data(params)
    ids = set(data.info.get("power_cards") or ())
    how = data.info.get("power_how") or "one more copy"
    cl, doc = base_cards(spec, params)
    kinds = cardfile.kinds(doc, cl.sections) if cl is not None else []
    names = list(data.card_names)
    out, skipped = [], []
    for k in kinds:
        cid = names.index(k.name) if k.name in names else None
        if cid is not None and cid in ids:
            out.append(PowerKind(k.name, cid, how))
        else:
            skipped.append({"card": k.name, "reason": _why_not(spec, data, k)})
    return out, skipped


def _why_not(spec, data, kind) -> str:
    """Why a card kind has no card-power figure: the game's own reason (spec.card_power_note), else the
    general one."""
    note = spec.card_power_note(data, kind.name) if spec.card_power_note is not None else None
    return note or f"a card of the [[{kind.section}]] list, which is never dealt into a hand (card power deals hand cards)"


def pick(spec: GameSpec, params: dict, names: list[str] | None = None) -> list[PowerKind]:
    """The power kinds named (impact's --cards names), or all of them."""
    kinds, _ = power_kinds(spec, params)
    if names is None:
        return kinds
    wanted = set(names)
    return [k for k in kinds if k.name in wanted]


def label(kind: PowerKind) -> str:
    return f"{kind.name}: one more copy to one seat"


def variants(spec: GameSpec, base: Variant, kinds: list[PowerKind], share: float | None = None) -> list[Variant]:
    """One variant per card kind: `base`'s rules with `power_card` set (the receiving seat drawn per game),
    paired with `base` on the same deals; `share`: the share of the run's games each plays (runs.SHARE_KEY)."""
    out = []
    for k in kinds:
        varied = {POWER_KEY: {"card": k.name, "card_id": k.card_id, "how": k.how, "against": base.name}}
        if share is not None and share < 1.0:
            varied[SHARE_KEY] = share
        out.append(Variant(label(k), {**base.params, PARAM_CARD: k.card_id, PARAM_SEAT: -1}, varied))
    return out


def simulate_share(n_games: int, n_kinds: int, per_kind: int = PER_KIND, max_share: float = MAX_SHARE) -> float:
    """The share of a run's games each card-power variant plays: PER_KIND games a card, at most MAX_SHARE
    of the run's games over all cards; 0 when that leaves fewer than MIN_PER_KIND a card."""
    if n_kinds <= 0 or n_games <= 0:
        return 0.0
    games = min(per_kind, math.floor(max_share * n_games / n_kinds), n_games)
    if games < MIN_PER_KIND:
        return 0.0
    return games / n_games


def simulate_variants(spec: GameSpec, base: Variant, players: int, n_games: int,
                      per_kind: int = PER_KIND, max_share: float = MAX_SHARE) -> tuple[list[Variant], str | None]:
    """For `balance simulate`: card-power variants to append to a run whose variant `base` plays all
    n_games (each plays the first `share` of the deals, paired with it), or ([], why none)."""
    if not supported(spec) or players < 2:
        return [], f"{spec.name} with {players} player(s) has no card power (a competitive game of 2+ players)"
    kinds, _ = power_kinds(spec, dict(base.params))
    if not kinds:
        return [], f"{spec.name}'s card list has no card that card power can give"
    share = simulate_share(n_games, len(kinds), per_kind, max_share)
    if share <= 0:
        return [], (f"{n_games:,} games leave fewer than {MIN_PER_KIND:,} paired games a card for {len(kinds)} "
                    f"cards; card power needs about {math.ceil(MIN_PER_KIND * len(kinds) / max_share):,}")
    return variants(spec, base, kinds, share), None


# ---------------------------------------------------------------- beside a run (balance simulate)
SUBFOLDER = "card-power"  # RUN/card-power: a run folder of its own, the run's first deals with and without


def run_config(spec: GameSpec, config, n_games: int):
    """(config, games per card) of the card power of a `simulate` run, played as a run folder of its own
    (RUN/card-power: the run's own rules, policies and seed, its first deals as the baseline and one
    variant per card kind, all on the same deals), or (None, why not)."""
    from dataclasses import replace as _replace

    from .runs import ROTATION_KEY, default_chunk_size, variant_games

    first = config.variants[0]
    base = Variant("base", dict(first.params), {k: x for k, x in (first.varied or {}).items() if k != ROTATION_KEY})
    extra, why = simulate_variants(spec, base, config.players, n_games)
    if not extra:
        return None, why
    games = variant_games(extra[0], n_games)
    extra = [Variant(v.name, v.params, {k: x for k, x in v.varied.items() if k != SHARE_KEY}) for v in extra]
    return _replace(config, variants=[base] + extra, chunk_size=default_chunk_size(games), check=False), games


# ---------------------------------------------------------------- the analysis
def _power_of(v: dict) -> dict | None:
    return (v.get("varied") or {}).get(POWER_KEY)


def _same_deals(base: dict, var: dict) -> str | None:
    """Why `var` is not `base` with only the card-power parameters changed (None: it is)."""
    bp = {k: x for k, x in (base.get("params") or {}).items() if k not in (PARAM_CARD, PARAM_SEAT)}
    vp = {k: x for k, x in (var.get("params") or {}).items() if k not in (PARAM_CARD, PARAM_SEAT)}
    if bp != vp:
        diff = sorted(k for k in set(bp) | set(vp) if bp.get(k) != vp.get(k))
        return f"its rules differ from {base['name']}'s ({', '.join(diff[:3])})"
    if base.get("card_list_hash") != var.get("card_list_hash"):
        return f"its card list differs from {base['name']}'s"
    return None


def load_frames(run_dir: str | Path, names: list[str], max_index: int | None = None):
    """(seats: variant, game_index, seat, won; games: variant, game_index, end_reason, <length>) of the named
    variants, bounded to game indices below max_index."""
    from .frames import part_files, scan_parts

    out = []
    for kind, cols in (("seats", ["variant", "game_index", "seat", "won"]), ("games", None)):
        lf = scan_parts(part_files(run_dir, kind), cols)
        if lf is None:
            out.append(None)
            continue
        lf = lf.filter(pl.col("variant").is_in(names))
        if max_index is not None:
            lf = lf.filter(pl.col("game_index") < max_index)
        out.append(lf.collect())
    return out[0], out[1]


def analyse(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN, alpha: float = ALPHA) -> dict | None:
    """The card-power table of a finished run folder (pure: writes nothing), or None when it holds no
    card-power variant."""
    from .frames import load_manifest

    manifest = load_manifest(run_dir)
    declared = manifest["config"]["variants"]
    power = [v for v in declared if _power_of(v)]
    if not power:
        return None
    names = sorted({v["name"] for v in power} | {_power_of(v)["against"] for v in power})
    seats, games = load_frames(run_dir, names)
    return analyse_frames(seats, games, manifest, spec, margin, alpha)


def _per_game(seats: pl.DataFrame, games: pl.DataFrame | None, name: str, length: str | None) -> pl.DataFrame:
    """One row per game of a variant: game_index, each seat's won (won_0..), any_won, length."""
    s = seats.filter(pl.col("variant") == name)
    wide = (s.with_columns(pl.col("won").cast(pl.Int8))
            .pivot(on="seat", index="game_index", values="won", aggregate_function="first")
            .sort("game_index"))
    wide = wide.rename({c: f"won_{c}" for c in wide.columns if c != "game_index"})
    won_cols = [c for c in wide.columns if c.startswith("won_")]
    wide = wide.with_columns(pl.max_horizontal(won_cols).alias("any_won"))
    if games is not None and length is not None and length in games.columns:
        g = games.filter(pl.col("variant") == name).select("game_index", pl.col(length).cast(pl.Float64).alias("length"))
        wide = wide.join(g, on="game_index", how="left")
    return wide


def analyse_frames(seats: pl.DataFrame, games: pl.DataFrame | None, manifest: dict, spec,
                   margin: float = DEFAULT_MARGIN, alpha: float = ALPHA) -> dict | None:
    """The card-power table from the frames of a run (pure). `seats` needs variant, game_index, seat, won;
    `games` (optional) variant, game_index and the spec's length column."""
    cfg = manifest["config"]
    declared = cfg["variants"]
    by_name = {v["name"]: v for v in declared}
    power = [v for v in declared if _power_of(v)]
    if not power:
        return None
    players = int(cfg["players"])
    seed = int(cfg["seed"])
    length_col = getattr(spec, "length_column", None)
    length_unit = length_col or "decisions"
    base_frames: dict[str, pl.DataFrame] = {}
    primary, secondary, info, refused = {}, {}, {}, []
    for v in power:
        pw = _power_of(v)
        base_v = by_name.get(pw.get("against"))
        if base_v is None:
            refused.append({"card": pw.get("card"), "reason": f"its baseline {pw.get('against')!r} is not in the run"})
            continue
        why = _same_deals(base_v, v)
        if why is not None:
            refused.append({"card": pw.get("card"), "reason": why})
            continue
        if base_v["name"] not in base_frames:
            base_frames[base_v["name"]] = _per_game(seats, games, base_v["name"], length_col)
        base = base_frames[base_v["name"]]
        var = _per_game(seats, games, v["name"], length_col)
        both = base.join(var, on="game_index", suffix="__v")
        if both.height == 0:
            refused.append({"card": pw["card"], "reason": "no game of it is committed yet"})
            continue
        idx = both["game_index"].to_numpy()
        seat_param = int((v.get("params") or {}).get(PARAM_SEAT, -1))
        r = receiving_seats(seed, idx, players, seat_param)
        xw = np.column_stack([both[f"won_{s}"].to_numpy() for s in range(players)]).astype(float)
        yw = np.column_stack([both[f"won_{s}__v"].to_numpy() for s in range(players)]).astype(float)
        rows = np.arange(idx.size)
        x, y = xw[rows, r], yw[rows, r]
        primary[v["name"]] = (x, y)
        secondary[(v["name"], "nobody wins")] = (1.0 - both["any_won"].to_numpy().astype(float),
                                                 1.0 - both["any_won__v"].to_numpy().astype(float))
        if "length" in both.columns:
            secondary[(v["name"], f"length ({length_unit})")] = (both["length"].to_numpy(), both["length__v"].to_numpy())
        info[v["name"]] = {"card": pw["card"], "card_id": pw.get("card_id"), "how": pw.get("how"),
                           "against": base_v["name"],
                           "n_by_seat": [int((r == s).sum()) for s in range(players)],
                           # each receiving seat's own paired difference (95%, not family-wise: a guide to the split)
                           "by_seat": [_seat_row(x[r == s], y[r == s], s) for s in range(players)]}
    if not primary:
        return jsonable({"kind": "card_power", "game": cfg.get("game"), "rows": [], "refused": refused,
                          "players": players, "alpha": alpha, "margin": margin})
    fam = difference_family(primary, alpha, margin)
    rows = []
    for f in sorted(fam, key=lambda r: -(r["diff"] if r["diff"] is not None else -math.inf)):
        i = info[f["name"]]
        rows.append({"card": i["card"], "card_id": i["card_id"], "variant": f["name"], "how": i["how"],
                     "against": i["against"], "effect": f["diff"], "ci": f["ci"], "ci_level": f["ci_level"],
                     "p": f["p"], "p_holm": f["p_holm"], "significant": f["significant"],
                     "margin_verdict": f["margin_verdict"], "words": _words(i["card"], f, margin),
                     "n": f["n_a"], "seat_win_without": f["a"], "seat_win_with": f["b"],
                     "n_by_seat": i["n_by_seat"], "by_seat": i["by_seat"], "method": f.get("method"),
                     "game_level": {}})
    sec = difference_family(secondary, alpha, margin) if secondary else []
    by_variant = {r["variant"]: r for r in rows}
    for s in sec:
        variant, metric = s["name"]
        by_variant[variant]["game_level"][metric] = {
            "diff": s["diff"], "ci": s["ci"], "p_holm": s["p_holm"], "significant": s["significant"],
            "baseline": s["a"], "variant": s["b"], "rate": s["rate"], "margin": s["margin"],
            "margin_verdict": s["margin_verdict"], "n": s["n_a"]}
    m1, m2 = len(rows), len(sec)
    base_name = rows[0]["against"] if rows else None
    b = base_frames.get(base_name) if base_name else None
    result = {
        "kind": "card_power", "game": cfg.get("game"), "title": cfg.get("title", getattr(spec, "title", None)),
        "players": players, "seed": seed, "policies": cfg.get("policies"), "alpha": alpha, "margin": margin,
        "baseline": base_name,
        "baseline_any_won": (rate(int(b["any_won"].sum()), b.height) if b is not None and b.height else None),
        "baseline_length": (mean_ci(b["length"].drop_nulls().to_numpy()) if b is not None and "length" in b.columns
                            and b.height else None),
        "length_unit": length_unit,
        "how": rows[0]["how"] if rows else None,
        "family_size": m1, "ci_level": family_level(alpha, m1),
        "secondary_family_size": m2, "secondary_ci_level": family_level(alpha, max(m2, 1)),
        "family": (f"the receiving seat's win of each of the {m1} cards against the baseline is one family: each "
                   f"interval at 1 - {alpha:g}/{m1} ({family_level(alpha, m1):.4g}), so all hold together at "
                   f"{1 - alpha:.0%}; the {m2} game-level differences (length, nobody wins) are a second family; "
                   f"every verdict is read from the interval shown, Holm-adjusted p beside"),
        "seat_rule": ("the receiving seat of each game is drawn from its deal (the same seat for every card on "
                      "that deal), so every seat receives in about 1/players of the games"),
        "rows": rows, "refused": refused,
    }
    return jsonable(result)


def _seat_row(x: np.ndarray, y: np.ndarray, seat: int) -> dict:
    from .stats import paired_difference

    if x.size == 0:
        return {"seat": seat, "n": 0, "effect": None, "ci": [None, None]}
    r = paired_difference(x, y, 0.95, binary=True)
    return {"seat": seat, "n": int(x.size), "effect": r["diff"], "ci": r["ci"]}


def _pts(x) -> str:
    return "–" if x is None else f"{100 * x:+.1f}"


def _words(card: str, f: dict, margin: float) -> str:
    """One sentence a designer reads: what the copy does for its holder, against the margin."""
    code = f["margin_verdict"].get("verdict")
    lo, hi = f["ci"]
    span = f"[{_pts(lo)}, {_pts(hi)}]"
    mg = f"{100 * margin:g}-point margin"
    if code == "beyond_margin":
        return (f"{card} is {'strong' if f['diff'] > 0 else 'weak'}: one more copy moves its holder's win by "
                f"{_pts(f['diff'])} points {span}, more than your {mg}")
    if code == "within_margin":
        return f"{card} is within your {mg}: one more copy moves its holder's win by {_pts(f['diff'])} points {span}"
    if code == "differs_size_unclear":
        return (f"{card} {'helps' if f['diff'] > 0 else 'hurts'} its holder ({_pts(f['diff'])} points {span}), "
                f"but not enough games to say whether by more than your {mg}")
    if code == "no_information":
        return f"{card}: {f['margin_verdict'].get('words')}"
    return f"{card}: not enough games to say ({_pts(f['diff'])} points {span})"



def write(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN, alpha: float = ALPHA) -> Path | None:
    """Write `card_power.json` into a run folder (None, and nothing written, when it has no card-power
    variant)."""
    import json

    from .folder_entries import replace_entry

    data = analyse(run_dir, spec, margin, alpha)
    if data is None:
        return None
    replace_entry(Path(run_dir), CARD_POWER_FILE, json.dumps(data, indent=1, allow_nan=False).encode("utf-8"))
    return Path(run_dir) / CARD_POWER_FILE


