"""Card play shared by the three-player climbing games (Dou Dizhu, Zheng Shangyou).

Plays are written as ranks, weakest first (``play 33344``, ``play TJQKA``, ``play BR``;
``T`` is the ten, ``B``/``R`` the black and red joker); suits never decide strength.
The Rust engine lists the legal plays; this module keeps hands, the table, turn
order and round ends, and the game modules add bidding and scoring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from cardkit._core import (
    Card,
    ClimbingActions,
    ClimbingDeal,
    Combination,
    climbing_card_play_size,
    climbing_classify,
    climbing_leads,
    climbing_responses,
    deck,
    parse_cards,
)
from cardkit.api import Action
from cardkit.errors import IllegalActionError, shown
from cardkit.games._base import BaseGame, BaseState, Emit, action_text
from cardkit.games._intern import MAX_INTERNED, Interner

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "PASS",
    "PLANE",
    "RANK_ORDER",
    "ClimbingGame",
    "ClimbingState",
    "classify",
    "legal_leads",
    "legal_responses",
    "normalize_ranks",
    "play_action",
    "rank_char",
    "rank_text",
    "write_plane",
]

#: Climbing ranks, weakest first.
RANK_ORDER = "3456789TJQKA2BR"
_POSITION = {r: i for i, r in enumerate(RANK_ORDER)}
#: Floats of a card-count plane of the observation tensors: per rank (``RANK_ORDER``)
#: four thermometer entries, ``4 * rank + k`` set when the count is above ``k``.
PLANE = 4 * len(RANK_ORDER)
_CARD_RANK = {"BJ": "B", "RJ": "R"}
PASS = Action("pass")

# Canonical action text -> its Action. Actions are immutable, so states share them;
# building an Action per listed play dominated the game loop before.
_KNOWN: Interner[str, Action] = Interner(
    Action, {"pass": PASS, **{f"bid {n}": Action(f"bid {n}") for n in (1, 2, 3)}}
)


def play_action(ranks: str) -> Action:
    """The shared ``play <ranks>`` action (``ranks`` in canonical order)."""
    return _KNOWN("play " + ranks)


# The engine hands out these shared objects as each turn's legal actions; its own
# table of them keeps as many entries as an Interner.
_ACTIONS = ClimbingActions(play_action, PASS, MAX_INTERNED)


def _rank_of(card: Card) -> str:
    r = card.rank
    return _CARD_RANK.get(r, r)


# Looked up per card in every play, so computed once for the whole pack.
_RANK_CHAR = {card: _rank_of(card) for card in deck("french54")}


def rank_char(card: Card) -> str:
    """The climbing rank letter of ``card`` (``B``/``R`` for the jokers)."""
    return _RANK_CHAR[card]


def rank_text(cards: Sequence[Card]) -> str:
    """The ranks of ``cards``, weakest first: ``"33344BR"``."""
    return "".join(sorted((rank_char(c) for c in cards), key=_POSITION.__getitem__))


def write_plane(ranks: Sequence[str], out: npt.NDArray[np.float32]) -> None:
    """Write rank letters (``"33K"`` or a list of them) as a card-count plane into
    ``out`` (zeros, :data:`PLANE` long); the Rust card-play part writes the same."""
    for rank, count in Counter(ranks).items():
        start = 4 * _POSITION[rank]
        out[start : start + min(count, 4)] = 1.0


def normalize_ranks(text: str) -> str | None:
    """Rank text in canonical order, or ``None`` if it holds a non-rank character."""
    text = text.upper().replace("10", "T")
    if not text or any(ch not in _POSITION for ch in text):
        return None
    return "".join(sorted(text, key=_POSITION.__getitem__))


class ClimbingGame(BaseGame):
    """A three-player climbing game: plays are rank texts, ``pass`` passes.

    Its fixed action index lives in Rust (one per game, built from every lead of
    the whole pack): ``pass`` is id 0, the game's other non-play actions follow, then
    every play a hand can make. Ids never depend on the position.
    """

    #: The rules name the Rust engine knows.
    rules: ClassVar[str]
    #: The Rust index's id of a play's rank text (``None``: no play of the game).
    _play_id: ClassVar[Callable[[str], int | None]]
    #: The Rust index's play of an id (``None``: a non-play id).
    _play_of_id: ClassVar[Callable[[int], Combination | None]]
    #: Floats the game adds after the shared part of its tensors (the card play and
    #: whose turn it is).
    _TAIL: ClassVar[int]

    @cached_property
    def card_play_size(self) -> int:
        """Length of the card-play part of the observation tensors (written in Rust)."""
        return climbing_card_play_size(self.rules)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """One flat float32 vector: the card-play part, then the game's own tail
        (layout in the game's docs page, "Learning interface")."""
        return (self.card_play_size + 3 + self._TAIL,)

    def _action_id(self, action: Action) -> int | None:
        """``pass`` 0, plays by the Rust index; other actions by :meth:`_other_id`."""
        if action == PASS:
            return 0
        if action.kind == "play" and len(action.args) == 1:
            return type(self)._play_id(action.args[0])
        return self._other_id(action)

    def _id_action(self, action_id: int) -> Action | None:
        """The shared action object of an id (the one ``legal_actions`` lists)."""
        if action_id == 0:
            return PASS
        play = type(self)._play_of_id(action_id)
        if play is not None:
            return play_action(play.cards)
        return self._other_action(action_id)

    def _other_id(self, action: Action) -> int | None:
        """The id of a non-play action besides ``pass`` (none by default)."""
        return None

    def _other_action(self, action_id: int) -> Action | None:
        """The non-play action of an id below the plays, besides ``pass``."""
        return None

    def action_to_id(self, action: Action | str) -> int:
        """The fixed id of ``action``: every action of a climbing game has one, so
        anything else is an :class:`IllegalActionError` naming it."""
        parsed = self.parse_action(action)
        found = self._action_id(parsed)
        if found is None:
            raise IllegalActionError(f"{shown(parsed.text)} is not a {self.name} action")
        return found

    def parse_action(self, text: Action | str) -> Action:
        """``pass``, ``bid N``, or a play: ``play 3334`` or just ``3334`` (any order)."""
        text = action_text(text)
        known = _KNOWN.get(text)
        if known is not None:
            return known
        words = text.split()
        if not words:
            raise IllegalActionError("an empty action names nothing")
        if words[0].lower() == "play":
            words = words[1:]
            if not words:
                raise IllegalActionError("play needs ranks, such as 'play 33344'")
        elif words[0].lower() in ("pass", "bid"):
            return Action(" ".join(w.lower() if i == 0 else w for i, w in enumerate(words)))
        ranks = normalize_ranks("".join(words))
        if ranks is None:
            raise IllegalActionError(
                f"{shown(text)} is not an action: expected pass, bid N or ranks such as 33344"
            )
        return play_action(ranks)


class ClimbingState(BaseState):
    """Hands, table and turn order of the card play of a climbing deal.

    The card play runs on a Rust :class:`~cardkit._core.ClimbingDeal` (one engine call
    per move: the legal actions of a turn are listed once and shared, and applying
    one moves the cards); this class exposes it and explains illegal moves.
    """

    _game: ClimbingGame
    _play: ClimbingDeal

    #: Seats in the game.
    SEATS: ClassVar[int] = 3

    def _start_play(
        self, hands: list[list[Card]], leader: int, landlord: int = 0, bid: int = 1
    ) -> None:
        self._play = ClimbingDeal(self._game.rules, hands, leader, _ACTIONS, landlord, bid)

    # -- the card play, read from the engine ----------------------------------------

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, weakest rank first."""
        play = self._play
        return [play.hand(s) for s in range(self.SEATS)]

    @property
    def hand_ranks(self) -> list[str]:
        """Each seat's hand as rank text (``"33344BR"``)."""
        play = self._play
        return [play.hand_ranks(s) for s in range(self.SEATS)]

    @property
    def played(self) -> list[list[Card]]:
        """The cards each seat has played, in play order."""
        play = self._play
        return [play.played(s) for s in range(self.SEATS)]

    @property
    def plays_made(self) -> list[int]:
        """Plays (not passes) each seat has made."""
        return self._play.plays

    @property
    def to_move(self) -> int | None:
        """The seat to act in the card play, or ``None`` once a hand is empty."""
        return self._play.to_move

    @property
    def table(self) -> Combination | None:
        """The combination to beat, or ``None`` when the seat to act leads."""
        return self._play.table

    @property
    def table_owner(self) -> int:
        """The seat that played the table."""
        return self._play.table_owner

    @property
    def passes(self) -> int:
        """Consecutive passes since the table was played."""
        return self._play.passes

    @property
    def winner(self) -> int | None:
        """The seat that went out, or ``None``."""
        return self._play.winner

    @property
    def play_log(self) -> list[tuple[int, str]]:
        """(seat, action text) of every card-play action of this deal."""
        return self._play.log()

    # -- the learning interface ------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The ids of the legal card-play moves, ascending, listed by the engine."""
        return self._play.legal_ids()

    def _write_card_play(self, seat: int, out: npt.NDArray[np.float32]) -> int:
        """Write the shared card-play part of ``seat``'s tensor (Rust), then whose
        turn it is relative to ``seat`` (3 floats); returns the offset after them."""
        at: int = self._play.write_observation(seat, out)
        to_act = self.current_player
        if to_act is not None:
            out[at + (to_act - seat) % 3] = 1.0
        return at + 3

    # -- card play ----------------------------------------------------------------

    def _play_reason(self, action: Action) -> str | None:
        """Why the card-play ``action`` is illegal now, or ``None``."""
        legal = self._play.legal_actions()
        if action in legal:
            return None
        seat = self._play.to_move
        assert seat is not None
        table = self._play.table
        if action == PASS:
            if table is None:
                return "a leader must play and cannot pass"
            return f"you must beat {table.cards} when you can"
        if action.kind != "play" or len(action.args) != 1:
            return f"{shown(action.text)} is not an action of this phase: play ranks or pass"
        ranks = action.args[0]
        if Counter(ranks) - Counter(self._play.hand_ranks(seat)):
            return f"seat {seat} does not hold {shown(ranks)}"
        readings = climbing_classify(self._game.rules, ranks, self._play.opening)
        if not readings:
            return f"{ranks} is not a {self._game.name} combination"
        if table is None:
            return f"{ranks} cannot open this deal (the first play must hold the heart three)"
        kind = readings[0].type
        article = "an" if kind[0] in "aeiou" else "a"
        return f"{article} {kind} {ranks} does not beat the {table.type} {table.cards}"

    def _apply_play(self, action: Action) -> None:
        done = self._play.apply(action)
        assert done is not None, f"{action} was checked legal"

    def _fast_apply(self, action: Action | str) -> bool:
        """Apply ``action`` at once if it is a listed card-play action (or its exact
        text), recording it in the history; ``False`` (nothing changed) otherwise, and
        the caller takes the validating path that explains why."""
        done = self._play.apply(action)
        if done is None:
            return False
        self._history.append(done)
        return True

    def _play_observation(self, seat: int) -> dict[str, Any]:
        play = self._play
        table = play.table
        return {
            "seat": seat,
            "hand": [str(c) for c in play.hand(seat)],
            "hand_ranks": play.hand_ranks(seat),
            "card_counts": play.card_counts,
            "plays_made": play.plays,
            "played_ranks": [play.played_ranks(s) for s in range(self.SEATS)],
            "table": None if table is None else table.cards,
            "table_type": None if table is None else table.type,
            "table_owner": play.table_owner if table is not None else None,
            "passes": play.passes,
            "play_history": [[s, a] for s, a in play.log()],
            "to_act": play.to_move,
            "winner": play.winner,
        }

    def _emit_deal(self, emit: Emit, **public: Any) -> None:
        """A ``deal`` event with ``public`` facts, then each seat's hand to that seat."""
        emit({"type": "deal", **public})
        self._emit_hands(emit, self.hands)

    def _emit_action(self, action: Action, emit: Emit) -> None:
        """Apply ``action`` and emit it: every climbing move is played face up."""
        seat = self.current_player
        self.apply(action)
        emit({"type": "action", "seat": seat, "action": action.text})

    def clone(self) -> ClimbingState:
        """An independent copy (logs and the engine deal copied; the rest is immutable)."""
        new = object.__new__(type(self))
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                value = list(value)
            elif isinstance(value, ClimbingDeal):
                value = value.copy()
            new.__dict__[key] = value
        return new


def _bounded(cards: str | Sequence[Card | str]) -> str | Sequence[Card | str]:
    """Rank text as it is; any other iterable read first into at most 108 cards
    (:func:`parse_cards` refuses more), so an endless iterator raises instead of
    running for ever."""
    return cards if isinstance(cards, str) else parse_cards(cards)


def classify(
    rules: str, cards: str | Sequence[Card | str], opening: bool = False
) -> list[Combination]:
    """Every reading of ``cards`` under ``rules`` (see the game modules)."""
    return climbing_classify(rules, _bounded(cards), opening)


def legal_leads(
    rules: str, hand: str | Sequence[Card | str], opening: bool = False
) -> list[Combination]:
    """Every legal lead from ``hand`` under ``rules``."""
    return climbing_leads(rules, _bounded(hand), opening)


def legal_responses(
    rules: str,
    hand: str | Sequence[Card | str],
    table: Combination | str | Sequence[Card | str],
    opening: bool = False,
) -> list[Combination]:
    """Every play from ``hand`` that beats ``table`` under ``rules``."""
    if not isinstance(table, Combination):
        table = _bounded(table)
    return climbing_responses(rules, _bounded(hand), table, opening)
