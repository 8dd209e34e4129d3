"""Tuning: search rule parameters to hit a designer's targets, and report the
answer measured on games that played no part in choosing it.

Targets (`--target`):
  win_rate=0.45..0.55      the win rate in a band
  seat_gap<=0.02           max - min seat win rate under a bound
  length_median=12..15     median game length (turns) in a band
  length_mean=...          mean length in a band
  ladder=0.99,0.9,...      one win rate per difficulty level (levels 1..k)

Games, all of one seed, in three disjoint ranges of game indices:
  screening   0 .. n_screen-1: every grid point (every level of a ladder)
  selection   0 .. n_selection-1 (the screening games and more): the finalists,
              the best few by screening; the pick is the finalist whose
              selection games come closest to the targets
  fresh       n_selection .. n_selection+n_fresh-1: the pick and its
              runners-up replayed; the report's intervals are these only.
Every range is played on the same deals by every point, so differences
between points are paired.

How sure the pick is best: on the fresh games, resampled (paired: the same
resample for every candidate), the share of resamples in which each candidate
comes closest (`p_best`, ties shared), and the candidates whose paired
difference in distance from the pick has a bootstrap interval containing 0
(`indistinguishable`).

Ladder: the levels are fitted together (dynamic programming over each level's
candidates) so that the selected win rates follow the targets' order wherever
the targets fall or rise: monotone by construction on the selection games. On
the fresh games each step between levels is checked with its paired interval
(confirmed / not resolved / reversed), and each level's distance from its
target gets a margin verdict.

Skill sensitivity: the pick under a weaker policy (25% random moves) and a
stronger one (lookahead), on the fresh games, paired with the assumed policy:
the difference in win rate with its interval and whether that interval can
carry a sign. The weaker policy plays n_fresh games; lookahead (~1000x slower)
plays enough for a 95% half-width of about `skill_halfwidth`, planned from a
pilot's spread (not its estimate), at most `n_skill` games.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np

from balance.simcore.batch import BalanceError, Engine, SeatPolicy, resolve_policy
from balance.simcore.params import resolve
from balance.simcore.runner import COL_WON
from balance.simcore.spec import GameSpec

from .card_copies import card_list_record
from .stats import (WinPatterns, bootstrap_quantile_ci, margin_verdict, mean_ci, paired_binary, rate, seat_balance,
                    z_of)

DEFAULT_MARGIN = 0.02
N_BOOT = 400
SKILL_PILOT = 100
SKILL_HALFWIDTH = 0.05  # lookahead's planned 95% half-width on the paired win-rate difference
VIOLATION_WEIGHT = 1000.0  # ladder: a reversed step costs this much per unit of win rate


@dataclass
class Target:
    metric: str  # win_rate | seat_gap | length_median | length_mean | ladder
    low: float | None = None
    high: float | None = None
    ladder: tuple[float, ...] = ()

    def describe(self) -> str:
        if self.metric == "ladder":
            return "ladder=" + ",".join(f"{x:g}" for x in self.ladder)
        if self.low is None:
            return f"{self.metric}<={self.high:g}"
        return f"{self.metric}={self.low:g}..{self.high:g}"


METRICS = ("win_rate", "seat_gap", "length_median", "length_mean", "ladder")


def parse_target(text: str) -> Target:
    def num(x: str) -> float:
        try:
            return float(x)
        except ValueError:
            raise BalanceError(f"--target: '{text}' has '{x}', not a number") from None

    if "<=" in text:
        name, _, bound = text.partition("<=")
        name = name.strip()
        if name not in METRICS or name == "ladder":
            raise BalanceError(f"--target: unknown metric '{name}'; allowed: {', '.join(METRICS)}")
        return Target(name, None, num(bound.strip()))
    name, eq, value = text.partition("=")
    name = name.strip()
    if not eq:
        raise BalanceError(f"--target: '{text}' is not METRIC=LOW..HIGH, METRIC<=BOUND or ladder=R1,R2,...")
    if name not in METRICS:
        raise BalanceError(f"--target: unknown metric '{name}'; allowed: {', '.join(METRICS)}")
    if name == "ladder":
        rates = tuple(num(x) for x in value.split(",") if x.strip())
        if not rates or any(not 0 <= r <= 1 for r in rates):
            raise BalanceError("--target: ladder needs win rates in 0..1, one per level, e.g. ladder=0.99,0.9,0.75")
        return Target("ladder", ladder=rates)
    lo, dots, hi = value.partition("..")
    if not dots:
        v = num(value)
        return Target(name, v, v)
    low, high = num(lo), num(hi)
    if low > high:
        raise BalanceError(f"--target: '{text}': the band's low end is above its high end")
    return Target(name, low, high)


# ---------------------------------------------------------------- playing and measuring
@dataclass
class Sample:
    """Per-game results of one parameter point on a range of game indices."""
    first: int
    won: np.ndarray  # (n, seats) bool
    length: np.ndarray  # (n,) float

    @property
    def n(self) -> int:
        return int(self.won.shape[0])

    @property
    def any_won(self) -> np.ndarray:
        return self.won.any(axis=1)

    def then(self, other: Sample) -> Sample:
        """This range followed by the next one."""
        assert other.first == self.first + self.n
        return Sample(self.first, np.concatenate([self.won, other.won]), np.concatenate([self.length, other.length]))


def play(spec: GameSpec, engine: Engine, params: dict, players: int, seed: int, first: int, count: int) -> Sample:
    """Play games first..first+count-1 of `seed` at one parameter point."""
    data = spec.load_data(params)  # memoised per parameters by the game's loader
    res = engine.run(data.tables, players, seed, np.arange(first, first + count, dtype=np.int64), len(data.card_names))
    won = res.seat_out[:, :, COL_WON] > 0.5
    length = res.game_out[:, spec.game_column_names.index(spec.length_column)]
    return Sample(first, won, np.asarray(length, dtype=float))


def _values(s: Sample, idx: np.ndarray | None = None) -> dict[str, float]:
    """The target metrics of a sample (or of a resample of it), as plain numbers."""
    won = s.won if idx is None else s.won[idx]
    length = s.length if idx is None else s.length[idx]
    seat = won.mean(axis=0)
    return {"win_rate": float(won.any(axis=1).mean()), "seat_gap": float(seat.max() - seat.min()) if seat.size > 1 else 0.0,
            "length_mean": float(length.mean()), "length_median": float(np.quantile(length, 0.5, method="inverted_cdf"))}


def measured(s: Sample, alpha: float = 0.05, margin: float = DEFAULT_MARGIN) -> dict:
    """Headline metrics of a sample with intervals: the win rate (Wilson), each
    seat's, the seat gap (bounded by paired pairwise intervals that hold
    together, analysis.stats.seat_balance), mean (normal) and median (bootstrap)
    length."""
    n = s.n
    out = {"n": n, "indices": [s.first, s.first + n - 1], "win_rate": rate(int(s.any_won.sum()), n),
           "seat_win_rates": [rate(int(s.won[:, k].sum()), n) for k in range(s.won.shape[1])]}
    if s.won.shape[1] > 1:
        codes = (s.won.astype(np.int64) << np.arange(s.won.shape[1])).sum(axis=1)
        uniq, cnt = np.unique(codes, return_counts=True)
        wp = WinPatterns(s.won.shape[1])
        wp.add(((uniq[:, None] >> np.arange(s.won.shape[1])) & 1), cnt)
        bal = seat_balance(wp, alpha, margin)
        out["seat_gap"] = {"value": bal["gap"]["value"], "ci": bal["gap"]["ci"], "n": n, "p": bal["test"]["p"]}
    else:
        out["seat_gap"] = {"value": 0.0, "ci": [0.0, 0.0], "n": n}
    out["length_mean"] = mean_ci(s.length)
    out["length_median"] = {"value": _values(s)["length_median"], "ci": list(bootstrap_quantile_ci(s.length, 0.5)),
                            "n": n}
    return out


# ---------------------------------------------------------------- distance from the targets
def miss_of(target: Target, value: float) -> float:
    """How far a value is from a band target (0 inside the band); lengths relative to the band's top."""
    scale = 1.0 if target.metric in ("win_rate", "seat_gap") else max(1.0, abs(target.high or 1.0))
    if target.low is not None and value < target.low:
        return (target.low - value) / scale
    if target.high is not None and value > target.high:
        return (value - target.high) / scale
    return 0.0


