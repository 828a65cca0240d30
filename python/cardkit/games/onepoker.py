"""One Poker: lock one of two cards, bet on it, and keep the other for the next deal.

Rules: the One Poker section of ``000_ffbe9703bbfe9a62.txt`` (clauses ``OP-*``).
Two players, two mixed 52-card packs (104 cards), 20 chips each and a one-chip
ante per deal. Each player holds two cards; only how many of them are UP (8-A)
and DOWN (2-7) is public. Both lock one card face down (``lock <card>``), the
first player first; then one no-limit betting round (minimum bet 1, totals for
the round excluding the ante). The locked cards are compared A high, except that
a 2 beats an A; ties split. The played cards are discarded, each keeps the other
card and draws one; the stock is reshuffled with the discards when fewer than two
cards remain before the draws (checked once: a stock of exactly two is drawn
empty). Seat 0 locks and acts first in the opening deal, then the previous
winner, and after a tie the other player. The match ends when a stack is empty,
or after ``MAX_DEALS`` (10,000) deals, the stacks deciding the returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from cardkit._core import BettingCore, Card
from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError, InvalidCardError, RuleOptionError, shown
from cardkit.games._base import MAX_DEALS, BaseGame, BaseState, Emit, check_int
from cardkit.games._betting import (
    BETTING_IDS,
    TurnIds,
    action,
    action_code,
    betting_action_id,
    known_or_text,
    listing,
    parse_betting_action,
    turn_ids,
    word_action,
    word_id,
)
from cardkit.games._phase import StrEnum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "OBSERVATION_FIELDS",
    "OnePoker",
    "OnePokerState",
    "Phase",
    "card_strength",
    "compare_cards",
    "is_up",
]

#: Rank index of an 8 (ranks 2..A are 0..12): 8 and above are UP, below are DOWN.
_UP_FROM = 6
_TWO, _ACE = 0, 12
#: The distinct cards of the pack (each comes twice): ``lock <card>`` ids follow the
#: betting ids, by card index (``Card.index``, rank-major).
_KINDS = 52
_LOCK_START = BETTING_IDS

#: The observation tensor's fields in order, with their lengths (docs/onepoker.md,
#: "Learning interface", explains each): card planes of 52 by card index, then
#: numbers; pairs hold the observer's value first, the opponent's second.
OBSERVATION_FIELDS = (
    ("hand", _KINDS),
    ("locked", _KINDS),
    ("discards", _KINDS),
    ("last_own", _KINDS),
    ("last_other", _KINDS),
    ("up", 2),
    ("down", 2),
    ("locked_by", 2),
    ("stacks", 2),
    ("bets", 2),
    ("pot", 1),
    ("to_call", 1),
    ("raise_min", 1),
    ("raise_max", 1),
    ("to_act", 2),
    ("first", 2),
    ("phase", 3),
    ("stock", 1),
    ("discard_count", 1),
)
_OFFSETS = list(accumulate((n for _, n in OBSERVATION_FIELDS), initial=0))
#: Each field's offset.
_AT = {name: _OFFSETS[i] for i, (name, _) in enumerate(OBSERVATION_FIELDS)}
_SIZE = _OFFSETS[-1]


class Phase(StrEnum):
    """Where a One Poker match stands; each member equals its lower-case value
    (``Phase.LOCK == "lock"``), the ``"phase"`` of observations."""

    #: Both players lock a card face down, the first player first (OP-14).
    LOCK = "lock"
    #: The betting round, once both cards are locked (OP-15).
    BET = "bet"
    #: A stack is empty (OP-36), the single deal is settled, or ``MAX_DEALS``
    #: deals were played.
    OVER = "over"


# ``Phase.LOCK`` is a metaclass lookup on every use (Python 3.11); the per-move paths
# compare against these module names instead.
_LOCK, _BET, _OVER = Phase.LOCK, Phase.BET, Phase.OVER


def is_up(card: Card) -> bool:
    """Whether ``card`` is in the public UP group (8, 9, 10, J, Q, K, A)."""
    return card.rank_index >= _UP_FROM


def card_strength(card: Card) -> int:
    """The card's rank order, 0 (2) to 12 (A); :func:`compare_cards` adds 2-beats-A."""
    return card.rank_index


