"""The solo campaign: start at level 1; a win moves on (events removed), a loss
replays the level with one more random event (up to the 7 there are).

Attempt a of level L in campaign c is game index (c * 16 + L) * 4096 + a of
the master seed, so a campaign is reproducible whatever the batching."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from balance.simcore.batch import Engine, SeatPolicy
from balance.simcore.params import resolve
from balance.simcore.spec import GameSpec

from .card_copies import card_list_record
from .stats import bootstrap_ci, family_level, margin_verdict, mean_ci, rate, two_proportions_ci

LEVELS = range(1, 12)
ATTEMPT_SLOTS = 4096
ALPHA = 0.05
DEFAULT_MARGIN = 0.02  # 2 points of win rate per attempt, as every command's --margin


def run_campaign(spec: GameSpec, user: dict, players: int, policies: list[SeatPolicy], seed: int,
                 n_campaigns: int, max_attempts: int = 200, levels=LEVELS, margin: float = DEFAULT_MARGIN) -> dict:
    levels = list(levels)
    max_attempts = min(max_attempts, ATTEMPT_SLOTS)
    max_events = int(spec.param("events").high)
    engine = Engine(spec, policies)
    level_at = np.zeros(n_campaigns, np.int64)  # index into levels
    attempts = np.zeros((n_campaigns, len(levels)), np.int64)
    wins = np.zeros((n_campaigns, len(levels)), np.int64)
    gave_up = np.zeros(n_campaigns, bool)
    tables_cache: dict[tuple[int, int], tuple] = {}
    cid = np.arange(n_campaigns)
    while True:
        active = (level_at < len(levels)) & ~gave_up
        if not active.any():
            break
        li = level_at[active]
        att = attempts[cid[active], li]
        events = np.minimum(att, max_events)
        for key in sorted(set(zip(li.tolist(), events.tolist()))):
            sel = cid[active][(li == key[0]) & (events == key[1])]
            level = levels[key[0]]
            if key not in tables_cache:
                params = resolve(spec, {**user, "level": level, "events": key[1]})
                data = spec.load_data(params)
                tables_cache[key] = (data.tables, len(data.card_names))
            tables, n_cards = tables_cache[key]
            idx = (sel * 16 + level) * ATTEMPT_SLOTS + attempts[sel, key[0]]
            res = engine.run(tables, players, seed, idx.astype(np.int64), n_cards)
            won = res.seat_out[:, 0, 0] > 0.5
            attempts[sel, key[0]] += 1
            wins[sel, key[0]] += won
            level_at[sel[won]] += 1
            gave_up[sel[~won & (attempts[sel, key[0]] >= max_attempts)]] = True
    cleared_all = level_at >= len(levels)
    rows = []
    for j, level in enumerate(levels):
        reached = attempts[:, j] > 0
        cleared = wins[:, j] > 0
        a = attempts[cleared, j]
        rows.append({
            "level": level,
            "reached": int(reached.sum()),
            "cleared": int(cleared.sum()),
            "attempts": {**mean_ci(a), "median": float(np.median(a)) if a.size else None},
            "win_rate": rate(int(wins[:, j].sum()), int(attempts[:, j].sum())),
            "first_try": rate(int((cleared & (attempts[:, j] == 1)).sum()), int(reached.sum())),
        })
    total = attempts[cleared_all].sum(axis=1)
    result = {
        "game": spec.name,
        "players": players,
        "policies": [p.describe() for p in policies],
        "seed": seed,
        "n_campaigns": n_campaigns,
        "max_attempts": max_attempts,
        "user_params": user,
        "card_list": card_list_record(spec, {**user, "level": levels[0]}) if levels else card_list_record(spec, user),
        "levels": rows,
        "gave_up": int(gave_up.sum()),
        "games_to_clear": {
            "n": int(cleared_all.sum()),
            "mean": mean_ci(total),
            "median": float(np.median(total)) if total.size else None,
            "median_ci": list(bootstrap_ci(total)) if total.size else None,
            "p10": float(np.quantile(total, 0.1)) if total.size else None,
            "p90": float(np.quantile(total, 0.9)) if total.size else None,
        },
    }
    result["verdicts"] = verdicts(rows, margin)
    return result


def verdicts(levels: list[dict], margin: float = DEFAULT_MARGIN, alpha: float = ALPHA) -> dict:
    """campaign.json's `verdicts` (as summary.json's): each level's win rate per attempt minus the level
    before's, against the margin. The attempts of two levels are different games (unpaired: Newcombe's
    interval), each interval at 1 - alpha/steps (Bonferroni over the steps), the verdict read from it."""
    played = [x for x in levels if x["win_rate"]["n"]]
    m = max(1, len(played) - 1)
    level = family_level(alpha, m)
    items = []
    for a, b in zip(played, played[1:]):
        wa, wb = a["win_rate"], b["win_rate"]
        d = two_proportions_ci(wa["k"], wa["n"], wb["k"], wb["n"], level)
        items.append({"id": "step", "level": b["level"], "from_level": a["level"],
                      "question": f"Is level {b['level']} harder per attempt than level {a['level']}?",
                      "metric": f"win rate per attempt, level {b['level']} minus level {a['level']}",
                      "estimate": d["diff"], "ci": d["ci"], "ci_level": level, "n": min(wa["n"], wb["n"]),
                      "n_a": wa["n"], "n_b": wb["n"], "p": d["p"],
                      **margin_verdict(d["diff"], d["ci"], margin, n=min(wa["n"], wb["n"]))})
    counts: dict[str, int] = {}
    for it in items:
        counts[it["verdict"]] = counts.get(it["verdict"], 0) + 1
    return {"margin": margin, "alpha": alpha, "margin_kind": "absolute, in win-rate points (0.02 = 2 points)",
            "family_size": m, "items": items, "counts": counts}


def campaign_result(result: dict, command: str | None = None):
    """campaign.json's model (analysis.campaign_result) of run_campaign's result."""
    from .campaign_result import CampaignResult
    from .jsonsafe import jsonable

    return CampaignResult.model_validate(jsonable({**result, "command": command}))


def write_campaign(folder: Path, spec: GameSpec, result: dict, command: str | None):
    """Write campaign.json (the report is the reports layer's: reports.render_campaign_report); return its model."""
    model = campaign_result(result, command)
    model.write(folder)
    return model
