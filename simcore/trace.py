"""Event log written by a kernel when asked (an empty array means: don't).

Layout: trace[0] holds the number of int32 used; each event is EVENT_WIDTH
ints (code, a, b, c, d) appended after it. Each game decodes its own codes
into rulebook words (`decode_trace` on its spec, made by `simcore.transcript.Decoder`
from the game's declared events).
"""
import numpy as np

from .jit import jit

EVENT_WIDTH = 5
DEFAULT_TRACE_LEN = 1 + EVENT_WIDTH * 20_000
EV_CAP = -2  # the runner's own event: the turn cap stopped the game (every game's transcript words it)


@jit
def emit(trace, code, a, b, c, d):
    n = trace.shape[0]
    if n == 0:
        return
    at = trace[0] + 1
    if at + EVENT_WIDTH > n:
        return
    trace[at] = code
    trace[at + 1] = a
    trace[at + 2] = b
    trace[at + 3] = c
    trace[at + 4] = d
    trace[0] += EVENT_WIDTH


def no_trace() -> np.ndarray:
    return np.zeros(0, np.int32)


def new_trace(length: int = DEFAULT_TRACE_LEN) -> np.ndarray:
    return np.zeros(length, np.int32)


def events(trace: np.ndarray) -> np.ndarray:
    """The events of a filled trace as an (n, EVENT_WIDTH) array."""
    used = int(trace[0])
    return trace[1 : 1 + used].reshape(-1, EVENT_WIDTH)