def compare_cards(a: Card, b: Card) -> int:
    """+1 if ``a`` beats ``b``, -1 if it loses, 0 on equal ranks (suits never count).

    A > K > ... > 2, with the sole exception that a 2 beats an A.
    """
    ra, rb = a.rank_index, b.rank_index
    if ra == rb:
        return 0
    if {ra, rb} == {_TWO, _ACE}:
        return 1 if ra == _TWO else -1
    return 1 if ra > rb else -1


class OnePoker(BaseGame):
    """One Poker for two players (``make("onepoker")``).

    Options: ``match`` (True: play deals until a stack is empty; False: one deal),
    ``stack`` (starting chips, 20), ``ante`` (per deal, 1).
    """

    name = "onepoker"
    zero_sum = True
    deck_name = "double104"

    def __init__(self, match: bool = True, stack: int = 20, ante: int = 1) -> None:
        if not isinstance(match, bool):
            raise RuleOptionError(f"option match must be a bool, got {shown(match)}")
        self.match = match
        self.stack = check_int("stack", stack, 1, 1_000_000)
        self.ante = check_int("ante", ante, 0, self.stack)
        self.num_players = 2

    @property
    def max_game_length(self) -> int:
        """The most actions in one deal: two locks, then one betting round with a
        minimum bet of 1. Every full bet or raise lifts the bet by at least 1 and no
        seat commits more than the ``2 * stack`` chips in play, plus at most two
        short all-ins; each is answered at most once, after at most two actions
        before the first bet: ``2 + 2 + 2 (2 stack + 2)``."""
        return 4 + 2 * (2 * self.stack + 2)

    @property
    def max_match_length(self) -> int:
        """Chips can flow back and forth for ever, so a match also ends after
        ``MAX_DEALS`` deals (the stacks then decide the returns)."""
        return (MAX_DEALS if self.match else 1) * self.max_game_length

    @property
    def options(self) -> dict[str, Any]:
        """The rule options, as keyword arguments that ``make`` accepts."""
        return {"match": self.match, "stack": self.stack, "ante": self.ante}

    @property
    def num_actions(self) -> int:
        """59 ids: the seven betting ids Hold'em uses too (fold, check, call, then
        the bet-size grid), then ``lock <card>`` for each of the 52 cards."""
        return _LOCK_START + _KINDS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(283,)``: five card planes and 23 numbers (docs/onepoker.md)."""
        return (_SIZE,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """Two players, ``stack`` chips each, and no chips come in from outside:
        a seat ends with between none and both stacks."""
        return (-float(self.stack), float(self.stack))

    def _action_id(self, action: Action) -> int | None:
        if action.kind == "lock":
            card = Card(action.args[0])
            return None if card.is_joker else _LOCK_START + card.index
        return word_id(action)

    def _id_action(self, action_id: int) -> Action | None:
        if action_id >= _LOCK_START:
            return action(f"lock {Card.from_index(action_id - _LOCK_START)}")
        return word_action(action_id)

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> OnePokerState:
        """A new match (or single deal); ``deal`` fixes the top of the first shuffle."""
        return OnePokerState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``lock <card>``, ``fold``, ``check``, ``call``, ``bet N``, ``raise N``."""
        raw = known_or_text(text)
        if isinstance(raw, Action):
            return raw
        canonical = parse_betting_action(raw)
        if canonical is not None:
            return action(canonical)
        words = raw.split()
        if len(words) == 2 and words[0].lower() == "lock":
            try:
                return action(f"lock {Card(words[1])}")
            except InvalidCardError as exc:
                raise IllegalActionError(f"cannot lock: {exc}") from exc
        raise IllegalActionError(
            f"{shown(raw)} is not a One Poker action "
            "(lock <card>, fold, check, call, bet N, raise N)"
        )


