"""The same rules in plain Python (`NUMBA_DISABLE_JIT=1`, which `balance bench`
times for its speed-up column) play exactly the games the compiled engine plays."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from balance.simcore import registry

SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[2])  # tests/: the fixture games
import numpy as np
from balance.simcore import registry
registry.GAMES.setdefault("shed", "shedgame.spec")
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.params import resolve
from balance.simcore.registry import get
spec = get(sys.argv[1])
params = resolve(spec, {})
data = spec.load_data(params)
tables = data.tables
out = []
for policy in ("random", "greedy"):
    eng = Engine(spec, [resolve_policy(spec, policy)])
    r = eng.run(tables, spec.default_players, 7, np.arange(2, dtype=np.int64), len(data.card_names))
    out.append([r.game_out.tolist(), r.seat_out.tolist(), r.card_stats.sum(axis=0).tolist()])
print(json.dumps(out))
"""


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_plain_python_plays_the_compiled_games(game):
    got = {}
    for mode in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=mode)
        p = subprocess.run([sys.executable, "-c", SCRIPT, game, str(Path(__file__).resolve().parent)], env=env, capture_output=True, text=True,
                           timeout=1800, check=False)
        assert p.returncode == 0, p.stderr[-3000:]
        got[mode] = json.loads(p.stdout.strip().splitlines()[-1])
    for compiled, plain in zip(got["0"], got["1"], strict=True):
        for a, b in zip(compiled, plain, strict=True):
            np.testing.assert_array_equal(np.array(a, float), np.array(b, float))