def total_miss(targets: list[Target], values: dict[str, float], level_rate: float | None = None) -> float:
    ladder = abs(values["win_rate"] - level_rate) if level_rate is not None else 0.0
    return ladder + sum(miss_of(t, values[t.metric]) for t in targets)


def band_check(target: Target, m: dict) -> dict:
    """A band target against a (fresh) interval: met (the whole interval inside
    the band), missed (the whole interval outside it) or unclear."""
    e = m[target.metric]
    lo, hi = e["ci"]
    inside = (target.low is None or e["value"] >= target.low) and (target.high is None or e["value"] <= target.high)
    if lo is None or hi is None:
        return {"target": target.describe(), "verdict": "unclear", "point_inside": inside}
    if (target.low is None or lo >= target.low) and (target.high is None or hi <= target.high):
        v = "met"
    elif (target.low is not None and hi < target.low) or (target.high is not None and lo > target.high):
        v = "missed"
    else:
        v = "unclear"
    return {"target": target.describe(), "verdict": v, "point_inside": inside,
            "words": {"met": "met: the whole interval is inside the band",
                      "missed": "missed: the whole interval is outside the band",
                      "unclear": "unclear: the interval crosses the band's edge"}[v]}


def level_check(target_rate: float, m: dict, margin: float) -> dict:
    """A ladder level's fresh win rate against its target: inside the interval,
    and the margin verdict of (win rate - target)."""
    w = m["win_rate"]
    d = w["value"] - target_rate
    ci = [w["ci"][0] - target_rate, w["ci"][1] - target_rate]
    v = margin_verdict(d, ci, margin, n=w["n"])
    words = {"within_margin": "within the margin of its target", "beyond_margin": "off its target by more than the margin",
             "differs_size_unclear": "off its target, but not enough games to say whether by more than the margin",
             "inconclusive": "not enough games to say whether it is within the margin of its target",
             "no_information": f"no information on its distance from its target ({v.get('reason') or 'no spread'})"
             }[v["verdict"]]
    return {"target": target_rate, "off_by": d, "off_by_ci": ci, "target_inside_ci": bool(ci[0] <= 0 <= ci[1]),
            **v, "words": words}


