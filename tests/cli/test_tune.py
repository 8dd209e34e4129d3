"""`balance tune` on the toy game: a seat-advantage bound and a length band."""
import json

import pytest
from typer.testing import CliRunner

from balance.analysis.tune import parse_target
from balance.cli.app import app
from balance.simcore.errors import BalanceError

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("race21")


def test_targets_parse_and_bad_ones_are_clear():
    t = parse_target("win_rate=0.45..0.55")
    assert (t.metric, t.low, t.high) == ("win_rate", 0.45, 0.55)
    assert parse_target("seat_gap<=0.02").high == 0.02
    assert parse_target("ladder=0.9,0.5").ladder == (0.9, 0.5)
    for bad, words in [("speed=1..2", "unknown metric"), ("win_rate=0.6..0.4", "low end"), ("ladder=2,1", "0..1"),
                       ("win_rate", "METRIC=LOW..HIGH")]:
        with pytest.raises(BalanceError, match=words):
            parse_target(bad)


def test_tune_finds_the_length_band(tmp_path):
    # longer races take more turns: only targets near 30 give a median of 12-14 decisions
    r = runner.invoke(app, ["tune", "--game", "race21", "--vary", "target=10..50:10", "--target", "length_median=12..14",
                            "-n", "400", "--screen", "100", "--keep", "2", "--policy", "random", "--out", str(tmp_path / "t")])
    assert r.exit_code == 0, r.output
    result = json.loads((tmp_path / "t" / "tuning.json").read_text())
    assert result["recommended"]["point"] == {"target": 30}
    assert 12 <= result["recommended"]["measured"]["length_median"]["value"] <= 14
    assert len(result["runners_up"]) == 1 and set(result["skill"]) == {"weaker (25% random moves)", "stronger (lookahead, 4 rollouts)"}
    # chosen on games 0..399, reported on the fresh games 400..799 only
    assert result["games"]["selection"] == [0, 399] and result["recommended"]["measured"]["indices"] == [400, 799]
    assert all(u["measured"]["indices"] == [400, 799] for u in result["runners_up"])
    assert len(result["certainty"]["p_best"]) == 2
    for row in result["skill"].values():
        lo, hi = row["vs_assumed"]["ci"]
        assert row["vs_assumed"]["sign"] == ("higher" if lo > 0 else "lower" if hi < 0 else "straddles 0")
    assert "fresh win rate" in r.output and "report:" in r.output
    assert (tmp_path / "t" / "report.html").exists()
