"""Shared pieces of the trick-taking games (Hearts, Spades): cards as indices
``rank * 4 + suit`` (the ``Card.index`` of the 52-card pack, aces high), hands as
int bitsets, cached card names and actions, and :class:`TrickState`, the play
phase both games share.

The play phase runs on a Rust :class:`~cardkit._core.TrickDeal` (hands, the trick,
legal plays, completed tricks): the per-card path of the State API is one dict
lookup and one Rust call. Passing, bidding, scoring and observations stay in the
game modules, in Python.

The learning interface is shared too (:class:`TrickGame`, :class:`TrickState`): a
fixed action index where id ``i < 52`` plays card ``i`` and ids from
:data:`SETUP_BASE` are the game's actions before play (Hearts' ``pass <card>``,
Spades' bids); legal ids and masks come from Rust bitsets, and the observation
tensors are written in Rust (``rust/engine/src/trick/observe.rs``).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from cardkit._core import ActionTable, Card, TrickDeal, bit_ids, bit_mask
from cardkit.api import Action
from cardkit.errors import IllegalActionError, InvalidCardError, RuleOptionError, shown
from cardkit.games._base import BaseGame, BaseState, Emit, holds_lock

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CARDS",
    "NAMES",
    "PLAY_ACTIONS",
    "PLAY_INDEX",
    "PLAY_NEEDS_CARD",
    "PLAY_TABLE",
    "SETUP_BASE",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "TrickGame",
    "TrickState",
    "bits",
    "card_index",
    "cards_of",
    "check_bool",
    "hands_of",
    "mask_of",
    "names_of",
]

#: Every card of the pack by index.
CARDS: list[Card] = [Card.from_index(i) for i in range(52)]
#: Canonical text of every card by index.
NAMES: list[str] = [str(c) for c in CARDS]
#: The ``play <card>`` action of every card by index.
PLAY_ACTIONS: list[Action] = [Action(f"play {n}") for n in NAMES]
#: The message for ``play`` without a card.
PLAY_NEEDS_CARD = "play needs a card: 'play Qs', or just 'Qs'"
#: Card index of every ``play <card>`` action text.
PLAY_INDEX: dict[str, int] = {a.text: i for i, a in enumerate(PLAY_ACTIONS)}
#: Bits of each suit (clubs, diamonds, hearts, spades) in a hand bitset.
SUIT_MASKS: list[int] = [sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)]
#: Suit names for readable reasons.
SUIT_NAMES: list[str] = ["clubs", "diamonds", "hearts", "spades"]

#: The ``play`` actions listed by bitset in Rust: the legal-move lists of the play phase.
PLAY_TABLE = ActionTable(PLAY_ACTIONS)

_INDEX: dict[str, int] = {n: i for i, n in enumerate(NAMES)}

#: The first action id after the 52 plays: the actions before play start here.
SETUP_BASE = 52


def check_bool(name: str, value: object) -> bool:
    """``value`` if it is a bool, else a :class:`RuleOptionError` naming ``name``."""
    if not isinstance(value, bool):
        raise RuleOptionError(f"option {name} must be a bool, got {shown(value)}")
    return value


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: list[int] | tuple[int, ...]) -> int:
    """The bitset of ``indices``."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


_BITS = [1 << i for i in range(52)]


def hands_of(order: list[Card]) -> list[int]:
    """The four 13-card hands (bitsets) dealt from ``order``, 13 cards per seat in turn."""
    bits = [_BITS[c.index] for c in order]
    return [sum(bits[0:13]), sum(bits[13:26]), sum(bits[26:39]), sum(bits[39:52])]


def names_of(mask: int) -> list[str]:
    """Canonical card texts of ``mask`` in index order (rank, then suit)."""
    return [NAMES[i] for i in bits(mask)]


def cards_of(mask: int) -> list[Card]:
    """``Card`` objects of ``mask`` in index order."""
    return [CARDS[i] for i in bits(mask)]