def certainty(samples: list[Sample], score, n_boot: int = N_BOOT, seed: int = 0) -> dict:
    """How sure the first candidate (the pick) is the closest, on these (fresh)
    samples of the same games: the share of paired bootstrap resamples in which
    each candidate scores lowest (ties shared), and for each other candidate the
    95% bootstrap interval of its score minus the pick's."""
    n = samples[0].n
    rng = np.random.default_rng(seed)
    scores = np.empty((n_boot, len(samples)))
    for b in range(n_boot):
        idx = rng.integers(0, n, n)
        scores[b] = [score(_values(s, idx)) for s in samples]
    best = scores.min(axis=1, keepdims=True)
    tied = np.isclose(scores, best, rtol=0, atol=1e-12)
    p_best = (tied / tied.sum(axis=1, keepdims=True)).mean(axis=0)
    diffs = []
    for j in range(1, len(samples)):
        d = scores[:, j] - scores[:, 0]
        lo, hi = float(np.quantile(d, 0.025)), float(np.quantile(d, 0.975))
        diffs.append({"candidate": j, "diff_ci": [lo, hi], "indistinguishable": bool(lo <= 0 <= hi)})
    return {"p_best": [float(x) for x in p_best], "vs_pick": diffs, "n_boot": n_boot, "n": n,
            "method": "paired bootstrap of the fresh games (one resample for every candidate)"}


def certainty_words(c: dict, labels: list[str]) -> str:
    p = c["p_best"]
    same = [labels[d["candidate"]] for d in c["vs_pick"] if d["indistinguishable"]]
    head = f"the pick comes closest in {100 * p[0]:.0f}% of resamples of the fresh games"
    if not same:
        return head + "; every runner-up is measurably farther from the targets"
    return head + "; indistinguishable from it at this n: " + ", ".join(same)