class OnePokerState(BaseState):
    """A One Poker match (or one deal) in progress."""

    _game: OnePoker

    def _start(self) -> None:
        g = self._game
        self.stacks = [g.stack, g.stack]
        self.stock: list[Card] = self.deck_order(0)
        self.discards: list[Card] = []
        self.reshuffles = 0
        self.hands: list[list[Card]] = [[], []]
        self.locked: list[Card | None] = [None, None]
        self.first = 0
        self.deal_number = 0
        self.deals: list[dict[str, Any]] = []
        self.revealed: list[Card] = []
        # The ids of the betting turn's listed actions, kept until the next move.
        self._turn: TurnIds | None = None
        # Opening deal: two cards each, one at a time, the first player first.
        for _ in range(2):
            for seat in (self.first, 1 - self.first):
                self.hands[seat].append(self.stock.pop(0))
        self._begin_deal()

    def clone(self) -> OnePokerState:
        """An independent copy (cheaper than deepcopy)."""
        other = OnePokerState.__new__(OnePokerState)
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        other.stacks = list(self.stacks)
        other.stock = list(self.stock)
        other.discards = list(self.discards)
        other.hands = [list(h) for h in self.hands]
        other.locked = list(self.locked)
        other.revealed = list(self.revealed)
        other.deals = [dict(d) for d in self.deals]
        other.betting = self.betting.copy()
        return other

    # -- the flow of a deal ---------------------------------------------------------

    def _begin_deal(self) -> None:
        # The betting rules live in Rust (``BettingCore``), as for Hold'em.
        self.betting = BettingCore(self.stacks, [True, True], 1)
        for seat in (self.first, 1 - self.first):
            self.betting.post_ante(seat, self._game.ante)
        self.locked = [None, None]
        self._phase = Phase.LOCK

    def _advance(self) -> None:
        """The phase machine: the current phase is complete; enter the next one."""
        if self._phase is Phase.LOCK:
            # OP-15: betting starts once both players have locked a card; antes can
            # leave nobody able to bet, and then the deal is settled at once.
            self._phase = Phase.BET
            self.betting.start_round(self.first)
            if self.betting.to_act is not None:
                return
        # OP-29: the betting is over: both cards are revealed and the pot settled.
        self._settle()
        if not self._game.match or min(self.stacks) == 0 or self.deal_number + 1 >= MAX_DEALS:
            # OP-36: running out of chips ends the match.
            self._phase = Phase.OVER
            return
        self.deal_number += 1
        # OP-34: each draws a replacement and pays the next ante. OP-35 and the
        # Chinese text (牌堆不足两张时 ... 重新洗合后补牌): the stock is checked once,
        # before both draws: a stock of exactly two is drawn empty.
        if len(self.stock) < 2:
            self._reshuffle()
        for seat in (self.first, 1 - self.first):
            self.hands[seat].append(self.stock.pop(0))
        self._begin_deal()

    def _lock_turn(self) -> int | None:
        for seat in (self.first, 1 - self.first):
            if self.locked[seat] is None:
                return seat
        return None

    @property
    def phase(self) -> Phase:
        """Locking, betting, or over."""
        return self._phase

    @property
    def over(self) -> bool:
        """True once the match (or the single deal) is over: phase ``OVER``."""
        return self._phase is _OVER

    @property
    def current_player(self) -> int | None:
        """The seat to lock or bet, or ``None`` when the match (or deal) is over."""
        phase = self._phase
        if phase is _LOCK:
            return self._lock_turn()
        return self.betting.to_act if phase is _BET else None

    @property
    def is_terminal(self) -> bool:
        """True once a stack is empty (or the single deal is settled)."""
        return self._phase is _OVER

    def legal_actions(self) -> list[Action]:
        """Lock one of the two cards; then fold/check/call and a few bet sizes."""
        seat = self.current_player
        if seat is None:
            return []
        if self._phase is _LOCK:
            return [action(f"lock {c}") for c in sorted(set(self.hands[seat]))]
        return listing(self.betting)[0][:]

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now (any bet amount in range is legal)."""
        seat = self.current_player
        if seat is None:
            return "the match is over"
        text = action.text
        if text.startswith("lock "):
            if self._phase is not _LOCK:
                return "cards are already locked and cannot be changed; betting is on"
            card = Card(action.args[0])
            if card not in self.hands[seat]:
                return f"cannot lock {card}: it is not in this seat's hand"
            return None
        if self._phase is _LOCK:
            return "betting starts only after both players have locked a card"
        return self.betting.illegal_reason(text)

    def _apply(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None  # apply() rejects actions in a finished match
        self._turn = None
        if self._phase is _LOCK:
            self.locked[seat] = Card(action.args[0])
            if self._lock_turn() is None:
                self._advance()
        else:
            if self.betting.act(action_code(action)) is None:
                self._advance()

    def _settle(self) -> None:
        b = self.betting
        b.end_round()
        a, c = self.locked
        assert a is not None and c is not None  # betting only starts after both locks
        live = b.live()
        folded = None if len(live) == 2 else 1 - live[0]
        if folded is None:
            cmp = compare_cards(a, c)
            winners = [0, 1] if cmp == 0 else [0 if cmp > 0 else 1]
        else:
            winners = list(live)
        pot = b.pot
        # Only the named winners may take the pot: they alone get strength 1.
        results = b.award([int(s in winners) for s in (0, 1)], self.first)
        self.stacks = list(b.stacks)
        self.deals.append(
            {
                "deal": self.deal_number,
                "first": self.first,
                "locked": [str(a), str(c)],
                "folded": folded,
                "pot": pot,
                "returned": list(b.returned),
                "winners": winners,
                "shares": {str(s): v for _, _, _, shares in results for s, v in shares},
                "stacks": list(self.stacks),
            }
        )
        # Played cards are discarded; each player keeps the other card.
        for seat in (0, 1):
            card = self.locked[seat]
            assert card is not None
            self.hands[seat].remove(card)
            self.discards.append(card)
        self.revealed = [a, c]
        self.locked = [None, None]
        self.first = winners[0] if len(winners) == 1 else 1 - self.first

    def _reshuffle(self) -> None:
        """Shuffle the discards into the remaining stock; held cards stay aside.

        The order is the seeded shuffle of stream ``1_000_000 + k`` for the k-th
        reshuffle, restricted to the cards being reshuffled.
        """
        self.reshuffles += 1
        pool = Counter(self.stock) + Counter(self.discards)
        order = self.deck_order(1_000_000 + self.reshuffles)
        stock = []
        for card in order:
            if pool[card]:
                pool[card] -= 1
                stock.append(card)
        self.stock = stock
        self.discards = []
        # The last deal's locked cards are back in play and may be drawn face down.
        self.revealed = []

    # -- the event log ------------------------------------------------------------------

    def _event_start(self, emit: Emit) -> None:
        emit(
            {
                "type": "deal",
                "deal": self.deal_number,
                "first": self.first,
                "stacks": list(self.stacks),
                "signals": [self.signals(0), self.signals(1)],
            }
        )
        self._emit_hands(emit, self.hands)

    def _event_step(self, action: Action, emit: Emit) -> None:
        seat = self.current_player
        assert seat is not None  # the replica only replays legal moves
        locking, deals, reshuffles = self._phase is Phase.LOCK, len(self.deals), self.reshuffles
        self.apply(action)
        if locking:
            # The locked card stays face down until the deal is settled.
            emit({"type": "action", "seat": seat, "action": "lock", "hidden": True})
            emit({"type": "private_action", "seat": seat, "action": action.text}, (seat,))
        else:
            emit({"type": "action", "seat": seat, "action": action.text})
        if len(self.deals) > deals:
            emit({"type": "deal_end", **self.deals[-1]})
            if self.reshuffles > reshuffles:
                emit({"type": "reshuffle", "stock": len(self.stock)})
            if not self.over:
                self._event_start(emit)

    # -- results and views --------------------------------------------------------------

    # -- the learning interface -----------------------------------------------------

    def _turn_ids(self) -> TurnIds | None:
        """The ids of the betting turn's listed actions (``None`` outside betting),
        kept until the next move."""
        if self._phase is not _BET:
            return None
        turn = self._turn
        if turn is None:
            listed, codes = listing(self.betting)
            turn = self._turn = turn_ids(self.betting, listed, codes)
        return turn

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending: the two cards' lock ids, or
        the betting turn's ids."""
        seat = self.current_player
        if seat is None:
            return []
        if self._phase is _LOCK:
            return sorted({_LOCK_START + c.index for c in self.hands[seat]})
        turn = self._turn_ids()
        assert turn is not None  # a seat is to bet
        return turn.ids[:]

    def _action_id(self, action: Action) -> int | None:
        """Fixed ids for locks and the betting words; a listed size's grid id; any
        other legal total the id of the nearest listed size (docs/onepoker.md)."""
        if action.kind == "lock":
            return self._game._action_id(action)
        return betting_action_id(action, self._turn_ids(), self.illegal_reason)

    def _id_action(self, action_id: int) -> Action | None:
        fixed = self._game._id_action(action_id)
        if fixed is not None:
            return fixed
        turn = self._turn_ids()
        return None if turn is None else turn.by_id.get(action_id)

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        import numpy as np

        other = 1 - seat
        pair = (seat, other)
        total = float(2 * self._game.stack)
        # Card planes count copies (the pack holds two of each card), halved to 0..1.
        np.add.at(out, [c.index for c in self._unlocked(seat)], 0.5)
        np.add.at(out, [_AT["discards"] + c.index for c in self.discards], 0.5)
        locked = self.locked[seat]
        if locked is not None:
            out[_AT["locked"] + locked.index] = 1.0
        if self.deals:
            last = self.deals[-1]["locked"]
            out[_AT["last_own"] + Card(last[seat]).index] = 1.0
            out[_AT["last_other"] + Card(last[other]).index] = 1.0
        # The numbers after the planes, in OBSERVATION_FIELDS order, written at once.
        up = [sum(1 for c in self.hands[s] if is_up(c)) for s in pair]
        b = self.betting
        phase = self._phase
        betting = phase is _BET
        stacks = self.stacks if phase is _OVER else b.stacks
        bets = b.bets if betting else [0, 0]
        to_act = self.current_player
        low, high = (b.raise_range(seat) if betting and to_act == seat else None) or (0, 0)
        pack = float(2 * _KINDS)
        out[_AT["up"] :] = [
            *(u / 2 for u in up),
            *((len(self.hands[s]) - u) / 2 for s, u in zip(pair, up, strict=True)),
            *(self.locked[s] is not None for s in pair),
            *(stacks[s] / total for s in pair),
            *(bets[s] / total for s in pair),
            0.0 if phase is _OVER else b.pot / total,
            max(b.current_bet - bets[seat], 0) / total if betting else 0.0,
            low / total,
            high / total,
            to_act == seat,
            to_act == other,
            self.first == seat,
            self.first == other,
            phase is _LOCK,
            betting,
            phase is _OVER,
            len(self.stock) / pack,
            len(self.discards) / pack,
        ]

    def returns(self) -> list[float]:
        """Chips won or lost since the start (zero-sum)."""
        if not self.over:
            return [0.0, 0.0]
        return self.standings()

    def standings(self) -> list[float]:
        """Chips won or lost over the deals settled so far."""
        return [float(s - self._game.stack) for s in self.stacks]

    def signals(self, seat: int) -> dict[str, int]:
        """The public UP/DOWN counts of ``seat``'s two cards (not which card is which)."""
        seat = self.check_seat(seat)
        up = sum(1 for c in self.hands[seat] if is_up(c))
        return {"up": up, "down": len(self.hands[seat]) - up}

    def observation(self, seat: int) -> Observation:
        """Own cards (``hand`` excludes the locked one) and locked card, both players'
        UP/DOWN counts, chips and the previous deal's revealed cards; never the
        opponent's unrevealed cards."""
        seat = self.check_seat(seat)
        b = self.betting
        in_bet = self._phase is Phase.BET
        locked = self.locked[seat]
        return {
            "seat": seat,
            "deal": self.deal_number,
            "phase": self._phase.value,
            "first": self.first,
            "to_act": self.current_player,
            "hand": [str(c) for c in self._unlocked(seat)],
            "locked": None if locked is None else str(locked),
            "locked_by": [c is not None for c in self.locked],
            "signals": [self.signals(0), self.signals(1)],
            "stacks": list(b.stacks) if not self.over else list(self.stacks),
            "bets": list(b.bets) if in_bet else [0, 0],
            "pot": b.pot if not self.over else 0,
            "to_call": max(b.current_bet - b.bets[seat], 0) if in_bet else 0,
            "stock_size": len(self.stock),
            "discard_size": len(self.discards),
            "revealed": [str(c) for c in self.revealed],
            "last_deal": self._last_deal_view(),
        }

    def _unlocked(self, seat: int) -> list[Card]:
        """``seat``'s cards apart from the locked one (one copy of it, if a pair)."""
        cards = list(self.hands[seat])
        locked = self.locked[seat]
        if locked is not None:
            cards.remove(locked)
        return cards

    def _last_deal_view(self) -> dict[str, Any] | None:
        """The previous deal's result; its cards are in ``revealed`` while still discards."""
        if not self.deals:
            return None
        last = self.deals[-1]
        return {k: v for k, v in last.items() if k != "locked"}

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's two (or, after the final deal, one) concealed cards."""
        return list(self.hands[self.check_seat(seat)])

    def zones(self) -> dict[str, list[Card]]:
        """Both hands (locked card included), the stock and the discards."""
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "stock": list(self.stock),
            "discards": list(self.discards),
        }

    def score_breakdown(self) -> dict[str, Any]:
        """Every deal: locked cards, fold, pot, refunds, winners and shares; then stacks."""
        return {
            "deals": list(self.deals),
            "stacks": list(self.stacks),
            "returns": self.returns(),
        }
