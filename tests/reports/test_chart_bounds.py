"""A rate of k = n (or 0) has a Wilson bound equal to it only up to float rounding:
the charts draw such an interval, never fail on a 'negative' error bar (found by
the README tour: `tune ... --target ladder=...` at small -n)."""
from balance.reports import charts


def test_ladder_fit_with_a_bound_a_rounding_error_inside_the_value():
    fitted = {"label": "fitted", "y": [1.0, 0.0, 0.5], "lo": [0.9, 1e-17, 0.4], "hi": [1.0 - 1e-16, 0.1, 0.6],
              "n": [24, 24, 24]}
    svg = charts.ladder_fit([1, 2, 3], [0.99, 0.9, 0.5], fitted, [], "ladder")
    assert svg.lstrip().startswith("<svg") or "<svg" in svg
