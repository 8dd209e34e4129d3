"""Tuning: search rule parameters to hit a designer's targets.

Targets (`--target`):
  win_rate=0.45..0.55      the win rate in a band
  seat_gap<=0.02           max - min seat win rate under a bound
  length_median=12..15     median game length (turns) in a band
  length_mean=...          mean length in a band
  ladder=0.99,0.9,...      one win rate per difficulty level (levels 1..k),
                           fitted level by level, the fitted ladder kept
                           monotone wherever the targets are

Search: every grid point is played on the same deals with a screening sample;
the best few are replayed with a larger one (successive halving), so the
answer is not a lucky screening draw. The result says how close each target
came (with intervals), the runners-up, and how the answer moves with a weaker
and a stronger policy (skill sensitivity).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simcore.batch import BalanceError, Engine, SeatPolicy, resolve_policy
from simcore.params import resolve
from simcore.spec import GameSpec

from .stats import bootstrap_ci, mean_ci, rate


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


def measure(spec: GameSpec, engine: Engine, params: dict, players: int, seed: int, n: int) -> dict:
    """Play n games of one parameter point; headline metrics with intervals."""
    data = spec.load_data(params)
    res = engine.run(data.tables, players, seed, np.arange(n, dtype=np.int64), len(data.card_names))
    won = res.seat_out[:, :, 0] > 0.5
    any_won = won.any(axis=1)
    seat_rates = won.mean(axis=0)
    cols = spec.game_column_names
    length = res.game_out[:, cols.index("turns")] if "turns" in cols else res.game_out[:, 1]
    gap = float(seat_rates.max() - seat_rates.min()) if players > 1 else 0.0
    # interval of the gap: the difference of the two extreme seats (Wald on paired games)
    if players > 1:
        hi_s, lo_s = int(seat_rates.argmax()), int(seat_rates.argmin())
        d = won[:, hi_s].astype(float) - won[:, lo_s].astype(float)
        se = d.std(ddof=1) / math.sqrt(n) if n > 1 else 0.0
        gap_ci = [max(0.0, gap - 1.96 * se), gap + 1.96 * se]
    else:
        gap_ci = [0.0, 0.0]
    return {
        "params": params,
        "n": n,
        "win_rate": rate(int(any_won.sum()), n),
        "seat_win_rates": [rate(int(won[:, s].sum()), n) for s in range(players)],
        "seat_gap": {"value": gap, "ci": gap_ci, "n": n},
        "length_mean": mean_ci(length),
        "length_median": {"value": float(np.median(length)), "ci": list(bootstrap_ci(length, n_boot=200)), "n": n},
    }


def miss(target: Target, m: dict, level_rate: float | None = None) -> float:
    """How far a measurement is from a target (0 inside the band)."""
    if target.metric == "ladder":
        return abs(m["win_rate"]["value"] - level_rate)
    v = m[target.metric]["value"]
    scale = 1.0 if target.metric in ("win_rate", "seat_gap") else max(1.0, abs(target.high or 1.0))
    if target.low is not None and v < target.low:
        return (target.low - v) / scale
    if target.high is not None and v > target.high:
        return (v - target.high) / scale
    return 0.0


def interval_miss(target: Target, m: dict) -> bool:
    """Is the whole interval inside the band (the target is met with confidence)?"""
    if target.metric == "ladder":
        return True
    lo, hi = m[target.metric]["ci"]
    ok_lo = target.low is None or lo >= target.low
    ok_hi = target.high is None or hi <= target.high
    return bool(ok_lo and ok_hi)


def _search(spec, engine, points, user, players, seed, targets, n_screen, n_final, keep, level_rate=None, extra=None):
    extra = extra or {}

    def total_miss(m):
        ladder = abs(m["win_rate"]["value"] - level_rate) if level_rate is not None else 0.0
        return ladder + sum(miss(t, m) for t in targets)

    scored = []
    for point in points:
        params = resolve(spec, {**user, **extra, **point})
        m = measure(spec, engine, params, players, seed, n_screen)
        scored.append((total_miss(m), point, m))
    scored.sort(key=lambda x: x[0])
    finals = []
    for _, point, _ in scored[:keep]:
        params = resolve(spec, {**user, **extra, **point})
        m = measure(spec, engine, params, players, seed, n_final)
        finals.append({"point": point, "miss": total_miss(m), "measured": m,
                       "targets_met": [interval_miss(t, m) and miss(t, m) == 0 for t in targets]})
    finals.sort(key=lambda f: f["miss"])
    return finals, len(points)


def skill_policies(spec: GameSpec, policies: list[SeatPolicy]) -> dict[str, tuple[list[SeatPolicy], float]]:
    """A weaker (25% random moves) and a stronger (lookahead) version, with the
    share of the skill sample each gets (lookahead is ~1000x slower per game)."""
    weaker = [resolve_policy(spec, p.name if p.kind != 3 else "greedy", {"epsilon": 0.25}) for p in policies]
    stronger = [resolve_policy(spec, "lookahead", {"rollouts": 4}) for _ in policies]
    return {"weaker (25% random moves)": (weaker, 1.0), "stronger (lookahead, 4 rollouts)": (stronger, 0.1)}


def tune(spec: GameSpec, user: dict, points: list[dict], targets: list[Target], players: int,
         policies: list[SeatPolicy], seed: int, n_screen: int, n_final: int, keep: int = 3,
         n_skill: int | None = None) -> dict:
    engine = Engine(spec, policies)
    ladder = [t for t in targets if t.metric == "ladder"]
    others = [t for t in targets if t.metric != "ladder"]
    n_skill = n_skill or max(200, n_final // 10)
    skills = skill_policies(spec, policies)
    result = {"game": spec.name, "policies": [p.describe() for p in policies], "players": players, "seed": seed,
              "targets": [t.describe() for t in targets], "grid_points": len(points), "n_screen": n_screen,
              "n_final": n_final, "user_params": user}
    if ladder:
        if spec.param("level") is None:
            raise BalanceError(f"--target: ladder needs a game with levels; {spec.name} has none")
        if any("level" in p for p in points):
            raise BalanceError("--vary: the ladder fits each level; do not vary level itself")
        rates = ladder[0].ladder
        levels = []
        prev = None
        for i, target_rate in enumerate(rates):
            level = i + 1
            finals, _ = _search(spec, engine, points, user, players, seed, others, n_screen, n_final,
                                2 * keep, target_rate, {"level": level})
            # monotone: where the targets fall from the previous level, the fit must not rise
            falls = prev is not None and target_rate <= rates[i - 1]
            allowed = [f for f in finals if not falls or f["measured"]["win_rate"]["value"] <= prev + 1e-12]
            chosen = sorted(allowed or finals, key=lambda f: abs(f["measured"]["win_rate"]["value"] - target_rate)
                            + sum(miss(t, f["measured"]) for t in others))
            best = chosen[0]
            prev = best["measured"]["win_rate"]["value"]
            levels.append({"level": level, "target": target_rate, "recommended": best["point"],
                           "measured": best["measured"], "monotone_kept": bool(allowed) or not falls,
                           "runners_up": [{"point": f["point"], "win_rate": f["measured"]["win_rate"]} for f in chosen[1:keep]]})
        for name, (pols, share) in skills.items():
            eng = Engine(spec, pols)
            for lv in levels:
                params = resolve(spec, {**user, "level": lv["level"], **lv["recommended"]})
                lv.setdefault("skill", {})[name] = measure(spec, eng, params, players, seed,
                                                          max(20, int(n_skill * share)))["win_rate"]
        result["ladder"] = levels
        return result
    finals, _ = _search(spec, engine, points, user, players, seed, others, n_screen, n_final, keep)
    best = finals[0]
    result["recommended"] = best
    result["runners_up"] = finals[1:]
    result["skill"] = {}
    for name, (pols, share) in skills.items():
        params = resolve(spec, {**user, **best["point"]})
        result["skill"][name] = measure(spec, Engine(spec, pols), params, players, seed, max(20, int(n_skill * share)))
    return result


def write_tuning(folder, result: dict, command: str):
    import json
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tuning.json").write_text(json.dumps({**result, "command": command}, indent=2, default=float))
    from reports import render_tuning_report

    return render_tuning_report(folder, result)
