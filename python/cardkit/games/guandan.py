"""Guandan (掼蛋): four players in two partnerships (seats 0 and 2 against 1 and 3).

Two packs with their jokers, 27 cards each. The level rank of the deal (级牌) ranks
above the ace for singles and groups, and its two hearts are wilds (逢人配) that stand
for any card but a joker. Turns pass in seat order (0 -> 1 -> 2 -> 3, the text's
counterclockwise); a leader must play, followers may pass, and when every other
player still holding cards has passed the last player leads again. Finished players
are skipped; if the last player to play has finished, the partner leads (接风), or
the next player still holding cards if the partner has finished too. Places 1-4 (头游,
二游, 三游, 下游); the deal ends when the third player finishes.

The first finisher's team climbs 3, 2 or 1 levels as its partner finished 2nd, 3rd or
4th, capped at the ace; the teams keep separate levels from 2 and the next deal is
played at the winners' level. A team at the ace wins the match by finishing first,
its partner not last, in a deal played at the ace. From the second deal on, last
place pays first place its strongest card but the wilds (after a double win both
opponents pay, the higher tribute to first place), unless the payers hold both red
jokers (抗贡: first place leads); each recipient then returns a card of its choice
(``return 7h``) and the player who gets first place's return leads.

Legal plays, readings of wilds, comparison, which copies a play takes and the card
play of a deal (turns, rounds, jiefeng, places: ``GuandanDeal``) all come from the
Rust engine (``cardkit._core``); this module keeps the match, the tribute, the
scoring and the views. See ``docs/guandan.md``.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import (
    Card,
    GuandanActions,
    GuandanDeal,
    GuandanPlay,
    deck,
    derive_seed,
    guandan_action_space_size,
    guandan_beats,
    guandan_parse,
    guandan_parse_copies,
    guandan_play_id,
    guandan_play_of_id,
    guandan_strength,
    guandan_take,
)
from cardkit._validate import check_flag
from cardkit.api import Action, Observation
from cardkit.errors import CardkitError, IllegalActionError, shown
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
    "CLIMB",
    "LEVELS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PASS",
    "PLAY_TYPES",
    "Guandan",
    "GuandanState",
    "Phase",
    "return_choices",
    "tribute_card",
]

#: The level ranks, lowest first: a team's level is an index into this text.
_ACE = len(LEVELS) - 1
#: Cards dealt to each seat (GD-10).
HAND_SIZE = 27
#: The 54 card types of the double pack, in cardkit's deck order: the order of the
#: ``return <card>`` ids and of every per-card slice of the observation tensor.
CARD_TYPES: tuple[Card, ...] = tuple(deck("french54"))
_CARD_INDEX = {card: i for i, card in enumerate(CARD_TYPES)}
#: The engine's play types, in the order of the tensor's one-hot.
PLAY_TYPES = (
    "single",
    "pair",
    "triple",
    "full_house",
    "straight",
    "pair_run",
    "plate",
    "bomb",
    "straight_flush",
    "joker_bomb",
)
#: Levels the first finisher's team climbs by its partner's place (GD-06, GD-46).
CLIMB = {2: 3, 3: 2, 4: 1}
#: Ranks a return card may have (GD-19).
_RETURN_RANKS = frozenset("23456789T")
_RED_JOKER = Card("RJ")
#: Stream offset of the first leader's draw, apart from the deal shuffles (0, 1, ...).
_LEADER_STREAM = 1 << 32
#: The Rust index: ``pass`` is id 0, then every structural play; the 54 ``return
#: <card>`` ids follow it, one per card type.
_RETURN_BASE = guandan_action_space_size()
#: The most actions of one deal: at most two returns; at most 107 plays, as each
#: takes a card and the last player keeps one; and at most three passes after each
#: play but the last (every other player still in the deal passes once, then a
#: round ends), so 2 + 107 + 3 * 106.
_DEAL_LENGTH = 2 + 107 + 3 * 106

PASS = Action("pass")
_RETURN_ACTIONS = tuple(Action(f"return {card}") for card in CARD_TYPES)
_RETURN_CARD = {action: card for action, card in zip(_RETURN_ACTIONS, CARD_TYPES, strict=True)}
_RETURN_IDS = {action: _RETURN_BASE + i for i, action in enumerate(_RETURN_ACTIONS)}
_USAGE = "use play <cards> (play 33, play 3456 W=7), pass or return <card>"


#: The shared Action of ``pass`` and of each card-play id, kept by the engine: a deal
#: given this table lists and applies its moves as these objects.
_ACTIONS = GuandanActions(lambda text: Action("play " + text), PASS)


class Phase(StrEnum):
    """Where a Guandan match stands; each member equals its lower-case value."""

    #: Tribute was paid (automatically); each recipient returns a card, first
    #: place first (GD-19 .. GD-23).
    RETURN = "return"
    #: The card play of a deal (GD-24 .. GD-29).
    PLAY = "play"
    #: The match, or the single deal, is over (GD-09).
    OVER = "over"


# The phases as module names: reading a member off the enum class goes through
# its descriptor (about ten times a global's cost), twice a move on the hot path.
_PLAY = Phase.PLAY
_RETURN = Phase.RETURN
_OVER = Phase.OVER


def _rank_char(card: Card) -> str:
    rank = card.rank
    return rank[0] if card.suit is None else rank


@functools.lru_cache(maxsize=len(LEVELS))
def _strengths(level: str) -> dict[Card, int]:
    """Each card type's strength at ``level`` (the engine's, read once per level)."""
    return {card: guandan_strength(card, level) for card in CARD_TYPES}


@functools.lru_cache(maxsize=len(LEVELS))
def _ranked(level: str) -> tuple[Card, ...]:
    """The card types in the order of a hand sorted at ``level``: weakest first,
    then in deck order."""
    strength = _strengths(level)
    return tuple(sorted(CARD_TYPES, key=lambda c: (strength[c], _CARD_INDEX[c])))


@functools.lru_cache(maxsize=len(LEVELS))
def _hand_order(level: str) -> dict[Card, int]:
    """Each card type's place in a hand sorted at ``level`` (in :func:`_ranked`)."""
    return {card: i for i, card in enumerate(_ranked(level))}


