"""The commands, called from Python: how `balance.simulate(...)` and the other API functions
(balance/__init__.py) reach the very functions the command line runs.

`call(name, given)` checks each value with the option's own declaration (the click parameter Typer
built from it: its type, range and choices, so the messages are the command line's), keeps what Python
says better than text as it is (a mapping {name: value} for --set, --policy-param, --vary and the
sides of compare, each value checked as a TOML file's value is), and runs the command's function with
every other option at its command-line default. Errors are raised as `BalanceError` (one line, as the
command line prints it), before anything is written when the command line refuses before anything is
written. The run's folder is closed and its lock let go when the call returns, as when the command
ends. What the command prints (its progress bar included) goes to the terminal or the notebook.
"""
from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer

from balance.simcore.errors import BalanceError

from . import app as _app


@functools.lru_cache(maxsize=1)
def _group():
    return typer.main.get_command(_app.app)  # every command registered (cli/__init__.py ran first)


def click_command(name: str):
    return _group().commands[name]


def parameters(name: str) -> list:
    """The command's options and arguments, in the order of its function's parameters."""
    return list(click_command(name).params)


def _path_like(hint) -> bool:
    args = typing.get_args(hint) or (hint,)
    return Path in args or any(Path in typing.get_args(a) for a in args)


def _one(param, value: Any) -> Any:
    """A Python value as the option's declaration takes it: one item of a repeated option becomes a list of
    one; a whole number given as a float or a bool is refused (text would be: '10.5' is not an integer)."""
    if param.multiple and isinstance(value, (str, Path, int, float)):
        value = [value]
    if param.multiple and isinstance(value, (list, tuple)):
        return [_scalar(param, v) for v in value]
    return _scalar(param, value)


def _is_int(param) -> bool:
    described = getattr(param, "type_descriptor", None)  # typer >= 0.2x: its own parameters, pydantic types
    if described is not None:
        return described.annotation is int
    return getattr(getattr(param, "type", None), "name", "") == "integer"


def _scalar(param, value):
    if _is_int(param) and (isinstance(value, bool) or (isinstance(value, float) and not value.is_integer())):
        return str(value)  # refused by the type, with its message: never silently rounded
    if _is_int(param) and isinstance(value, float):
        return int(value)
    if isinstance(value, Path):
        return str(value)
    return value


def _message(param, exc: Exception) -> str:
    if getattr(exc, "param", param) is None:
        exc.param = param
    return exc.format_message().replace("\n", " ")


def call(name: str, given: dict[str, Any], written: str):
    """Run command `name` with the options `given` (by the command function's parameter names); `written`
    is the call as the user wrote it, recorded in the folder as its command."""
    func = _app.COMMANDS[name]
    cmd = click_command(name)
    params = {p.name: p for p in cmd.params}
    unknown = [k for k in given if k not in params]
    if unknown:
        allowed = ", ".join(p.name for p in cmd.params if not getattr(p, "hidden", False))
        raise BalanceError(f"{name}: no option '{unknown[0]}'; allowed: {allowed}")
    ctx = cmd.context_class(cmd, info_name=name)
    hints = typing.get_type_hints(func.__wrapped__)
    values: dict[str, Any] = {}
    for p in cmd.params:
        if p.name in given and isinstance(given[p.name], Mapping) and p.multiple:
            values[p.name] = dict(given[p.name])  # checked by the command's own parser, value by value
            continue
        opts = {p.name: _one(p, given[p.name])} if p.name in given and given[p.name] is not None else {}
        try:
            value, _ = p.handle_parse_result(ctx, opts, [])
        except Exception as exc:  # click's (or Typer's own click's) usage errors: the command line's message
            if not hasattr(exc, "format_message"):
                raise
            raise BalanceError(_message(p, exc)) from None
        if p.multiple:
            value = list(value) if value else None
        elif value is not None and _path_like(hints.get(p.name)):
            value = Path(value)
        values[p.name] = value
    token = _app.API_CALL.set(written)
    try:
        return func(**values)
    except typer.Exit as exc:  # a command that stops with a status of its own (replay --check: a broken invariant)
        if exc.exit_code:
            raise BalanceError(f"{name}: stopped with exit status {exc.exit_code} (see the lines above)") from None
        return None
    finally:
        _app.API_CALL.reset(token)


def signature(name: str, first: tuple[str, ...] = ()) -> inspect.Signature:
    """The command function's parameters with their command-line defaults, `first` positional, the rest
    keyword-only (what help(balance.simulate) shows)."""
    func = _app.COMMANDS[name].__wrapped__
    own = inspect.signature(func, eval_str=True).parameters
    hidden = {p.name for p in click_command(name).params if getattr(p, "hidden", False)}
    out = []
    for pname in first:
        out.append(own[pname].replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                      annotation=_plain_hint(own[pname].annotation)))
    for pname, p in own.items():
        if pname in first or pname in hidden:
            continue
        out.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=_plain_hint(p.annotation)))
    return inspect.Signature(out)


def _plain_hint(hint):
    return typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
