"""Tractor (拖拉机, also 升级): four players in two partnerships (seats 0 and 2
against 1 and 3) with two packs and their jokers, 25 cards each and an 8-card kitty.

After the deal the players declare trumps in turn (亮主, 反主): a level card
declares its suit, an identical level pair overcalls a single, two black jokers a
level pair and two red jokers black jokers; joker pairs declare no-trump (无将),
where level cards and jokers stay trumps. Three passes after a declaration fix the
trumps; four passes with none expose the kitty, whose first card that is not a
joker names the trump suit. The dealer (庄家) takes the kitty, buries eight cards
(扣底) and leads. Tricks are led with a single, a pair or a tractor; only a matching
shape can win, and a void follower may trump (毙牌) or discard (垫牌). The attackers
(the dealer's opponents) count 5s, 10s and kings; 80 points take the deal over.

Every rule of a deal (declaring, the kitty, trump order, shapes, follow legality,
trick winners, the card play, the points, the level change and the next dealer) is
the Rust engine's ``TractorRound`` (``cardkit._core``), which this state steps deal by
deal; this module keeps the match across deals, the action texts, the views, the
event log and the score breakdown. Turns pass in seat order 0 -> 1 -> 2 -> 3 (the
text's counterclockwise). A follow is chosen one card at a time (``play 9h``, one
action per card) or given whole (``play 9h9hJhJh``). See ``docs/tractor.md``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import (
    Card,
    TractorActions,
    TractorDeal,
    TractorRound,
    parse_cards,
    tractor_action_index,
    tractor_action_text,
    tractor_lead_id,
)
from cardkit._core import tractor_card_points as card_points
from cardkit._core import tractor_level_change as level_change
from cardkit._validate import check_flag
from cardkit.api import Action, Observation
from cardkit.errors import CardkitError, IllegalActionError, RuleOptionError, shown
from cardkit.games._base import (
    LEVELS,
    MAX_DEALS,
    BaseGame,
    BaseState,
    Emit,
    action_text,
    check_level,
    holds_lock,
)
from cardkit.games._phase import StrEnum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CARD_TYPES",
    "LEVELS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PASS",
    "Phase",
    "Tractor",
    "TractorState",
    "card_points",
    "level_change",
]

#: The level ranks, lowest first: a team's level is an index into this text.
_ACE = len(LEVELS) - 1
#: Cards dealt to each seat and to the kitty (TRC-07).
HAND_SIZE = 25
KITTY_SIZE = 8
#: The 54 card types in card-index order: per-card ids and tensor slices use it.
CARD_TYPES: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(54))
_INDEX = {card: i for i, card in enumerate(CARD_TYPES)}
_SUITS = "cdhs"
(
    _PASS_ID,
    _DECLARE_SINGLE,
    _DECLARE_PAIR,
    _DECLARE_BLACK,
    _DECLARE_RED,
    _BURY,
    _PLAY_CARD,
    _PLAY_PAIR,
    _PLAY_TRACTOR,
    _NUM_ACTIONS,
) = tractor_action_index()
#: The most speeches of one declaring round: three passes, then up to four
#: declarations (each stronger than the last) each followed by at most three passes.
_DECLARE_LENGTH = 3 + 4 * 4
#: The most actions of one deal: declaring, 8 burials and at most one action per
#: card played (a lead of several cards is one action, a follow up to one per card).
_DEAL_LENGTH = _DECLARE_LENGTH + KITTY_SIZE + 4 * HAND_SIZE
#: A bound on the levels one deal can give: the attackers take at most 200 - k
#: trick points and a kitty bonus of k times twice the cards per play (k <= 80,
#: at most 24 cards per play in a last trick), so at most 3960 points.
_MAX_RISE = (120 + 80 * 48 - 80) // 40

PASS = Action("pass")
#: The shared Action of each id whose text does not depend on the deal: pass, bury,
#: single plays and pair leads (declarations and tractors are None here).
_FIXED: list[Action | None] = [
    None if text is None else Action(text)
    for text in (
        tractor_action_text(i, "2") if i == _PASS_ID or _BURY <= i < _PLAY_TRACTOR else None
        for i in range(_PLAY_TRACTOR)
    )
]
#: The fixed actions by their text.
_FIXED_BY_TEXT: dict[str, Action] = {a: a for a in _FIXED if a is not None}
_USAGE = "use pass, declare <cards>, bury <card> or play <cards>"


def _shared(text: str) -> Action:
    """The action of an id's canonical text (the shared fixed one where there is one)."""
    return _FIXED_BY_TEXT.get(text) or Action(text)


