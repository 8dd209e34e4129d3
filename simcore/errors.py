"""The two errors every layer may raise, in a module of their own so that a card
loader, the engine and the command line share them without importing each other.

`BalanceError` is bad input from the user (a file, an option, a damaged run
folder): its message names the file or option, the field, and what is allowed
or how to recover; the command line prints it as one line and exits 2.
`InvariantBroken` is an engine bug found by `--check` (exit 1).
"""
from __future__ import annotations

import shlex


class BalanceError(ValueError):
    """Bad input from the user: the message names the file/field and allowed values."""


class InvariantBroken(RuntimeError):
    """`--check` found a state that breaks one of the game's invariants."""

    def __init__(self, game: str, invariant: str, index: int, decision: int, count: int, of: int,
                 seed: int, variant: int = 0, run_dir: str | None = None):
        super().__init__(game, invariant, index, decision, count, of, seed, variant, run_dir)
        self.game, self.invariant, self.index, self.decision = game, invariant, index, decision
        self.count, self.of, self.seed, self.variant, self.run_dir = count, of, seed, variant, run_dir

    def __reduce__(self):  # survives a trip from a Dask worker with its variant and folder
        return (InvariantBroken, (self.game, self.invariant, self.index, self.decision, self.count, self.of,
                                  self.seed, self.variant, self.run_dir))

    def replay_command(self) -> str:
        if self.run_dir is not None:
            where = shlex.quote(str(self.run_dir)) + (f" --variant {self.variant}" if self.variant else "")
        else:
            where = f"--game {self.game} --seed {self.seed}"
        return f"balance replay {where} --index {self.index} --check"

    def __str__(self) -> str:
        return (f"--check: game index {self.index} broke an invariant after decision {self.decision}: "
                f"{self.invariant} ({self.count} of {self.of} game(s) in its chunk); "
                f"replay it with: {self.replay_command()}")
