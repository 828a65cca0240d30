"""Hearts: four players, thirteen cards each, avoid hearts and the queen of spades.

Rules as in the seed text (see ``docs/hearts.md``): pass three cards left, right,
across, then hold, in a cycle of four deals; the holder of 2♣ leads it; follow
suit if possible, otherwise discard; the highest card of the led suit wins and
leads next. On the first trick nobody may discard a heart or Q♠ while holding a
safe card. Hearts may not be led until a heart has been played (Q♠ does not break
hearts) unless the leader holds only hearts. Each heart costs 1 and Q♠ 13; taking
all 26 scores 0 for the shooter and 26 for each opponent. The match ends when
anyone reaches ``target`` (100); the lowest total wins and equal lowest totals
share the win. ``match=False`` plays one deal, which passes left unless
``pass_direction`` says ``"right"``, ``"across"`` or ``"hold"``.

Passing is simultaneous at a real table; here the seats choose their passes in
turn (0, 1, 2, 3) and no observation shows another seat's choice until all four
have passed and the cards are exchanged. ``legal_actions()`` offers the pass one
card at a time (``pass 2c``, three times per seat, 13 choices instead of 286
combinations); ``pass 2c 3d 4h`` passes all three at once.

``returns()`` is zero-sum: each seat's mean penalty total minus its own total
(for the match, or for the deal when ``match=False``), so lower penalties give a
higher return and the returns add up to zero.

Learning interface (``docs/hearts.md``): ids 0..51 play a card (its index), ids
52..103 pass one (``pass <card>``, 52 + its index); a three-card ``pass`` has no
id. The observation tensor (595 values) is written in Rust.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import ActionTable, Card, TrickDeal, hearts_observation
from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError, RuleOptionError, shown
from cardkit.games._base import Emit, action_text, check_choice, check_int
from cardkit.games._intern import Interner
from cardkit.games._phase import StrEnum
from cardkit.games._tricks import (
    NAMES,
    PLAY_ACTIONS,
    PLAY_INDEX,
    PLAY_NEEDS_CARD,
    PLAY_TABLE,
    SETUP_BASE,
    SUIT_MASKS,
    SUIT_NAMES,
    TrickGame,
    TrickState,
    bits,
    card_index,
    cards_of,
    check_bool,
    hands_of,
    names_of,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "OBSERVATION_SIZE",
    "PASS_DIRECTIONS",
    "PASS_ONE",
    "Hearts",
    "HeartsState",
    "Phase",
    "deal_points",
    "penalty_points",
]

#: Pass direction of deal ``n`` is ``PASS_DIRECTIONS[n % 4]``: (name, seat offset).
#: Seats sit clockwise, so the player to the left of seat ``s`` is ``s + 1``.
PASS_DIRECTIONS: list[tuple[str, int]] = [("left", 1), ("right", 3), ("across", 2), ("hold", 0)]

_DIRECTION_INDEX = {name: i for i, (name, _) in enumerate(PASS_DIRECTIONS)}

#: Length of the observation tensor (layout in ``docs/hearts.md``; written by
#: ``rust/engine/src/trick/observe.rs``, which refuses any other length).
OBSERVATION_SIZE = 595


class Phase(StrEnum):
    """Where a Hearts match stands; each member equals its lower-case value
    (``Phase.PASS == "pass"``), the ``"phase"`` of observations."""

    #: Seats 0 to 3 in turn choose three cards to pass (HRT-05).
    PASS = "pass"
    #: The tricks of a deal, from the 2♣ lead (HRT-06); a deal that keeps its
    #: hands (every fourth) starts here.
    PLAY = "play"
    #: The match, or the single deal, is over (HRT-13).
    OVER = "over"


# ``Phase.PLAY`` is a metaclass lookup on every use (Python 3.11); the per-move paths
# compare against these module names instead.
_PASS_PHASE, _OVER = Phase.PASS, Phase.OVER

_HEARTS = SUIT_MASKS[2]
_QUEEN_OF_SPADES = 10 * 4 + 3


def penalty_points(mask: int) -> int:
    """Penalty points of the cards in bitset ``mask``: 1 per heart, 13 for Q♠."""
    return (mask & _HEARTS).bit_count() + (13 if mask >> _QUEEN_OF_SPADES & 1 else 0)


def deal_points(taken: list[int]) -> list[int]:
    """Each seat's points for a deal from the penalty points it took: those points,
    unless one seat took all 26 (shot the moon): then 0 for it and 26 for the others."""
    if 26 not in taken:
        return list(taken)
    shooter = taken.index(26)
    return [0 if s == shooter else 26 for s in range(4)]


# Pass actions by the bitset of their three cards, named in index order.
_PASS_ACTIONS: Interner[int, Action] = Interner(
    lambda mask: Action("pass " + " ".join(NAMES[i] for i in bits(mask)))
)


def _pass_action(a: int, b: int, c: int) -> Action:
    return _PASS_ACTIONS((1 << a) | (1 << b) | (1 << c))


#: ``pass <card>``: one card of a seat's pass, by card index.
PASS_ONE: list[Action] = [Action(f"pass {n}") for n in NAMES]
_PASS_ONE_INDEX: dict[str, int] = {a.text: i for i, a in enumerate(PASS_ONE)}
_PASS_TABLE = ActionTable(PASS_ONE)
_PASS = Action("pass")
_USAGE = "expected 'pass c', 'pass c c c' or 'play c' (or just c)"


def _parse(text: str) -> Action:
    """The action canonical or shorthand ``text`` names (see ``Hearts.parse_action``)."""
    words = text.split()
    if not words:
        raise IllegalActionError(f"an empty action: {_USAGE}")
    verb = words[0].lower()
    if verb == "pass" and len(words) == 1:
        # A pass without cards: the state says what is wrong in its phase.
        action = _PASS
    elif verb == "pass":
        cards = sorted({card_index(w) for w in words[1:]})
        if len(words) == 2:
            action = PASS_ONE[cards[0]]
        elif len(cards) == 3 and len(words) == 4:
            action = _pass_action(cards[0], cards[1], cards[2])
        else:
            raise IllegalActionError(f"{shown(text)}: pass one card or three different cards")
    elif words == ["play"]:
        raise IllegalActionError(PLAY_NEEDS_CARD)
    elif verb == "play" and len(words) == 2:
        action = PLAY_ACTIONS[card_index(words[1])]
    elif len(words) == 1:
        action = PLAY_ACTIONS[card_index(words[0], _USAGE)]
    else:
        raise IllegalActionError(f"{shown(text)}: {_USAGE}")
    return action


# Action text as typed -> its action: agents and replays send the same texts again.
_PARSED: Interner[str, Action] = Interner(_parse)


class Hearts(TrickGame):
    """Hearts for four players (``make("hearts", match=True, target=100)``; a single
    deal with any pass: ``make("hearts", match=False, pass_direction="across")``)."""

    name = "hearts"
    zero_sum = True
    deck_name = "standard52"
    setup_actions = PASS_ONE
    setup_index = _PASS_ONE_INDEX

    def __init__(
        self,
        match: bool = True,
        target: int = 100,
        passing: bool = True,
        pass_direction: str | None = None,
    ) -> None:
        self.match = check_bool("match", match)
        self.passing = check_bool("passing", passing)
        self.target = check_int("target", target, 1, 10_000)
        self.pass_direction = pass_direction
        if pass_direction is not None:
            check_choice("pass_direction", pass_direction, [n for n, _ in PASS_DIRECTIONS])
            if self.match:
                raise RuleOptionError(
                    "option pass_direction sets the pass of a single deal: it needs match=False"
                )
            if not self.passing and pass_direction != "hold":
                raise RuleOptionError(
                    f"option pass_direction={pass_direction!r} contradicts passing=False "
                    "(every deal holds)"
                )
        self.num_players = 4

    @property
    def max_game_length(self) -> int:
        """64 actions per deal: 12 passes (three per seat, one card at a time) and
        52 cards played."""
        return 12 + 52

    @property
    def max_match_length(self) -> int:
        """Every deal hands out 26 penalty points (78 on a moon shot), so after ``d``
        deals the highest total is at least ``26 d / 4`` and the match has ended by
        ``d = ceil(2 * target / 13)`` deals."""
        deals = -(-2 * self.target // 13) if self.match else 1
        return deals * self.max_game_length

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """595 values: the table block and Hearts' own (``docs/hearts.md``)."""
        return (OBSERVATION_SIZE,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """The returns' bounds, from ``return = mean total - own total``.

        One deal hands out 26 points (78 when someone shoots the moon). A single
        deal's best return is a moon shot, 78 / 4 - 0 = 19.5; its worst is taking 25
        of the 26 points (26 would be a moon shot), 26 / 4 - 25 = -18.5. A match ends
        after the deal in which a total reaches ``target``, so every total ends at
        most ``target - 1 + 26``; the return, ``(others' sum - 3 * own) / 4``, is then
        within ``3 (target + 25) / 4`` either way.
        """
        if not self.match:
            return (-18.5, 19.5)
        bound = 0.75 * (self.target + 25)
        return (-bound, bound)

    @property
    def options(self) -> dict[str, Any]:
        """``match`` (play to ``target``), ``target`` (100), ``passing`` (the
        left/right/across/hold cycle; ``False`` holds every deal) and, when set,
        ``pass_direction`` (a single deal's pass; left when unset)."""
        options: dict[str, Any] = {
            "match": self.match,
            "target": self.target,
            "passing": self.passing,
        }
        if self.pass_direction is not None:
            # Unset stays out, so saves made before the option load unchanged.
            options["pass_direction"] = self.pass_direction
        return options

    def direction_index(self, number: int) -> int:
        """Index into ``PASS_DIRECTIONS`` of deal ``number``'s pass (HRT-05)."""
        if self.pass_direction is not None:
            return _DIRECTION_INDEX[self.pass_direction]
        return number % 4 if self.passing else 3

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> HeartsState:
        """A new match (or deal); ``deal`` fixes the first cards dealt, 13 per seat in turn."""
        return HeartsState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``pass 2c`` (one card of the pass), ``pass 2c 3d 4h`` (all three,
        in index order) or ``play Qs``; a card alone means ``play`` it."""
        text = action_text(text)
        if isinstance(text, Action):
            return text
        return _PARSED(text)


class HeartsState(TrickState):
    """A Hearts match (or a single deal) in progress."""

    _game: Hearts

    def _start(self) -> None:
        self._scores = [0, 0, 0, 0]
        self._deals: list[dict[str, Any]] = []
        self._new_deal(0)

    def _new_deal(self, number: int) -> None:
        order = self.deck_order(number)
        self._deal_number = number
        # The hands while passing; from the first lead on they live in ``_play_deal``.
        self._hands = hands_of(order)
        self._direction_index = self._game.direction_index(number)
        name, offset = PASS_DIRECTIONS[self._direction_index]
        self._direction = name
        self._offset = offset
        # The cards each seat has picked to pass so far (hidden until the exchange);
        # seats pick in turn, 0 to 3.
        self._chosen = [0, 0, 0, 0]
        self._passer = 0
        self._passed = [0, 0, 0, 0]
        self._received = [0, 0, 0, 0]
        self._play_deal = None
        self._phase = Phase.PASS
        if offset == 0:
            # HRT-05: every fourth deal keeps its hands: nothing to pass.
            self._advance()

    def _advance(self) -> None:
        """The phase machine: the current phase is complete; enter the next one."""
        if self._phase is Phase.PASS:
            # Every pass is chosen: the cards change hands (HRT-05), then the holder
            # of 2♣ leads it (HRT-06; the Rust deal finds the seat).
            self._exchange()
            self._play_deal = TrickDeal.hearts(self._hands, PLAY_TABLE)
            self._phase = Phase.PLAY
            return
        # The last trick is taken: the deal is scored (HRT-11, HRT-12).
        self._score_deal()
        if not self._game.match or max(self._scores) >= self._game.target:
            # HRT-13: the match ends when anyone reaches the target.
            self._phase = Phase.OVER
        else:
            self._new_deal(self._deal_number + 1)

    def _current_hands(self) -> list[int]:
        return self._hands if self._play_deal is None else list(self._play_deal.hands)

    # -- state ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat to pass (seats pass in turn 0..3) or to play; ``None`` when over."""
        if self._phase is _OVER:
            return None
        if self._play_deal is None:
            return self._passer
        return self._play_deal.to_act

    @property
    def is_terminal(self) -> bool:
        """True once the match (or the single deal) is over."""
        return self._phase is _OVER

    @property
    def phase(self) -> Phase:
        """Passing, the tricks of a deal, or over."""
        return self._phase

    def legal_actions(self) -> list[Action]:
        """``pass <card>`` for each card in hand while passing, else the playable cards."""
        if self._phase is _OVER:
            return []
        if self._play_deal is None:
            return _PASS_TABLE.of(self._hands[self._passer])
        return self._play_deal.legal_actions()

    def _legal_bits(self) -> tuple[int, int]:
        deal = self._play_deal
        if deal is None:
            return self._hands[self._passer], SETUP_BASE
        # Once the game is over the last deal has no legal card: no ids.
        return deal.legal(), 0

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if self._phase is Phase.PASS:
            words = action.args
            seat = self._passer
            if action.kind == "pass" and not words:
                return f"pass needs cards: seat {seat} passes one card or three ({self._direction})"
            if action.kind != "pass" or len(words) not in (1, 3):
                return f"seat {seat} must pass cards before play starts"
            cards = {card_index(w) for w in words}
            if len(cards) != len(words):
                return f"{action}: a pass names three different cards"
            missing = [NAMES[c] for c in sorted(cards) if not self._hands[seat] >> c & 1]
            if missing:
                return f"seat {seat} does not hold {' '.join(missing)}"
            if len(words) == 3 and self._chosen[seat]:
                return f"seat {seat} has begun its pass: pass the rest one card at a time"
            return None
        deal = self._play_deal
        assert deal is not None  # dealt when the play phase began
        card = PLAY_INDEX.get(action.text)
        if card is not None:
            if deal.legal() >> card & 1:
                return None
            return self._play_reason(deal, card)
        if action.kind == "pass":
            return "pass is not an action in the play phase; play a card"
        return f"{shown(action.text)} is not a play: play a card ('play c' or just c)"

    @staticmethod
    def _play_reason(deal: TrickDeal, card: int) -> str:
        seat = deal.to_act
        hand = deal.hands[seat]
        name = NAMES[card]
        if not hand >> card & 1:
            return f"seat {seat} does not hold {name}"
        trick = deal.trick
        if not trick:
            if deal.tricks_played == 0 and hand & 1:
                return "the holder of 2c leads it to the first trick"
            return f"hearts are not broken: {name} cannot lead while other suits remain"
        suit = trick[0] & 3
        if hand & SUIT_MASKS[suit]:
            return f"{name} does not follow {SUIT_NAMES[suit]}, which seat {seat} holds"
        return f"no heart or Qs on the first trick while a safe card remains ({name})"

    def _apply(self, action: Action) -> None:
        if self._phase is Phase.PLAY:
            self._play(PLAY_INDEX[action.text])
            return
        chosen = 0
        for w in action.args:
            chosen |= 1 << card_index(w)
        self._choose(chosen)

    def _quick_setup(self, action: Action | str) -> bool:
        """Pass one held card (``pass <card>``) without the validated path."""
        if self._phase is not _PASS_PHASE:
            return False
        # Only text can be listed; anything else takes the validated path.
        card = _PASS_ONE_INDEX.get(action) if isinstance(action, str) else None
        if card is None or not self._hands[self._passer] >> card & 1:
            return False
        self._history.append(PASS_ONE[card])
        self._choose(1 << card)
        return True

    def _choose(self, cards: int) -> None:
        """Add ``cards`` to the pass of the seat choosing; exchange once all have."""
        seat = self._passer
        self._chosen[seat] |= cards
        self._hands[seat] &= ~cards
        if self._chosen[seat].bit_count() == 3:
            if seat == 3:
                self._advance()
            else:
                self._passer = seat + 1

    def _exchange(self) -> None:
        for seat in range(4):
            chosen = self._chosen[seat]
            receiver = (seat + self._offset) % 4
            self._passed[seat] = chosen
            self._received[receiver] = chosen
            self._hands[receiver] |= chosen
        self._chosen = [0, 0, 0, 0]

    def _taken(self) -> list[int]:
        return [0, 0, 0, 0] if self._play_deal is None else list(self._play_deal.taken)

    def _score_deal(self) -> None:
        taken = [penalty_points(t) for t in self._taken()]
        shooter = taken.index(26) if 26 in taken else None
        points = deal_points(taken)
        for seat in range(4):
            self._scores[seat] += points[seat]
        self._deals.append(
            {
                "deal": self._deal_number,
                "pass": self._direction,
                "taken": taken,
                "shot_the_moon": shooter,
                "points": points,
                "totals": list(self._scores),
            }
        )

    # -- the event log ----------------------------------------------------------

    def _emit_deal(self, emit: Emit) -> None:
        emit({"type": "deal", "deal": self._deal_number, "pass_direction": self._direction})
        self._emit_hands_of(emit)

    def _emit_setup(self, seat: int, action: Action, emit: Emit) -> None:
        # The table sees that a seat passes, not what: the cards go only to the
        # passer (now) and to the receiver (at the exchange).
        emit(
            {
                "type": "action",
                "seat": seat,
                "action": "pass",
                "hidden": True,
                "count": len(action.args),
            }
        )
        emit({"type": "private_action", "seat": seat, "action": action.text}, (seat,))
        if self._phase is Phase.PLAY:
            # The last pass was chosen: the cards changed hands.
            for passer in range(4):
                receiver = (passer + self._offset) % 4
                emit({"type": "pass", "seat": passer, "to": receiver, "count": 3})
                emit(
                    {
                        "type": "pass_cards",
                        "seat": passer,
                        "to": receiver,
                        "cards": names_of(self._passed[passer]),
                    },
                    (passer, receiver),
                )

    def _trick_event(self, leader: int, cards: list[int], winner: int) -> dict[str, Any]:
        event = super()._trick_event(leader, cards, winner)
        event["points"] = penalty_points(sum(1 << c for c in cards))
        return event

    # -- results and views ------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        """Penalty totals of the match so far (completed deals)."""
        return list(self._scores)

    def winners(self) -> list[int]:
        """The seats with the lowest total once the game is over (ties share), else []."""
        if self._phase is not Phase.OVER:
            return []
        low = min(self._scores)
        return [s for s in range(4) if self._scores[s] == low]

    def returns(self) -> list[float]:
        """Mean penalty total minus each seat's own (zero-sum); zeros until the end."""
        if self._phase is not Phase.OVER:
            return [0.0, 0.0, 0.0, 0.0]
        return self.standings()

    def standings(self) -> list[float]:
        """Mean penalty total minus each seat's own, over the deals scored so far."""
        mean = sum(self._scores) / 4
        return [mean - s for s in self._scores]

    def observation(self, seat: int) -> Observation:
        """Own hand and pass, received cards, the trick, every completed trick and scores."""
        seat = self.check_seat(seat)
        deal = self._play_deal
        return {
            "game": "hearts",
            "seat": seat,
            "phase": self._phase.value,
            "deal": self._deal_number,
            "pass_direction": self._direction,
            "hand": names_of(self._current_hands()[seat]),
            "my_pass": names_of(self._chosen[seat]),
            "passes_chosen": [c.bit_count() == 3 for c in self._chosen],
            "passed": names_of(self._passed[seat]),
            "received": names_of(self._received[seat]),
            # Before the exchange the 2♣ may still move, so no leader is shown.
            "leader": None if deal is None else deal.leader,
            **self._trick_lists(),
            "hearts_broken": deal is not None and deal.broken,
            "taken_points": [penalty_points(t) for t in self._taken()],
            "scores": list(self._scores),
            "target": self._game.target,
            "to_act": self.current_player,
        }

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        # Before the exchange a seat's pass is in ``_chosen``, after it in ``_passed``.
        hearts_observation(
            out,
            seat,
            self._hands[seat],
            self._play_deal,
            self.current_player,
            self._direction_index,
            self._chosen[seat] | self._passed[seat],
            self._received[seat],
            self._scores,
            self._game.target,
        )

    def private_cards(self, seat: int) -> list[Card]:
        """Cards only ``seat`` knows: its hand (and pending pass) without the cards it
        was passed, which their passer knows."""
        seat = self.check_seat(seat)
        own = self._current_hands()[seat] | self._chosen[seat]
        return cards_of(own & ~self._received[seat])

    def zones(self) -> dict[str, list[Card]]:
        """Hands, pending passes, the current trick and each seat's won cards."""
        zones: dict[str, list[Card]] = {}
        hands, taken = self._current_hands(), self._taken()
        for seat in range(4):
            zones[f"hand{seat}"] = cards_of(hands[seat])
            zones[f"passing{seat}"] = cards_of(self._chosen[seat])
            zones[f"taken{seat}"] = cards_of(taken[seat])
        trick = [] if self._play_deal is None else self._play_deal.trick
        zones["trick"] = cards_of(sum(1 << c for c in trick))
        return zones

    def score_breakdown(self) -> dict[str, Any]:
        """Each finished deal (pass, penalties taken, moon, points, totals) and the match."""
        return {
            "deals": [dict(d) for d in self._deals],
            "current_deal": {
                "deal": self._deal_number,
                "taken": [penalty_points(t) for t in self._taken()],
            },
            "totals": list(self._scores),
            "winners": self.winners(),
            "returns": self.returns(),
        }

    def clone(self) -> HeartsState:
        """A cheap independent copy (ints and tuples are shared, lists copied)."""
        new = object.__new__(HeartsState)
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new._scores = list(self._scores)
        new._deals = list(self._deals)
        new._hands = list(self._hands)
        new._chosen = list(self._chosen)
        new._passed = list(self._passed)
        new._received = list(self._received)
        new._play_deal = None if self._play_deal is None else self._play_deal.copy()
        return new
