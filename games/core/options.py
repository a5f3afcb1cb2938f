"""A game's session options in players' words: what each option takes, and why a value was refused.

Every game's ``Options`` is a pydantic model; its validation errors are worded here (which
option, what was given, what would be legal) so no library text reaches a player.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo


def _words(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]


def _shown(value: Any) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(_shown(v) for v in value)
    return str(value)


def _kind(annotation: Any, field: FieldInfo | None = None) -> str:
    """What a value of ``annotation`` is, in words ("true or false", "coop or duel")."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        kinds = [_kind(a, field) for a in args if a is not type(None)]
        return _words(kinds)
    if origin is Literal:
        return _words([str(a) for a in args])
    if origin in (tuple, list):
        return 'a list, one entry per seat, e.g. ["a","b"]'
    if annotation is bool:
        return "true or false"
    if annotation is int:
        lo = hi = None
        for m in field.metadata if field is not None else ():
            if isinstance(m, Ge):
                lo = m.ge
            elif isinstance(m, Gt):
                lo = m.gt + 1
            elif isinstance(m, Le):
                hi = m.le
            elif isinstance(m, Lt):
                hi = m.lt - 1
        if lo is not None and hi is not None:
            return f"a whole number from {lo} to {hi}"
        if lo is not None:
            return f"a whole number, at least {lo}"
        if hi is not None:
            return f"a whole number, at most {hi}"
        return "a whole number"
    if annotation is str:
        return "a name"
    return getattr(annotation, "__name__", str(annotation))


def option_list(options: type[BaseModel]) -> str:
    """Each option of ``options`` with what it takes and its default:
    ``"fee (a whole number from 1 to 3; default 1), manual (true or false; default false)"``;
    ``"none"`` when the game has no options."""
    parts = [
        f"{name} ({_kind(f.annotation, f)}; default {_shown(f.default)})"
        for name, f in options.model_fields.items()
    ]
    return ", ".join(parts) or "none"


def option_problems(options: type[BaseModel], error: ValidationError) -> str:
    """Why ``error`` (from validating ``options``) refused the values, one sentence a problem:
    ``"There is no option 'nonsense'"``, ``"fee=9 is not allowed: fee is a whole number from 1 to 3"``."""
    fields = options.model_fields
    out: list[str] = []
    for err in error.errors():
        loc = err.get("loc") or ()
        name = str(loc[0]) if loc else ""
        kind = err.get("type", "")
        if kind == "extra_forbidden":
            out.append(f"There is no option {name!r}")
        elif kind == "value_error":
            msg = str(err.get("ctx", {}).get("error", err.get("msg", "")))
            msg = msg.removeprefix("Value error, ")
            text = msg[:1].upper() + msg[1:]
            out.append(f"{name}: {text}" if name else text)
        elif name in fields:
            f = fields[name]
            given = err.get("input")
            # as it would be typed: a list or an object as JSON (-o round_limit=[1,2])
            shown = (given if isinstance(given, str)
                     else json.dumps(given, separators=(",", ":")) if isinstance(given, list | tuple | dict)
                     else _shown(given))
            out.append(f"{name}={shown} is not allowed: {name} is {_kind(f.annotation, f)}")
        else:
            out.append(str(err.get("msg", "not allowed")))
    seen: list[str] = []
    for o in out:  # one sentence per problem, even when several union branches refused it
        if o not in seen:
            seen.append(o)
    return "; ".join(seen)


def options_message(title: str, options: type[BaseModel], error: ValidationError) -> str:
    """The whole refusal: ``"Invalid options for Roman War: there is no option 'nonsense'.
    Options: mode (coop or duel; default coop), ..."``."""
    problems = option_problems(options, error)
    problems = problems[:1].lower() + problems[1:] if problems.startswith("There ") else problems
    return f"Invalid options for {title}: {problems}. Options: {option_list(options)}."
