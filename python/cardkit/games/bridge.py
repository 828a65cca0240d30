"""Contract Bridge: one deal of duplicate Bridge, North-South against East-West.

Rules as in the seed text (see ``docs/bridge.md``): seats North 0, East 1, South
2, West 3; the 52 cards are dealt one at a time clockwise from West, South is the
fixed dealer and calls first; ``vulnerability`` ("none", "ns", "ew", "both") is
fixed for the deal. The auction: pass, bids 1C..7NT each above the last (C < D <
H < S < NT within a level), double (X) only an opponent's undoubled bid,
redouble (XX) only the bidding side's doubled bid; passes keep the doubling, a
new bid cancels it; four passes with no bid end the deal 0-0, three passes after
a bid, double or redouble end the auction. Declarer is the first player of the
winning side to name the final strain; the partner is dummy. Declarer's left-hand
opponent leads, then dummy's hand is public and declarer plays it: while dummy's
hand is to play, ``current_player`` is declarer (the observation's
``hand_to_play`` says whose cards are played). Follow suit if possible; the
highest trump wins, else the highest card of the led suit. The duplicate score
comes from the Rust engine (``cardkit._core.bridge_score``, the one home of the
scoring table); North-South and East-West score equal and opposite.

Action texts: ``pass``, ``1C`` .. ``7NT``, ``X``, ``XX``, ``play As`` (a card
alone means ``play`` it). A word of a level 1..7 and a strain letter is a bid
when the letter is upper case (``2C``) or the word cannot be a card (``1c``,
``3nt``); ``2c`` with a lower-case suit is the card, so ``play 2C`` and ``2c``
play the two of clubs. Observations and events name calls by their parts
(``{"call": "bid", "level": 2, "strain": "C"}``), so that no call reads as a card.

Learning interface (``docs/bridge.md``): ids 0..51 play a card (its index), ids
52..89 are the 38 calls: 52 pass, 53 + 5 * (level - 1) + strain the bids (1C =
53 .. 7NT = 87), 88 X, 89 XX. The observation tensor (982 values) is written in
Rust.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import Card, TrickDeal, bridge_observation, bridge_score
from cardkit.api import Action, Observation
from cardkit.bridge.pbn import SEATS, STRAINS
from cardkit.errors import IllegalActionError, shown
from cardkit.games._base import Emit, action_text, check_choice, holds_lock
from cardkit.games._phase import StrEnum
from cardkit.games._tricks import (
    NAMES,
    PLAY_ACTIONS,
    PLAY_INDEX,
    PLAY_NEEDS_CARD,
    PLAY_TABLE,
    SETUP_BASE,
    SUIT_NAMES,
    TrickGame,
    TrickState,
    card_index,
    cards_of,
    names_of,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CALL_ACTIONS",
    "OBSERVATION_SIZE",
    "SEAT_NAMES",
    "STRAINS",
    "Bridge",
    "BridgeState",
    "Phase",
    "score",
]

#: Seat letters by index: North, East, South, West (PBN's, so one home).
SEAT_NAMES = SEATS
_STRAIN_WORDS = {"c": 0, "d": 1, "h": 2, "s": 3, "n": 4, "nt": 4}
_DEALER = 2
_PASS, _DOUBLE, _REDOUBLE = 0, 36, 37
#: The 38 calls in id order from 52: pass, 1C .. 7NT, X, XX.
CALL_ACTIONS: list[Action] = [
    Action("pass"),
    *(Action(f"{level}{strain}") for level in range(1, 8) for strain in STRAINS),
    Action("X"),
    Action("XX"),
]
_CALL_INDEX: dict[str, int] = {a.text: i for i, a in enumerate(CALL_ACTIONS)}
_CALL_WORDS: dict[str, int] = {
    "pass": _PASS,
    "p": _PASS,
    "x": _DOUBLE,
    "double": _DOUBLE,
    "dbl": _DOUBLE,
    "xx": _REDOUBLE,
    "redouble": _REDOUBLE,
    "rdbl": _REDOUBLE,
}
_VULNERABILITY = ("none", "ns", "ew", "both")
_USAGE = "expected a call (pass, 1C..7NT, X, XX) or 'play c' (or just c)"
_DOUBLING_TEXT = ("", "X", "XX")

#: Length of the observation tensor (layout in ``docs/bridge.md``; written by
#: ``rust/engine/src/trick/observe.rs``, which refuses any other length).
OBSERVATION_SIZE = 982
#: The longest auction: three passes, then every bid doubled and redoubled with
#: passes between (3 + 34 * 9 + 10 calls).
MAX_AUCTION = 319
#: The widest score: 7NT redoubled and vulnerable, down thirteen.
_MAX_SCORE = 7600

_BITS = [1 << i for i in range(52)]

# Legal-call lists by bitset, built on first use: the auction's per-call path lists
# one cached list instead of filtering 38 calls.
_LISTS: dict[int, list[Action]] = {}


class Phase(StrEnum):
    """Where a Bridge deal stands; each member equals its lower-case value."""

    #: The calls from South (BR-09 .. BR-23).
    AUCTION = "auction"
    #: The thirteen tricks (BR-29 .. BR-38).
    PLAY = "play"
    #: Scored, or passed out (BR-41, BR-44).
    OVER = "over"


# ``Phase.X`` is a metaclass lookup on every use (Python 3.11); the per-call paths
# compare against these module names instead.
_AUCTION = Phase.AUCTION
_OVER = Phase.OVER


def _call_record(seat: int, call: int) -> dict[str, Any]:
    """A call as observations and events show it: by its parts, never as text that
    could read as a card (``2C``)."""
    if call == _PASS:
        return {"seat": seat, "call": "pass"}
    if call == _DOUBLE:
        return {"seat": seat, "call": "double"}
    if call == _REDOUBLE:
        return {"seat": seat, "call": "redouble"}
    return {
        "seat": seat,
        "call": "bid",
        "level": (call - 1) // 5 + 1,
        "strain": STRAINS[(call - 1) % 5],
    }


def score(level: int, strain: int, doubling: int, vulnerable: bool, tricks: int) -> dict[str, int]:
    """The duplicate score of a contract for declarer's side, part by part.

    ``level`` 1..7, ``strain`` 0..4 (C, D, H, S, NT), ``doubling`` 0, 1 (X) or 2
    (XX), ``tricks`` 0..13 taken by declarer's side. The parts (BR-45 .. BR-63):
    ``contract_points``, ``overtricks``, ``game_bonus``, ``partscore_bonus``,
    ``slam_bonus``, ``insult`` (making a doubled or redoubled contract),
    ``undertricks`` (negative) and ``total``.
    """
    parts = bridge_score(level, strain, doubling, vulnerable, tricks)
    names = (
        "contract_points",
        "overtricks",
        "game_bonus",
        "partscore_bonus",
        "slam_bonus",
        "insult",
        "undertricks",
        "total",
    )
    return dict(zip(names, parts, strict=True))


def _call_list(legal: int) -> list[Action]:
    """The calls of bitset ``legal`` (bit ``i`` = call ``i``), cached."""
    found = _LISTS.get(legal)
    if found is None:
        found = _LISTS[legal] = [a for i, a in enumerate(CALL_ACTIONS) if legal >> i & 1]
    return found


class Bridge(TrickGame):
    """One deal of duplicate Bridge (``make("bridge", vulnerability="none")``)."""

    name = "bridge"
    zero_sum = True
    deck_name = "standard52"
    setup_actions = CALL_ACTIONS
    setup_index = _CALL_INDEX

    def __init__(self, vulnerability: str = "none") -> None:
        self.vulnerability = check_choice("vulnerability", vulnerability, _VULNERABILITY)
        #: Whether North-South, then East-West, are vulnerable.
        self.vulnerable = (vulnerability in ("ns", "both"), vulnerability in ("ew", "both"))
        self.num_players = 4

    @property
    def max_game_length(self) -> int:
        """The longest auction (319 calls) and 52 cards."""
        return MAX_AUCTION + 52

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """982 values: the table block and Bridge's own (``docs/bridge.md``)."""
        return (OBSERVATION_SIZE,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """A side's score: at most 7600 either way (7NT redoubled, vulnerable, down
        thirteen); a made contract scores at most 2980 (7NT redoubled vulnerable)."""
        return (-float(_MAX_SCORE), float(_MAX_SCORE))

    @property
    def options(self) -> dict[str, Any]:
        """The rule options as ``make`` accepts them."""
        return {"vulnerability": self.vulnerability}

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> BridgeState:
        """A new deal; ``deal`` fixes the first cards dealt, one at a time from West."""
        return BridgeState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``pass``, ``1C`` .. ``7NT``, ``X``, ``XX`` or ``play As``.

        Calls are read case-insensitively (``p``, ``double``, ``dbl``, ``redouble``,
        ``1n``, ``3nt``), but a level 2..7 with a lower-case suit letter is a card
        (``2c``); a card alone means ``play`` it.
        """
        text = action_text(text)
        if isinstance(text, Action):
            return text
        found = _CALL_INDEX.get(text)
        if found is not None:
            return CALL_ACTIONS[found]
        words = text.split()
        if not words:
            raise IllegalActionError(f"an empty action: {_USAGE}")
        first = words[0].lower()
        if len(words) == 1:
            word = words[0]
            call = _CALL_WORDS.get(first)
            if call is not None:
                return CALL_ACTIONS[call]
            bid = _bid_of(word)
            if bid is not None:
                return CALL_ACTIONS[bid]
            if word[:1] in "1234567" and word[1:].lower() in _STRAIN_WORDS:
                # A lower-case suit after 2..7: the card (documented above).
                return PLAY_ACTIONS[card_index(word, _USAGE)]
            if first == "play":
                raise IllegalActionError(PLAY_NEEDS_CARD)
            return PLAY_ACTIONS[card_index(word, _USAGE)]
        if first == "play" and len(words) == 2:
            return PLAY_ACTIONS[card_index(words[1])]
        raise IllegalActionError(f"{shown(text)}: {_USAGE}")


def _bid_of(word: str) -> int | None:
    """The call id of a bid word, or ``None``: level 1..7 then a strain; a suit
    letter after 2..7 must be upper case (lower case is a card)."""
    if len(word) < 2 or word[0] not in "1234567":
        return None
    strain = _STRAIN_WORDS.get(word[1:].lower())
    if strain is None:
        return None
    if strain < 4 and word[0] != "1" and not word[1].isupper():
        return None
    return 1 + (int(word[0]) - 1) * 5 + strain


class BridgeState(TrickState):
    """A Bridge deal in progress."""

    _game: Bridge

    def _start(self) -> None:
        bits = [_BITS[c.index] for c in self.deck_order(0)]
        # BR-08: one card at a time clockwise from West, the dealer's left: cards
        # 0, 4, 8 ... to West (3), 1, 5, 9 ... to North (0), and so on.
        self._hands = [sum(bits[1::4]), sum(bits[2::4]), sum(bits[3::4]), sum(bits[0::4])]
        self._deal_number = 0
        self._deals: list[dict[str, Any]] = []
        self._calls: list[int] = []
        self._caller = _DEALER
        self._bid: int | None = None  # the highest bid (0..34)
        self._bidder = -1
        self._doubling = 0
        self._passes = 0
        # Per side and strain, the first seat of the side to name it (BR-25).
        self._first: dict[tuple[int, int], int] = {}
        self._legal = self._auction_legal()
        self._contract: tuple[int, int, int, int] | None = None
        self._declarer = -1
        self._dummy = -1
        self._play_deal = None
        self._phase = Phase.AUCTION

    # -- the auction ------------------------------------------------------------

    def _auction_legal(self) -> int:
        """Bitset of the legal calls of the seat to call."""
        bits = 1 << _PASS
        above = 0 if self._bid is None else self._bid + 1
        bits |= ((1 << 35) - (1 << above)) << 1
        if self._bid is not None:
            own = self._bidder % 2 == self._caller % 2
            if self._doubling == 0 and not own:
                bits |= 1 << _DOUBLE
            if self._doubling == 1 and own:
                bits |= 1 << _REDOUBLE
        return bits

    def _call(self, call: int) -> None:
        """Make a legal ``call`` for the seat to call."""
        seat = self._caller
        self._calls.append(call)
        if call == _PASS:
            self._passes += 1
        elif call >= _DOUBLE:
            # BR-21: a double or redouble resets the pass count.
            self._doubling = 1 if call == _DOUBLE else 2
            self._passes = 0
        else:
            # BR-20: a higher bid cancels any double or redouble.
            self._bid = call - 1
            self._bidder = seat
            self._doubling = 0
            self._passes = 0
            self._first.setdefault((seat % 2, self._bid % 5), seat)
        self._caller = (seat + 1) % 4
        if self._passes == 4 or (self._bid is not None and self._passes == 3):
            self._advance()
        else:
            self._legal = self._auction_legal()

    def _advance(self) -> None:
        """The phase machine: the auction or the play is complete."""
        if self._phase is Phase.AUCTION:
            self._legal = 0
            if self._bid is None:
                # BR-22, BR-44: passed out, zero for both sides.
                self._phase = Phase.OVER
                self._record_result()
                return
            # BR-24 .. BR-26: the contract, declarer and dummy.
            strain = self._bid % 5
            declarer = self._first[(self._bidder % 2, strain)]
            self._contract = (self._bid // 5 + 1, strain, self._doubling, declarer)
            self._declarer = declarer
            self._dummy = (declarer + 2) % 4
            self._play_deal = TrickDeal.bridge(
                self._hands, self._bid // 5 + 1, strain, self._doubling, declarer, PLAY_TABLE
            )
            self._phase = Phase.PLAY
            return
        self._phase = Phase.OVER
        self._record_result()

    def _record_result(self) -> None:
        """The deal's line of the records: contract, tricks and both sides' scores."""
        self._deals.append(
            {
                "deal": 0,
                "contract": self.contract_text(),
                "declarer": None if self._contract is None else self._contract[3],
                "declarer_tricks": self.declarer_tricks(),
                "scores": self.side_scores(),
            }
        )

    # -- state ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The auction, the play, or over."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to call or to choose a card: declarer when dummy's hand is to
        play (BR-30); ``None`` when over."""
        deal = self._play_deal
        if deal is None:
            return None if self._phase is _OVER else self._caller
        if self._phase is _OVER:
            return None
        seat = deal.to_act
        return self._declarer if seat == self._dummy else seat

    @property
    def hand_to_play(self) -> int | None:
        """The seat whose cards are played next (dummy's own seat when declarer
        plays dummy); ``None`` outside the play."""
        if self._phase is not Phase.PLAY or self._play_deal is None:
            return None
        return self._play_deal.to_act

    def play_position(self) -> tuple[list[int], int, int, list[int]] | None:
        """The card play as it stands, for double-dummy analysis
        (``cardkit.bridge.dd_solve(state)``): each seat's remaining cards as bitsets
        (N, E, S, W), the trump strain (0..4, 4 no trump), the seat that led the
        current trick and its cards (indices, in play order); ``None`` outside the
        play."""
        deal = self._play_deal
        if self._phase is not Phase.PLAY or deal is None or self._contract is None:
            return None
        return list(deal.hands), self._contract[1], deal.leader, list(deal.trick)

    @property
    def is_terminal(self) -> bool:
        """True once the deal is scored or passed out."""
        return self._phase is _OVER

    @property
    def calls(self) -> list[Action]:
        """Every call of the auction, in order from South."""
        return [CALL_ACTIONS[c] for c in self._calls]

    @property
    def contract(self) -> dict[str, Any] | None:
        """The final contract (``level``, ``strain`` letter, ``doubling`` "", "X"
        or "XX", ``declarer``, ``dummy``) once the auction ends with a bid."""
        if self._contract is None:
            return None
        level, strain, doubling, declarer = self._contract
        return {
            "level": level,
            "strain": STRAINS[strain],
            "doubling": _DOUBLING_TEXT[doubling],
            "declarer": declarer,
            "dummy": self._dummy,
        }

    def contract_text(self) -> str | None:
        """The contract as ``4S``, ``3NTX``, ``7SXX``; ``None`` before it exists or
        when passed out."""
        if self._contract is None:
            return None
        level, strain, doubling, _ = self._contract
        return f"{level}{STRAINS[strain]}{_DOUBLING_TEXT[doubling]}"

    def declarer_tricks(self) -> int:
        """Tricks taken so far by declarer and dummy (0 before the play)."""
        deal = self._play_deal
        if deal is None or self._contract is None:
            return 0
        won = deal.won
        return won[self._contract[3]] + won[self._dummy]

    def legal_actions(self) -> list[Action]:
        """The legal calls during the auction, else the playable cards of the hand
        to play (dummy's when declarer plays it). Takes the state's lock itself."""
        lock = self._lock
        lock.acquire()
        try:
            deal = self._play_deal
            if deal is None:
                # No legal call once passed out: the empty bitset's list.
                return list(_LISTS.get(self._legal) or _call_list(self._legal))
            # Once the last trick is taken the deal has no legal card: an empty list.
            return deal.legal_actions()
        finally:
            lock.release()

    legal_actions = holds_lock(legal_actions)

    def _legal_bits(self) -> tuple[int, int]:
        deal = self._play_deal
        if deal is None:
            return self._legal, SETUP_BASE
        return deal.legal(), 0

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if self._phase is Phase.AUCTION:
            call = _CALL_INDEX.get(action.text)
            if call is None:
                return f"the auction is not over: seat {self._caller} calls (pass, a bid, X or XX)"
            return self._call_reason(call)
        if self._phase is _OVER:
            return "the deal is over"
        deal = self._play_deal
        assert deal is not None  # dealt when the play began
        card = PLAY_INDEX.get(action.text)
        if card is None:
            if action.text in _CALL_INDEX:
                return f"the auction is over; {action.text} cannot be called in the play"
            return f"{shown(action.text)} is not a play: play a card ('play c' or just c)"
        if deal.legal() >> card & 1:
            return None
        seat = deal.to_act
        name = NAMES[card]
        if not deal.hands[seat] >> card & 1:
            whose = f"dummy (seat {seat})" if seat == self._dummy else f"seat {seat}"
            return f"{whose} does not hold {name}: it is {whose}'s card to play"
        suit = deal.trick[0] & 3
        return f"{name} does not follow {SUIT_NAMES[suit]}, which seat {seat} holds (a revoke)"

    def _call_reason(self, call: int) -> str | None:
        """Why ``call`` is not legal for the seat to call, or ``None``."""
        if self._legal >> call & 1:
            return None
        seat = self._caller
        if self._bid is None:
            # Every bid is legal before the first one: this is a double or redouble.
            what = "double" if call == _DOUBLE else "redouble"
            return f"there is no bid to {what}"
        if call < _DOUBLE:
            highest = CALL_ACTIONS[1 + self._bid].text
            return f"{CALL_ACTIONS[call].text} is insufficient: a new bid must exceed {highest}"
        bid = CALL_ACTIONS[1 + self._bid].text
        own = self._bidder % 2 == seat % 2
        if call == _DOUBLE:
            if own:
                return f"seat {seat} cannot double its own side's bid {bid}"
            return f"{bid} is already {'doubled' if self._doubling == 1 else 'redoubled'}"
        if self._doubling == 0:
            return f"{bid} is not doubled: there is nothing to redouble"
        if self._doubling == 2:
            return f"{bid} is already redoubled"
        return f"only the side that bid {bid} may redouble; seat {seat} doubled it"

    def _apply(self, action: Action) -> None:
        if self._phase is Phase.PLAY:
            self._play(PLAY_INDEX[action.text])
            return
        self._call(_CALL_INDEX[action.text])

    def _quick_setup(self, action: Action | str) -> bool:
        """Make a legal call given as canonical text without the validated path."""
        if self._phase is not _AUCTION:
            return False
        call = _CALL_INDEX.get(action) if isinstance(action, str) else None
        if call is None or not self._legal >> call & 1:
            return False
        self._history.append(CALL_ACTIONS[call])
        self._call(call)
        return True

    # -- the event log ----------------------------------------------------------

    def _emit_deal(self, emit: Emit) -> None:
        emit(
            {
                "type": "deal",
                "deal": 0,
                "dealer": _DEALER,
                "vulnerability": self._game.vulnerability,
            }
        )
        self._emit_hands_of(emit)

    def _emit_setup(self, seat: int, action: Action, emit: Emit) -> None:
        record = _call_record(seat, _CALL_INDEX[action.text])
        emit({"type": "action", "seat": seat, "action": record.pop("call"), **record})

    def _event_step(self, action: Action, emit: Emit) -> None:
        before = self._play_deal is not None and not self._play_deal.trick
        super()._event_step(action, emit)
        deal = self._play_deal
        if before and deal is not None and deal.tricks_played == 0 and len(deal.trick) == 1:
            # BR-29: after the opening lead dummy's hand is face up for everyone.
            cards = names_of(deal.hands[self._dummy])
            emit({"type": "dummy", "seat": self._dummy, "cards": cards})

    # -- results and views ------------------------------------------------------

    def side_scores(self) -> list[int]:
        """North-South's and East-West's scores (equal and opposite, BR-42); zeros
        before the end and when passed out."""
        if self._phase is not _OVER or self._contract is None:
            return [0, 0]
        total = self._declarer_score()["total"]
        ns = total if self._contract[3] % 2 == 0 else -total
        return [ns, -ns]

    def _declarer_score(self) -> dict[str, int]:
        assert self._contract is not None
        level, strain, doubling, declarer = self._contract
        vulnerable = self._game.vulnerable[declarer % 2]
        return score(level, strain, doubling, vulnerable, self.declarer_tricks())

    def returns(self) -> list[float]:
        """Each seat's side score (North-South's for seats 0 and 2); zeros until the end."""
        ns = float(self.side_scores()[0])
        return [ns, -ns, ns, -ns]

    def _dummy_public(self) -> bool:
        deal = self._play_deal
        return deal is not None and (deal.tricks_played > 0 or bool(deal.trick))

    def _current_hands(self) -> list[int]:
        return self._hands if self._play_deal is None else list(self._play_deal.hands)

    def observation(self, seat: int) -> Observation:
        """Own hand, the auction, the contract, dummy's hand once the opening lead
        is made, the trick, every completed trick, tricks won and whose turn it is."""
        seat = self.check_seat(seat)
        deal = self._play_deal
        hands = self._current_hands()
        won = [0, 0, 0, 0] if deal is None else list(deal.won)
        return {
            "game": "bridge",
            "seat": seat,
            "phase": self._phase.value,
            "dealer": _DEALER,
            "vulnerability": self._game.vulnerability,
            "vulnerable": list(self._game.vulnerable),
            "hand": names_of(hands[seat]),
            "auction": [_call_record((_DEALER + i) % 4, c) for i, c in enumerate(self._calls)],
            "contract": self.contract,
            "dummy_hand": names_of(hands[self._dummy]) if self._dummy_public() else None,
            "leader": None if deal is None else deal.leader,
            **self._trick_lists(),
            "tricks_won": won,
            "declarer_tricks": self.declarer_tricks(),
            "to_act": self.current_player,
            "hand_to_play": self.hand_to_play,
        }

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        deal = self._play_deal
        if self._phase is _OVER:
            to_act = None
        elif deal is None:
            to_act = self._caller
        else:
            to_act = deal.to_act
        bridge_observation(
            out, seat, self._hands[seat], deal, to_act, self._calls, self._game.vulnerable
        )

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's hand; dummy's is public from the opening lead on (BR-29)."""
        seat = self.check_seat(seat)
        if seat == self._dummy and self._dummy_public():
            return []
        return cards_of(self._current_hands()[seat])

    def score_breakdown(self) -> dict[str, Any]:
        """The records (BR-64): every call, every trick with its winner, and the
        score part by part for declarer's side, then both sides' scores."""
        deal = self._play_deal
        tricks = [] if deal is None else deal.tricks()
        out: dict[str, Any] = {
            "vulnerability": self._game.vulnerability,
            "calls": [_call_record((_DEALER + i) % 4, c) for i, c in enumerate(self._calls)],
            "passed_out": self._phase is _OVER and self._contract is None,
            "contract": self.contract_text(),
            "declarer": None if self._contract is None else self._contract[3],
            "tricks": [
                {"leader": leader, "cards": [NAMES[c] for c in cards], "winner": winner}
                for leader, cards, winner in tricks
            ],
            "declarer_tricks": self.declarer_tricks(),
        }
        if self._contract is not None:
            level, _, _, declarer = self._contract
            out["target"] = 6 + level
            out["declarer_vulnerable"] = self._game.vulnerable[declarer % 2]
            if self._phase is _OVER:
                out["result"] = self.declarer_tricks() - 6 - level
                out["declarer_score"] = self._declarer_score()
        out["scores"] = self.side_scores()
        return out

    def clone(self) -> BridgeState:
        """A cheap independent copy (ints and tuples are shared, lists copied)."""
        new = object.__new__(BridgeState)
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new._hands = list(self._hands)
        new._deals = list(self._deals)
        new._calls = list(self._calls)
        new._first = dict(self._first)
        new._play_deal = None if self._play_deal is None else self._play_deal.copy()
        return new
