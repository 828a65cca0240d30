"""The cardkit exception hierarchy.

Every error cardkit raises on bad input is a :class:`CardkitError`; the specific
ones are also :class:`ValueError` so generic ``except ValueError`` code keeps
working. The Rust extension raises these same classes (mapped in one place,
``rust/python/src/errors.rs``).
"""

from __future__ import annotations

import re

__all__ = [
    "CardkitError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidNotationError",
    "InvalidRangeError",
    "InvalidSeatError",
    "RuleOptionError",
]


class CardkitError(Exception):
    """Base class of every cardkit error."""


class _NamesArgument(CardkitError):
    """An error that may be raised while a function converts one of its arguments;
    PyO3's note naming that argument (``"while processing 'board'"``) goes into the
    message, so ``equity(players, board="2c3x")`` says which argument held the bad
    card. ``argument`` holds the name, when known."""

    #: The name of the refused argument, when known.
    argument: str | None = None
    #: What joins the argument's name to the message.
    _joiner = ": "

    def add_note(self, note: str, /) -> None:
        """Add ``note``; a note naming the argument being converted goes into the
        message instead (only the first: the innermost argument named wins)."""
        named = _CONVERTING.fullmatch(note)
        if named is None or self.argument is not None:
            super().add_note(note)
            return
        self.argument = named[1]
        self.args = (
            f"{self.argument}{self._joiner}{self.args[0]}" if self.args else self.argument,
        )


#: The note PyO3 adds to an error raised while converting an argument.
_CONVERTING = re.compile(r"while processing '([A-Za-z_][A-Za-z0-9_]*)'")


class InvalidCardError(_NamesArgument, ValueError):
    """A card string, index or object that names no card (the message quotes it and,
    for an argument of the Rust core, names the argument: ``board: invalid card
    "3x" in "2c3x": unknown suit``)."""


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


class InvalidNotationError(RuleOptionError):
    """A text in one of cardkit's notations that does not read: a saved state JSON
    (``game.state_from_json``) or a PHH hand history (``cardkit.phh.loads``). The
    message names the place (a line of the PHH, an entry of the history) and quotes
    the offending text, cut to about 80 characters. A :class:`RuleOptionError`
    subclass, the class these raised before it existed.
    """


class InvalidArgumentError(_NamesArgument, RuleOptionError, TypeError):
    """An argument of a function or class of the Rust core (``cardkit._core``) that
    does not convert to its parameter's type: a str, float, bool or None for an
    int, an int outside the parameter's range (a seed of -1 or ``2**70``), None for
    a str, a str for a list. The message names the argument (``argument`` holds its
    name) and says what it must be: ``"seed must be an int in 0..2**64-1, got -1"``.

    A :class:`RuleOptionError`, the class bad seeds and deck names raised before it
    existed, and a :class:`TypeError`, the class other bad arguments raised (and
    Python raises for an argument of the wrong type), so code catching either keeps
    working.
    """

    _joiner = " "


class InvalidSeatError(CardkitError, ValueError):
    """A seat number that is not a seat of the game."""


class InvalidRangeError(_NamesArgument, ValueError):
    """A poker range that does not parse; the message names the bad token (and,
    for an argument of the Rust core, the argument: ``players: invalid range
    token ...``)."""


#: How many characters of a user's input an error message quotes.
QUOTE_LIMIT = 80


def shown(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters.

    Every message that echoes input goes through here, so a 100 KB deal or action
    yields a short message (its length is stated instead); a huge int shows its
    size and a ``__repr__`` that raises shows as ``?``.
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        # repr() of an int past 4300 digits raises, and its digits say nothing.
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a message must never raise a second error
        return "?"
    if len(text) > limit:
        return f"{text[:limit]}... ({len(text)} characters)"
    return text