# ---------------------------------------------------------------- the search
class _Search:
    """Plays points on the three index ranges, remembering what it played."""

    def __init__(self, spec, engine, user, players, seed, n_screen, n_selection, n_fresh):
        self.spec, self.engine, self.user, self.players, self.seed = spec, engine, user, players, seed
        self.n_screen, self.n_selection, self.n_fresh = n_screen, n_selection, n_fresh
        self.screen: dict[str, Sample] = {}
        self.selection: dict[str, Sample] = {}
        self.fresh: dict[str, Sample] = {}

    def params(self, point: dict, extra: dict) -> dict:
        return resolve(self.spec, {**self.user, **extra, **point})

    @staticmethod
    def key(point: dict, extra: dict) -> str:
        return json.dumps({**extra, **point}, sort_keys=True, default=str)

    def screened(self, point, extra) -> Sample:
        k = self.key(point, extra)
        if k not in self.screen:
            self.screen[k] = play(self.spec, self.engine, self.params(point, extra), self.players, self.seed, 0,
                                  self.n_screen)
        return self.screen[k]

    def selected(self, point, extra) -> Sample:
        k = self.key(point, extra)
        if k not in self.selection:
            s = self.screened(point, extra)
            if self.n_selection > s.n:
                s = s.then(play(self.spec, self.engine, self.params(point, extra), self.players, self.seed, s.n,
                                self.n_selection - s.n))
            self.selection[k] = s
        return self.selection[k]

    def freshly(self, point, extra) -> Sample:
        k = self.key(point, extra)
        if k not in self.fresh:
            self.fresh[k] = play(self.spec, self.engine, self.params(point, extra), self.players, self.seed,
                                 self.n_selection, self.n_fresh)
        return self.fresh[k]

    def best(self, point, extra) -> Sample:
        """The most games this point has on the choosing ranges (never fresh ones)."""
        k = self.key(point, extra)
        return self.selection.get(k) or self.screened(point, extra)


def skill_policies(spec: GameSpec, policies: list[SeatPolicy]) -> dict[str, tuple[list[SeatPolicy], bool]]:
    """A weaker (25% random moves) and a stronger (lookahead) version; True: expensive."""
    weaker = [resolve_policy(spec, p.name if p.kind != 3 else "greedy", {"epsilon": 0.25}) for p in policies]
    stronger = [resolve_policy(spec, "lookahead", {"rollouts": 4}) for _ in policies]
    return {"weaker (25% random moves)": (weaker, False), "stronger (lookahead, 4 rollouts)": (stronger, True)}


def skill_row(spec, engine: Engine, params: dict, players: int, seed: int, base: Sample, expensive: bool,
              n_skill: int, margin: float, halfwidth: float = SKILL_HALFWIDTH) -> dict:
    """The pick under another policy on the same fresh games as `base`, paired
    with it: the difference in win rate, its interval and whether it carries a sign."""
    first = base.first
    if expensive:
        pilot_n = min(SKILL_PILOT, n_skill, base.n)
        s = play(spec, engine, params, players, seed, first, pilot_n)
        x, y = base.any_won[:pilot_n], s.any_won
        d = y.astype(float) - x.astype(float)
        sd = max(float(d.std(ddof=1)) if d.size > 1 else 0.5, 0.1)  # the spread only, never the estimate
        planned = int(math.ceil((z_of(0.95) * sd / halfwidth) ** 2))
        n = max(pilot_n, min(n_skill, base.n, planned))
        if n > pilot_n:
            s = s.then(play(spec, engine, params, players, seed, first + pilot_n, n - pilot_n))
    else:
        n = min(base.n, n_skill)
        s = play(spec, engine, params, players, seed, first, n)
    x, y = base.any_won[:n], s.any_won
    diff = paired_binary(int((x & y).sum()), int((x & ~y).sum()), int((~x & y).sum()), int((~x & ~y).sum()))
    lo, hi = diff["ci"]
    sign = "higher" if lo > 0 else "lower" if hi < 0 else "straddles 0"
    m = measured(s, margin=margin)
    words = (f"{'+' if diff['diff'] >= 0 else ''}{100 * diff['diff']:.1f} pts (95% CI {100 * lo:+.1f} to {100 * hi:+.1f}, "
             f"n = {n:,} paired games): " + ({"higher": "wins more", "lower": "wins less"}.get(sign) or
                                             "the interval straddles 0, so the sign is not known at this n"))
    return {**m, "vs_assumed": {**diff, "sign": sign, "words": words,
                                "verdict": margin_verdict(diff["diff"], diff["ci"], margin, n=n)},
            "planned_from_pilot": expensive}


