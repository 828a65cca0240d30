"""No-limit Texas Hold'em for 2-12 players, one hand or a match to the last stack.

Rules: the Texas Hold'em sections of ``000_ffbe9703bbfe9a62.txt`` (clauses
``NLH-*``) and ``002_2c241b5745b03ca8.txt`` (``NLH2-*``). 52 cards, two hole cards
each, blinds 10/20 and no ante, stacks of 1000. The button starts at seat 0 (or
the ``button`` option) and moves clockwise to the next player with chips; the
small and big blinds follow it, and heads-up the button posts the small blind and
acts first pre-flop. Bets are totals for the round (``raise 60``); the betting
rules (minimum bet, full raises, short all-ins, side pots, odd chips) live in the
Rust ``BettingCore``, which One Poker drives too. One card is burnt before the
flop, the turn and the river; when no more betting is possible the board is run
out, and the best five-card hands (``cardkit.poker``) win each pot they are
eligible for. A match
also ends after ``MAX_DEALS`` (10,000) hands, the stacks deciding the returns, so
every match and save is finite (``Holdem.max_match_length``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import BettingCore, Card, deck, parse_cards
from cardkit._validate import is_sequence
from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError, RuleOptionError, shown
from cardkit.games._base import MAX_DEALS, BaseGame, BaseState, Emit, check_int
from cardkit.games._betting import (
    BETTING_IDS,
    PotResult,
    TurnIds,
    action,
    action_code,
    betting_action_id,
    code_action,
    known_or_text,
    listing,
    parse_betting_action,
    turn_ids,
    word_action,
    word_id,
)
from cardkit.games._phase import StrEnum
from cardkit.poker import HandRank, evaluate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "OBSERVATION_FIELDS",
    "SEAT_ROWS",
    "STREETS",
    "Holdem",
    "HoldemState",
    "Phase",
    "arrange_deal",
]


class Phase(StrEnum):
    """Where a Hold'em match stands: the betting round of the hand in play, or over.
    Each member equals its lower-case value (``Phase.FLOP == "flop"``), the
    ``"street"`` of observations and board events."""

    #: Hole cards are dealt and the blinds posted (NLH-10, NLH-12); betting
    #: starts after the big blind (NLH-14).
    PREFLOP = "preflop"
    #: A card is burnt and three dealt face up (NLH-28).
    FLOP = "flop"
    #: A card is burnt and one dealt (NLH-28).
    TURN = "turn"
    #: A card is burnt and one dealt; its betting ends in the showdown (NLH-40).
    RIVER = "river"
    #: One player holds every chip, the single hand is settled, or ``MAX_DEALS``
    #: hands were played.
    OVER = "over"


#: The betting rounds, in order.
STREETS = (Phase.PREFLOP, Phase.FLOP, Phase.TURN, Phase.RIVER)
#: The street after each, and the board cards it deals after its burn (NLH-28).
_NEXT_STREET = {Phase.PREFLOP: Phase.FLOP, Phase.FLOP: Phase.TURN, Phase.TURN: Phase.RIVER}
_DEALS = {Phase.FLOP: 3, Phase.TURN: 1, Phase.RIVER: 1}
#: The street a hand has reached, by its board size.
_STREET_OF_BOARD = {0: Phase.PREFLOP, 3: Phase.FLOP, 4: Phase.TURN, 5: Phase.RIVER}
# ``Phase.OVER`` is a metaclass lookup on every use (Python 3.11); the per-move paths
# compare against this module name instead.
_OVER = Phase.OVER

#: The observation tensor's first fields, with their lengths (docs/holdem.md,
#: "Learning interface", explains each): card planes by card index, the street,
#: then chip counts as fractions of every chip on the table.
OBSERVATION_FIELDS = (
    ("hole", 52),
    ("board", 52),
    ("street", len(STREETS)),
    ("pot", 1),
    ("to_call", 1),
    ("raise_min", 1),
    ("raise_max", 1),
)
_SEATS = sum(n for _, n in OBSERVATION_FIELDS)
#: Then one row per name, ``players`` long, the observer's column first and the
#: other seats clockwise after it.
SEAT_ROWS = (
    "stack",
    "bet",
    "committed",
    "dealt",
    "folded",
    "all_in",
    "button",
    "small_blind",
    "big_blind",
    "to_act",
    "checked",
    "called",
    "raises",
)
_ROW = {name: i for i, name in enumerate(SEAT_ROWS)}
#: The row each verb of this street's actions marks (folds show in "folded").
_ACTION_ROWS = {
    "check": _ROW["checked"],
    "call": _ROW["called"],
    "bet": _ROW["raises"],
    "raise": _ROW["raises"],
}


def arrange_deal(
    stacks: Sequence[int],
    button: int,
    holes: dict[int, str | Sequence[Card | str]],
    board: str | Sequence[Card | str] = "",
    burns: str | Sequence[Card | str] = "",
) -> list[Card]:
    """The top of the deck that deals ``holes`` (seat -> two cards) and ``board`` in the
    first hand of a game with these starting ``stacks`` and ``button``.

    Cards go one at a time clockwise from the button's left to the seats with chips,
    twice; then a burn before the flop, the turn and the river. Every seat with chips
    needs its two cards; missing burns are filled with cards nobody holds, and board
    cards not named are left to the seed. Pass the result as ``new_state(deal=...)``.
    """
    if not is_sequence(stacks) or not stacks:
        raise RuleOptionError(f"stacks must be a non-empty list of ints, got {shown(stacks)}")
    for stack in stacks:
        check_int("stacks[i]", stack, 0, 10**12)
    n = len(stacks)
    check_int("button", button, 0, n - 1)
    if not isinstance(holes, dict) or not all(isinstance(seat, int) for seat in holes):
        raise RuleOptionError(f"holes must map seats to two cards, got {shown(holes)}")
    order = [(button + k) % n for k in range(1, n + 1) if stacks[(button + k) % n] > 0]
    hole_cards = {s: parse_cards(c) for s, c in holes.items()}
    board_cards = parse_cards(board)
    burn_cards = parse_cards(burns)
    named = [c for cs in hole_cards.values() for c in cs] + board_cards + burn_cards
    if len(set(named)) != len(named):
        raise RuleOptionError("a card is named twice in the arranged deal")
    spare = [c for c in deck("standard52") if c not in set(named)]
    for seat in order:
        if len(hole_cards.get(seat, ())) != 2:
            raise RuleOptionError(
                f"seat {seat} needs exactly two hole cards, got {holes.get(seat)}"
            )
    top = [hole_cards[s][0] for s in order] + [hole_cards[s][1] for s in order]
    for street, (start, end) in enumerate(((0, 3), (3, 4), (4, 5))):
        if len(board_cards) < end:
            break
        top.append(burn_cards[street] if street < len(burn_cards) else spare.pop())
        top.extend(board_cards[start:end])
    return top


def _check_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RuleOptionError(f"option {name} must be a bool, got {shown(value)}")
    return value


class Holdem(BaseGame):
    """No-limit Texas Hold'em (``make("holdem", players=4, stack=1000, blinds=(10, 20))``).

    Options: ``players`` (2-12), ``stack`` (every seat's starting chips), ``blinds``
    (small, big; the big blind is also the minimum bet), ``match`` (True: deal hands
    until one player holds every chip; False: one hand), ``button`` (the first
    hand's button seat), ``stacks`` (per-seat starting chips instead of ``stack``,
    e.g. to replay a hand history).
    """

    name = "holdem"
    zero_sum = True
    deck_name = "standard52"

    def __init__(
        self,
        players: int = 4,
        stack: int = 1000,
        blinds: Sequence[int] = (10, 20),
        match: bool = True,
        button: int = 0,
        stacks: Sequence[int] | None = None,
    ) -> None:
        self.num_players = check_int("players", players, 2, 12)
        self.stack = check_int("stack", stack, 1, 10**12)
        if isinstance(blinds, (str, bytes)) or not isinstance(blinds, Sequence) or len(blinds) != 2:
            raise RuleOptionError(f"option blinds must be (small, big), got {shown(blinds)}")
        big = check_int("blinds[1]", blinds[1], 1, 10**12)
        small = check_int("blinds[0]", blinds[0], 0, big)
        self.blinds = (small, big)
        self.match = _check_bool("match", match)
        self.button = check_int("button", button, 0, self.num_players - 1)
        if stacks is None:
            self.stacks: tuple[int, ...] | None = None
        else:
            if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence):
                raise RuleOptionError(f"option stacks must be a list of ints, got {shown(stacks)}")
            if len(stacks) != self.num_players:
                raise RuleOptionError(
                    f"option stacks needs {self.num_players} entries, got {len(stacks)}"
                )
            self.stacks = tuple(check_int("stacks[i]", s, 0, 10**12) for s in stacks)
            if sum(1 for s in self.stacks if s > 0) < 2:
                raise RuleOptionError("option stacks needs at least two players with chips")

    @property
    def total_chips(self) -> int:
        """Every chip on the table (the sum of the starting stacks): the scale of
        the observation tensor's chip counts."""
        return sum(self.stacks) if self.stacks is not None else self.stack * self.num_players

    @property
    def starting_stacks(self) -> list[int]:
        """Each seat's chips at the start."""
        return list(self.stacks) if self.stacks is not None else [self.stack] * self.num_players

    @property
    def max_game_length(self) -> int:
        """The most actions in one hand, from the chips on the table.

        With ``n`` players, ``T`` chips in all and big blind ``b`` (also the minimum
        bet and raise step): every full bet or raise lifts some seat's commitment
        for the hand by at least ``b``, and no seat commits more than ``T``, so a
        hand has at most ``T // b`` of them, plus at most ``n`` short all-ins. Each
        bet or raise is answered by at most ``n - 1`` seats, and each of the four
        rounds sees at most ``n`` actions before its first bet:
        ``4 n + n (T // b + n)``.
        """
        n = self.num_players
        return n * (4 + n + sum(self.starting_stacks) // self.blinds[1])

    @property
    def max_match_length(self) -> int:
        """Chips can flow back and forth for ever, so a match also ends after
        ``MAX_DEALS`` hands (the stacks then decide the returns)."""
        return (MAX_DEALS if self.match else 1) * self.max_game_length

    @property
    def num_actions(self) -> int:
        """Seven ids: fold, check, call, then the bet-size grid (minimum, half pot,
        pot, all-in; docs/holdem.md)."""
        return BETTING_IDS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(112 + 13 * players,)``: cards, street and betting numbers, then 13
        per-seat rows (docs/holdem.md)."""
        return (_SEATS + len(SEAT_ROWS) * self.num_players,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """A seat ends with between no chips and every chip on the table, so its
        return lies in ``[-its stack, total - its stack]``; over the seats, from
        minus the largest starting stack to the total less the smallest."""
        stacks = self.starting_stacks
        return (-float(max(stacks)), float(sum(stacks) - min(stacks)))

    def _action_id(self, action: Action) -> int | None:
        return word_id(action)

    def _id_action(self, action_id: int) -> Action | None:
        return word_action(action_id)

    @property
    def options(self) -> dict[str, Any]:
        """The rule options, as keyword arguments that ``make`` accepts."""
        return {
            "players": self.num_players,
            "stack": self.stack,
            "blinds": list(self.blinds),
            "match": self.match,
            "button": self.button,
            "stacks": None if self.stacks is None else list(self.stacks),
        }

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> HoldemState:
        """A new match (or hand); ``deal`` fixes the top of the first hand's deck (see
        :meth:`HoldemState.deal_order` for which position is which card)."""
        return HoldemState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``fold``, ``check``, ``call``, ``bet N`` or ``raise N``."""
        raw = known_or_text(text)
        if isinstance(raw, Action):
            return raw
        canonical = parse_betting_action(raw)
        if canonical is None:
            raise IllegalActionError(
                f"{shown(raw)} is not a Hold'em action (fold, check, call, bet N, raise N)"
            )
        return action(canonical)


class _HandLog:
    """One hand as played, kept raw; its dict form (``HoldemState.hands``) is built
    on first request, so simulations that never read it never pay for the strings."""

    __slots__ = (
        "_record",
        "actions",
        "big_blind",
        "board",
        "board_at",
        "burns",
        "button",
        "finishing_stacks",
        "hand",
        "holes",
        "idle",
        "pot_rows",
        "ranks",
        "returned",
        "small_blind",
        "starting_stacks",
    )

    def __init__(
        self,
        hand: int,
        button: int,
        small_blind: tuple[int, int],
        big_blind: tuple[int, int],
        starting_stacks: list[int],
        holes: list[tuple[Card, ...]],
    ) -> None:
        self.hand = hand
        self.button = button
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.starting_stacks = starting_stacks
        self.holes = holes
        # [seat, action text] per move; [move index, seat] per idle turn; the move
        # index at which each street was dealt.
        self.actions: list[list[Any]] = []
        self.idle: list[tuple[int, int]] = []
        self.board_at: list[int] = []
        self.board: list[Card] = []
        self.burns: list[Card] = []
        self.returned: list[int] = []
        # (amount, eligible, winners, [(seat, chips)]) per pot, as BettingCore.award gives.
        self.pot_rows: list[tuple[int, list[int], list[int], list[tuple[int, int]]]] = []
        self.ranks: dict[int, HandRank] = {}
        self.finishing_stacks: list[int] = []
        self._record: dict[str, Any] | None = None

    def copy(self) -> _HandLog:
        """A copy whose growing lists are independent (for ``clone``)."""
        other = _HandLog.__new__(_HandLog)
        for name in _HandLog.__slots__:
            setattr(other, name, getattr(self, name))
        other.actions = list(self.actions)
        other.idle = list(self.idle)
        other.board_at = list(self.board_at)
        other.board = list(self.board)
        other.burns = list(self.burns)
        return other

    @property
    def results(self) -> list[PotResult]:
        """How each pot was settled (empty until the hand is)."""
        return [
            PotResult(amount, tuple(eligible), tuple(winners), dict(shares))
            for amount, eligible, winners, shares in self.pot_rows
        ]

    def record(self) -> dict[str, Any]:
        """The settled hand as plain data: blinds, holes, actions, board per street,
        burns, returned chips, pots with eligible seats, winners and shares, shown
        hands and the stacks after it."""
        if self._record is None:
            streets = (self.board[0:3], self.board[3:4], self.board[4:5])[: len(self.board_at)]
            ranks = self.ranks
            self._record = {
                "hand": self.hand,
                "button": self.button,
                "small_blind": list(self.small_blind),
                "big_blind": list(self.big_blind),
                "starting_stacks": self.starting_stacks,
                "holes": [[str(c) for c in h] for h in self.holes],
                "actions": self.actions,
                "idle": [list(turn) for turn in self.idle],
                "board": ["".join(str(c) for c in street) for street in streets],
                "board_at": self.board_at,
                "burns": [str(c) for c in self.burns],
                "returned": self.returned,
                "pots": [
                    {
                        "amount": r.amount,
                        "eligible": list(r.eligible),
                        "winners": list(r.winners),
                        "shares": {str(s): v for s, v in r.shares.items()},
                    }
                    for r in self.results
                ],
                "shown": {str(s): [str(c) for c in self.holes[s]] for s in ranks},
                "hands": {str(s): ranks[s].describe() for s in ranks},
                "finishing_stacks": self.finishing_stacks,
            }
        return self._record


def _hand_events(log: _HandLog) -> list[tuple[dict[str, Any], tuple[int, ...] | None]]:
    """One hand's events so far, with who sees each (``None``: everyone)."""
    events: list[tuple[dict[str, Any], tuple[int, ...] | None]] = [
        (
            {
                "type": "deal",
                "deal": log.hand,
                "button": log.button,
                "small_blind": {"seat": log.small_blind[0], "amount": log.small_blind[1]},
                "big_blind": {"seat": log.big_blind[0], "amount": log.big_blind[1]},
                "stacks": log.starting_stacks,
            },
            None,
        )
    ]
    for seat, hole in enumerate(log.holes):
        if hole:
            events.append(
                ({"type": "hand", "seat": seat, "cards": [str(c) for c in hole]}, (seat,))
            )
    streets = [
        ({"type": "board", "street": STREETS[k + 1], "cards": [str(c) for c in log.board[a:b]]}, at)
        for k, ((a, b), at) in enumerate(zip(((0, 3), (3, 4), (4, 5)), log.board_at, strict=False))
    ]
    for move, (seat, text) in enumerate(log.actions):
        events.extend((street, None) for street, at in streets if at == move)
        events.append(({"type": "action", "seat": seat, "action": text}, None))
    events.extend((street, None) for street, at in streets if at == len(log.actions))
    if log.finishing_stacks:
        if log.ranks:
            revealed = [
                {"seat": s, "cards": [str(c) for c in log.holes[s]], "hand": r.describe()}
                for s, r in sorted(log.ranks.items())
            ]
            events.append(({"type": "showdown", "hands": revealed}, None))
        pots = [
            {
                "amount": r.amount,
                "eligible": list(r.eligible),
                "winners": list(r.winners),
                "shares": {str(s): v for s, v in r.shares.items()},
            }
            for r in log.results
        ]
        end = {"type": "hand_end", "deal": log.hand, "pots": pots, "returned": log.returned}
        events.append(({**end, "stacks": log.finishing_stacks}, None))
    return events


class HoldemState(BaseState):
    """A Hold'em match (or single hand) in progress."""

    _game: Holdem
    #: Where a replica's event log stands (see ``_emit_hand_events``).
    _event_mark: tuple[int, int]

    def _start(self) -> None:
        g = self._game
        self.stacks = g.starting_stacks
        self.hand_number = -1
        self.button = g.button
        self.last_big_blind: int | None = None
        self.heads_up_played = False
        self._logs: list[_HandLog] = []
        # This turn's listed actions and their BettingCore codes, kept until the next move.
        self._listed: list[Action] | None = None
        self._codes: dict[Action, int] | None = None
        # The ids of this turn's listed actions, also kept until the next move.
        self._turn: TurnIds | None = None
        self._start_hand()

    def clone(self) -> HoldemState:
        """An independent copy (cheaper than deepcopy)."""
        other = HoldemState.__new__(HoldemState)
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        other.stacks = list(self.stacks)
        other.log = self.log.copy()
        # A settled final hand is both the current log and the last of the logs.
        other._logs = [other.log if log is self.log else log for log in self._logs]
        other.holes = other.log.holes
        other.board = other.log.board
        other.burns = other.log.burns
        other.shown = list(self.shown)
        other.betting = self.betting.copy()
        return other

    # -- seats, button and blinds --------------------------------------------------------

    def _next_with_chips(self, seat: int) -> int:
        n = self._game.num_players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.stacks[s] > 0:
                return s
        return seat

    def _place_button(self) -> None:
        """Move the button (not for the first hand) and seat the blinds."""
        if self.hand_number > 0 or self.stacks[self.button] == 0:
            self.button = self._next_with_chips(self.button)
        seated = sum(1 for s in self.stacks if s > 0)
        if seated == 2:
            other = self._next_with_chips(self.button)
            if not self.heads_up_played and self.hand_number > 0 and other == self.last_big_blind:
                # First heads-up hand: nobody pays the big blind twice in a row.
                self.button, other = other, self.button
            self.heads_up_played = True
            self.small_blind, self.big_blind = self.button, other
        else:
            self.small_blind = self._next_with_chips(self.button)
            self.big_blind = self._next_with_chips(self.small_blind)

    def deal_order(self) -> list[int]:
        """Seats in the order they receive cards: from the button's left, clockwise."""
        n = self._game.num_players
        return [
            (self.button + k) % n for k in range(1, n + 1) if self.stacks[(self.button + k) % n]
        ]

    # -- the flow of a hand ----------------------------------------------------------

    def _start_hand(self) -> None:
        g = self._game
        self.hand_number += 1
        self._place_button()
        n = g.num_players
        in_hand = [s > 0 for s in self.stacks]
        self.deck = self.deck_order(self.hand_number)
        self.holes: list[tuple[Card, ...]] = [()] * n
        order = self.deal_order()
        k = len(order)
        # One card at a time around the table, twice, starting left of the button.
        for i, seat in enumerate(order):
            self.holes[seat] = (self.deck[i], self.deck[i + k])
        self._next_card = 2 * k
        self.shown: list[bool] = [False] * n
        self._phase = Phase.PREFLOP
        # The betting core runs in Rust (its Python twin, tests/oracle_betting.py, is
        # checked against it move for move by tests/test_betting_rust.py).
        self.betting = BettingCore(self.stacks, in_hand, g.blinds[1])
        small, big = g.blinds
        posted_small = self.betting.post_blind(self.small_blind, small)
        posted_big = self.betting.post_blind(self.big_blind, big)
        self.log = _HandLog(
            self.hand_number,
            self.button,
            (self.small_blind, posted_small),
            (self.big_blind, posted_big),
            list(self.stacks),
            self.holes,
        )
        # The board and the burnt cards grow in the hand's log.
        self.board: list[Card] = self.log.board
        self.burns: list[Card] = self.log.burns
        self.last_big_blind = self.big_blind
        if self.betting.start_round(self._next_with_chips(self.big_blind)) is None:
            self._advance_streets()

    def _advance_streets(self) -> None:
        """The phase machine, after a betting round closes: the next street, the
        run-out, or the settlement and then the next hand or the end of the match."""
        b = self.betting
        while True:
            # NLH-39: one seat left wins at once, no more cards revealed; NLH-40: the
            # showdown after the river betting.
            if b.close_round() == 1 or self._phase is Phase.RIVER:
                self._settle()
                if (
                    not self._game.match
                    or sum(1 for s in self.stacks if s > 0) <= 1
                    or self.hand_number + 1 >= MAX_DEALS
                ):
                    self._phase = Phase.OVER
                else:
                    # NLH-47: a fresh shuffle and the settled stacks.
                    self._start_hand()
                return
            # NLH-28: the flop, turn and river in successive rounds.
            self._phase = _NEXT_STREET[self._phase]
            self._deal_street()
            # NLH-40: no betting possible (all-ins): the board is completed at once.
            if b.next_round(self._next_seat(self.button)) is not None:
                return

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self._game.num_players

    def _deal_street(self) -> None:
        self.burns.append(self.deck[self._next_card])
        count = _DEALS[self._phase]
        start = self._next_card + 1
        self.board.extend(self.deck[start : start + count])
        self._next_card = start + count
        self.log.board_at.append(len(self.log.actions))

    def _settle(self) -> None:
        b = self.betting
        live = b.live()
        ranks: dict[int, HandRank] = {}
        strength = [0] * self._game.num_players
        if len(live) > 1:
            board = self.board
            for seat in live:
                self.shown[seat] = True
                rank = ranks[seat] = evaluate((*self.holes[seat], *board))
                strength[seat] = rank.value
        log = self.log
        log.pot_rows = b.award(strength, self._next_seat(self.button))
        self.stacks = b.stacks
        log.returned = b.returned
        log.idle = b.idle_turns
        log.ranks = ranks
        log.finishing_stacks = list(self.stacks)
        self._logs.append(log)

    # -- the protocol ---------------------------------------------------------------------

    @property
    def results(self) -> list[PotResult]:
        """How each pot of the current hand was settled (empty until it is)."""
        return self.log.results

    @property
    def phase(self) -> Phase:
        """The betting round of the hand in play, or ``OVER``."""
        return self._phase

    @property
    def street(self) -> Phase:
        """The betting round the current hand has reached (the last hand's once over)."""
        return _STREET_OF_BOARD[len(self.board)]

    @property
    def over(self) -> bool:
        """True once the match (or the single hand) is over: phase ``OVER``."""
        return self._phase is _OVER

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the match (or hand) is over."""
        return None if self._phase is _OVER else self.betting.to_act

    @property
    def is_terminal(self) -> bool:
        """True once one player holds every chip (or the single hand is settled)."""
        return self._phase is _OVER

    def bet_range(self) -> tuple[int, int] | None:
        """The current player's legal (min, max) total for ``bet N`` / ``raise N``,
        or ``None`` when it may only check, call or fold."""
        seat = self.current_player
        return None if seat is None else self.betting.raise_range(seat)

    def legal_actions(self) -> list[Action]:
        """fold/check/call, then bet or raise to the minimum, half pot, pot and all-in."""
        return self._listing()[:]

    def _listing(self) -> list[Action]:
        """This turn's listed actions, shared (copy before handing out)."""
        listed = self._listed
        if listed is None:
            if self._phase is _OVER:
                return []
            # Someone is always to act in a hand that is not over.
            listed, self._codes = listing(self.betting)
            self._listed = listed
        return listed

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now; any total in :meth:`bet_range` is legal."""
        seat = self.current_player
        if seat is None:
            return "the match is over"
        codes = self._codes
        if codes is not None and action in codes:
            return None  # one of this turn's listed actions, already known legal
        return self.betting.illegal_reason(action.text)

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an action or its text; ``bet N``/``raise N`` take any legal
        total); illegal -> IllegalActionError and the state is unchanged."""
        codes = self._codes
        # Only text can be listed; anything else takes the validated path.
        if codes is not None and isinstance(action, str):
            code = codes.get(action)  # type: ignore[call-overload]
            if code is not None:
                # One of this turn's listed actions (or its exact text): known legal,
                # so the hot path of playouts skips parsing and checking.
                listed = action if type(action) is Action else code_action(code)
                self._play(listed, code)
                self._history.append(listed)
                return
        super().apply(action)

    def _apply(self, action: Action) -> None:
        self._play(action, action_code(action))

    def _play(self, action: Action, code: int) -> None:
        """Play the legal ``action``, whose ``BettingCore`` code is ``code``: the one
        path of every move, checked or listed."""
        self._listed = self._codes = self._turn = None
        b = self.betting
        self.log.actions.append([b.to_act, action])
        if b.act(code) is None:
            self._advance_streets()

    # -- the learning interface ----------------------------------------------------------

    def _turn_ids(self) -> TurnIds | None:
        """The ids of this turn's listed actions (``None`` once over)."""
        turn = self._turn
        if turn is None and self._phase is not _OVER:
            listed = self._listing()
            assert self._codes is not None  # set together with the listing
            turn = self._turn = turn_ids(self.betting, listed, self._codes)
        return turn

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending (the listing's order)."""
        turn = self._turn_ids()
        return [] if turn is None else turn.ids[:]

    def _action_id(self, action: Action) -> int | None:
        """Fixed ids for the words; a listed size's grid id; any other legal total
        the id of the nearest listed size (docs/holdem.md)."""
        return betting_action_id(action, self._turn_ids(), self.illegal_reason)

    def _id_action(self, action_id: int) -> Action | None:
        word = word_action(action_id)
        if word is not None:
            return word
        turn = self._turn_ids()
        return None if turn is None else turn.by_id.get(action_id)

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        # One writer in Rust for the State API and the vector env (rust/engine/src/holdem.rs).
        log = self.log
        marks = _ACTION_ROWS.get
        street = log.actions[log.board_at[-1] if log.board_at else 0 :]
        self.betting.write_observation(
            out,
            seat,
            self._game.total_chips,
            [(h[0].index, h[1].index) if h else None for h in self.holes],
            [c.index for c in self.board],
            self.button,
            self.small_blind,
            self.big_blind,
            self.current_player,
            [(actor, row) for actor, act in street if (row := marks(act.kind)) is not None],
        )

    def returns(self) -> list[float]:
        """Chips won or lost since the start (zero-sum); zeros until the end."""
        if not self.over:
            return [0.0] * self._game.num_players
        return self.standings()

    def standings(self) -> list[float]:
        """Chips won or lost over the hands settled so far."""
        return [
            float(s - s0) for s, s0 in zip(self.stacks, self._game.starting_stacks, strict=True)
        ]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees: its own hole cards, the board, every stack and bet, the
        actions of this hand, and other hole cards only once a showdown shows them."""
        seat = self.check_seat(seat)
        b = self.betting
        n = self._game.num_players
        to_act = self.current_player
        bounds = b.raise_range(seat) if to_act == seat else None
        folded = b.folded
        return {
            "seat": seat,
            "hand_number": self.hand_number,
            "street": self.street.value,
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "blinds": list(self._game.blinds),
            "hole": [str(c) for c in self.holes[seat]],
            "board": [str(c) for c in self.board],
            "stacks": list(b.stacks),
            "bets": list(b.bets),
            "committed": list(b.committed),
            "pot": b.pot,
            "folded": [folded[s] and self.holes[s] != () for s in range(n)],
            "in_hand": [self.holes[s] != () for s in range(n)],
            "to_act": to_act,
            "to_call": max(b.current_bet - b.bets[seat], 0),
            "bet_range": None if bounds is None else list(bounds),
            "actions": [list(a) for a in self.log.actions],
            # Where each street's actions start, so that readers need not replay the
            # betting to find them (when a round closes is the engine's rule).
            "board_at": list(self.log.board_at),
            "shown": {str(s): [str(c) for c in self.holes[s]] for s in range(n) if self.shown[s]},
            "last_hand": self._last_hand_view(),
        }

    def _last_hand_view(self) -> dict[str, Any] | None:
        """The previous hand's pots and stacks (its cards were reshuffled since)."""
        if not self._logs or self._logs[-1] is self.log:
            return None
        last = self._logs[-1].record()
        return {"hand": last["hand"], "pots": last["pots"], "stacks": last["finishing_stacks"]}

    # -- the event log ---------------------------------------------------------------------

    def _event_start(self, emit: Emit) -> None:
        # Blinds may put everyone all-in, so the first hands can be over already.
        self._event_mark = (0, 0)
        self._emit_hand_events(emit)

    def _event_step(self, action: Action, emit: Emit) -> None:
        self.apply(action)
        self._emit_hand_events(emit)

    def _emit_hand_events(self, emit: Emit) -> None:
        """Emit the hand events not emitted yet: each hand's events only grow, so a
        mark (hand number, events of it emitted) says where to go on."""
        hand, done = self._event_mark
        logs = self._logs if self._logs and self._logs[-1] is self.log else [*self._logs, self.log]
        for log in logs[hand:]:
            events = _hand_events(log)
            for event, seats in events[done if log.hand == hand else 0 :]:
                emit(event, seats)
            self._event_mark = (log.hand, len(events))

    def _public_score(self) -> dict[str, Any]:
        # The hand records name every hole card and burn; the hand_end events hold
        # what was shown.
        return {"stacks": list(self.stacks)}

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's hole cards until a showdown shows them."""
        seat = self.check_seat(seat)
        return [] if self.shown[seat] else list(self.holes[seat])

    def zones(self) -> dict[str, list[Card]]:
        """Hole cards per seat, the board, the burnt cards and the undealt stock."""
        zones = {f"hole{s}": list(h) for s, h in enumerate(self.holes)}
        zones["board"] = list(self.board)
        zones["burn"] = list(self.burns)
        zones["stock"] = self.deck[self._next_card :]
        return zones

    def score_breakdown(self) -> dict[str, Any]:
        """Every hand: button, blinds, actions, board, pots with their eligible
        players, winners and shares, uncalled chips returned, shown hands."""
        return {"hands": self.hands, "stacks": list(self.stacks), "returns": self.returns()}

    @property
    def hands(self) -> list[dict[str, Any]]:
        """Every settled hand as plain data (see :meth:`score_breakdown`)."""
        return [log.record() for log in self._logs]
