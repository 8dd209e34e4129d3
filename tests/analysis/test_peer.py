"""analysis/peer.py: the OpenSpiel rollouts `balance bench` measures beside its own random play."""
import pytest

from balance.analysis import peer


def test_ratio_is_each_games_one_thread_random_rate_over_the_peers_mean():
    samples = [{"decisions_per_second": 1.0e6}, {"decisions_per_second": 3.0e6}]
    p = peer.summary(samples)
    assert p["decisions_per_second"] == 2.0e6
    assert (p["decisions_per_second_min"], p["decisions_per_second_max"]) == (1.0e6, 3.0e6)
    results = [{"game": "g", "players": 4, "rows": [
        {"policy": "random", "threads": 1, "decisions_per_second": 10.0e6},
        {"policy": "random", "threads": 2, "decisions_per_second": 19.0e6},  # not the one-thread figure
        {"policy": "greedy", "threads": 1, "decisions_per_second": 1.0e6}]}]
    (row,) = peer.ratio_rows(results, p)
    assert row["game"] == "g" and row["ratio"] == pytest.approx(5.0)


@pytest.mark.skipif(not peer.installed(), reason="OpenSpiel not installed (pip install open-spiel)")
def test_a_sample_counts_openspiel_decisions_apart_from_chance():
    s = peer.sample(0.5)
    assert s["games"] > 0 and s["decisions"] > s["games"] and s["chance"] > 0
    assert s["decisions_per_second"] == pytest.approx(s["decisions"] / s["seconds"])


def test_bench_refuses_peer_when_openspiel_is_missing(monkeypatch):
    from typer.testing import CliRunner

    from balance.cli.app import app

    monkeypatch.setattr(peer, "installed", lambda: False)
    r = CliRunner().invoke(app, ["bench", "--game", "overtime", "--peer", "-n", "10"])
    assert r.exit_code == 2
    assert "--peer: OpenSpiel is not installed" in r.stderr