def _candidates_report(search: _Search, cands: list[tuple[dict, dict]], extra: dict, score, margin: float,
                       targets: list[Target]) -> list[dict]:
    """pick and runners-up: their selection-stage distance, then their fresh measurement (the one reported)."""
    rows = []
    for point, sel in cands:
        fresh = search.freshly(point, extra)
        m = measured(fresh, margin=margin)
        rows.append({"point": point, "selection": sel, "measured": m, "fresh": True,
                     "miss": score(_values(fresh)),
                     "targets": [band_check(t, m) for t in targets],
                     "targets_met": [band_check(t, m)["verdict"] == "met" for t in targets]})
    return rows


def _selection_summary(s: Sample, score) -> dict:
    v = _values(s)
    return {"n": s.n, "indices": [s.first, s.first + s.n - 1], "miss": score(v), "win_rate": v["win_rate"],
            "values": v}


def _fit_ladder(levels: list[list[dict]], rates: tuple[float, ...]) -> tuple[list[int], list[bool]]:
    """One candidate per level, minimising the summed distance from the targets
    plus VIOLATION_WEIGHT times every step against the targets' order (a rise
    where the targets fall, a fall where they rise), by dynamic programming.
    Returns the chosen index per level and, per level, whether its step from
    the previous level keeps the order."""
    L = len(levels)
    cost = [np.array([c["miss"] for c in lv]) for lv in levels]
    wr = [np.array([c["win_rate"] for c in lv]) for lv in levels]
    acc, back = [cost[0]], []
    for i in range(1, L):
        step = wr[i][None, :] - wr[i - 1][:, None]  # prev x cur
        if rates[i] < rates[i - 1]:
            viol = np.maximum(0.0, step)
        elif rates[i] > rates[i - 1]:
            viol = np.maximum(0.0, -step)
        else:
            viol = np.zeros_like(step)
        total = acc[-1][:, None] + VIOLATION_WEIGHT * viol + cost[i][None, :]
        back.append(total.argmin(axis=0))
        acc.append(total.min(axis=0))
    chosen = [int(acc[-1].argmin())]
    for i in range(L - 1, 0, -1):
        chosen.append(int(back[i - 1][chosen[-1]]))
    chosen = chosen[::-1]
    kept = [True]
    for i in range(1, L):
        a, b = wr[i - 1][chosen[i - 1]], wr[i][chosen[i]]
        kept.append(bool(not (rates[i] < rates[i - 1] and b > a + 1e-12) and not (rates[i] > rates[i - 1] and b < a - 1e-12)))
    return chosen, kept


def step_check(prev: Sample, cur: Sample, falls: bool | None, margin: float) -> dict:
    """A ladder step on the fresh games, paired by game index (same seeds):
    the change in win rate from the previous level's pick to this level's,
    with its interval; confirmed when the interval lies on the targets' side
    of 0, reversed when on the other side."""
    x, y = prev.any_won, cur.any_won
    d = paired_binary(int((x & y).sum()), int((x & ~y).sum()), int((~x & y).sum()), int((~x & ~y).sum()))
    lo, hi = d["ci"]
    if falls is None:
        v = margin_verdict(d["diff"], d["ci"], margin, n=d["n"])
        status = "confirmed" if v["verdict"] == "within_margin" else "reversed" if v["verdict"] == "beyond_margin" \
            else "not resolved"
    elif falls:
        status = "confirmed" if hi < 0 else "reversed" if lo > 0 else "not resolved"
    else:
        status = "confirmed" if lo > 0 else "reversed" if hi < 0 else "not resolved"
    expect = "flat" if falls is None else "falls" if falls else "rises"
    return {**d, "expected": expect, "status": status,
            "words": f"win rate {'+' if d['diff'] >= 0 else ''}{100 * d['diff']:.1f} pts from the level before "
                     f"(95% CI {100 * lo:+.1f} to {100 * hi:+.1f}; the targets {expect}): {status}"}


