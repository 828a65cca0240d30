"""Argument checks for the public boundary: bad user input becomes a typed
:class:`~cardkit.errors.CardkitError` naming the value, never a ``TypeError`` or an
``OverflowError`` from the Rust conversion layer. ``bool`` is an ``int`` subclass, but
True as a seed or a count is always a mistake, so it is rejected."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from cardkit.errors import IllegalActionError, RuleOptionError, shown

MAX_SEED = 2**64 - 1
_FLOAT_MAX = sys.float_info.max


def check_count(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RuleOptionError(f"{name} must be an int in {low}..{high}, got {shown(value)}")
    return value


#: The most nodes one endgame solve of a search agent may visit (``endgame_nodes``).
MAX_ENDGAME_NODES = 100_000_000


def check_endgame(endgame: object, endgame_nodes: object, most_cards: int) -> tuple[int, int]:
    """A search agent's endgame solver options: the cards left from which it solves
    (``0..most_cards``; 0 is off) and the nodes one solve may visit."""
    return (
        check_count("endgame", endgame, 0, most_cards),
        check_count("endgame_nodes", endgame_nodes, 1, MAX_ENDGAME_NODES),
    )


def check_seed(name: str, value: object, *, optional: bool = False) -> int | None:
    """``value`` as a seed in ``0..2**64-1`` (``None`` passes if ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SEED:
        raise RuleOptionError(f"{name} must be an int in 0..2**64-1, got {shown(value)}")
    return value


def check_real(name: str, value: object, low: float, high: float) -> float:
    """``value`` as a finite real number in ``low..high``."""
    # An int past the float range (10**400) is compared exactly, never converted
    # until it is known to fit: math.isfinite and float() would raise OverflowError.
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not low <= value <= high
        or not -_FLOAT_MAX <= value <= _FLOAT_MAX
    ):
        bounds = f" in {low}..{high}" if math.isfinite(low) or math.isfinite(high) else ""
        raise RuleOptionError(f"{name} must be a finite number{bounds}, got {shown(value)}")
    return float(value)


def check_flag(name: str, value: object) -> bool:
    """``value`` as a bool (an int or a string is rejected, not read as truthy)."""
    if not isinstance(value, bool):
        raise RuleOptionError(f"{name} must be a bool, got {shown(value)}")
    return value


def check_text(name: str, value: object) -> str:
    """``value`` if it is a str."""
    if not isinstance(value, str):
        raise RuleOptionError(f"{name} must be a str, got {shown(value)}")
    return value


def is_sequence(value: object) -> bool:
    """Whether ``value`` is a list-like sequence (a str counts as one value, not a list)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def check_agent_seed(value: object) -> int | None:
    """An agent's seed: ``None`` or a non-negative int of any size.

    Agents seed Python's ``random.Random``, which takes ints of any size, and callers
    derive agent seeds by arithmetic on 64-bit game seeds (``seed * 31 + seat``), so
    only the type and the sign are checked.
    """
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RuleOptionError(f"seed must be None or a non-negative int, got {shown(value)}")
    return value


def check_legal_actions(legal_actions: Sequence[object]) -> None:
    """An agent's guard: an empty list of legal actions leaves nothing to choose from."""
    if not legal_actions:
        raise IllegalActionError("no legal action to choose from")
