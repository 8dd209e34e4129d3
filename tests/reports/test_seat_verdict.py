"""The run report's seat verdict: one sentence read from the one interval it prints, with the margin
verdict; and no verdict where no deal set one seat (or policy) against another (issue 40, items 6b and 7)."""
import numpy as np

from balance.analysis.summary import summarize_frames
from balance.analysis.summary_result import SummaryResult
from balance.reports.run_words import seat_gap_sentences
from balance.reports.views import key_figures
from synthetic import SPEC
from test_summary import _rotated_frames, _rotated_manifest


def test_a_rotated_run_where_one_policy_wins_every_deal_gives_no_seat_verdict():
    g, s = _rotated_frames(2000, lambda i, r: r)  # greedy wins from either seat on every deal
    out = SummaryResult.model_validate(summarize_frames(g, s, None, _rotated_manifest(2000), SPEC))
    words = " ".join(seat_gap_sentences(out)).replace("\u00a0", " ")
    assert words.startswith("Seats rotated: each deal played 2 times")
    assert "Are the seats balanced? Not enough information to say: every one of the 2,000 deals gave every seat " \
           "the same wins over its 2 rotated replays" in words
    assert "50.0% is the fair share by construction" in words and "balanced within the margin" not in words
    # the policies were measured: greedy beats random, read from the policies' own interval
    assert "The policies, each over every seat: greedy 100.0%" in words and "differs by more than the margin" in words
    fig = next(f for f in key_figures(out) if f.label == "seat gap")
    assert "not enough information to say" in fig.detail and "not significant" not in fig.detail


def test_a_rotated_run_where_the_policies_play_alike_gives_no_policy_verdict():
    deal_seat = np.random.default_rng(2).integers(0, 2, 2000)
    g, s = _rotated_frames(2000, lambda i, r: deal_seat[i])
    out = SummaryResult.model_validate(summarize_frames(g, s, None, _rotated_manifest(2000), SPEC))
    words = " ".join(seat_gap_sentences(out)).replace("\u00a0", " ")
    assert "The policies, each over every seat: greedy 50.0%, random 50.0%; not enough information to say" in words
    assert "[50.0%, 50.0%]" not in words
    # the seats were measured: their verdict is read from the interval printed
    gap = out.seat_gap
    assert "against the margin of ±2.0 pts: " + gap.verdict.words in words
    assert gap.significant == (gap.ci[0] > 0)
