"""The cardkit exception hierarchy.

Every error cardkit raises on bad input is a :class:`CardkitError`; the specific
ones are also :class:`ValueError` so generic ``except ValueError`` code keeps
working. The Rust extension raises these same classes (mapped in one place,
``rust/python/src/errors.rs``).
"""

from __future__ import annotations

__all__ = [
    "CardkitError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidRangeError",
    "InvalidSeatError",
    "RuleOptionError",
]


class CardkitError(Exception):
    """Base class of every cardkit error."""


class InvalidCardError(CardkitError, ValueError):
    """A card string, index or object that names no card (the message quotes it)."""


class IllegalActionError(CardkitError, ValueError):
    """An action the rules do not allow in this state; the state is left unchanged.

    ``reason`` is a human-readable explanation such as
    ``"a pair cannot answer a single"``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RuleOptionError(CardkitError, ValueError):
    """An unknown game, deck or rule option, or an option value out of range."""


class InvalidSeatError(CardkitError, ValueError):
    """A seat number that is not a seat of the game."""


class InvalidRangeError(CardkitError, ValueError):
    """A poker range that does not parse; the message names the bad token."""
