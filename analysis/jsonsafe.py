"""One way to make a result JSON-safe (summary.json, impact.json, card_power.json, ...): numpy and
polars scalars to plain Python, NaN and infinities to None (JSON has neither), keys to str."""
from __future__ import annotations

import math

import numpy as np
import polars as pl


def jsonable(obj):
    """numpy / polars scalars to plain Python; NaN and inf to None; keys to str."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        f = float(obj)
        return None if math.isnan(f) or math.isinf(f) else f
    if isinstance(obj, pl.Series):
        return jsonable(obj.to_list())
    if isinstance(obj, pl.DataFrame):
        return jsonable(obj.to_dicts())
    return obj
