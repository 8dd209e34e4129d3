"""The peer `balance bench` stands beside: OpenSpiel's C++ random rollouts of crazy_eights, measured on
this machine in the same sitting, so the ratio in issue 46 ("five times OpenSpiel per decision") is
measured, not remembered.

Only when OpenSpiel is installed (`pip install open-spiel`, or the `bench` extra). Each sample runs in a
fresh process on one thread (as our one-thread rows do): whole games inside OpenSpiel's C++ core
(`pyspiel.evaluate_bots` with uniform random bots, one Python call a game); the timed region is the new
state and that call, and the player decisions are counted from the game's history outside it (chance
moves are counted apart, not as decisions). `balance bench` takes one sample before its games and one
after, and shows their mean and range beside each game's `random` decisions/s on one thread.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

PEER_GAME = "crazy_eights"  # OpenSpiel's default: 5 players, the closest of its card games to ours

_CHILD = r"""
import json, sys, time
import pyspiel
game = pyspiel.load_game(sys.argv[1])
seconds = float(sys.argv[2])
n = game.num_players()
bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(n)]
games = decisions = chance = 0
timed = 0.0
end = time.perf_counter() + seconds
while time.perf_counter() < end:
    t0 = time.perf_counter()
    state = game.new_initial_state()
    pyspiel.evaluate_bots(state, bots, games + 1)
    timed += time.perf_counter() - t0
    for step in state.full_history():
        if step.player < 0:
            chance += 1
        else:
            decisions += 1
    games += 1
print(json.dumps({"games": games, "seconds": timed, "decisions": decisions, "chance": chance}))
"""


def installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


def sample(seconds: float = 5.0, game: str = PEER_GAME) -> dict:
    """One measurement in a fresh single-threaded process: games, decisions and their rates."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", _CHILD, game, str(seconds)], capture_output=True, text=True, env=env,
                          timeout=seconds * 10 + 60)
    if done.returncode != 0:
        raise RuntimeError(f"OpenSpiel {game}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'failed'}")
    r = json.loads(done.stdout.strip().splitlines()[-1])
    r["decisions_per_second"] = r["decisions"] / r["seconds"]
    r["games_per_second"] = r["games"] / r["seconds"]
    return r


def summary(samples: list[dict], game: str = PEER_GAME) -> dict:
    rates = [s["decisions_per_second"] for s in samples]
    return {"peer": f"OpenSpiel C++ {game} (evaluate_bots, uniform random)", "game": game, "samples": samples,
            "decisions_per_second": sum(rates) / len(rates), "decisions_per_second_min": min(rates),
            "decisions_per_second_max": max(rates)}


def ratio_rows(results: list[dict], peer: dict) -> list[dict]:
    """Each game's random decisions/s on one thread over the peer's mean: the issue's ratio."""
    rows = []
    for r in results:
        for row in r["rows"]:
            if row["policy"] == "random" and row["threads"] == 1:
                rows.append({"game": r["game"], "players": r["players"],
                             "decisions_per_second": row["decisions_per_second"],
                             "ratio": row["decisions_per_second"] / peer["decisions_per_second"]})
    return rows
