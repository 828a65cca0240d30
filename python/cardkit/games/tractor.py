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

Trump order, shapes, follow legality, trick winners and the card play of a deal
(``TractorDeal``) come from the Rust engine (``cardkit._core``); this module keeps
the declaring, the kitty, scoring, levels, the match and the views. Turns pass in
seat order 0 -> 1 -> 2 -> 3 (the text's counterclockwise). A follow is chosen one
card at a time (``play 9h``, one action per card) or given whole (``play 9h9hJhJh``).
See ``docs/tractor.md``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import (
    Card,
    TractorDeal,
    parse_cards,
    tractor_action_index,
    tractor_action_text,
    tractor_lead_id,
)
from cardkit._validate import check_flag
from cardkit.api import Action, Observation
from cardkit.errors import CardkitError, IllegalActionError, RuleOptionError, shown
from cardkit.games._base import MAX_DEALS, BaseGame, BaseState, Emit, action_text
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
LEVELS = "23456789TJQKA"
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
#: Declaration strength by kind (TRC-12 .. TRC-14): a level card, a level pair,
#: two black jokers, two red jokers.
_STRENGTH_NAMES = ("level card", "level pair", "black jokers", "red jokers")
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
_USAGE = "use pass, declare <cards>, bury <card> or play <cards>"


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


def card_points(cards: Sequence[Card]) -> int:
    """Card points: each 5 counts 5, each 10 and king 10 (TRC-40, TRC-41)."""
    return sum(5 if c.rank == "5" else 10 if c.rank in ("T", "K") else 0 for c in cards)


def level_change(points: int) -> tuple[str, int]:
    """Which team rises and by how much for the attackers' ``points`` (TRC-44 ..
    TRC-49): ``("defenders", 3 | 2 | 1)`` below 80, else ``("attackers", n)`` with
    ``n = (points - 80) // 40`` (0 at 80-115: a take-over without rising)."""
    if points <= 0:
        return ("defenders", 3)
    if points < 40:
        return ("defenders", 2)
    if points < 80:
        return ("defenders", 1)
    return ("attackers", (points - 80) // 40)


def _text(cards: Sequence[Card]) -> str:
    """Canonical card text: card-index order, no spaces (``6h6h8h8h``)."""
    return "".join(str(c) for c in sorted(cards, key=_INDEX.__getitem__))


@functools.lru_cache(maxsize=65_536)
def _tractor_action(action_id: int, level: str, trump: str) -> Action | None:
    """The shared Action of a tractor lead id at ``level`` with ``trump``."""
    text = tractor_action_text(action_id, level, trump)
    return None if text is None else Action(text)


def _strength(action_id: int) -> int:
    """A declaration's strength: 1 a level card, 2 a level pair, 3 black jokers,
    4 red jokers (TRC-12 .. TRC-14)."""
    if action_id < _DECLARE_PAIR:
        return 1
    if action_id < _DECLARE_BLACK:
        return 2
    return 3 if action_id == _DECLARE_BLACK else 4


@functools.lru_cache(maxsize=len(LEVELS))
def _declarations(rank: str) -> list[tuple[int, Action, Card, int, int]]:
    """Every declaration at level ``rank`` in id order: (id, action, card, copies,
    strength)."""
    out = []
    for action_id in range(_DECLARE_SINGLE, _BURY):
        if action_id >= _DECLARE_BLACK:
            card = Card("BJ" if action_id == _DECLARE_BLACK else "RJ")
        else:
            card = Card(rank + _SUITS[(action_id - _DECLARE_SINGLE) % 4])
        copies = 1 if action_id < _DECLARE_PAIR else 2
        action = Action("declare " + str(card) * copies)
        out.append((action_id, action, card, copies, _strength(action_id)))
    return out


def _check_level(value: object) -> str:
    if isinstance(value, str):
        text = value.strip().upper().replace("10", "T")
        if len(text) == 1 and text in LEVELS:
            return text
    raise RuleOptionError(f"option level={shown(value)} must be a rank 2..10, J, Q, K or A")


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
_OFFSET: dict[str, int] = {}
_at = 0
for _name, _length in OBSERVATION_LAYOUT:
    _OFFSET[_name] = _at
    _at += _length
#: Length of the observation tensor.
OBSERVATION_SIZE = _at
del _at, _name, _length


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
        self.level = _check_level(level)
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
    """A Tractor match (or a single deal) in progress."""

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

    # -- dealing and declaring ------------------------------------------------------

    def _new_deal(self, number: int, dealer: int | None) -> None:
        """Deal ``number``; ``dealer`` is None in the first deal, where the first
        declarer becomes the dealer (TRC-10)."""
        order = self.deck_order(number)
        self._deal_number = number
        self._dealer = dealer
        team_level = self._levels[0] if dealer is None else self._levels[dealer % 2]
        self._level = min(team_level, _ACE)
        self._rank = LEVELS[self._level]
        self._hands = [list(order[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(4)]
        self._kitty = list(order[4 * HAND_SIZE :])
        # The kitty as dealt, kept once the dealer has taken it (for an exposed
        # kitty's views and the dealer's event).
        self._kitty_dealt: list[Card] = []
        self._buried: list[Card] = []
        self._known: list[Counter[Card]] = [Counter(), Counter(), Counter(), Counter()]
        self._declarations: list[tuple[int, int]] = []
        self._speaker = self._game.first_speaker if dealer is None else dealer
        self._passes = 0
        self._trump: str | None = None
        self._exposed = False
        self._play: TractorDeal | None = None
        self._tricks: list[dict[str, Any]] = []
        self._turn: dict[Action, int] | None = None
        self._phase = Phase.DECLARE

    def _declarations_allowed(self) -> dict[Action, int]:
        """The speaker's legal speeches: pass, and every declaration it holds that is
        stronger than the standing one (TRC-12 .. TRC-16)."""
        best = _strength(self._declarations[-1][1]) if self._declarations else 0
        hand = self._hands[self._speaker]
        turn = {PASS: int(_PASS_ID)}
        for action_id, action, card, copies, strength in _declarations(self._rank):
            if strength > best and hand.count(card) >= copies:
                turn[action] = action_id
        return turn

    def _declared_cards(self, action_id: int) -> list[Card]:
        _, _, card, copies, _ = _declarations(self._rank)[action_id - _DECLARE_SINGLE]
        return [card] * copies

    def _speak(self, action: Action, action_id: int) -> None:
        seat = self._speaker
        if action == PASS:
            self._passes += 1
        else:
            self._declarations.append((seat, action_id))
            self._passes = 0
            # The declared cards are shown: the others know them from now on.
            shown_cards = Counter(self._declared_cards(action_id))
            self._known[seat] |= shown_cards
        self._speaker = (seat + 1) % 4
        if self._declarations and self._passes == 3:
            self._fix_trumps()
        elif not self._declarations and self._passes == 4:
            self._expose_kitty()

    def _fix_trumps(self) -> None:
        """TRC-10, TRC-15, TRC-18: the standing declaration names the trumps; in the
        first deal the first declarer deals."""
        action_id = self._declarations[-1][1]
        self._trump = "nt" if action_id >= _DECLARE_BLACK else _SUITS[(action_id - 1) % 4]
        if self._dealer is None:
            self._dealer = self._declarations[0][0]
        self._take_kitty()

    def _expose_kitty(self) -> None:
        """TRC-19: nobody declared; the kitty's first card that is not a joker names
        the trump suit, and the initial dealer keeps the deal."""
        self._exposed = True
        first = next(c for c in self._kitty if c.suit is not None)
        self._trump = first.suit
        if self._dealer is None:
            self._dealer = self._game.first_speaker
        self._take_kitty()

    def _take_kitty(self) -> None:
        """TRC-20: the dealer takes the kitty and buries eight cards."""
        dealer = self._dealer
        assert dealer is not None  # fixed by declaring
        self._hands[dealer].extend(self._kitty)
        if self._exposed:
            self._known[dealer].update(self._kitty)
        self._kitty_dealt = list(self._kitty)
        self._kitty = []
        self._phase = Phase.BURY

    def _bury(self, cards: Sequence[Card]) -> None:
        dealer = self._dealer
        assert dealer is not None
        for card in cards:
            self._hands[dealer].remove(card)
            self._buried.append(card)
        if self._known[dealer]:
            # Buried shown cards (an exposed kitty's) are no longer known to be held.
            self._known[dealer] -= Counter(cards)
        if len(self._buried) == KITTY_SIZE:
            self._play = TractorDeal(self._hands, self._rank, self._trump, dealer)
            self._phase = Phase.PLAY

    # -- the protocol ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Declaring, burying, the card play, or over."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to speak, bury or play; ``None`` when over."""
        if self._phase is Phase.DECLARE:
            return self._speaker
        if self._phase is Phase.BURY:
            return self._dealer
        if self._phase is Phase.PLAY:
            return self._live.to_move
        return None

    @property
    def is_terminal(self) -> bool:
        """True once the match (or the single deal) is over."""
        return self._phase is Phase.OVER

    @property
    def _live(self) -> TractorDeal:
        play = self._play
        assert play is not None  # the card play has begun
        return play

    def _turn_listing(self) -> dict[Action, int]:
        """The legal actions of this turn with their ids, listed once per turn."""
        turn = self._turn
        if turn is None:
            if self._phase is Phase.DECLARE:
                turn = self._declarations_allowed()
            elif self._phase is Phase.BURY:
                assert self._dealer is not None
                index, fixed = _INDEX, _FIXED
                ids = sorted({_BURY + index[c] for c in self._hands[self._dealer]})
                turn = {fixed[i] or self._play_action(i): i for i in ids}
            elif self._phase is Phase.PLAY:
                fixed, tractor = _FIXED, _PLAY_TRACTOR
                turn = {
                    (fixed[i] if i < tractor else None) or self._play_action(i): i
                    for i in self._live.legal_ids()
                }
            else:
                turn = {}
            self._turn = turn
        return turn

    def _play_action(self, action_id: int) -> Action:
        """The shared Action of a play id the engine lists."""
        found = _FIXED[action_id] if action_id < _PLAY_TRACTOR else None
        if found is None:
            assert self._trump is not None  # the card play has trumps
            found = _tractor_action(action_id, self._rank, self._trump)
            assert found is not None  # the engine lists ids it can name
        return found

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no
        change. A listed action (or its exact text) skips parsing and checking."""
        turn = self._turn
        if turn is not None and isinstance(action, str) and action in turn:
            canonical = action if type(action) is Action else Action(action)
            self._apply_listed(canonical, turn[canonical])
            self._history.append(canonical)
            return
        BaseState.apply(self, action)

    def legal_actions(self) -> list[Action]:
        """The speeches, the cards to bury, or the leads (singles, pairs, tractors)
        and, following, each card that keeps the follow completable."""
        return list(self._turn_listing())

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending."""
        return sorted(self._turn_listing().values())

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if action in self._turn_listing():
            return None
        phase = self._phase
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
            assert self._dealer is not None
            cards = _cards(action)
            if Counter(cards) - Counter(self._hands[self._dealer]):
                return f"{action}: the dealer does not hold those cards"
            if len(cards) > KITTY_SIZE - len(self._buried):
                return f"{action}: only {KITTY_SIZE - len(self._buried)} more cards are buried"
            return None
        if action.kind != "play":
            return "cards are being played: play <cards>"
        if self._live.lead is None:
            return f"{action} is not a lead the leader holds: a single, a pair or a tractor"
        if self._follow_steps(action) is None:
            return (
                f"{action} is not a legal follow: play as many cards of the led suit as "
                "you can, with as many of its pairs as you can when pairs are led"
            )
        return None

    def _follow_steps(self, action: Action) -> list[int] | None:
        """The card ids that play ``action`` as (the rest of) a follow, if legal."""
        deal = self._live.copy()
        ids = [int(_PLAY_CARD) + _INDEX[c] for c in _cards(action)]
        for step, action_id in enumerate(ids):
            if action_id not in deal.legal_ids():
                return None
            done = deal.apply_id(action_id)
            if done is not None and step + 1 < len(ids):
                return None
        return ids

    def _apply(self, action: Action) -> None:
        self._apply_listed(action, self._turn_listing().get(action))

    def _apply_listed(self, action: Action, listed: int | None) -> None:
        """Play ``action``, whose id is ``listed`` when it is a listed action."""
        self._turn = None
        if self._phase is Phase.DECLARE:
            assert listed is not None
            self._speak(action, listed)
        elif self._phase is Phase.BURY:
            self._bury(_cards(action))
        elif listed is not None:
            self._move(listed)
        else:
            steps = self._follow_steps(action)
            assert steps is not None  # checked by illegal_reason
            for action_id in steps:
                self._move(action_id)

    def _move(self, action_id: int) -> None:
        deal = self._live
        seat = deal.to_move
        assert seat is not None
        done = deal.apply_id(action_id)
        if self._known[seat] and (done is not None or deal.to_move != seat):
            # Its play is made: shown cards it played are no longer known to be held.
            cards = parse_cards(done[1][seat]) if done is not None else deal.trick[-1][1]
            self._known[seat] -= Counter(cards)
        if done is not None:
            leader, plays, winner, points, size = done
            self._last_trick = {
                "leader": leader,
                "cards": list(plays),
                "winner": winner,
                "points": points,
                "size": size,
            }
            self._tricks.append(self._last_trick)
            self._completed += 1
            if deal.over:
                self._score_deal()

    def _action_id(self, action: Action) -> int | None:
        fixed = self._game._action_id(action)
        if fixed is not None:
            return fixed
        if action.kind == "declare":
            for action_id, known, _, _, _ in _declarations(self._rank):
                if action == known:
                    return action_id
            return None
        if action.kind == "play" and self._trump is not None:
            # A tractor: its id depends on the deal's level and trumps.
            return tractor_lead_id(_cards(action), self._rank, self._trump)
        return None

    def _id_action(self, action_id: int) -> Action | None:
        if _DECLARE_SINGLE <= action_id < _BURY:
            return _declarations(self._rank)[action_id - _DECLARE_SINGLE][1]
        if action_id >= _PLAY_TRACTOR:
            trump = self._trump
            return None if trump is None else _tractor_action(action_id, self._rank, trump)
        return self._game._id_action(action_id)

    # -- scoring -------------------------------------------------------------------------

    def _score_deal(self) -> None:
        """TRC-40 .. TRC-50: the attackers' points, the kitty bonus, the level change
        and the next dealer."""
        dealer = self._dealer
        assert dealer is not None
        deal = self._live
        defenders = dealer % 2
        attackers = 1 - defenders
        trick_points = sum(deal.points[s] for s in range(4) if s % 2 == attackers)
        last = self._tricks[-1]
        kitty_points = card_points(self._buried)
        bonus = kitty_points * 2 * last["size"] if last["winner"] % 2 == attackers else 0
        points = trick_points + bonus
        who, rise = level_change(points)
        team = defenders if who == "defenders" else attackers
        before = list(self._levels)
        after = list(before)
        after[team] += rise
        # TRC-47, TRC-50: the dealer's partner keeps the deal for the defenders; on a
        # take-over the old dealer's next player deals.
        next_dealer = (dealer + 2) % 4 if who == "defenders" else (dealer + 1) % 4
        won = self._game.match and after[team] > _ACE
        self._deals.append(
            {
                "deal": self._deal_number,
                "level": self._rank,
                "dealer": dealer,
                "declarations": [
                    [s, _declarations(self._rank)[a - _DECLARE_SINGLE][1].text]
                    for s, a in self._declarations
                ],
                "exposed_kitty": [str(c) for c in self._kitty_dealt] if self._exposed else None,
                "trump": self._trump,
                "buried": [str(c) for c in self._buried],
                "tricks": [
                    {"leader": t["leader"], "winner": t["winner"], "points": t["points"]}
                    for t in self._tricks
                ],
                "trick_points": trick_points,
                "kitty_points": kitty_points,
                "kitty_multiplier": 2 * last["size"] if bonus else 0,
                "kitty_bonus": bonus,
                "attacker_points": points,
                "rising_team": team,
                "rise": rise,
                "team_levels_before": [self._level_name(t) for t in before],
                "team_levels_after": [self._level_name(t) for t in after],
                "next_dealer": next_dealer,
                "match_won": won,
            }
        )
        self._levels = after
        if won:
            self._match_winner = team
        if not self._game.match or won or self._deal_number + 1 >= MAX_DEALS:
            self._phase = Phase.OVER
            return
        self._new_deal(self._deal_number + 1, next_dealer)

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
        return self._dealer

    @property
    def level(self) -> str:
        """The level rank of the deal in play."""
        return self._rank

    @property
    def trump(self) -> str | None:
        """The trump suit letter, ``"nt"`` for no-trump, None until fixed."""
        return self._trump

    @property
    def team_levels(self) -> list[str]:
        """Each team's level (seats 0 and 2, seats 1 and 3); ``"beyond A"`` wins."""
        return [self._level_name(t) for t in self._levels]

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards in card-index order."""
        return [sorted(self._hand(s), key=_INDEX.__getitem__) for s in range(4)]

    @property
    def buried(self) -> list[Card]:
        """The cards the dealer has buried this deal."""
        return list(self._buried)

    @property
    def match_winner(self) -> int | None:
        """The team that rose beyond the ace (0: seats 0 and 2, 1: seats 1 and 3)."""
        return self._match_winner

    def _hand(self, seat: int) -> list[Card]:
        play = self._play
        return list(self._hands[seat]) if play is None else list(play.hand(seat))

    def returns(self) -> list[float]:
        """Zeros until the end, then :meth:`standings`."""
        if self._phase is not Phase.OVER:
            return [0.0, 0.0, 0.0, 0.0]
        return self.standings()

    def standings(self) -> list[float]:
        """In a match, the own team's level minus the other's (beyond the ace counts
        as one above it); in a single deal, the levels the deal gave the own team
        minus those it gave the other (0 for a take-over without rising)."""
        if self._game.match:
            a, b = (min(t, _ACE + 1) for t in self._levels)
            lead = float(a - b)
        elif self._deals:
            d = self._deals[-1]
            lead = float(d["rise"] if d["rising_team"] == 0 else -d["rise"])
        else:
            lead = 0.0
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
                "dealer": self._dealer,
                "speaker": self._speaker,
            }
        )
        self._emit_hands(emit, [sorted(h, key=_INDEX.__getitem__) for h in self._hands])

    def _event_start(self, emit: Emit) -> None:
        self._emit_deal(emit)

    def _event_step(self, action: Action, emit: Emit) -> None:
        seat = self.current_player
        assert seat is not None
        phase = self._phase
        deal = self._deal_number
        completed = self._completed
        leading = phase is Phase.PLAY and self._live.lead is None
        self.apply(action)
        if phase is Phase.DECLARE:
            emit({"type": "action", "seat": seat, "action": action.text})
            if self._phase is not Phase.DECLARE and self._deal_number == deal:
                self._emit_kitty(emit)
        elif phase is Phase.BURY:
            emit({"type": "action", "seat": seat, "action": "bury", "hidden": True})
            emit({"type": "private_action", "seat": seat, "action": action.text}, (seat,))
            if self._phase is Phase.PLAY:
                emit({"type": "leader", "seat": seat})
        else:
            self._emit_play(emit, seat, action, completed, leading)
        if len(self._deals) > deal:
            emit({"type": "deal_end", **self._deals[deal]})
            if self._deal_number != deal:
                self._emit_deal(emit)

    def _emit_kitty(self, emit: Emit) -> None:
        dealer = self._dealer
        kitty = [str(c) for c in self._kitty_dealt]
        if self._exposed:
            emit({"type": "kitty_exposed", "cards": kitty, "trump": self._trump})
        emit({"type": "trumps", "trump": self._trump, "dealer": dealer})
        if not self._exposed and dealer is not None:
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
        play = self._live
        if not leading and play.to_move != seat:
            cards = next(c for s, c in play.trick if s == seat)
            emit({"type": "play", "seat": seat, "cards": _text(cards)})

    # -- views ---------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Own hand (without the cards chosen toward a follow, listed apart), the
        level, team levels, dealer, declarations, trumps, whether the kitty was
        exposed and, for the other seats, its cards the dealer has not yet played
        (``exposed_kitty``), the buried kitty (dealer only), the
        completed tricks and the trick in progress, the points each seat has taken
        (public), card counts and whose turn it is. Each card is named once, where
        it is now."""
        seat = self.check_seat(seat)
        play = self._play
        chosen = list(play.chosen) if play is not None and play.to_move == seat else []
        # Each card is named once, where it is: chosen cards apart from the hand.
        hand = list((Counter(self._hand(seat)) - Counter(chosen)).elements())
        return {
            "game": "tractor",
            "seat": seat,
            "phase": self._phase.value,
            "deal": self._deal_number,
            "level": self._rank,
            "team_levels": self.team_levels,
            "dealer": self._dealer,
            "hand": [str(c) for c in sorted(hand, key=_INDEX.__getitem__)],
            "card_counts": [len(self._hand(s)) for s in range(4)],
            "declarations": [self._declaration_view(s, a) for s, a in self._declarations],
            "trump": self._trump,
            "kitty_exposed": self._exposed,
            "exposed_kitty": self._exposed_view(seat),
            "buried": [str(c) for c in self._buried] if seat == self._dealer else None,
            "tricks": [dict(t) for t in self._tricks],
            "trick": [] if play is None else [[s, _text(c)] for s, c in play.trick],
            "chosen": [str(c) for c in chosen],
            "points": [0, 0, 0, 0] if play is None else list(play.points),
            "match_winner": self._match_winner,
            "to_act": self.current_player,
        }

    def _exposed_view(self, seat: int) -> list[str] | None:
        """An exposed kitty's cards the dealer may still hold or have buried (those
        it has not been seen to play), for every seat but the dealer, whose hand,
        buried cards and plays already name each of them once; None otherwise."""
        dealer = self._dealer
        if not self._exposed or dealer is None or seat == dealer:
            return None
        play = self._play
        played = Counter(play.played(dealer)) if play is not None else Counter()
        left = Counter(self._kitty_dealt) - played
        return [str(c) for c in sorted(left.elements(), key=_INDEX.__getitem__)]

    def _declaration_view(self, seat: int, action_id: int) -> dict[str, Any]:
        """A declaration without card tokens (the cards are named where they are)."""
        strength = _strength(action_id)
        suit = _SUITS[(action_id - _DECLARE_SINGLE) % 4] if strength <= 2 else None
        return {"seat": seat, "declared": _STRENGTH_NAMES[strength - 1], "suit": suit}

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """The engine writes the card play (or, before it, the hand and the turn);
        the match slices are written here."""
        play = self._play
        if play is not None:
            play.write_observation(seat, out)
        else:
            to_act = self.current_player
            assert to_act is not None  # terminal states keep their last deal's play
            stand_in = TractorDeal(self._hands, self._rank, None, to_act)
            stand_in.write_observation(seat, out, False)
        at = _OFFSET
        if self._phase is not Phase.OVER:
            out[at["phase"] + ("declare", "bury", "play").index(self._phase.value)] = 1.0
        if self._dealer is not None:
            out[at["dealer"] + (self._dealer - seat) % 4] = 1.0
        if self._declarations:
            who, action_id = self._declarations[-1]
            out[at["declaration"] + (who - seat) % 4] = 1.0
            out[at["declaration"] + 4 + _strength(action_id) - 1] = 1.0
        out[at["level"] + self._level] = 1.0
        if self._trump is not None:
            out[at["trump"] + ("c", "d", "h", "s", "nt").index(self._trump)] = 1.0
        team = seat % 2
        for k, t in enumerate((self._levels[team], self._levels[1 - team])):
            out[at["team_levels"] + 13 * k + min(t, _ACE)] = 1.0
        # The dealer knows what it buried (an exposed kitty's cards are in its hand,
        # buried or played); the others know an exposed kitty.
        kitty: list[Card] = []
        if seat == self._dealer:
            kitty = self._buried
        elif self._exposed:
            kitty = self._kitty_dealt
        for card in kitty:
            out[at["kitty"] + _INDEX[card]] += 1.0

    def private_cards(self, seat: int) -> list[Card]:
        """The cards of the seat's hand no other seat knows (declared cards and an
        exposed kitty are known to all)."""
        seat = self.check_seat(seat)
        return list((Counter(self._hand(seat)) - self._known[seat]).elements())

    def zones(self) -> dict[str, list[Card]]:
        """Each seat's hand, the kitty (undealt or buried) and the cards each seat
        has played this deal."""
        zones = {f"hand{s}": self._hand(s) for s in range(4)}
        zones["kitty"] = list(self._kitty) + list(self._buried)
        play = self._play
        for s in range(4):
            zones[f"played{s}"] = [] if play is None else list(play.played(s))
        return zones

    def clone(self) -> TractorState:
        """An independent copy (the engine's deal copied)."""
        new = object.__new__(TractorState)
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new._levels = list(self._levels)
        new._deals = list(self._deals)
        new._hands = [list(h) for h in self._hands]
        new._kitty = list(self._kitty)
        new._buried = list(self._buried)
        new._known = [Counter(k) for k in self._known]
        new._declarations = list(self._declarations)
        new._play = None if self._play is None else self._play.copy()
        new._tricks = list(self._tricks)
        new._kitty_dealt = list(self._kitty_dealt)
        return new
