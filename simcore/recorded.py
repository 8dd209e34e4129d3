"""The `recorded` policy: a seat that plays back a list of decisions (`balance play`).

A game a person played at the table (`balance play`) is saved as an ordinary
one-game run folder whose human seat has this policy: its parameter vector is
the shared N_POLICY_PARAMS slots (all zero: no epsilon), then a cursor, then
the option codes the person chose, in order, at every decision the runner
asked them (a decision with one legal option is never asked: the runner plays
it). The runner calls it through its user-policy slot, so `balance replay`
and the batch loop replay the person's game with the same kernels, streams
and bots as any run.

Honest by construction: each recorded option code must be among the legal
options at its decision, or the policy answers -1 and the runner stops the
game as a bad choice (`Engine` reports it): a replay under another engine or
card list that would lead elsewhere is refused, never silently played
differently. The cursor lives in the vector itself (slot P_CURSOR), so a
recorded seat plays one game per parameter array: a recorded run has one
game, and every `Engine.run`/`replay` builds its arrays afresh.

Compiled like a user policy file (plain `numba.njit`, one process at a time),
never cached on its own: the runner's loop that calls it is cached under a
key holding this file's content hash (`USER_KEY`), so an edit here compiles
a new loop rather than loading one with the old code.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from .slots import N_POLICY_PARAMS

RECORDED = 6  # a policy kind outside the built-in ones: the runner routes it to its user-policy slot
NAME = "recorded"
P_CURSOR = N_POLICY_PARAMS  # decisions played back so far
P_FIRST = N_POLICY_PARAMS + 1  # the first recorded option code
MAX_CODE = 2**53  # option codes are stored as float64: exact below this

USER_KEY = "recorded-" + hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


def play_back(tables, state, seat, options, n, params, rng):
    """The recorded option code of this decision, as an index into options[:n]; -1 when the record is
    used up or its code is not a legal option here."""
    at = np.int64(params[P_CURSOR])
    if at < 0 or P_FIRST + at >= params.shape[0]:
        return -1
    want = np.int64(params[P_FIRST + at])
    params[P_CURSOR] = at + 1
    for j in range(n):
        if options[j] == want:
            return j
    return -1


_KERNEL = []


def kernel():
    """`play_back` compiled (once per process), for the runner's user-policy slot."""
    if not _KERNEL:
        import numba

        from .jit import stable_uuid

        _KERNEL.append(stable_uuid(numba.njit(play_back), f"balance.simcore.recorded.play_back@{USER_KEY}"))
    return _KERNEL[0]


def params_of(codes) -> tuple[float, ...]:
    """A recorded seat's parameter vector: the shared slots at zero, the cursor at 0, then the codes."""
    out = [0.0] * N_POLICY_PARAMS + [0.0]
    for c in codes:
        c = int(c)
        if not 0 <= c < MAX_CODE:
            raise ValueError(f"option code {c} cannot be recorded (allowed: 0..2**53-1)")
        out.append(float(c))
    return tuple(out)


def codes_of(params) -> list[int]:
    """The recorded option codes of a recorded seat's parameter vector."""
    return [int(x) for x in list(params)[P_FIRST:]]
