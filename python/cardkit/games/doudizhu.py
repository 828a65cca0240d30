"""Dou Dizhu (斗地主, "fight the landlord"): three players, the French 54-card pack.

Seventeen cards each and three bottom cards (底牌). A random first bidder, then
turns of ``pass`` or ``bid N`` (1-3, above the current bid); bidding ends at 3 or
after two consecutive passes that follow a bid, and three passes without a bid
redeal (inside the same state, deal ``n`` shuffled by ``derive_seed(seed, n)``);
after ``MAX_DEALS`` (10,000) deals without a bid the game is abandoned (phase
``Phase.ABANDONED``, every return 0), so every game and save is finite.
The landlord (地主) takes the revealed bottom cards and leads; the two farmers
(农民) play together. Plays are written as ranks: ``play 3334``, ``play TJQKA``,
``play BR`` (the rocket); ``pass`` follows without playing. The deal ends when a
hand is empty; each bomb or rocket doubles the multiplier, and spring or reverse
spring doubles it again; each farmer wins or loses bid x multiplier, the landlord
twice that. See ``docs/doudizhu.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import (
    Card,
    Combination,
    derive_seed,
    doudizhu_action_space_size,
    doudizhu_legal_ids_batch,
    doudizhu_play_id,
    doudizhu_play_of_id,
    doudizhu_plays_batch,
)
from cardkit._validate import check_count
from cardkit.api import Action, Observation
from cardkit.errors import InvalidCardError, shown
from cardkit.games import _climbing
from cardkit.games._base import MAX_DEALS, Emit, check_choice
from cardkit.games._climbing import (
    PASS,
    PLANE,
    RANK_ORDER,
    ClimbingGame,
    ClimbingState,
    rank_char,
    write_plane,
)
from cardkit.games._phase import StrEnum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DouDizhu",
    "DouDizhuState",
    "Phase",
    "action_space_size",
    "action_to_id",
    "classify",
    "id_to_action",
    "key_ranks",
    "legal_action_ids_batch",
    "legal_leads",
    "legal_plays_batch",
    "legal_responses",
]

RULES = "doudizhu"
BIDDING_STYLES = ("open", "single_round")
#: The bidding actions open after each current bid (0: none yet).
_BIDDING = {bid: (PASS, *(Action(f"bid {n}") for n in range(bid + 1, 4))) for bid in range(4)}
#: Size of the Rust action index (pass, bids 1-3, every play of at most 20 cards).
_NUM_ACTIONS = doudizhu_action_space_size()
#: The most doublings one deal can reach: each bomb or rocket a seat plays takes at
#: least four of its cards, except the rocket's two, so the landlord's 20 cards play
#: at most 5 (five bombs, or four and the rocket) and each farmer's 17 at most 4;
#: 5 + 4 + 4 = 13. Spring needs the farmers never to play (at most 5 + 1) and reverse
#: spring the landlord to play once (at most 1 + 8 + 1), both below 13.
_MAX_DOUBLINGS = 13
#: Rows of the bidding part of the tensor per seat: not spoken, pass, bid 1-3.
_CALLS = 5
#: Stream offset of the first-bidder draw, apart from the deal shuffles (0, 1, ...).
_BIDDER_STREAM = 1 << 32


class Phase(StrEnum):
    """Where a Dou Dizhu game stands; each member equals its lower-case value
    (``Phase.BID == "bid"``), the ``"phase"`` of observations."""

    #: Seats pass or bid in turn (DDZ-07, DDZ-08); three passes redeal (DDZ-11).
    BID = "bid"
    #: The landlord took the bottom cards and leads (DDZ-10). The phase stays
    #: ``PLAY`` once a hand is empty and the deal is over (DDZ-35, ``is_terminal``).
    PLAY = "play"
    #: ``MAX_DEALS`` deals passed without a bid: the game ends unplayed.
    ABANDONED = "abandoned"


# ``Phase.PLAY`` is a metaclass lookup on every use (Python 3.11); the per-move paths
# compare against these module names instead.
_BID, _PLAY, _ABANDONED = Phase.BID, Phase.PLAY, Phase.ABANDONED


def classify(cards: str | Sequence[Card | str]) -> list[Combination]:
    """Every reading of ``cards`` (``"33344456"`` or a card list) as one Dou Dizhu
    combination, each with ``.type``, ``.main_rank``, ``.length`` and ``.cards``;
    empty when the cards form none."""
    return _climbing.classify(RULES, cards)


def legal_leads(hand: str | Sequence[Card | str]) -> list[Combination]:
    """Every combination ``hand`` can lead."""
    return _climbing.legal_leads(RULES, hand)


def legal_responses(
    hand: str | Sequence[Card | str], table: Combination | str | Sequence[Card | str]
) -> list[Combination]:
    """Every combination from ``hand`` that beats ``table`` (same type and length and
    higher, a bomb, or the rocket); passing is always possible besides."""
    return _climbing.legal_responses(RULES, hand, table)


def action_space_size() -> int:
    """Size of the fixed action index: pass, three bids and every play (see the docs)."""
    return _NUM_ACTIONS


def action_to_id(action: Action | str) -> int:
    """The fixed index of a Dou Dizhu action: ``pass`` 0, ``bid N`` N, plays from 4
    (the same index as ``DouDizhu().action_to_id``)."""
    return _INDEX_GAME.action_to_id(action)


def id_to_action(action_id: int) -> Action:
    """The action with fixed index ``action_id`` (inverse of :func:`action_to_id`)."""
    return _INDEX_GAME.id_to_action(action_id)


#: Most threads a batch call takes (``threads=0`` or ``None``: every core).
MAX_BATCH_THREADS = 256


def legal_action_ids_batch(
    hands: Sequence[str],
    tables: Sequence[Combination | None] | None = None,
    threads: int | None = None,
) -> list[bytes]:
    """For learning code: per hand (rank text) and table (``None`` when leading), the
    action-index ids of every legal move, pass included when following, packed as
    little-endian ``u16`` (``numpy.frombuffer(b, "<u2")``). One call, GIL released,
    on ``threads`` threads (default: every core); the result does not depend on it.

    Raises :class:`InvalidCardError` for hands that are not rank strings,
    :class:`IllegalActionError` for tables that are not combinations (or ``None``)
    or do not match the hands one to one, and :class:`RuleOptionError` when the moves
    would pass 1 GiB of output (split the batch). Ctrl-C stops a long batch with
    ``KeyboardInterrupt``."""
    return doudizhu_legal_ids_batch(hands, tables, _threads(threads))


def legal_plays_batch(
    hands: Sequence[str],
    tables: Sequence[Combination | None] | None = None,
    threads: int | None = None,
) -> tuple[bytes, bytes]:
    """Every legal move of many hands in two flat buffers, for mass move generation.

    Per hand (rank text) and table (``None`` when leading): each move as a
    little-endian ``u64`` rank-count key, four bits per rank from the 3 in the lowest
    bits up through ``4 ... A 2 B R`` (pass is 0, listed when following), all hands
    concatenated in ``plays``, each hand's moves in :func:`legal_leads` /
    :func:`legal_responses` order; ``ends`` holds little-endian ``u64`` offsets, so
    hand ``i``'s keys are ``plays`` keys ``ends[i]`` to ``ends[i + 1]``
    (``numpy.frombuffer(plays, "<u8")``). :func:`key_ranks` turns a key back into
    rank text. One call, GIL released, on ``threads`` threads (default: every core);
    the result does not depend on it. Errors as in :func:`legal_action_ids_batch`.
    """
    return doudizhu_plays_batch(hands, tables, _threads(threads))


def _threads(threads: object) -> int | None:
    return None if threads is None else check_count("threads", threads, 0, MAX_BATCH_THREADS)


def key_ranks(key: int) -> str:
    """The rank text of a :func:`legal_plays_batch` key (``""`` for pass)."""
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < 1 << 64:
        raise InvalidCardError(f"a play key is an int in 0..2**64-1, got {shown(key)}")
    return "".join(r * ((key >> (4 * i)) & 15) for i, r in enumerate(RANK_ORDER))


class DouDizhu(ClimbingGame):
    """Dou Dizhu with its rule options.

    ``bidding="open"`` (default, the rule text): turns continue around the table
    until a 3 or two passes after a bid, and a seat that passed may bid later.
    ``bidding="single_round"``: each seat speaks once (the common 叫分 convention).
    """

    name = "doudizhu"
    zero_sum = True
    deck_name = "french54"
    rules = RULES
    _play_id = doudizhu_play_id
    _play_of_id = doudizhu_play_of_id
    # Bidding flag, current bid (4), landlord (3), first bidder (3), each seat's
    # last call (3 x 5), the bottom cards (a 60-float plane).
    _TAIL = 1 + 4 + 3 + 3 + 3 * _CALLS + PLANE

    def __init__(self, bidding: str = "open") -> None:
        self.bidding = check_choice("bidding", bidding, BIDDING_STYLES)
        self.num_players = 3

    @property
    def max_game_length(self) -> int:
        """171 actions in a deal that finds a landlord. Bidding: at most 2 passes
        before the first bid, 3 bids (each above the last), 1 pass between bids and
        2 after the last (9). Card play: each play uses at least one of the 54 cards
        and at most two passes follow it before its owner leads again (162)."""
        return 9 + 54 * 3

    @property
    def max_match_length(self) -> int:
        """Redeals: at most ``MAX_DEALS - 1`` deals of three passes before the deal
        that is played (or, after the last redeal, the deal is abandoned)."""
        return 3 * (MAX_DEALS - 1) + self.max_game_length

    @property
    def options(self) -> dict[str, Any]:
        """The rule options."""
        return {"bidding": self.bidding}

    @property
    def num_actions(self) -> int:
        """24,643: ``pass``, ``bid 1`` .. ``bid 3``, then every play (docs/doudizhu.md)."""
        return _NUM_ACTIONS

    @property
    def utility_range(self) -> tuple[float, float]:
        """The landlord's stake at its largest, either way: twice the top bid (3) at
        the most doublings a deal can reach (13, see ``_MAX_DOUBLINGS``); the bidding
        style changes neither."""
        most = 2 * 3 * 2**_MAX_DOUBLINGS
        return (-float(most), float(most))

    def _other_id(self, action: Action) -> int | None:
        """``bid N`` is id N (1-3)."""
        if action.kind == "bid" and action.args in (("1",), ("2",), ("3",)):
            return int(action.args[0])
        return None

    def _other_action(self, action_id: int) -> Action | None:
        """Ids 1-3 are the bids."""
        return _BIDDING[0][action_id] if 1 <= action_id <= 3 else None

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> DouDizhuState:
        """A new deal; ``deal`` fixes the top of the deck (17 per seat, then the bottom)."""
        return DouDizhuState(self, seed, deal)


class DouDizhuState(ClimbingState):
    """One Dou Dizhu deal, from the bidding to the last play."""

    _game: DouDizhu

    def _start(self) -> None:
        self.deal_number = 0
        self._deal_cards()
        self._phase = Phase.BID

    def _deal_cards(self) -> None:
        order = self.deck_order(self.deal_number)
        self.first_bidder = derive_seed(self.seed, _BIDDER_STREAM + self.deal_number) % 3
        # The hands live in the engine deal from the start; play begins at the landlord.
        self._start_play([order[0:17], order[17:34], order[34:51]], leader=self.first_bidder)
        self.bottom = sorted(order[51:54])
        #: The seat to bid next.
        self.bidder = self.first_bidder
        self.bid = 0
        self.landlord: int | None = None
        self.bid_passes = 0
        self.bid_turns = 0
        self.bid_log: list[tuple[int, str]] = []

    @property
    def bombs(self) -> int:
        """Four-card bombs played so far."""
        return self._play.bombs

    @property
    def rockets(self) -> int:
        """Rockets played so far."""
        return self._play.rockets

    # -- protocol -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The bidding, the card play (also once it is over), or abandoned."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once a hand is empty."""
        phase = self._phase
        if phase is _PLAY:
            return self._play.to_move
        return self.bidder if phase is _BID else None

    @property
    def is_terminal(self) -> bool:
        """True once a player has gone out (or the game was abandoned)."""
        return self._play.over or self._phase is _ABANDONED

    def legal_actions(self) -> list[Action]:
        """Bids and pass while bidding; plays (and pass when following) afterwards."""
        phase = self._phase
        if phase is _PLAY:
            return self._play.legal_actions()
        return list(_BIDDING[self.bid]) if phase is _BID else []

    def legal_action_ids(self) -> list[int]:
        """Ids of the legal actions: ``pass`` and the bids above the current bid while
        bidding (ids 0-3), the engine's listing in the card play."""
        phase = self._phase
        if phase is _PLAY:
            return self._play.legal_ids()
        return [0, *range(self.bid + 1, 4)] if phase is _BID else []

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no change.

        A listed card-play action goes straight to the engine; anything else (bids,
        shorthands such as ``"3334"``, illegal moves) takes the validating path.
        """
        if self._phase is _PLAY and self._fast_apply(action):
            return
        super().apply(action)

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if self._phase is Phase.BID:
            if action in self.legal_actions():
                return None
            if action.kind == "bid":
                return f"{shown(action.text)} must be a bid of 1-3 above the current bid {self.bid}"
            return f"{shown(action.text)} is not a bidding action: pass or bid N"
        return self._play_reason(action)

    def _apply(self, action: Action) -> None:
        if self._phase is Phase.BID:
            self._apply_bid(action)
            self._advance()
        else:
            self._apply_play(action)

    def _apply_bid(self, action: Action) -> None:
        self.bid_log.append((self.bidder, action.text))
        self.bid_turns += 1
        if action.kind == "bid":
            self.bid = int(action.args[0])
            self.landlord = self.bidder
            self.bid_passes = 0
        else:
            self.bid_passes += 1

    def _advance(self) -> None:
        """The phase machine, after each call of the bidding: the card play needs
        no step of its own, as the deal ends inside it (DDZ-35)."""
        if self._game.bidding == "open":
            # DDZ-09: a bid of 3, or two consecutive passes after a bid.
            done = self.bid == 3 or (self.landlord is not None and self.bid_passes >= 2)
            all_passed = self.landlord is None and self.bid_passes >= 3
        else:
            # Each seat speaks once: a bid of 3, or the third call.
            done = self.bid == 3 or (self.bid_turns >= 3 and self.landlord is not None)
            all_passed = self.landlord is None and self.bid_turns >= 3
        if done:
            # DDZ-10: the highest bidder takes the revealed bottom cards and leads.
            self._become_landlord()
            self._phase = Phase.PLAY
        elif all_passed and self.deal_number + 1 >= MAX_DEALS:
            # Nobody bid in MAX_DEALS deals: the game ends without a landlord.
            self._phase = Phase.ABANDONED
        elif all_passed:
            # DDZ-11: three passes without a bid redeal; the bidding starts over.
            self.deal_number += 1
            self._deal_cards()
        else:
            self.bidder = (self.bidder + 1) % 3

    def _become_landlord(self) -> None:
        landlord = self.landlord
        assert landlord is not None
        hands = self.hands
        hands[landlord].extend(self.bottom)
        self._start_play(hands, leader=landlord, landlord=landlord, bid=self.bid)

    # -- the event log ------------------------------------------------------------------

    def _event_start(self, emit: Emit) -> None:
        self._emit_deal(emit, deal=self.deal_number, first_bidder=self.first_bidder)

    def _event_step(self, action: Action, emit: Emit) -> None:
        deal, phase = self.deal_number, self._phase
        self._emit_action(action, emit)
        if self.deal_number != deal:
            # Three passes: the cards are redealt.
            self._event_start(emit)
        elif phase is Phase.BID and self._phase is Phase.PLAY:
            emit(
                {
                    "type": "landlord",
                    "seat": self.landlord,
                    "bid": self.bid,
                    "bottom": [str(c) for c in self.bottom],
                }
            )

    # -- scoring ----------------------------------------------------------------------

    @property
    def spring(self) -> bool:
        """The landlord won before either farmer played."""
        farmers_played = sum(n for s, n in enumerate(self.plays_made) if s != self.landlord)
        return self.winner is not None and self.winner == self.landlord and farmers_played == 0

    @property
    def reverse_spring(self) -> bool:
        """The farmers won after the landlord played only once."""
        landlord = self.landlord
        return (
            self.winner is not None
            and landlord is not None
            and self.winner != landlord
            and self.plays_made[landlord] == 1
        )

    @property
    def multiplier(self) -> int:
        """2 per bomb or rocket played, times 2 for spring or reverse spring."""
        doublings = self.bombs + self.rockets + int(self.spring or self.reverse_spring)
        return 1 << doublings

    def returns(self) -> list[float]:
        """Each farmer wins or loses bid x multiplier; the landlord twice that."""
        if self.winner is None or self.landlord is None:
            return [0.0, 0.0, 0.0]
        unit = self.bid * self.multiplier
        sign = 1 if self.winner == self.landlord else -1
        return [float(2 * sign * unit if s == self.landlord else -sign * unit) for s in range(3)]

    def score_breakdown(self) -> dict[str, Any]:
        """Bid, bombs, rockets, spring, multiplier and each seat's result."""
        winning_side = None
        if self.winner is not None:
            winning_side = "landlord" if self.winner == self.landlord else "farmers"
        return {
            "landlord": self.landlord,
            "bid": self.bid,
            "bombs": self.bombs,
            "rockets": self.rockets,
            "spring": self.spring,
            "reverse_spring": self.reverse_spring,
            "multiplier": self.multiplier,
            "redeals": self.deal_number,
            "winner": self.winner,
            "winning_side": winning_side,
            "returns": self.returns(),
        }

    # -- information --------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Own hand, the bidding, the revealed bottom cards, plays, counts, multiplier."""
        seat = self.check_seat(seat)
        obs = self._play_observation(seat)
        playing = self._phase is Phase.PLAY
        obs.update(
            {
                "phase": self._phase.value,
                "deal_number": self.deal_number,
                "first_bidder": self.first_bidder,
                "bid_history": [[s, a] for s, a in self.bid_log],
                "bid": self.bid,
                "landlord": self.landlord if playing else None,
                "bottom": [str(c) for c in self.bottom] if playing else [],
                "bombs": self.bombs + self.rockets,
                "multiplier": self.multiplier,
                "to_act": self.current_player,
            }
        )
        return obs

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """The card play, then the bidding and the bottom cards (docs/doudizhu.md)."""
        at = self._write_card_play(seat, out)
        # An abandoned game never revealed its last bottom cards nor named a landlord.
        playing = self._phase is _PLAY
        out[at] = float(self._phase is _BID)
        out[at + 1 + self.bid] = 1.0
        at += 5
        if playing and self.landlord is not None:
            out[at + (self.landlord - seat) % 3] = 1.0
        out[at + 3 + (self.first_bidder - seat) % 3] = 1.0
        at += 6
        calls = [0, 0, 0]
        for bidder, call in self.bid_log:
            calls[bidder] = 1 if call == "pass" else 1 + int(call[4:])
        for rel in range(3):
            out[at + _CALLS * rel + calls[(seat + rel) % 3]] = 1.0
        at += 3 * _CALLS
        if playing:
            write_plane([rank_char(c) for c in self.bottom], out[at : at + PLANE])

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's hand, less the revealed bottom cards the landlord still holds."""
        seat = self.check_seat(seat)
        hand = Counter(self.hands[seat])
        if self._phase is Phase.PLAY and seat == self.landlord:
            hand -= Counter(self.bottom)
        return sorted(hand.elements())

    def zones(self) -> dict[str, list[Card]]:
        """Hands, the bottom cards until the landlord takes them, and each seat's plays."""
        zones = {f"hand{s}": list(self.hands[s]) for s in range(3)}
        zones["bottom"] = list(self.bottom) if self._phase is not Phase.PLAY else []
        for s in range(3):
            zones[f"played{s}"] = list(self.played[s])
        return zones


# The module-level index functions answer through a game object (the index does not
# depend on the options).
_INDEX_GAME = DouDizhu()