def card_index(text: str, usage: str = "") -> int:
    """The index of one card of the 52-card pack named by ``text``.

    Raises :class:`IllegalActionError` naming the text when it is no such card; with
    ``usage`` (a lone word read as a card to play) the message says what the game's
    actions look like instead, since the word was more likely meant as an action.
    """
    i = _INDEX.get(text)
    if i is not None:
        return i
    try:
        card = Card(text)
    except InvalidCardError as exc:
        if usage:
            raise IllegalActionError(f"{shown(text)} is not an action: {usage}") from exc
        raise IllegalActionError(str(exc)) from exc
    if card.is_joker:
        raise IllegalActionError(f"{text} is not in the 52-card pack")
    return card.index


class TrickGame(BaseGame):
    """The fixed action index Hearts and Spades share: id ``i`` (0..51) is ``play``
    of card index ``i``, and id ``SETUP_BASE + k`` the ``k``-th of the game's
    ``setup_actions`` (the actions before play), so every id means one action
    whatever the position."""

    #: The actions before play, in id order from :data:`SETUP_BASE`.
    setup_actions: ClassVar[list[Action]]
    #: Canonical text of each of ``setup_actions`` -> its position in that list.
    setup_index: ClassVar[dict[str, int]]

    @property
    def num_actions(self) -> int:
        """52 plays, then the actions before play."""
        return SETUP_BASE + len(self.setup_actions)

    def _action_id(self, action: Action) -> int | None:
        card = PLAY_INDEX.get(action.text)
        if card is not None:
            return card
        k = self.setup_index.get(action.text)
        return None if k is None else SETUP_BASE + k

    def _id_action(self, action_id: int) -> Action | None:
        if action_id < SETUP_BASE:
            return PLAY_ACTIONS[action_id]
        return self.setup_actions[action_id - SETUP_BASE]


