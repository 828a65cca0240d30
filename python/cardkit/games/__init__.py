"""The game registry: ``make(name, **options)`` and ``available()``.

Built-in games are imported on first use, so ``import cardkit`` stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from cardkit.api import Game
from cardkit.errors import RuleOptionError, shown

__all__ = ["available", "make", "register", "registered_factory", "unregister"]

# name -> "module:Class" of the built-in games.
_BUILTIN: dict[str, str] = {
    "bridge": "cardkit.games.bridge:Bridge",
    "chinese_poker": "cardkit.games.chinese_poker:ChinesePoker",
    "doudizhu": "cardkit.games.doudizhu:DouDizhu",
    "zhengshangyou": "cardkit.games.zhengshangyou:ZhengShangyou",
    "guandan": "cardkit.games.guandan:Guandan",
    "hearts": "cardkit.games.hearts:Hearts",
    "spades": "cardkit.games.spades:Spades",
    "tractor": "cardkit.games.tractor:Tractor",
    "holdem": "cardkit.games.holdem:Holdem",
    "onepoker": "cardkit.games.onepoker:OnePoker",
}
_REGISTERED: dict[str, Callable[..., Game]] = {}


def register(name: str, factory: Callable[..., Game]) -> None:
    """Make ``factory(**options)`` available as ``make(name, **options)``."""
    if name in _BUILTIN:
        raise RuleOptionError(f"{shown(name)} is a built-in game and cannot be replaced")
    _REGISTERED[name] = factory


def unregister(name: str) -> None:
    """Remove a game added with :func:`register`."""
    _REGISTERED.pop(name, None)


def registered_factory(name: str) -> Callable[..., Game] | None:
    """The factory ``name`` was added with by :func:`register`, or ``None`` for a
    built-in or unknown name (a worker process that knows only the built-in games
    needs it sent along)."""
    return _REGISTERED.get(name)


def available() -> list[str]:
    """The names ``make`` accepts, sorted."""
    return sorted({*_BUILTIN, *_REGISTERED})


def _factory(name: str) -> Callable[..., Game]:
    if not isinstance(name, str):
        raise RuleOptionError(f"a game name is a str, got {shown(name)}")
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _BUILTIN:
        module, cls = _BUILTIN[name].split(":")
        factory: Callable[..., Game] = getattr(importlib.import_module(module), cls)
        return factory
    raise RuleOptionError(
        f"unknown game {shown(name)}: available games are {', '.join(available())}"
    )


def make(name: str, **options: Any) -> Game:
    """The game ``name`` with the given rule options (see each game's docs).

    Unknown games, unknown options and out-of-range values raise
    :class:`~cardkit.errors.RuleOptionError`.
    """
    factory = _factory(name)
    try:
        return factory(**options)
    except TypeError as exc:
        raise RuleOptionError(f"bad options for {name}: {exc}") from exc
