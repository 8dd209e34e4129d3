"""What the value-fitting scripts share (tests/fit_overtime_value.py, tests/fit_solo_value.py): their
command line, a logistic regression with fractional targets and its cross-entropy."""
from __future__ import annotations

import argparse

import numpy as np
from scipy.optimize import minimize


def cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The weights w of p = 1 / (1 + exp(-x @ w)) that minimise the cross-entropy to targets y in [0, 1]."""
    def loss(w):
        p = 1 / (1 + np.exp(-(x @ w)))
        return cross_entropy(p, y), x.T @ (p - y) / len(y)

    # tight tolerances: the optimum itself, not where a looser stop happens to fall on this machine
    return minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B",
                    options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-10}).x


def predict(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ w)))


def arguments(doc: str, n: int, test_n: int, argv=None) -> argparse.Namespace:
    """The script's options: the fitting sample (--seed, -n games) and the held-out one (--test-seed, --test-n);
    `doc`'s first line is the description."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("-n", type=int, default=n)
    ap.add_argument("--test-seed", type=int, default=12)
    ap.add_argument("--test-n", type=int, default=test_n)
    return ap.parse_args(argv)
