"""Methods that take another method's parameters and pass them on: ``create_cob`` is
``build_cob`` then ``submit_cob``, ``prepare_key`` is ``_draft_key`` then ``look_up``.

The parameters are written once, on the method that uses them, so the two lists cannot drift
apart; type checkers (through :class:`~typing.ParamSpec`) and :func:`inspect.signature` still
see them on both methods."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

__all__ = ["same_parameters_as"]

P = ParamSpec("P")
S = TypeVar("S")
R = TypeVar("R")


def same_parameters_as(
    first: Callable[Concatenate[S, P], Any],
) -> Callable[[Callable[..., R]], Callable[Concatenate[S, P], R]]:
    """Give the decorated method the parameters of ``first``, a method of the same class
    defined before it. The decorated method keeps its name, docstring, return type and body,
    which receives the arguments as ``*args, **kwargs`` to hand to ``first``."""

    def decorate(method: Callable[..., R]) -> Callable[Concatenate[S, P], R]:
        returns = inspect.signature(method).return_annotation
        method.__signature__ = inspect.signature(first).replace(  # type: ignore[attr-defined]
            return_annotation=returns
        )
        return method

    return decorate
