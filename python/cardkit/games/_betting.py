"""The betting words Texas Hold'em and One Poker share, and how they reach the rules.

The no-limit betting rules themselves (checking, totals for the round, minimum bets,
full raises, short all-ins, the uncalled excess, side pots, odd chips) have one
home: the Rust ``BettingCore`` (``rust/engine/src/betting.rs``), which both games
drive. ``tests/oracle_betting.py`` keeps a plain-Python twin of it as a test oracle,
played against it move for move by ``tests/test_betting_rust.py``.

This module parses the betting words (``fold``, ``check``, ``call``, ``bet N``,
``raise N``; amounts are totals for the round), hands out their shared
:class:`Action` objects, and translates between actions and the integer codes that
cross to ``BettingCore``: -1 fold, -2 check, -3 call, ``2*N`` bet N, ``2*N+1``
raise N.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardkit._core import BettingCore
from cardkit.api import Action
from cardkit.errors import IllegalActionError, shown
from cardkit.games._base import action_text
from cardkit.games._intern import Interner

__all__ = [
    "MAX_AMOUNT_DIGITS",
    "PotResult",
    "action",
    "action_code",
    "code_action",
    "is_canonical",
    "known_or_text",
    "listing",
    "parse_betting_action",
]


@dataclass(frozen=True)
class PotResult:
    """How one pot was settled: its chips, who could win, who won, and who got what."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]


_BETTING_WORDS = frozenset({"fold", "check", "call"})

#: The most digits a bet amount may have. No table holds 10**15 chips (Hold'em:
#: at most 12 seats of 10**12), so longer amounts can never be legal; they are
#: refused before conversion, which also keeps every amount inside the i64 codes
#: of ``BettingCore``.
MAX_AMOUNT_DIGITS = 15


def parse_betting_action(text: str) -> str | None:
    """The canonical text of a betting action (``fold``, ``check``, ``call``,
    ``bet N``, ``raise N``), or ``None`` when ``text`` is not one.

    An amount of more than :data:`MAX_AMOUNT_DIGITS` digits (leading zeros aside)
    raises :class:`IllegalActionError`: it is a bet no table can cover.
    """
    words = text.split()
    if len(words) == 1 and words[0].lower() in _BETTING_WORDS:
        return words[0].lower()
    if len(words) == 2 and words[0].lower() in ("bet", "raise"):
        amount = words[1]
        if amount.isdigit() and amount.isascii():
            digits = amount.lstrip("0") or "0"
            if len(digits) > MAX_AMOUNT_DIGITS:
                raise IllegalActionError(
                    f"cannot {words[0].lower()} {shown(digits)}: more chips than any "
                    f"table holds (at most {MAX_AMOUNT_DIGITS} digits)"
                )
            return f"{words[0].lower()} {digits}"
    return None


# Canonical text -> its shared Action: listing actions is the hot path of every
# random playout, and shared actions also mark text that needs no parsing.
_ACTIONS: Interner[str, Action] = Interner(Action)


def action(text: str) -> Action:
    """The shared :class:`Action` for canonical ``text`` (actions are immutable)."""
    return _ACTIONS(text)


def is_canonical(act: Action) -> bool:
    """Whether ``act`` is a shared action of :func:`action` (so it needs no parsing)."""
    return _ACTIONS.get(act.text) is act


def known_or_text(text: object) -> Action | str:
    """A canonical shared :class:`Action` as is, else the raw text to parse.

    Both betting games' ``parse_action`` start here; anything but an action or a
    string is an :class:`IllegalActionError`.
    """
    if isinstance(text, Action) and is_canonical(text):
        return text
    return str.__str__(action_text(text))


_WORD_CODES = {"fold": -1, "check": -2, "call": -3}


def _bet_action(code: int) -> Action:
    total, raising = divmod(code, 2)
    return action(("raise " if raising else "bet ") + str(total))


# BettingCore code -> its shared Action; the word codes are preset.
_CODE_ACTIONS: Interner[int, Action] = Interner(
    _bet_action, {code: action(word) for word, code in _WORD_CODES.items()}
)


def code_action(code: int) -> Action:
    """The shared :class:`Action` of a ``BettingCore`` code."""
    return _CODE_ACTIONS.get(code) or _CODE_ACTIONS(code)


def action_code(act: str) -> int:
    """The ``BettingCore`` code of a canonical betting action."""
    verb, _, number = act.partition(" ")
    if not number:
        return _WORD_CODES[verb]
    return 2 * int(number) + (verb == "raise")


def _listing(codes: tuple[int, ...]) -> tuple[list[Action], dict[Action, int]]:
    listed = [code_action(c) for c in codes]
    return listed, dict(zip(listed, codes, strict=True))


# The same few listings recur across hands (fold/call/raise to the same sizes), so
# each is built once: its actions and the code of each.
_LISTINGS: Interner[tuple[int, ...], tuple[list[Action], dict[Action, int]]] = Interner(_listing)


def listing(
    betting: BettingCore, pot_fractions: Sequence[float]
) -> tuple[list[Action], dict[Action, int]]:
    """The listed choices of the seat to act (fold/check/call, the minimum bet or
    raise, the given fractions of the pot, all-in) and the code of each. Both are
    shared: copy the list before handing it out."""
    codes = betting.listed(pot_fractions)
    return _LISTINGS.get(codes) or _LISTINGS(codes)