#: The shared Action of each action id at each level (and trumps, for tractor leads),
#: made on first listing: every deal's rounds list and apply these objects in Rust.
_ACTIONS = TractorActions(_shared)


class Phase(StrEnum):
    """Where a Tractor match stands; each member equals its lower-case value."""

    #: Declaring trumps in turn (TRC-09 .. TRC-19).
    DECLARE = "declare"
    #: The dealer buries eight cards (TRC-20).
    BURY = "bury"
    #: The card play (TRC-21 .. TRC-39).
    PLAY = "play"
    #: The match, or the single deal, is over.
    OVER = "over"


#: Each phase by the name the engine gives it.
_PHASES = {phase.value: phase for phase in Phase}


def _text(cards: Sequence[Card]) -> str:
    """Canonical card text: card-index order, no spaces (``6h6h8h8h``)."""
    return "".join(str(c) for c in sorted(cards, key=_INDEX.__getitem__))


@functools.lru_cache(maxsize=65_536)
def _tractor_action(action_id: int, level: str, trump: str) -> Action | None:
    """The shared Action of a tractor lead id at ``level`` with ``trump``."""
    text = tractor_action_text(action_id, level, trump)
    return None if text is None else Action(text)


@functools.lru_cache(maxsize=len(LEVELS))
def _declare_actions(rank: str) -> dict[int, Action]:
    """The Action of each declaration id at level ``rank``."""
    return {i: Action(str(tractor_action_text(i, rank))) for i in range(_DECLARE_SINGLE, _BURY)}


@functools.lru_cache(maxsize=len(LEVELS))
def _declare_ids(rank: str) -> dict[Action, int]:
    """The id of each declaration at level ``rank``."""
    return {action: i for i, action in _declare_actions(rank).items()}


def _declaration_view(seat: int, action_id: int) -> dict[str, Any]:
    """A declaration without card tokens (the cards are named where they are), read
    from its block of the action index."""
    if action_id >= _DECLARE_BLACK:
        name = "black jokers" if action_id == _DECLARE_BLACK else "red jokers"
        return {"seat": seat, "declared": name, "suit": None}
    name = "level card" if action_id < _DECLARE_PAIR else "level pair"
    return {"seat": seat, "declared": name, "suit": _SUITS[(action_id - _DECLARE_SINGLE) % 4]}