def tune(spec: GameSpec, user: dict, points: list[dict], targets: list[Target], players: int,
         policies: list[SeatPolicy], seed: int, n_screen: int, n_final: int, keep: int = 3,
         n_skill: int | None = None, n_fresh: int | None = None, margin: float = DEFAULT_MARGIN,
         skill: bool = True) -> dict:
    engine = Engine(spec, policies)
    ladder = [t for t in targets if t.metric == "ladder"]
    others = [t for t in targets if t.metric != "ladder"]
    n_selection = max(n_screen, n_final)
    n_fresh = n_fresh or n_final
    n_skill = n_skill or n_fresh
    search = _Search(spec, engine, user, players, seed, n_screen, n_selection, n_fresh)
    skills = skill_policies(spec, policies) if skill else {}
    result = {"game": spec.name, "policies": [p.describe() for p in policies], "players": players, "seed": seed,
              "targets": [t.describe() for t in targets], "grid_points": len(points), "n_screen": n_screen,
              "n_final": n_selection, "n_fresh": n_fresh, "margin": margin, "user_params": user,
              "card_list": card_list_record(spec, user),
              "games": {"screening": [0, n_screen - 1], "selection": [0, n_selection - 1],
                        "fresh": [n_selection, n_selection + n_fresh - 1],
                        "words": f"chosen on games 0..{n_selection - 1} (screening: 0..{n_screen - 1}); every "
                                 f"interval reported is from the fresh games {n_selection}..{n_selection + n_fresh - 1} "
                                 f"of seed {seed}, never used to choose"}}
    if ladder:
        if spec.param("level") is None:
            raise BalanceError(f"--target: ladder needs a game with levels; {spec.name} has none")
        if any("level" in p for p in points):
            raise BalanceError("--vary: the ladder fits each level; do not vary level itself")
        result["ladder"] = _tune_ladder(search, points, others, ladder[0].ladder, keep, margin, skills, n_skill)
        result["verdicts"] = _ladder_verdicts(result["ladder"], margin)
        return result

    def score(v):
        return total_miss(others, v)

    screened = sorted(((score(_values(search.screened(p, {}))), i, p) for i, p in enumerate(points)),
                      key=lambda x: (x[0], x[1]))
    finals = []
    for _, _, p in screened[:keep]:
        finals.append((p, _selection_summary(search.selected(p, {}), score)))
    finals.sort(key=lambda f: f[1]["miss"])
    rows = _candidates_report(search, finals, {}, score, margin, others)
    best = rows[0]
    result["recommended"] = best
    result["runners_up"] = rows[1:]
    if len(rows) > 1:
        c = certainty([search.freshly(r["point"], {}) for r in rows], score)
        c["words"] = certainty_words(c, ["the pick"] + [f"runner-up {i}" for i in range(1, len(rows))])
        result["certainty"] = c
    result["skill"] = {}
    base = search.freshly(best["point"], {})
    for name, (pols, expensive) in skills.items():
        result["skill"][name] = skill_row(spec, Engine(spec, pols), search.params(best["point"], {}), players, seed,
                                          base, expensive, n_skill, margin)
    result["verdicts"] = {"margin": margin, "items": [
        {"id": "target", "question": f"Is {chk['target']} met?", "metric": chk["target"], "verdict": chk["verdict"],
         "words": chk["words"], "estimate": best["measured"][t.metric]["value"], "ci": best["measured"][t.metric]["ci"],
         "n": best["measured"]["n"]} for t, chk in zip(others, best["targets"])]}
    return result


