"""Game states kept as one numpy record (docs/adding-a-game.md, "Calls between kernels").

Kernels see the record's fields at their fixed sizes. Python (tests, debugging)
reads a state through a `RecordView`, with each field cut to the game's sizes.
"""
import numba
import numpy as np


def record_dtype(fields) -> np.dtype:
    """A state's dtype. In plain Python (NUMBA_DISABLE_JIT=1) it is an np.record
    dtype, so that `S[0].hand` works there as it does in the kernels."""
    dt = np.dtype(fields)
    return np.dtype((np.record, dt)) if numba.config.DISABLE_JIT else dt


class RecordView(np.ndarray):
    """A one-element state record array with its fields as attributes
    (`view.hand[p, i]`), each a view cut to the game's sizes: AXES[field] names
    the size of each leading axis ("." keeps the axis whole), and sizes(g) gives
    the sizes from the state's header field `g`. It is still the array the
    kernels take, so it may be passed to them."""

    AXES: dict = {}

    @staticmethod
    def sizes(g) -> dict:
        return {}

    def __getattr__(self, name):
        rec = self.view(np.ndarray)
        if rec.dtype.names is None or name not in rec.dtype.names:
            raise AttributeError(name)
        size = self.sizes(rec["g"][0])
        cut = tuple(slice(None) if a == "." else slice(0, int(size[a])) for a in self.AXES.get(name, ""))
        return rec[name][0][cut]


def flat_layout(fields, typename: str = "Layout"):
    """Offsets of a flat state (one int64 array): `fields` is (name, size)
    pairs in order; returns (offsets, total size). `L.deck` is where the
    deck starts, so kernels index by name (`s[L.deck + i]`), never by a
    counted position. Kernels read the NamedTuple as a global (its ints are
    frozen at compile time)."""
    names, at, starts = [], 0, []
    for name, size in fields:
        names.append(name)
        starts.append(at)
        at += int(size)
    return named_positions(typename, names, starts), at


def named_positions(typename: str, names, values):
    """A NamedTuple instance `typename(names...)` holding `values` that pickles as
    this call. Kernels read these as globals, and numba keys the cache of a closure
    over such kernels (the runner's `play` and `run_games`) by the pickled closure:
    an instance of a class made by `namedtuple()` pickles its class by value, with
    a random id, so that key changed in every process and the game loop was compiled
    again by every process. Pickled as `named_positions(typename, names, values)`,
    it is the same bytes in every process and unpickles anywhere."""
    from collections import namedtuple

    names = tuple(names)
    values = tuple(int(v) for v in values)
    cls = namedtuple(typename, names)
    cls.__reduce__ = lambda self: (named_positions, (typename, names, tuple(self)))
    return cls(*values)
