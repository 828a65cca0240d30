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

It is also the one home of the action index both games share (the learning
interface): ids 0-2 are ``fold``, ``check`` and ``call``, and ids 3-6 a grid of
bet sizes, ``bet`` and ``raise`` alike: the minimum, half the pot, the pot, all-in
(:data:`GRID`). The grid's amounts depend on the position, so a state maps its
listed sizes to grid points (:class:`TurnIds`); docs/holdem.md gives the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardkit._core import BettingCore
from cardkit.api import Action
from cardkit.errors import IllegalActionError, shown
from cardkit.games._base import action_text
from cardkit.games._intern import Interner

__all__ = [
    "BETTING_IDS",
    "GRID",
    "MAX_AMOUNT_DIGITS",
    "POT_FRACTIONS",
    "PotResult",
    "TurnIds",
    "action",
    "action_code",
    "betting_action_id",
    "code_action",
    "is_canonical",
    "known_or_text",
    "listing",
    "parse_betting_action",
    "turn_ids",
    "word_action",
    "word_id",
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


#: The bet sizes listed between the minimum and all-in, as fractions of the pot
#: after calling: a bet or raise of ``f`` pot is to ``current bet + f x (pot after
#: calling)``, rounded down.
POT_FRACTIONS = (0.5, 1.0)


def listing(
    betting: BettingCore, pot_fractions: Sequence[float] = POT_FRACTIONS
) -> tuple[list[Action], dict[Action, int]]:
    """The listed choices of the seat to act (fold/check/call, the minimum bet or
    raise, the given fractions of the pot, all-in) and the code of each. Both are
    shared: copy the list before handing it out. The games list
    :data:`POT_FRACTIONS`, the grid of their action index."""
    codes = betting.listed(pot_fractions)
    return _LISTINGS.get(codes) or _LISTINGS(codes)


# -- the action index --------------------------------------------------------------

_WORD_IDS = {"fold": 0, "check": 1, "call": 2}
_ID_WORDS = {i: action(word) for word, i in _WORD_IDS.items()}
_CODE_IDS = {code: _WORD_IDS[word] for word, code in _WORD_CODES.items()}
#: The bet-size grid after the three words: its points in id order (ids 3..6).
GRID = ("min", *(f"{f:g} pot" for f in POT_FRACTIONS), "all-in")
_GRID_START = len(_WORD_IDS)
#: How many ids the betting actions take: the words, then the grid.
BETTING_IDS = _GRID_START + len(GRID)


def word_id(act: Action) -> int | None:
    """The fixed id of ``fold``, ``check`` or ``call``; ``None`` for anything else."""
    return _WORD_IDS.get(act.text)


def word_action(action_id: int) -> Action | None:
    """The word of a fixed id (0-2), ``None`` for the other ids."""
    return _ID_WORDS.get(action_id)


@dataclass(frozen=True)
class TurnIds:
    """The ids of one turn's listed actions (ascending, in listing order), both ways,
    and the listed bet or raise totals with their grid ids (ascending)."""

    ids: list[int]
    by_action: dict[Action, int]
    by_id: dict[int, Action]
    sizes: list[tuple[int, int]]

    def nearest(self, total: int) -> int:
        """The grid id of the listed size nearest ``total`` (the smaller on a tie)."""
        return min(self.sizes, key=lambda size: (abs(size[0] - total), size[0]))[1]


def turn_ids(betting: BettingCore, listed: list[Action], codes: dict[Action, int]) -> TurnIds:
    """The ids of the listing ``listed`` (with its ``codes``) of the seat to act.

    The grid's totals are the minimum of ``raise_range``, each pot fraction's total
    and all-in; every listed size is one of them and takes the id of the first
    grid point with its total. The listing never holds two sizes of one total, so
    where grid points coincide (half the pot below the minimum, the pot at all-in,
    a minimum that is all-in) the one listed size gets the smallest of their ids.
    """
    seat = betting.to_act
    assert seat is not None  # a listing exists only while a seat is to act
    bounds = betting.raise_range(seat)
    totals: list[int] = []
    if bounds is not None:
        current = betting.current_bet
        after_call = betting.pot + max(current - betting.bets[seat], 0)
        # The listing's own arithmetic: truncated float products.
        fractions = [current + int(f * after_call) for f in POT_FRACTIONS]
        totals = [bounds[0], *fractions, bounds[1]]
    ids: list[int] = []
    sizes: list[tuple[int, int]] = []
    for act in listed:
        code = codes[act]
        if code < 0:
            ids.append(_CODE_IDS[code])
        else:
            total = code // 2
            grid = _GRID_START + totals.index(total)
            ids.append(grid)
            sizes.append((total, grid))
    return TurnIds(
        ids, dict(zip(listed, ids, strict=True)), dict(zip(ids, listed, strict=True)), sizes
    )


def betting_action_id(
    act: Action, turn: TurnIds | None, illegal_reason: Callable[[Action], str | None]
) -> int | None:
    """The id of a betting action in a position: the fixed id of a word, the grid
    id of a listed size, or for any other legal total the id of the nearest listed
    size (the smaller on a tie). ``turn`` is the listing's ids (``None`` when no
    seat may bet); an illegal size has no id (``None``; ``action_to_id`` says why).
    """
    fixed = _WORD_IDS.get(act.text)
    if fixed is not None:
        return fixed
    if turn is not None:
        listed = turn.by_action.get(act)
        if listed is not None:
            return listed
    if illegal_reason(act) is not None:
        return None
    # A legal bet or raise means a seat may bet, and its listing holds the minimum.
    assert turn is not None and turn.sizes
    return turn.nearest(int(act.args[0]))