class TrickState(BaseState):
    """The play phase Hearts and Spades share.

    ``_play_deal`` is the deal in play, a Rust :class:`~cardkit._core.TrickDeal` that
    checks each card against the rules and keeps the completed tricks; it is
    ``None`` before play starts (passing, bidding). Subclasses create it, read it
    for their views, and run their phases in ``_advance``, which the play phase
    calls once the last trick of the deal is taken.
    """

    _play_deal: TrickDeal | None
    _deal_number: int
    _deals: list[dict[str, Any]]

    @abstractmethod
    def _advance(self) -> None:
        """The game's phase machine: the current phase is complete (every pass or bid
        made, or the deal's last trick taken); enter the next one."""

    @abstractmethod
    def _current_hands(self) -> list[int]:
        """Each seat's hand as a bitset."""

    @abstractmethod
    def _emit_deal(self, emit: Emit) -> None:
        """The ``deal`` event of the current deal, then each seat's hand to that seat."""

    @abstractmethod
    def _emit_setup(self, seat: int, action: Action, emit: Emit) -> None:
        """Emit ``seat``'s ``action`` before play (a bid, a pass), just applied."""

    @abstractmethod
    def _legal_bits(self) -> tuple[int, int]:
        """The legal action ids as ``(bits, offset)``: id ``offset + i`` for each bit
        ``i`` of ``bits`` (the Rust deal's legal cards with offset 0 in play)."""

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending (read from a Rust bitset)."""
        bits, offset = self._legal_bits()
        return bit_ids(bits, offset)

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A ``num_actions``-long bool array, true exactly at :meth:`legal_action_ids`."""
        bits, offset = self._legal_bits()
        return bit_mask(bits, offset, self._game.num_actions)

    def _trick_event(self, leader: int, cards: list[int], winner: int) -> dict[str, Any]:
        """A completed trick as every seat saw it (cards in play order)."""
        return {
            "type": "trick",
            "leader": leader,
            "cards": [NAMES[c] for c in cards],
            "winner": winner,
        }

    def _event_start(self, emit: Emit) -> None:
        self._emit_deal(emit)

    def _event_step(self, action: Action, emit: Emit) -> None:
        seat = self.current_player
        assert seat is not None  # the replica only replays legal moves
        deal = self._play_deal
        tricks = 0 if deal is None else deal.tricks_played
        deals, number = len(self._deals), self._deal_number
        self.apply(action)
        if deal is None:
            self._emit_setup(seat, action, emit)
        else:
            # Cards are played face up; the deal object keeps its tricks after it ends.
            emit({"type": "action", "seat": seat, "action": action.text})
            for leader, cards, winner in deal.tricks()[tricks:]:
                emit(self._trick_event(leader, cards, winner))
        if len(self._deals) > deals:
            emit({"type": "deal_end", **self._deals[-1]})
        if self._deal_number != number:
            self._emit_deal(emit)

    def _emit_hands_of(self, emit: Emit) -> None:
        """Each seat's current hand, privately."""
        self._emit_hands(emit, [cards_of(h) for h in self._current_hands()])

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no change.

        A legal ``play`` action goes straight to the Rust deal (a listed action
        object in one call, :meth:`TrickDeal.play_listed`), and the common
        actions before play (passes, bids) to :meth:`_quick_setup`; everything else
        (shorthands, illegal actions with their reasons) takes the validated path
        of :meth:`BaseState.apply`. It takes the state's lock itself (see
        :func:`holds_lock`): one Python frame less per move than a wrapper.
        """
        lock = self._lock
        lock.acquire()
        try:
            deal = self._play_deal
            if deal is not None:
                # A listed action object plays in one engine call; text names the
                # card through the index; anything else takes the validated path.
                over = deal.play_listed(action, self._history)
                if over is None and isinstance(action, str):
                    card = PLAY_INDEX.get(action)
                    if card is not None:
                        over = deal.play(card)
                        if over is not None:
                            self._history.append(PLAY_ACTIONS[card])
                if over is not None:
                    if over:
                        self._advance()
                    return
            elif self._quick_setup(action):
                return
            super().apply(action)
        finally:
            lock.release()

    apply = holds_lock(apply)

    def _quick_setup(self, action: Action | str) -> bool:
        """Apply ``action`` before play starts if it is a common legal one (a pass,
        a bid) and return True; False leaves it to the validated path."""
        return False

    def _play(self, card: int) -> None:
        """Play a card the rules allow (already checked by :meth:`illegal_reason`)."""
        over = None if self._play_deal is None else self._play_deal.play(card)
        if over is None:
            raise IllegalActionError(f"{NAMES[card]} cannot be played now")
        if over:
            self._advance()

    def legal_plays(self) -> int:
        """Bitset of the cards the seat to act may play (0 before play or once over)."""
        deal = self._play_deal
        return deal.legal() if deal is not None else 0

    def zones(self) -> dict[str, list[Card]]:
        """Hands, the current trick and the played tricks (games that track more, such as
        Hearts' passes and won cards, define their own)."""
        zones: dict[str, list[Card]] = {}
        hands = self._current_hands()
        for seat in range(4):
            zones[f"hand{seat}"] = cards_of(hands[seat])
        deal = self._play_deal
        trick = [] if deal is None else deal.trick
        zones["trick"] = cards_of(sum(1 << c for c in trick))
        zones["played"] = cards_of(0 if deal is None else sum(deal.taken))
        return zones

    def _trick_lists(self) -> dict[str, Any]:
        """The current trick and every completed trick, as observations show them."""
        deal = self._play_deal
        if deal is None:
            return {"trick": [], "tricks": [], "trick_leaders": [], "trick_winners": []}
        tricks = deal.tricks()
        return {
            "trick": [NAMES[c] for c in deal.trick],
            # Completed tricks as parallel lists: compact for the many observations
            # a match produces.
            "tricks": [[NAMES[c] for c in t[1]] for t in tricks],
            "trick_leaders": [t[0] for t in tricks],
            "trick_winners": [t[2] for t in tricks],
        }
