"""The compile cache key covers every core file that holds a kernel."""
from pathlib import Path

import simcore
from simcore.jit import KERNEL_FILES

CORE = Path(simcore.__file__).resolve().parent


def test_every_core_file_with_a_kernel_is_in_the_cache_key():
    holding = {p.name for p in CORE.glob("*.py")
               if "@jit" in p.read_text() or "njit_cached(" in p.read_text().replace("def njit_cached(", "")}
    assert holding <= set(KERNEL_FILES), f"add {sorted(holding - set(KERNEL_FILES))} to simcore.jit.KERNEL_FILES"
    assert all((CORE / f).is_file() for f in KERNEL_FILES)