def _check_seat(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 4:
        raise RuleOptionError(f"option {name}={shown(value)} must be a seat 0..3")
    return value


def _parse_action(text: Action | str) -> Action:
    """The canonical action for ``text`` (cards sorted into card-index order)."""
    text = action_text(text)
    words = text.split()
    if not words:
        raise IllegalActionError(f"an empty action names nothing: {_USAGE}")
    verb = words[0].lower()
    if verb == "pass" and len(words) == 1:
        return PASS
    if verb not in ("declare", "bury", "play") or len(words) == 1:
        raise IllegalActionError(f"{shown(text)} is not a Tractor action: {_USAGE}")
    try:
        cards = parse_cards(" ".join(words[1:]))
    except CardkitError as exc:
        raise IllegalActionError(f"{shown(text)} does not name cards: {_USAGE}") from exc
    if not cards:
        raise IllegalActionError(f"{shown(text)} names no cards: {_USAGE}")
    if verb == "bury":
        order = sorted(cards, key=_INDEX.__getitem__)
        return Action("bury " + " ".join(str(c) for c in order))
    return Action(f"{verb} {_text(cards)}")


def _cards(action: Action) -> list[Card]:
    return list(parse_cards(" ".join(action.args)))


# -- the observation tensor ---------------------------------------------------------

#: (name, length) of each slice of the observation tensor, in order; seats are
#: relative (``r`` is seat ``(seat + r) % 4``). Its Rust writer owns the layout.
OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = tuple(TractorDeal.OBSERVATION_LAYOUT)
#: Length of the observation tensor.
OBSERVATION_SIZE = sum(length for _, length in OBSERVATION_LAYOUT)


class Tractor(BaseGame):
    """Tractor (``make("tractor", match=True, level="2", first_speaker=0)``).

    ``match=True`` plays deals until a team rises beyond the ace (TRC-06) or
    ``MAX_DEALS`` deals have been played; ``match=False`` plays one deal. Both
    teams start at ``level``. ``first_speaker`` is the seat that speaks first when
    declaring in the first deal (the text does not say), and the dealer of the first
    deal if nobody declares (the text's "initial dealer"); later deals' declaring
    starts with their dealer.
    """

    name = "tractor"
    zero_sum = True
    deck_name = "double108"

    def __init__(self, match: bool = True, level: str = "2", first_speaker: int = 0) -> None:
        self.match = check_flag("match", match)
        self.level = check_level(level)
        self.first_speaker = _check_seat("first_speaker", first_speaker)
        self.num_players = 4

    @property
    def options(self) -> dict[str, Any]:
        """The rule options as ``make`` accepts them."""
        return {"match": self.match, "level": self.level, "first_speaker": self.first_speaker}

    @property
    def max_game_length(self) -> int:
        """127 actions per deal: at most 19 speeches while declaring, 8 burials and at
        most one action per card played."""
        return _DEAL_LENGTH

    @property
    def max_match_length(self) -> int:
        """A match also ends after ``MAX_DEALS`` deals (then the levels decide)."""
        return (MAX_DEALS if self.match else 1) * _DEAL_LENGTH

    @property
    def num_actions(self) -> int:
        """``pass``, ten declarations, 54 ``bury``, 54 single plays, 54 pair leads
        and the tractor leads (docs/tractor.md, "Learning interface")."""
        return int(_NUM_ACTIONS)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """One flat float32 vector (layout: :data:`OBSERVATION_LAYOUT`)."""
        return (OBSERVATION_SIZE,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """A match pays the own team's level minus the other's, a team beyond the ace
        counting as one above it; a single deal pays the levels it gives (a bound:
        at most 97 with the largest conceivable kitty bonus)."""
        if not self.match:
            return (-float(_MAX_RISE), float(_MAX_RISE))
        span = float(_ACE + 1 - LEVELS.index(self.level))
        return (-span, span)

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> TractorState:
        """A new match (or deal); ``deal`` fixes the top of the first deal's deck
        (seat 0 gets cards 0-24, seat 1 25-49, ..., the kitty 100-107)."""
        return TractorState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``pass``, ``declare <cards>``, ``bury <cards>`` or ``play <cards>``."""
        return _parse_action(text)

    def _action_id(self, action: Action) -> int | None:
        # Declarations and tractors depend on the deal's level and trumps.
        if action == PASS:
            return int(_PASS_ID)
        if action.kind in ("bury", "play"):
            cards = _cards(action)
            if len(set(cards)) == 1 and len(cards) <= (1 if action.kind == "bury" else 2):
                base = (
                    _BURY
                    if action.kind == "bury"
                    else _PLAY_CARD
                    if len(cards) == 1
                    else _PLAY_PAIR
                )
                return int(base) + _INDEX[cards[0]]
        return None

    def _id_action(self, action_id: int) -> Action | None:
        # Declarations and tractors (None here) depend on the deal's level and trumps.
        return _FIXED[action_id] if action_id < _PLAY_TRACTOR else None


class TractorState(BaseState):
    """A Tractor match (or a single deal) in progress: each deal is an engine
    ``TractorRound``, stepped by action id; the state keeps the match across deals
    (team levels, dealers, the deals scored), the action texts and the views."""

    _game: Tractor

    def _start(self) -> None:
        start = LEVELS.index(self._game.level)
        self._levels = [start, start]
        self._deals: list[dict[str, Any]] = []
        self._match_winner: int | None = None
        # Tricks completed over the match, and the last one (for the event log,
        # which must see a deal's last trick after the next deal has begun).
        self._completed = 0
        self._last_trick: dict[str, Any] = {}
        self._new_deal(0, None)

    def _new_deal(self, number: int, dealer: int | None) -> None:
        """Deal ``number``; ``dealer`` is None in the first deal, where the first
        declarer becomes the dealer (TRC-10)."""
        order = self.deck_order(number)
        self._deal_number = number
        # The kitty in its dealt order, as an exposed kitty is shown.
        self._kitty = order[4 * HAND_SIZE :]
        levels = [LEVELS[t] for t in self._levels]
        self._round = TractorRound(order, levels, self._game.first_speaker, dealer, _ACTIONS)
        self._rank: str = self._round.level
        self._tricks: list[dict[str, Any]] = []

    # -- the protocol ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Declaring, burying, the card play, or over."""
        return _PHASES[self._round.phase]

    @property
    def current_player(self) -> int | None:
        """The seat to speak, bury or play; ``None`` when over."""
        return self._round.to_act

    @property
    def is_terminal(self) -> bool:
        """True once the match (or the single deal) is over."""
        return self._round.to_act is None

    def _turn_listing(self) -> dict[Action, int]:
        """The legal actions of this turn with their ids."""
        return dict(zip(self._round.legal_actions(), self._round.legal_ids(), strict=True))

    @holds_lock
    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no
        change. An action of this turn's listing (or its exact text) is played by the
        engine in one call, without parsing or checking. Takes the state's lock
        itself (see :func:`holds_lock`): one Python frame less per move."""
        lock = self._lock
        lock.acquire()
        try:
            trick = self._round.apply_action(action, self._history)
            if trick is None:
                BaseState.apply(self, action)  # not listed: parsed and checked
            elif trick:
                self._trick_done(trick)
        finally:
            lock.release()

    @holds_lock
    def legal_actions(self) -> list[Action]:
        """The speeches, the cards to bury, or the leads (singles, pairs, tractors)
        and, following, each card that keeps the follow completable. Takes the
        state's lock itself (see :func:`holds_lock`)."""
        lock = self._lock
        lock.acquire()
        try:
            return self._round.legal_actions()
        finally:
            lock.release()

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending."""
        return sorted(self._round.legal_ids())

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``: several cards to bury, or a
        whole follow, are checked by the engine as one action."""
        if action in self._round.legal_actions():
            return None
        phase = self.phase
        if phase is Phase.DECLARE:
            if action.kind != "declare" and action != PASS:
                return "trumps are being declared: pass or declare <cards>"
            return (
                f"{action} is no declaration the speaker holds that is stronger than the "
                "standing one (level card < level pair < BJBJ < RJRJ; equal strength "
                "cannot overcall)"
            )
        if phase is Phase.BURY:
            if action.kind != "bury":
                return "the dealer buries eight cards first: bury <card>"
        elif action.kind != "play":
            return "cards are being played: play <cards>"
        elif not self._round.following:
            return f"{action} is not a lead the leader holds: a single, a pair or a tractor"
        reason = self._round.why_illegal(self._card_ids(action))
        return None if reason is None else f"{action}: {reason}"

    @staticmethod
    def _card_ids(action: Action) -> list[int]:
        """The ids of the cards of a ``bury`` or follow action, one per card."""
        base = _BURY if action.kind == "bury" else _PLAY_CARD
        return [base + _INDEX[c] for c in _cards(action)]

    def _apply(self, action: Action) -> None:
        self._apply_listed(action, self._turn_listing().get(action))

    def _apply_listed(self, action: Action, listed: int | None) -> None:
        """Play ``action``, whose id is ``listed`` when it is a listed action (else
        it is several cards to bury, or a whole follow)."""
        if listed is not None:
            trick = self._round.apply_id(listed)
        else:
            trick = self._round.apply_ids(self._card_ids(action))
        if trick is not None:
            self._trick_done(trick)

    def _trick_done(self, trick: tuple[int, list[str], int, int, int]) -> None:
        """Record the trick a move completed, and score the deal after its last."""
        leader, plays, winner, points, size = trick
        self._last_trick = {
            "leader": leader,
            "cards": list(plays),
            "winner": winner,
            "points": points,
            "size": size,
        }
        self._tricks.append(self._last_trick)
        self._completed += 1
        if self._round.to_act is None:
            self._score_deal()

    def _action_id(self, action: Action) -> int | None:
        fixed = self._game._action_id(action)
        if fixed is not None:
            return fixed
        if action.kind == "declare":
            return _declare_ids(self._rank).get(action)
        trump = self._round.trump
        if action.kind == "play" and trump is not None:
            # A tractor: its id depends on the deal's level and trumps.
            return tractor_lead_id(_cards(action), self._rank, trump)
        return None

    def _id_action(self, action_id: int) -> Action | None:
        if _DECLARE_SINGLE <= action_id < _BURY:
            return _declare_actions(self._rank)[action_id]
        if action_id >= _PLAY_TRACTOR:
            trump = self._round.trump
            return None if trump is None else _tractor_action(action_id, self._rank, trump)
        return self._game._id_action(action_id)

    # -- the match -----------------------------------------------------------------------

    def _score_deal(self) -> None:
        """The engine has scored the deal (TRC-40 .. TRC-50): record it, move the
        team levels and start the next deal unless the match is over."""
        played = self._round
        outcome = played.outcome
        assert outcome is not None  # every card is played
        team, rise = outcome["rising_team"], outcome["rise"]
        before = list(self._levels)
        after = list(before)
        after[team] += rise
        won = self._game.match and after[team] > _ACE
        declare = _declare_actions(self._rank)
        self._deals.append(
            {
                "deal": self._deal_number,
                "level": self._rank,
                "dealer": played.dealer,
                "declarations": [[s, declare[a].text] for s, a in played.declarations],
                "exposed_kitty": [str(c) for c in self._kitty] if played.exposed else None,
                "trump": played.trump,
                "buried": [str(c) for c in played.buried],
                "tricks": [
                    {"leader": t["leader"], "winner": t["winner"], "points": t["points"]}
                    for t in self._tricks
                ],
                "trick_points": outcome["trick_points"],
                "kitty_points": outcome["kitty_points"],
                "kitty_multiplier": outcome["kitty_multiplier"],
                "kitty_bonus": outcome["kitty_bonus"],
                "attacker_points": outcome["attacker_points"],
                "rising_team": team,
                "rise": rise,
                "team_levels_before": [self._level_name(t) for t in before],
                "team_levels_after": [self._level_name(t) for t in after],
                "next_dealer": outcome["next_dealer"],
                "match_won": won,
            }
        )
        self._levels = after
        if won:
            self._match_winner = team
        if self._game.match and not won and self._deal_number + 1 < MAX_DEALS:
            self._new_deal(self._deal_number + 1, outcome["next_dealer"])

    @staticmethod
    def _level_name(level: int) -> str:
        return LEVELS[level] if level <= _ACE else "beyond A"

    @property
    def deal_number(self) -> int:
        """The deal in play, from 0 (the last deal, once over)."""
        return self._deal_number

    @property
    def dealer(self) -> int | None:
        """The dealer of the deal in play (None in the first deal until declared)."""
        return self._round.dealer

    @property
    def first_speaker(self) -> int:
        """The seat that spoke first in the deal in play's declaring (public): the
        game's ``first_speaker`` in the first deal, the dealer in later ones."""
        if self._deal_number == 0:
            return self._game.first_speaker
        dealer = self._round.dealer
        assert dealer is not None  # a later deal is dealt by the previous result
        return dealer

    @property
    def level(self) -> str:
        """The level rank of the deal in play."""
        return self._rank

    @property
    def trump(self) -> str | None:
        """The trump suit letter, ``"nt"`` for no-trump, None until fixed."""
        return self._round.trump

    @property
    def team_levels(self) -> list[str]:
        """Each team's level (seats 0 and 2, seats 1 and 3); ``"beyond A"`` wins."""
        return [self._level_name(t) for t in self._levels]

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards in card-index order."""
        return [self._round.hand(s) for s in range(4)]

    @property
    def buried(self) -> list[Card]:
        """The cards the dealer has buried this deal, in card-index order."""
        return self._round.buried

    @property
    def match_winner(self) -> int | None:
        """The team that rose beyond the ace (0: seats 0 and 2, 1: seats 1 and 3)."""
        return self._match_winner

    def returns(self) -> list[float]:
        """Zeros until the end, then :meth:`standings`."""
        if not self.is_terminal:
            return [0.0, 0.0, 0.0, 0.0]
        return self.standings()

    def standings(self) -> list[float]:
        """In a match, the own team's level minus the other's (beyond the ace counts
        as one above it); in a single deal, the levels the deal gave the own team
        minus those it gave the other (0 for a take-over without rising)."""
        if not self._game.match:
            return self._round.returns()
        a, b = (min(t, _ACE + 1) for t in self._levels)
        lead = float(a - b)
        return [lead, 0.0 - lead, lead, 0.0 - lead]

    def score_breakdown(self) -> dict[str, Any]:
        """Every scored deal (declarations, trumps, the buried kitty, points per
        trick, the kitty bonus, the level change and the next dealer), the team
        levels, the match winner and the returns."""
        return {
            "deals": [dict(d) for d in self._deals],
            "team_levels": self.team_levels,
            "match_winner": self._match_winner,
            "returns": self.returns(),
        }

    # -- the event log -------------------------------------------------------------------

    def _emit_deal(self, emit: Emit) -> None:
        emit(
            {
                "type": "deal",
                "deal": self._deal_number,
                "level": self._rank,
                "team_levels": self.team_levels,
                "dealer": self._round.dealer,
                "speaker": self._round.to_act,
            }
        )
        self._emit_hands(emit, self.hands)

    def _event_start(self, emit: Emit) -> None:
        self._emit_deal(emit)

    def _event_step(self, action: Action, emit: Emit) -> None:
        seat = self.current_player
        assert seat is not None
        phase = self.phase
        deal = self._deal_number
        completed = self._completed
        leading = phase is Phase.PLAY and not self._round.following
        self.apply(action)
        if phase is Phase.DECLARE:
            emit({"type": "action", "seat": seat, "action": action.text})
            if self._deal_number == deal and self.phase is not Phase.DECLARE:
                self._emit_kitty(emit)
        elif phase is Phase.BURY:
            emit({"type": "action", "seat": seat, "action": "bury", "hidden": True})
            emit({"type": "private_action", "seat": seat, "action": action.text}, (seat,))
            if self.phase is Phase.PLAY:
                emit({"type": "leader", "seat": seat})
        else:
            self._emit_play(emit, seat, action, completed, leading)
        if len(self._deals) > deal:
            emit({"type": "deal_end", **self._deals[deal]})
            if self._deal_number != deal:
                self._emit_deal(emit)

    def _emit_kitty(self, emit: Emit) -> None:
        played = self._round
        dealer = played.dealer
        kitty = [str(c) for c in self._kitty]
        if played.exposed:
            emit({"type": "kitty_exposed", "cards": kitty, "trump": played.trump})
        emit({"type": "trumps", "trump": played.trump, "dealer": dealer})
        if not played.exposed and dealer is not None:
            emit({"type": "kitty", "seat": dealer, "cards": kitty}, (dealer,))

    def _emit_play(
        self, emit: Emit, seat: int, action: Action, completed: int, leading: bool
    ) -> None:
        """A lead is public; a card chosen toward a follow is seen by its player
        only, and the follow is shown to all once complete."""
        if leading:
            emit({"type": "action", "seat": seat, "action": action.text})
        else:
            emit({"type": "action", "seat": seat, "action": "follow", "hidden": True})
            emit({"type": "private_action", "seat": seat, "action": action.text}, (seat,))
        if self._completed > completed:
            trick = self._last_trick
            if not leading:
                emit({"type": "play", "seat": seat, "cards": trick["cards"][seat]})
            emit({"type": "trick", "winner": trick["winner"], "points": trick["points"]})
            return
        if not leading and self.current_player != seat:
            cards = next(c for s, c in self._round.trick if s == seat)
            emit({"type": "play", "seat": seat, "cards": cards})

    # -- views ---------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Own hand (without the cards chosen toward a follow, listed apart), the
        level, team levels, dealer, who spoke first (``first_speaker``),
        declarations, trumps, whether the kitty was
        exposed and, for the other seats, its cards the dealer has not yet played
        (``exposed_kitty``), the buried kitty (dealer only), the
        completed tricks and the trick in progress, the points each seat has taken
        (public), card counts and whose turn it is. Each card is named once, where
        it is now."""
        seat = self.check_seat(seat)
        played = self._round
        to_act = played.to_act
        chosen = played.chosen if to_act == seat else []
        # Each card is named once, where it is: chosen cards apart from the hand.
        hand = Counter(played.hand(seat)) - Counter(chosen)
        return {
            "game": "tractor",
            "seat": seat,
            "phase": played.phase,
            "deal": self._deal_number,
            "level": self._rank,
            "team_levels": self.team_levels,
            "dealer": played.dealer,
            "first_speaker": self.first_speaker,
            "hand": [str(c) for c in sorted(hand.elements(), key=_INDEX.__getitem__)],
            "card_counts": [len(played.hand(s)) for s in range(4)],
            "declarations": [_declaration_view(s, a) for s, a in played.declarations],
            "trump": played.trump,
            "kitty_exposed": played.exposed,
            "exposed_kitty": self._exposed_view(seat),
            "buried": [str(c) for c in played.buried] if seat == played.dealer else None,
            "tricks": [dict(t) for t in self._tricks],
            "trick": [[s, c] for s, c in played.trick],
            "chosen": [str(c) for c in chosen],
            "points": list(played.points),
            "match_winner": self._match_winner,
            "to_act": to_act,
        }

    def _exposed_view(self, seat: int) -> list[str] | None:
        """An exposed kitty's cards the dealer may still hold or have buried (those
        it has not been seen to play), for every seat but the dealer, whose hand,
        buried cards and plays already name each of them once; None otherwise."""
        dealer = self._round.dealer
        if not self._round.exposed or dealer is None or seat == dealer:
            return None
        left = Counter(self._kitty) - Counter(self._round.played(dealer))
        return [str(c) for c in sorted(left.elements(), key=_INDEX.__getitem__)]

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """The engine writes the whole tensor (layout: :data:`OBSERVATION_LAYOUT`)."""
        self._round.write_observation(seat, out)

    def _known(self, seat: int) -> Counter[Card]:
        """The cards ``seat`` holds that every seat knows it holds: the cards of its
        declarations and, for the dealer, an exposed kitty, less those it has since
        buried or played."""
        played = self._round
        known: Counter[Card] = Counter()
        declare = _declare_actions(self._rank)
        for who, action_id in played.declarations:
            if who == seat:
                # A later declaration may show a card shown before: the most copies.
                known |= Counter(_cards(declare[action_id]))
        if seat == played.dealer:
            if played.exposed:
                known.update(self._kitty)
            known -= Counter(played.buried)
        return known - Counter(played.played(seat))

    def private_cards(self, seat: int) -> list[Card]:
        """The cards of the seat's hand no other seat knows (declared cards and an
        exposed kitty are known to all)."""
        seat = self.check_seat(seat)
        return list((Counter(self._round.hand(seat)) - self._known(seat)).elements())

    def zones(self) -> dict[str, list[Card]]:
        """Each seat's hand, the kitty (undealt or buried) and the cards each seat
        has played this deal."""
        played = self._round
        zones = {f"hand{s}": played.hand(s) for s in range(4)}
        zones["kitty"] = list(self._kitty) if played.phase == "declare" else played.buried
        for s in range(4):
            zones[f"played{s}"] = played.played(s)
        return zones

    def clone(self) -> TractorState:
        """An independent copy (the engine's deal copied)."""
        new = object.__new__(TractorState)
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new._levels = list(self._levels)
        new._deals = list(self._deals)
        new._round = self._round.copy()
        new._tricks = list(self._tricks)
        return new