@functools.lru_cache(maxsize=len(LEVELS))
def _index_places(level: str) -> tuple[list[int], list[Card]]:
    """:func:`_hand_order` by card index (``Card.index``), and :func:`_ranked`: dealing
    sorts the places of a hand's indices as ints, then reads its cards off the
    ranking. Lists, not tuples: a list's ``__getitem__`` is called without building
    an argument tuple. Never changed."""
    order = _hand_order(level)
    places = [0] * len(CARD_TYPES)
    for card, place in order.items():
        places[card.index] = place
    return places, list(_ranked(level))


def _wild(level: str) -> Card:
    return Card(level + "h")


def tribute_card(hand: Sequence[Card], level: str) -> Card:
    """The card a payer gives (GD-15): its strongest card but the wilds (the hearts of
    ``level``). Of several equally strong cards (one rank in several suits) it gives
    the copy the engine's card play takes for that single (``guandan_take``), the one
    that breaks the fewest straight-flush chances."""
    strength = _strengths(level)
    wild = _wild(level)
    best = max((c for c in hand if c != wild), key=strength.__getitem__)
    single = guandan_parse(_rank_char(best), level)
    return guandan_take(list(hand), level, single)[0]


def return_choices(hand: Sequence[Card], level: str) -> list[Card]:
    """The cards a tribute recipient may return (GD-19, GD-20): each non-wild card
    ranked 2 to 10, or, holding none, each non-wild card of the lowest strength (a
    recipient holds 28 cards, so never only wilds); distinct card types, weakest
    first."""
    strength = _strengths(level)
    wild = _wild(level)
    held = sorted(set(hand) - {wild}, key=lambda c: (strength[c], _CARD_INDEX[c]))
    low = [c for c in held if c.rank in _RETURN_RANKS]
    if low:
        return low
    weakest = strength[held[0]]
    return [c for c in held if strength[c] == weakest]


def _parse_action(text: Action | str, level: str) -> Action:
    """The canonical action for ``text``, reading wild tokens at ``level``."""
    text = action_text(text)
    words = text.split()
    if not words:
        raise IllegalActionError(f"an empty action names nothing: {_USAGE}")
    verb = words[0].lower()
    if verb == "pass" and len(words) == 1:
        return PASS
    if verb == "return":
        if len(words) != 2:
            raise IllegalActionError(f"{shown(text)}: return names one card, such as 'return 7h'")
        try:
            card = Card(words[1])
        except CardkitError as exc:
            raise IllegalActionError(f"{shown(text)} does not name a card to return") from exc
        return _RETURN_ACTIONS[_CARD_INDEX[card]]
    bare = verb != "play"
    if not bare:
        words = words[1:]
        if not words:
            raise IllegalActionError("play needs cards, such as 'play 33' or 'play 3456 W=7'")
    rest = " ".join(words)
    # The canonical text of an index play names it at every level (``W=4`` is a
    # play at level 4 only, but the text is the same in a game begun at level 2).
    play_id = guandan_play_id(rest)
    if play_id is not None:
        listed = _ACTIONS.action(play_id)
        if listed[5:] == rest:
            return listed
    try:
        # Cards naming the copies to take (play 5s5d) or ranks (play 55).
        copies = guandan_parse_copies(rest, level)
        if copies is not None:
            return Action("play " + copies[2])
        canonical = guandan_parse(rest, level).text
    except CardkitError as exc:
        if bare:
            # Not a play written without its verb either: say what actions look like.
            raise IllegalActionError(f"{shown(text)} is not a Guandan action: {_USAGE}") from exc
        # The engine's message names the text and what is wrong with it.
        raise IllegalActionError(str(exc)) from exc
    return _play_action(canonical)


