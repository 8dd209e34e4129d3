"""`balance bench`: games/s and decisions/s of each game, beside OpenSpiel when it is installed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from balance.simcore.errors import BalanceError

from .app import GAME_HELP, _policies, command, err, games_opt, out


def check_policies(names: list[str], policies: list[str], named: bool) -> None:
    """Every --policy, each at every seat (random,greedy: two policies), checked against each game before any
    work: an unknown one fails. A game's refusal (the party game's expert) fails only where the game was named with
    --game; measuring every game, such a game shows the policy as not available in its row and the others go on."""
    from balance.analysis.bench import available
    from balance.simcore import registry

    for name in names:
        for pol in policies if named else available(name, policies)[0]:
            _policies(registry.get(name), [pol], None)


@command()
def bench(
    game: Annotated[Optional[list[str]], typer.Option("--game", "-g", metavar="GAME", help=GAME_HELP)] = None,
    n: Annotated[int, games_opt()] = 20_000,
    policy: Annotated[Optional[list[str]], typer.Option(
        "--policy", metavar="NAME", help="a policy to measure, at every seat (repeat or comma-separate; default: "
                                         "random, greedy and expert)")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="2,000 games per measurement, 5 without the JIT, 1 sample")] = False,
    repeat: Annotated[Optional[int], typer.Option("--repeat", metavar="K", min=1, help="samples per row, taking turns; a row shows their median and range (default: 3)")] = None,
    cold: Annotated[bool, typer.Option("--cold/--no-cold", help="also time a compile on an empty cache (minutes per game)")] = True,
    nojit: Annotated[Optional[int], typer.Option("--nojit-games", metavar="N", min=0, help="games played with NUMBA_DISABLE_JIT=1 for the speed-up (0: skip)")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", metavar="FILE", help="also write the table to this JSON file")] = None,
    peer: Annotated[Optional[bool], typer.Option(
        "--peer/--no-peer", help="also measure OpenSpiel's C++ crazy_eights random rollouts before and after the games, "
                                 "and show each game's random decisions/s on one thread as a multiple of it (default: "
                                 "when OpenSpiel is installed: pip install open-spiel)")] = None,
    peer_seconds: Annotated[float, typer.Option("--peer-seconds", metavar="S", min=0.5, help="seconds per OpenSpiel sample")] = 10.0,
):
    """Games/s and decisions/s of each game (every game unless --game; repeat --game for several) on one core and
    on all cores, compile time on a cold and a warm cache, the speed-up over the JIT disabled, peak memory."""
    import numba

    from balance.analysis.bench import bench_game
    from balance.simcore import registry

    n = 2_000 if quick else n
    nojit_games = nojit if nojit is not None else (5 if quick else 20)
    repeat = repeat if repeat is not None else (1 if quick else 3)
    names = game or registry.names()
    for name in names:
        registry.get(name)  # unknown names fail before any work
    from balance.analysis.bench import DEFAULT_POLICIES

    policies = [x.strip() for item in (policy or list(DEFAULT_POLICIES)) for x in item.split(",") if x.strip()]
    check_policies(names, policies if policy else [], named=bool(game))
    results = []
    t = Table(title=f"balance bench — {n:,} games per measurement, median of {repeat} taking turns, "
                    f"{numba.config.NUMBA_NUM_THREADS} cores")
    for col in ("game", "players", "policy", "threads", "games/s", "slowest-fastest", "decisions/s", "decisions/game",
                "1M games (s)", "× no JIT"):
        t.add_column(col, justify="right")
    costs = Table(title="per game: compile and memory")
    for col in ("game", "compile, cold cache (s)", "load, warm cache (s)", "peak RSS warm (MB)", "peak RSS cold (MB)"):
        costs.add_column(col, justify="right")
    from .first_run import bench_line

    from balance.analysis import peer as peers

    if peer and not peers.installed():
        raise BalanceError("--peer: OpenSpiel is not installed; allowed: pip install open-spiel (or the bench extra), "
                           "or --no-peer")
    peer = peers.installed() if peer is None else peer
    peer_samples = []
    with err.status("measuring (each game in fresh processes)…") as status_line:
        if peer:
            status_line.update(f"measuring OpenSpiel's {peers.PEER_GAME} (one thread, {peer_seconds:g} s)…")
            peer_samples.append(peers.sample(peer_seconds))
        for name in names:
            status_line.update(bench_line(registry.get(name), policies, cold) + " (each game in fresh processes)…")
            try:
                r = bench_game(name, n, policies, cold=cold, nojit_games=nojit_games, repeat=repeat)
            except RuntimeError as exc:
                raise BalanceError(f"--game: {exc}") from None
            results.append(r)
            for row in r["rows"]:
                speed = f"{row['jit_speedup']:,.0f}" if "jit_speedup" in row else ""
                t.add_row(name, str(r["players"]), row["policy"], str(row["threads"]), f"{row['games_per_second']:,.0f}",
                          f"{row['games_per_second_min']:,.0f}-{row['games_per_second_max']:,.0f}",
                          f"{row['decisions_per_second']:,.0f}", f"{row['decisions_per_game']:.1f}",
                          f"{1e6 / row['games_per_second']:,.0f}", speed)
            for pol, why in (r.get("refused") or {}).items():
                t.add_row(name, str(r["players"]), pol, "", "not available", "", "", "", "", "")
            cold_s = f"{r['cold_compile_seconds']:.1f}" if r["cold_compile_seconds"] is not None else "(skipped)"
            cold_mb = f"{r['cold_peak_rss_mb']:,.0f}" if r["cold_peak_rss_mb"] is not None else "(skipped)"
            costs.add_row(name, cold_s, f"{r['warm_load_seconds']:.2f}", f"{r['peak_rss_mb']:,.0f}", cold_mb)
        if peer:
            status_line.update(f"measuring OpenSpiel's {peers.PEER_GAME} again (one thread, {peer_seconds:g} s)…")
            peer_samples.append(peers.sample(peer_seconds))
    out.print(t)
    out.print(costs)
    peer_result = peers.summary(peer_samples) if peer_samples else None
    if peer_result is not None:
        pt = Table(title=f"random play beside {peer_result['peer']}: {peer_result['decisions_per_second']:,.0f} "
                         f"decisions/s on one thread (before and after the games: "
                         f"{peer_result['decisions_per_second_min']:,.0f}-{peer_result['decisions_per_second_max']:,.0f})")
        for col in ("game", "players", "random decisions/s, 1 thread", "× OpenSpiel"):
            pt.add_column(col, justify="right")
        peer_result["ratios"] = peers.ratio_rows(results, peer_result)
        for row in peer_result["ratios"]:
            pt.add_row(row["game"], str(row["players"]), f"{row['decisions_per_second']:,.0f}", f"{row['ratio']:.1f}")
        out.print(pt)
    elif not peers.installed():
        out.print("OpenSpiel is not installed: no peer ratio (pip install open-spiel, then balance bench again)",
                  highlight=False)
    if json_out is not None:
        json_out.write_text(json.dumps({"games_per_measurement": n, "samples_per_row": repeat,
                                        "cores": numba.config.NUMBA_NUM_THREADS,
                                        "nojit_games": nojit_games, "results": results, "peer": peer_result}, indent=2))
        out.print(f"written: {json_out}")