def _tune_ladder(search: _Search, points, others, rates, keep, margin, skills, n_skill) -> list[dict]:
    candidates = []  # per level: finalists (selection games) then every other screened point
    for i, target_rate in enumerate(rates):
        extra = {"level": i + 1}

        def score(v, target_rate=target_rate):
            return total_miss(others, v, target_rate)

        screened = sorted(((score(_values(search.screened(p, extra))), j, p) for j, p in enumerate(points)),
                          key=lambda x: (x[0], x[1]))
        finalists = [p for _, _, p in screened[:2 * keep]]
        for p in finalists:
            search.selected(p, extra)
        cands = [{"point": p, **_selection_summary(search.best(p, extra), score)} for p in points]
        candidates.append(sorted(cands, key=lambda c: (c["n"] < search.n_selection, c["miss"])))
    # monotone by construction: among the finalists if they allow it, else over every screened point
    finals_only = [[c for c in lv if c["n"] >= search.n_selection] or lv for lv in candidates]
    chosen, kept = _fit_ladder(finals_only, rates)
    pool = finals_only
    if not all(kept):
        chosen, kept = _fit_ladder(candidates, rates)
        pool = candidates
    levels = []
    prev_fresh = None
    for i, target_rate in enumerate(rates):
        extra = {"level": i + 1}

        def score(v, target_rate=target_rate):
            return total_miss(others, v, target_rate)

        pick = pool[i][chosen[i]]
        ups = [c for c in finals_only[i] if c["point"] != pick["point"]][:max(0, keep - 1)]
        rows = _candidates_report(search, [(c["point"], c) for c in [pick] + ups], extra, score, margin, others)
        best = rows[0]
        fresh = search.freshly(pick["point"], extra)
        lv = {"level": i + 1, "target": target_rate, "recommended": pick["point"], "measured": best["measured"],
              "selection": {k: pick[k] for k in ("n", "indices", "miss", "win_rate")},
              "monotone_kept": kept[i], "check": level_check(target_rate, best["measured"], margin),
              "runners_up": [{"point": r["point"], "win_rate": r["measured"]["win_rate"], "miss": r["miss"],
                              "selection": r["selection"]} for r in rows[1:]]}
        if len(rows) > 1:
            c = certainty([search.freshly(r["point"], extra) for r in rows], score)
            c["words"] = certainty_words(c, ["the pick"] + [f"runner-up {j}" for j in range(1, len(rows))])
            lv["certainty"] = c
        if prev_fresh is not None:
            falls = True if rates[i] < rates[i - 1] else False if rates[i] > rates[i - 1] else None
            lv["step"] = step_check(prev_fresh, fresh, falls, margin)
        prev_fresh = fresh
        lv["skill"] = {}
        for name, (pols, expensive) in skills.items():
            lv["skill"][name] = skill_row(search.spec, Engine(search.spec, pols), search.params(pick["point"], extra),
                                          search.players, search.seed, fresh, expensive, n_skill, margin)
        levels.append(lv)
    return levels


def _ladder_verdicts(levels: list[dict], margin: float) -> dict:
    items = []
    for lv in levels:
        c = lv["check"]
        items.append({"id": "level", "question": f"Is level {lv['level']} within the margin of its target?",
                      "metric": f"level {lv['level']} win rate minus its target {lv['target']:g}",
                      "estimate": c["off_by"], "ci": c["off_by_ci"], "n": lv["measured"]["n"],
                      "verdict": c["verdict"], "words": c["words"], "margin": margin})
        if lv.get("step"):
            s = lv["step"]
            items.append({"id": "step", "question": f"Does the win rate step from level {lv['level'] - 1} to "
                                                    f"{lv['level']} the way the targets do?",
                          "metric": f"win rate, level {lv['level']} minus level {lv['level'] - 1}",
                          "estimate": s["diff"], "ci": s["ci"], "n": s["n"], "verdict": s["status"],
                          "words": s["words"], "margin": margin})
    return {"margin": margin, "items": items}


def tuning_result(result: dict, command: str | None = None):
    """tuning.json's model (analysis.tuning_result) of tune's result."""
    from .jsonsafe import jsonable
    from .tuning_result import TuningResult

    return TuningResult.model_validate(jsonable({**result, "command": command}))


def write_tuning(folder, result: dict, command: str | None):
    """Write tuning.json (its report is the reports layer's: reports.render_tuning_report); return its model."""
    model = tuning_result(result, command)
    model.write(folder)
    return model