def _play_action(text: str) -> Action:
    """The action of a play's canonical text (the shared one when it has an id)."""
    play_id = guandan_play_id(text)
    return Action("play " + text) if play_id is None else _ACTIONS.action(play_id)


# -- the observation tensor ---------------------------------------------------------

#: (name, length) of each slice of the observation tensor, in order; seats are
#: relative (``r`` is seat ``(seat + r) % 4``: 0 self, 1 next, 2 partner, 3 previous).
#: The layout lives with its Rust writer (``GuandanDeal.write_observation``).
OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = tuple(GuandanDeal.OBSERVATION_LAYOUT)
_OFFSET: dict[str, int] = {}
_at = 0
for _name, _length in OBSERVATION_LAYOUT:
    _OFFSET[_name] = _at
    _at += _length
#: Length of the observation tensor.
OBSERVATION_SIZE = _at
del _at, _name, _length


class Guandan(BaseGame):
    """Guandan (``make("guandan", match=True, level="2", double_win_ends=False)``).

    ``match=True`` plays deals until a team wins the match (GD-09) or ``MAX_DEALS``
    (10,000) deals have been played, both teams starting at ``level``; ``match=False``
    plays one deal at ``level``, without tribute. ``double_win_ends`` ends a deal as
    soon as two partners finish first and second (the text plays on until the third
    player finishes, GD-45).
    """

    name = "guandan"
    zero_sum = True
    deck_name = "double108"

    def __init__(self, match: bool = True, level: str = "2", double_win_ends: bool = False) -> None:
        self.match = check_flag("match", match)
        self.level = check_level(level)
        self.double_win_ends = check_flag("double_win_ends", double_win_ends)
        self.num_players = 4

    @property
    def options(self) -> dict[str, Any]:
        """The rule options as ``make`` accepts them."""
        return {"match": self.match, "level": self.level, "double_win_ends": self.double_win_ends}

    @property
    def max_game_length(self) -> int:
        """427 actions per deal: two returns, 107 plays (each takes a card and the
        last player keeps one) and three passes after each play but the last."""
        return _DEAL_LENGTH

    @property
    def max_match_length(self) -> int:
        """A match can go on as long as neither team wins at the ace, so it also ends
        after ``MAX_DEALS`` deals (then the levels decide)."""
        return (MAX_DEALS if self.match else 1) * _DEAL_LENGTH

    @property
    def num_actions(self) -> int:
        """``pass``, every play of the Rust index, then one ``return`` per card type."""
        return _RETURN_BASE + len(CARD_TYPES)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """One flat float32 vector (layout: :data:`OBSERVATION_LAYOUT`, docs/guandan.md)."""
        return (OBSERVATION_SIZE,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """A single deal pays the levels climbed, at most 3. A match pays the levels
        the own team is ahead, plus one for winning it: at most the climb from the
        starting level to the ace and one more."""
        if not self.match:
            return (-3.0, 3.0)
        span = float(_ACE - LEVELS.index(self.level) + 1)
        return (-span, span)

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> GuandanState:
        """A new match (or deal); ``deal`` fixes the top of the first deal's deck
        (seat 0 gets cards 0-26, seat 1 27-53 ...)."""
        return GuandanState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``play <cards> [W=x ...]``, ``pass`` or ``return <card>``; a play
        may omit ``play``. Wild tokens naming the heart (``2h=7``) are read at the
        game's ``level`` here and at the deal's level by a state."""
        return _parse_action(text, self.level)

    def _action_id(self, action: Action) -> int | None:
        if action == PASS:
            return 0
        found = _RETURN_IDS.get(action)
        if found is not None:
            return found
        if action.kind == "play":
            return guandan_play_id(action.text[5:])
        return None

    def _id_action(self, action_id: int) -> Action | None:
        if action_id == 0:
            return PASS
        if action_id >= _RETURN_BASE:
            return _RETURN_ACTIONS[action_id - _RETURN_BASE]
        if guandan_play_of_id(action_id) is None:
            return None
        return _ACTIONS.action(action_id)


class GuandanState(BaseState):
    """A Guandan match (or a single deal) in progress."""

    _game: Guandan

    def _start(self) -> None:
        start = LEVELS.index(self._game.level)
        self._team_levels = [start, start]
        self._deals: list[dict[str, Any]] = []
        self._match_winner: int | None = None
        self._new_deal(0, start, [])

    # -- dealing and tribute --------------------------------------------------------

    def _new_deal(self, number: int, level: int, previous: list[int]) -> None:
        """Deal ``number`` at ``level``; ``previous`` is the last deal's finishing order
        (empty for the match's first deal, which has no tribute)."""
        order = self._deck_indices(number)
        self._deal_number = number
        self._level = level
        rank = self._rank = LEVELS[level]
        # The hands until the card play starts; then they live in ``_play``. Each is
        # sorted as the places of its card indices (ints sort without a key), which
        # name the cards of ``_ranked``: the order of ``_sorted``.
        places, ranked = _index_places(rank)
        place, card = places.__getitem__, ranked.__getitem__
        self._hands = [
            list(map(card, sorted(map(place, order[HAND_SIZE * s : HAND_SIZE * (s + 1)]))))
            for s in range(4)
        ]
        self._play: GuandanDeal | None = None
        # The cards each seat played this deal, in play order (the engine's deal
        # appends to them, see ``_start_play``).
        self._played: list[list[Card]] = [[], [], [], []]
        # Cards in a hand that another seat knows too: a received tribute or
        # return, the red jokers shown for an anti-tribute. A count may exceed what
        # the hand still holds once cards are given away or played; readers take
        # the hand minus the known cards, which counts only cards still held.
        self._known: list[Counter[Card]] = [Counter(), Counter(), Counter(), Counter()]
        # This deal's card play: (seat, "pass") or (seat, "play", type, main rank,
        # the cards taken); never changed once logged (the engine's deal logs it).
        self._plays: list[tuple[Any, ...]] = []
        self._tribute: list[tuple[int, int, Card]] = []
        self._returned: list[tuple[int, int, Card]] = []
        self._due: list[tuple[int, int]] = []
        self._anti_tribute: list[int] | None = None
        self._leader: int | None = None
        # The phase is entered below: the card play, or returning tribute.
        if not previous:
            # GD-13: the match's first leader is drawn from the seed.
            self._start_play(derive_seed(self._seed, _LEADER_STREAM) % 4)
        else:
            self._pay_tribute(previous)

    def _enter(self, phase: Phase) -> None:
        """The one place the phase changes: ``_over`` mirrors it for ``is_terminal``."""
        self._phase = phase
        self._over = phase is _OVER

    def _sorted(self, cards: Sequence[Card]) -> list[Card]:
        return sorted(cards, key=_hand_order(self._rank).__getitem__)

    def _pay_tribute(self, previous: list[int]) -> None:
        """GD-14 .. GD-18: who pays whom, anti-tribute, or the automatic tribute."""
        first = previous[0]
        second = (first + 2) % 4
        if previous[1] == second:
            # GD-16/GD-17: a double win; both opponents pay, listed in turn order
            # from first place, so on equal tributes the first of them pays first place.
            payers = [(first + 1) % 4, (first + 3) % 4]
            receivers = [first, second]
        else:
            payers, receivers = [previous[3]], [first]
        reds = [self._hands[p].count(_RED_JOKER) for p in payers]
        if sum(reds) >= 2:
            # GD-18: the payers show their red jokers; no exchange, first place leads.
            self._anti_tribute = payers
            for payer, n in zip(payers, reds, strict=True):
                self._known[payer][_RED_JOKER] += n
            self._start_play(first)
            return
        cards = [tribute_card(self._hands[p], self._rank) for p in payers]
        strength = _strengths(self._rank)
        if len(cards) == 2 and strength[cards[1]] > strength[cards[0]]:
            payers.reverse()
            cards.reverse()
        for payer, receiver, card in zip(payers, receivers, cards, strict=True):
            self._hands[payer].remove(card)
            self._hands[receiver] = self._sorted([*self._hands[receiver], card])
            self._known[receiver][card] += 1
            self._tribute.append((payer, receiver, card))
            self._due.append((receiver, payer))
        self._enter(Phase.RETURN)

    def _start_play(self, leader: int) -> None:
        """The card play begins on the engine's deal, ``leader`` to lead; the deal
        logs each move in the history, the plays and the cards played."""
        self._leader = leader
        deal = GuandanDeal(self._hands, self._rank, leader, self._game.double_win_ends, _ACTIONS)
        deal.attach_log(self._history, self._plays, self._played)
        self._play = deal
        self._enter(Phase.PLAY)

    def _hand(self, seat: int) -> list[Card]:
        """``seat``'s cards now (the engine's deal holds them during the card play)."""
        play = self._play
        return self._hands[seat] if play is None else play.hand(seat)

    @property
    def _live(self) -> GuandanDeal:
        """The engine's deal of the card play (only asked for once it has begun)."""
        play = self._play
        assert play is not None  # the card play has begun
        return play

    def _return_ids(self) -> dict[Action, int]:
        """The returns the recipient due may make, each with its action id."""
        cards = return_choices(self._hands[self._due[0][0]], self._rank)
        return {(a := _RETURN_ACTIONS[_CARD_INDEX[c]]): _RETURN_IDS[a] for c in cards}

    # -- the protocol --------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Returning tribute, the card play, or over."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to return a card or to play; ``None`` when over."""
        if self._phase is _OVER:
            return None
        if self._phase is _RETURN:
            return self._due[0][0]
        return self._live.to_move

    #: Read by a C getter off ``_over`` (set with the phase by ``_enter``), asked once a
    #: move by every playout loop: a property function would cost a Python frame.
    is_terminal = property(
        operator.attrgetter("_over"), doc="True once the match (or the single deal) is over."
    )

    def legal_actions(self) -> list[Action]:
        """``return <card>`` choices while returning; else the leads, or ``pass`` and
        every play that beats the table (each reading of wilds its own action).
        Takes the state's lock itself (:func:`holds_lock`): one frame less a turn."""
        lock = self._lock
        lock.acquire()
        try:
            deal = self._play
            if deal is not None:
                # The card play's moves (none once the deal, or the match, is over).
                return deal.legal_actions()
            if self._phase is _RETURN:
                return list(self._return_ids())
            return []
        finally:
            lock.release()

    legal_actions = holds_lock(legal_actions)

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending (the engine lists them)."""
        if self._phase is _OVER:
            return []
        if self._phase is _RETURN:
            return sorted(self._return_ids().values())
        return sorted(self._live.legal_ids())

    def _parse(self, action: Action | str) -> Action:
        return _parse_action(action, self._rank)

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no
        change. Wild tokens naming the heart (``2h=7``) are read at the deal's level.
        Takes the state's lock itself (:func:`holds_lock`): one frame less a move."""
        lock = self._lock
        lock.acquire()
        try:
            deal = self._play
            if deal is not None:
                # A listed move, its exact text or named copies of one are applied
                # and logged by the engine unparsed (a deal that is over lists none).
                over = deal.apply_logged(action)
                if over is not None:
                    if over:
                        self._score_deal()
                    return
            if self._phase is _OVER:
                raise IllegalActionError(f"the game is over; {shown(action)} cannot be played")
            parsed = self._parse(action)
            reason = self.illegal_reason(parsed)
            if reason is not None:
                raise IllegalActionError(reason)
            self._apply(parsed)
        finally:
            lock.release()

    apply = holds_lock(apply)

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``apply(action)`` would succeed; never raises."""
        if self._phase is _OVER:
            return False
        try:
            return self.illegal_reason(self._parse(action)) is None
        except CardkitError:
            return False

    def action_to_id(self, action: Action | str) -> int:
        """The id of ``action``, read at the deal's level."""
        found = self._action_id(self._parse(action))
        assert found is not None  # whatever parses is pass, a return or an indexed play
        return found

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if self._phase is _RETURN:
            return None if action in self._return_ids() else self._return_reason(action)
        deal = self._live
        if action in deal.legal_actions():
            return None
        seat = deal.to_move
        assert seat is not None  # a live deal has a seat to act
        table = deal.table
        if action == PASS:
            return "a leader must play and cannot pass"
        if action in _RETURN_CARD:
            return "no return is due now: the card play has begun"
        if action.kind != "play":
            return f"{shown(action.text)} is not a Guandan action: {_USAGE}"
        copies = self._copies(action)
        if copies is not None:
            play, cards = copies
            reason = self.illegal_reason(_play_action(play.text))
            if reason is None and Counter(cards) - Counter(deal.hand(seat)):
                reason = f"seat {seat} does not hold {' '.join(map(str, cards))}"
            return reason
        text = action.text[5:]
        try:
            play = guandan_parse(text, self._rank)
        except CardkitError as exc:
            return f"{shown(text)} is not a combination at level {self._rank}: {exc}"
        try:
            guandan_take(deal.hand(seat), self._rank, play)
        except CardkitError:
            return f"seat {seat} does not hold the cards of {shown(text)}"
        if table is not None and not guandan_beats(play, table, self._rank):
            return f"the {play.type} {text} does not beat the {table.type} {table.text}"
        return f"{shown(text)} is not a legal play now"

    def _return_reason(self, action: Action) -> str:
        recipient, payer = self._due[0]
        card = _RETURN_CARD.get(action)
        if card is None:
            return f"seat {recipient} must first return a card to seat {payer}: return <card>"
        hand = self._hands[recipient]
        if card not in hand:
            return f"seat {recipient} does not hold {card}"
        if card == _wild(self._rank):
            return f"{card} is a wild at level {self._rank} and cannot be returned"
        return (
            f"{card} cannot be returned: return a non-wild card ranked 2 to 10, or a lowest "
            "card when holding none"
        )

    def _apply(self, action: Action) -> None:
        """Make the checked, canonical ``action`` and log it, in the history too (the
        engine's deal logs a card-play move, keeping the listed action)."""
        if self._phase is _RETURN:
            self._return(_RETURN_CARD[action])
            self._history.append(action)
            return
        over = self._live.apply_logged(action)
        assert over is not None  # a listed move or named copies of one, checked legal
        if over:
            self._score_deal()

    def _copies(self, action: Action) -> tuple[GuandanPlay, list[Card]] | None:
        """The rank-level play and the named cards of a play naming its copies
        (``play 5d5s``), else ``None``."""
        if action.kind != "play":
            return None
        try:
            found = guandan_parse_copies(action.text[5:], self._rank)
        except CardkitError:
            return None
        return None if found is None else (found[0], found[1])

    def _return(self, card: Card) -> None:
        recipient, payer = self._due.pop(0)
        self._hands[recipient].remove(card)
        self._hands[payer] = self._sorted([*self._hands[payer], card])
        self._known[payer][card] += 1
        self._returned.append((recipient, payer, card))
        if not self._due:
            # GD-21: the player receiving first place's return leads.
            self._start_play(self._tribute[0][0])

    # -- scoring ----------------------------------------------------------------------

    def _score_deal(self) -> None:
        """GD-05 .. GD-09, GD-46 .. GD-48: the deal's climb, the levels, the match."""
        order = self._live.places
        first = order[0]
        team = first % 2
        partner_place = order.index((first + 2) % 4) + 1
        climb = CLIMB[partner_place]
        before = list(self._team_levels)
        after = list(before)
        after[team] = min(_ACE, before[team] + climb)
        won = (
            self._game.match and before[team] == _ACE and self._level == _ACE and partner_place != 4
        )
        self._deals.append(
            {
                "deal": self._deal_number,
                "level": self._rank,
                "leader": self._leader,
                "order": list(order),
                "places": [order.index(seat) + 1 for seat in range(4)],
                "winning_team": team,
                "partner_place": partner_place,
                "climb": climb,
                "team_levels_before": [LEVELS[t] for t in before],
                "team_levels_after": [LEVELS[t] for t in after],
                "tribute": [{"seat": p, "to": r, "card": str(c)} for p, r, c in self._tribute],
                "return": [{"seat": r, "to": p, "card": str(c)} for r, p, c in self._returned],
                "anti_tribute": None if self._anti_tribute is None else list(self._anti_tribute),
                "match_won": won,
            }
        )
        self._team_levels = after
        if won:
            self._match_winner = team
        if not self._game.match or won or self._deal_number + 1 >= MAX_DEALS:
            self._enter(Phase.OVER)
            return
        # GD-08, GD-48: the next deal is played at the winners' new level.
        self._new_deal(self._deal_number + 1, after[team], list(order))

    @property
    def deal_number(self) -> int:
        """The deal in play, from 0 (the last deal, once over)."""
        return self._deal_number

    @property
    def leader(self) -> int | None:
        """Who led the deal's first play (``None`` while tribute is returned)."""
        return self._leader

    @property
    def level(self) -> str:
        """The level rank of the deal in play (or of the last deal, once over)."""
        return self._rank

    @property
    def team_levels(self) -> list[str]:
        """Each team's level (seats 0 and 2, seats 1 and 3)."""
        return [LEVELS[t] for t in self._team_levels]

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, weakest first."""
        return [self._sorted(self._hand(s)) for s in range(4)]

    @property
    def order(self) -> list[int]:
        """The seats that have finished this deal, first place first (all four once
        it is over)."""
        play = self._play
        return [] if play is None else play.places

    @property
    def table(self) -> GuandanPlay | None:
        """The play to beat, or ``None`` when the seat to act leads."""
        play = self._play
        return None if play is None else play.table

    @property
    def match_winner(self) -> int | None:
        """The team (0: seats 0 and 2, 1: seats 1 and 3) that won the match at the ace."""
        return self._match_winner

    def returns(self) -> list[float]:
        """Zeros until the end, then :meth:`standings`."""
        if self._phase is not _OVER:
            return [0.0, 0.0, 0.0, 0.0]
        return self.standings()

    def standings(self) -> list[float]:
        """Per seat, over the deals scored so far: in a match, the own team's level
        minus the other's, one more for the team that won the match; in a single
        deal, the levels the winners climb (3, 2 or 1), lost by the other team."""
        if self._game.match:
            progress = list(self._team_levels)
            if self._match_winner is not None:
                progress[self._match_winner] += 1
            lead = float(progress[0] - progress[1])
        elif self._deals:
            deal = self._deals[-1]
            lead = float(deal["climb"] if deal["winning_team"] == 0 else -deal["climb"])
        else:
            lead = 0.0
        return [lead, -lead, lead, -lead]

    def score_breakdown(self) -> dict[str, Any]:
        """Every scored deal (its level, leader, places, levels before and after,
        tribute, return and anti-tribute, and whether it won the match), the team
        levels, the match winner and the returns."""
        return {
            "deals": [dict(d) for d in self._deals],
            "team_levels": self.team_levels,
            "match_winner": self._match_winner,
            "returns": self.returns(),
        }

    def _public_score(self) -> dict[str, Any]:
        """The breakdown without the tribute and return cards, which only their
        payer and receiver saw."""
        score = self.score_breakdown()
        for deal in score["deals"]:
            deal["tribute"] = [{"seat": t["seat"], "to": t["to"]} for t in deal["tribute"]]
            deal["return"] = [{"seat": t["seat"], "to": t["to"]} for t in deal["return"]]
        return score

    # -- the event log -------------------------------------------------------------------

    def _emit_deal(self, emit: Emit) -> None:
        emit(
            {
                "type": "deal",
                "deal": self._deal_number,
                "level": self._rank,
                "team_levels": self.team_levels,
            }
        )
        self._emit_hands(emit, self._hands if not self._tribute else self._dealt_hands())
        if self._anti_tribute is not None:
            reds = [self._known[p][_RED_JOKER] for p in self._anti_tribute]
            emit({"type": "anti_tribute", "seats": list(self._anti_tribute), "red_jokers": reds})
        for payer, receiver, card in self._tribute:
            emit({"type": "tribute", "seat": payer, "to": receiver})
            emit(
                {"type": "tribute_card", "seat": payer, "to": receiver, "card": str(card)},
                (payer, receiver),
            )
        self._emit_leader(emit)

    def _dealt_hands(self) -> list[list[Card]]:
        """The hands as dealt, before the tribute moved cards."""
        hands = [list(h) for h in self._hands]
        for payer, receiver, card in self._tribute:
            hands[receiver].remove(card)
            hands[payer].append(card)
        return [self._sorted(h) for h in hands]

    def _emit_leader(self, emit: Emit) -> None:
        if self._phase is _PLAY and not self._plays:
            emit({"type": "leader", "seat": self._leader})

    def _event_start(self, emit: Emit) -> None:
        self._emit_deal(emit)

    def _event_step(self, action: Action, emit: Emit) -> None:
        seat = self.current_player
        deal = self._deal_number
        finished = len(self.order)
        returning = self._phase is _RETURN
        payer = self._due[0][1] if returning else None
        # The deal's log, which keeps this move even if it ends the deal and the
        # next deal starts a new one.
        plays = self._plays
        self.apply(action)
        assert seat is not None  # the replica replays legal moves of a live state
        if returning:
            assert payer is not None  # a return is due to its payer
            emit({"type": "action", "seat": seat, "action": "return", "hidden": True})
            emit(
                {"type": "return_card", "seat": seat, "to": payer, "card": action.args[0]},
                (seat, payer),
            )
            self._emit_leader(emit)
            return
        emit({"type": "action", "seat": seat, "action": action.text})
        if action != PASS:
            # The cards the play took, suits and all (the text names only ranks).
            emit({"type": "cards", "seat": seat, "cards": [str(c) for c in plays[-1][4]]})
        if len(self._deals) > deal:
            scored = self._deals[deal]
            for place, s in enumerate(scored["order"][finished:], finished + 1):
                emit({"type": "finish", "seat": s, "place": place})
            public = self._public_score()["deals"][deal]
            emit({"type": "deal_end", **public})
            if self._deal_number != deal:
                self._emit_deal(emit)
            return
        if len(self.order) > finished:
            emit({"type": "finish", "seat": seat, "place": len(self.order)})
        jiefeng = self._live.jiefeng
        if jiefeng is not None:
            leader, owner = jiefeng
            emit({"type": "jiefeng", "seat": leader, "from": owner})

    # -- views -----------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Own hand, the level and team levels, card counts, this deal's plays (the
        cards each took), the table, the finishing order and who paid and returned
        tribute to whom.

        Each card is named once, where it is now: in the own hand or in the play that
        took it. So the table and a tribute or return are given without their cards
        (the table's are in the last play, and its action id names its reading; an
        exchanged card is in the tensor's ``given`` / ``received`` slices and in the
        two players' event logs).
        """
        seat = self.check_seat(seat)
        play = self._play
        table = None if play is None else play.table
        return {
            "game": "guandan",
            "seat": seat,
            "phase": self._phase.value,
            "deal": self._deal_number,
            "level": self._rank,
            "team_levels": self.team_levels,
            "hand": [str(c) for c in self._sorted(self._hand(seat))],
            "card_counts": self._card_counts(),
            "plays": [
                [*e[:4], [str(c) for c in e[4]]] if len(e) == 5 else list(e) for e in self._plays
            ],
            "table": None
            if table is None
            else {
                "seat": self._live.table_owner,
                "id": guandan_play_id(table.text),
                "type": table.type,
                "main_rank": table.main_rank,
                "size": table.size,
            },
            "passes": 0 if play is None else play.passes,
            "leader": self._leader,
            "order": self.order,
            "tribute": [[p, r] for p, r, _ in self._tribute],
            "return": [[s, p] for s, p, _ in self._returned],
            "returns_due": [[r, p] for r, p in self._due],
            "anti_tribute": None if self._anti_tribute is None else list(self._anti_tribute),
            "match_winner": self._match_winner,
            "to_act": self.current_player,
        }

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """The slices of :data:`OBSERVATION_LAYOUT`, seats relative to ``seat``: the
        engine's deal writes what its card play knows (before the card play, while
        returns are due, a deal of the hands as they stand with the returning seat
        to act); the match slices are written here."""
        play = self._play
        if play is None:
            play = GuandanDeal(self._hands, self._rank, self._due[0][0])
        play.write_observation(seat, out)
        at = _OFFSET
        team = seat % 2
        out[at["team_levels"] + self._team_levels[team]] = 1.0
        out[at["team_levels"] + len(LEVELS) + self._team_levels[1 - team]] = 1.0
        if self._phase is not _OVER:
            out[at["phase"] + (0 if self._phase is _RETURN else 1)] = 1.0
        for payer, receiver, _ in self._tribute:
            out[at["tribute"] + 2 * ((payer - seat) % 4)] = 1.0
            out[at["tribute"] + 2 * ((receiver - seat) % 4) + 1] = 1.0
        out[at["anti_tribute"]] = float(self._anti_tribute is not None)
        for giver, taker, card in (*self._tribute, *self._returned):
            if giver == seat:
                out[at["given"] + _CARD_INDEX[card]] += 1.0
            if taker == seat:
                out[at["received"] + _CARD_INDEX[card]] += 1.0

    def private_cards(self, seat: int) -> list[Card]:
        """The cards of the seat's hand that no other seat knows (a received tribute or
        return is known to its giver, red jokers shown for an anti-tribute to all)."""
        seat = self.check_seat(seat)
        return self._sorted(list((Counter(self._hand(seat)) - self._known[seat]).elements()))

    def _card_counts(self) -> list[int]:
        play = self._play
        return [len(h) for h in self._hands] if play is None else play.card_counts

    def zones(self) -> dict[str, list[Card]]:
        """Each seat's hand and the cards it has played this deal."""
        zones = {f"hand{s}": self._hand(s) for s in range(4)}
        for s in range(4):
            zones[f"played{s}"] = list(self._played[s])
        return zones

    def clone(self) -> GuandanState:
        """An independent copy (the engine's deal copied; plays and cards are
        immutable and shared)."""
        new = object.__new__(GuandanState)
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new._team_levels = list(self._team_levels)
        new._deals = list(self._deals)
        new._hands = [list(h) for h in self._hands]
        new._played = [list(p) for p in self._played]
        new._known = [Counter(k) for k in self._known]
        new._plays = list(self._plays)
        play = self._play
        if play is not None:
            twin = new._play = play.copy()
            twin.attach_log(new._history, new._plays, new._played)
        new._tribute = list(self._tribute)
        new._returned = list(self._returned)
        new._due = list(self._due)
        return new
