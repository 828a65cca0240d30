"""Spades: four players in two partnerships (seats 0 and 2 against 1 and 3).

Rules as in the seed text (see ``docs/spades.md``): thirteen cards each; each
player bids 0-13 in turn; nonzero partner bids add into the partnership contract
and a zero bid is nil. Follow suit if possible, otherwise play anything; the
highest spade wins, else the highest card of the led suit, and the winner leads
next; spades may not be led before one has been played unless the leader holds
only spades. A made contract scores 10 per bid trick plus 1 per overtrick (bag); a
failed one loses 10 per bid trick; each 10 accumulated bags cost 100; nil scores
+100 if its bidder takes no trick and -100 otherwise, and a failed nil's tricks add
bags but do not count toward the partner's contract. No blind nil, no jokers. The
first team to ``target`` (500) with the higher score wins; an equal score continues.

Where the seed is silent (rule options): ``dealer`` deals first (default 3, so
seat 0, on the dealer's left, bids and leads first), the deal passes clockwise
(``rotate_dealer``), ``first_lead`` is the player on the dealer's left (or the
holder of 2♣, who leads it). ``lose_at`` (default ``None``: the seed's rule, only
``target`` ends a match, SPD-10) is a house rule: a match also ends when a team
falls to it, the higher score winning, so that hopeless matches end. A match
also ends after ``MAX_DEALS`` (10,000) deals (scores can stay tied or sink for
ever).

``returns()``: each seat's team score minus the other team's (the match totals,
or the deal's points when ``match=False``), so returns are zero-sum.

Learning interface (``docs/spades.md``): ids 0..51 play a card (its index), ids
52..65 bid 0..13. The observation tensor (547 values) is written in Rust.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import Card, TrickDeal, spades_observation
from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError, shown
from cardkit.games._base import MAX_DEALS, Emit, action_text, check_choice, check_int
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
    check_bool,
    hands_of,
    names_of,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BID_ACTIONS", "OBSERVATION_SIZE", "Phase", "Spades", "SpadesState", "team_score"]

#: ``bid 0`` (nil) .. ``bid 13``.
BID_ACTIONS: list[Action] = [Action(f"bid {n}") for n in range(14)]
_BID_INDEX: dict[str, int] = {a.text: n for n, a in enumerate(BID_ACTIONS)}
_BID_WORDS: dict[str, int] = {str(n): n for n in range(14)}
_PASS = Action("pass")
_USAGE = "expected 'bid n' (0..13 or nil) or 'play c' (or just c)"
_FIRST_LEADS = ("left_of_dealer", "two_of_clubs")
#: Every bid is legal while bidding: ids 52..65.
_ALL_BIDS = (1 << len(BID_ACTIONS)) - 1

#: Length of the observation tensor (layout in ``docs/spades.md``; written by
#: ``rust/engine/src/trick/observe.rs``, which refuses any other length).
OBSERVATION_SIZE = 547

# Bounds of one deal's team points and of the difference between the two teams'
# points in one deal, from ``team_score`` over every bid, trick split and carried
# bags (tests/test_spades.py enumerates them): the widest difference with no bags
# carried (a single deal), with 0..9 carried, and the lowest points of a team.
_DEAL_SPREAD = 520
_CARRIED_SPREAD = 619
_WORST_DEAL = -419


class Phase(StrEnum):
    """Where a Spades match stands; each member equals its lower-case value
    (``Phase.BID == "bid"``), the ``"phase"`` of observations."""

    #: Each player bids 0 to 13 in turn, from the dealer's left (SPD-02).
    BID = "bid"
    #: The tricks of the deal (SPD-04 .. SPD-07).
    PLAY = "play"
    #: The match, or the single deal, is over (SPD-10).
    OVER = "over"


# ``Phase.OVER`` is a metaclass lookup on every use (Python 3.11); the per-move paths
# compare against this module name instead.
_OVER = Phase.OVER


def team_score(bids: Sequence[int], tricks: Sequence[int], bags_before: int) -> dict[str, Any]:
    """One partnership's deal: contract, nils, bags and points, bag penalties included.

    The nonzero bids form the contract, made by the tricks of the non-nil players
    (10 per bid trick, 1 per overtrick, which is a bag) or failed (-10 per bid
    trick). A nil scores +100 when its bidder took no trick, else -100 and its
    tricks are bags (1 point each) that do not count toward the contract. Every 10
    accumulated bags cost 100.
    """
    contract = sum(b for b in bids if b)
    toward = sum(t for b, t in zip(bids, tricks, strict=True) if b)
    nil_points = 0
    bags = 0
    for b, t in zip(bids, tricks, strict=True):
        if b == 0:
            nil_points += 100 if t == 0 else -100
            if t:
                bags += t
    made = toward >= contract
    contract_points = 0
    if contract:
        contract_points = 10 * contract if made else -10 * contract
        if made:
            bags += toward - contract
    total_bags = bags_before + bags
    penalties = total_bags // 10
    return {
        "contract": contract,
        "tricks_toward_contract": toward,
        "made": made if contract else None,
        "contract_points": contract_points,
        "nil_points": nil_points,
        "bags": bags,
        "bag_penalty": -100 * penalties,
        "bags_after": total_bags - 10 * penalties,
        "points": contract_points + nil_points + bags - 100 * penalties,
    }


class Spades(TrickGame):
    """Partnership Spades (``make("spades", match=True, target=500, ...)``)."""

    name = "spades"
    zero_sum = True
    deck_name = "standard52"
    setup_actions = BID_ACTIONS
    setup_index = _BID_INDEX

    def __init__(
        self,
        match: bool = True,
        target: int = 500,
        lose_at: int | None = None,
        dealer: int = 3,
        rotate_dealer: bool = True,
        first_lead: str = "left_of_dealer",
    ) -> None:
        self.match = check_bool("match", match)
        self.target = check_int("target", target, 1, 100_000)
        self.lose_at = None if lose_at is None else check_int("lose_at", lose_at, -100_000, -1)
        self.dealer = check_int("dealer", dealer, 0, 3)
        self.rotate_dealer = check_bool("rotate_dealer", rotate_dealer)
        self.first_lead = check_choice("first_lead", first_lead, _FIRST_LEADS)
        self.num_players = 4

    @property
    def max_game_length(self) -> int:
        """56 actions per deal: four bids and 52 cards played."""
        return 4 + 52

    @property
    def max_match_length(self) -> int:
        """Scores can stay tied or drift below ``target`` for ever, so a match also
        ends after ``MAX_DEALS`` deals (the higher score wins, a tie is a draw)."""
        return (MAX_DEALS if self.match else 1) * self.max_game_length

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """547 values: the table block and Spades' own (``docs/spades.md``)."""
        return (OBSERVATION_SIZE,)

    @property
    def utility_range(self) -> tuple[float, float]:
        """The returns' bounds, from ``return = own team's score - the other's``.

        A single deal: one deal's points differ by at most 520 (two made nils, +200,
        against a failed 13 whose nil partner took 10 tricks: -130, -100, 10 bags
        and their 100 penalty, -320). A match ends after a deal that leaves the
        scores unequal with one at ``target`` (or one at ``lose_at``), or after
        ``MAX_DEALS`` deals: before its last deal the scores were equal, or both
        below ``target`` (and above ``lose_at``), so their difference then is below
        ``target - lose_at - 1``; without ``lose_at`` the lower score can have sunk
        by at most 419 a deal. The last deal adds at most 619 (bags carried in can
        cost 100 more).
        """
        if not self.match:
            return (-float(_DEAL_SPREAD), float(_DEAL_SPREAD))
        if self.lose_at is not None:
            before = self.target - self.lose_at - 2
        else:
            before = self.target - 1 - (MAX_DEALS - 1) * _WORST_DEAL
        bound = float(before + _CARRIED_SPREAD)
        return (-bound, bound)

    @property
    def options(self) -> dict[str, Any]:
        """The rule options as ``make`` accepts them."""
        return {
            "match": self.match,
            "target": self.target,
            "lose_at": self.lose_at,
            "dealer": self.dealer,
            "rotate_dealer": self.rotate_dealer,
            "first_lead": self.first_lead,
        }

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> SpadesState:
        """A new match (or deal); ``deal`` fixes the first cards dealt, 13 per seat in turn."""
        return SpadesState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``bid 4`` (``bid nil`` and ``nil`` mean ``bid 0``) or ``play As``;
        a card alone means ``play`` it."""
        text = action_text(text)
        if isinstance(text, Action):
            return text
        words = text.lower().split()
        if not words:
            raise IllegalActionError(f"an empty action: {_USAGE}")
        if words in (["nil"], ["bid", "nil"]):
            return BID_ACTIONS[0]
        if words[0] == "bid":
            # Compared as text: a 5000-digit bid must not reach int().
            bid = _BID_WORDS.get(words[1].lstrip("0") or "0") if len(words) == 2 else None
            if bid is None:
                raise _bad_bid(text)
            return BID_ACTIONS[bid]
        if words[0] == "pass":
            # Spades has no pass; the state says what to do instead.
            return _PASS
        if words == ["play"]:
            raise IllegalActionError(PLAY_NEEDS_CARD)
        if words[0] == "play" and len(words) == 2:
            return PLAY_ACTIONS[card_index(text.split()[1])]
        if len(words) == 1:
            return PLAY_ACTIONS[card_index(text.split()[0], _USAGE)]
        raise IllegalActionError(f"{shown(text)}: {_USAGE}")


def _bad_bid(text: str) -> IllegalActionError:
    """The error for a ``bid`` without a number 0..13 or ``nil``."""
    if text.split()[1:]:
        return IllegalActionError(f"{shown(text)}: a bid is a number 0..13, or nil")
    return IllegalActionError("bid needs a number 0..13, or nil: 'bid 4', 'bid nil'")


class SpadesState(TrickState):
    """A Spades match (or a single deal) in progress."""

    _game: Spades

    def _start(self) -> None:
        self._scores = [0, 0]
        self._bags = [0, 0]
        self._deals: list[dict[str, Any]] = []
        self._new_deal(0, self._game.dealer)

    def _new_deal(self, number: int, dealer: int) -> None:
        order = self.deck_order(number)
        self._deal_number = number
        self._dealer = dealer
        # The hands while bidding; from the first lead on they live in ``_play_deal``.
        self._hands = hands_of(order)
        self._bids: list[int | None] = [None, None, None, None]
        self._bidder = (dealer + 1) % 4
        self._play_deal = None
        self._phase = Phase.BID

    def _advance(self) -> None:
        """The phase machine: the current phase is complete; enter the next one."""
        if self._phase is Phase.BID:
            # SPD-02: every player has bid: the play begins.
            self._start_play()
            self._phase = Phase.PLAY
            return
        deal = self._play_deal
        assert deal is not None  # dealt when the play phase began
        # The last trick is taken: the deal is scored (SPD-08, SPD-09, SPD-16).
        self._score_deal(deal.won)
        a, b = self._scores
        game = self._game
        reached = max(a, b) >= game.target
        sunk = game.lose_at is not None and min(a, b) <= game.lose_at
        last = self._deal_number + 1 >= MAX_DEALS
        # SPD-10: at the target the higher team wins; an equal score continues.
        if not game.match or (a != b and (reached or sunk)) or last:
            self._phase = Phase.OVER
            return
        dealer = (self._dealer + 1) % 4 if game.rotate_dealer else self._dealer
        self._new_deal(self._deal_number + 1, dealer)

    def _bidding_leader(self) -> int | None:
        """Who will lead, as the seats know it while bidding: the dealer's left, or
        ``None`` when the 2♣ leads, because who holds it is hidden until it is played."""
        if self._game.first_lead == "two_of_clubs":
            return None
        return (self._dealer + 1) % 4

    def _start_play(self) -> None:
        bids = [b or 0 for b in self._bids]
        leader = (self._dealer + 1) % 4
        two_of_clubs = self._game.first_lead == "two_of_clubs"
        if two_of_clubs:
            leader = next(s for s in range(4) if self._hands[s] & 1)
        self._play_deal = TrickDeal.spades(self._hands, bids, leader, PLAY_TABLE, two_of_clubs)

    def _current_hands(self) -> list[int]:
        return self._hands if self._play_deal is None else list(self._play_deal.hands)

    # -- state ------------------------------------------------------------------

    @property
    def bidding(self) -> bool:
        """True while bids are still being made."""
        return self._phase is Phase.BID

    @property
    def phase(self) -> Phase:
        """Bidding, the tricks of a deal, or over."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to bid or play; ``None`` when over."""
        if self._phase is _OVER:
            return None
        if self._play_deal is None:
            return self._bidder
        return self._play_deal.to_act

    @property
    def is_terminal(self) -> bool:
        """True once the match (or the single deal) is over."""
        return self._phase is _OVER

    def legal_actions(self) -> list[Action]:
        """``bid 0`` .. ``bid 13`` while bidding, else the playable cards."""
        if self._phase is _OVER:
            return []
        if self._play_deal is None:
            return list(BID_ACTIONS)
        return self._play_deal.legal_actions()

    def _legal_bits(self) -> tuple[int, int]:
        deal = self._play_deal
        if deal is None:
            return _ALL_BIDS, SETUP_BASE
        # Once the game is over the last deal has no legal card: no ids.
        return deal.legal(), 0

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if self._phase is Phase.BID:
            if action.text in _BID_INDEX:
                return None
            if action.kind == "pass":
                return f"Spades has no pass: seat {self._bidder} bids 0..13, or nil"
            return f"seat {self._bidder} must bid 0..13 (or nil) before play starts"
        deal = self._play_deal
        assert deal is not None  # dealt when the play phase began
        card = PLAY_INDEX.get(action.text)
        if card is None:
            if action.kind in ("pass", "bid"):
                return f"{action.kind} is not an action in the play phase; play a card"
            return f"{shown(action.text)} is not a play: play a card ('play c' or just c)"
        if deal.legal() >> card & 1:
            return None
        seat = deal.to_act
        hand = deal.hands[seat]
        name = NAMES[card]
        if not hand >> card & 1:
            return f"seat {seat} does not hold {name}"
        trick = deal.trick
        if trick:
            suit = trick[0] & 3
            return f"{name} does not follow {SUIT_NAMES[suit]}, which seat {seat} holds"
        if self._game.first_lead == "two_of_clubs" and deal.tricks_played == 0:
            return "the holder of 2c leads it to the first trick"
        return f"spades are not broken: {name} cannot lead while other suits remain"

    def _apply(self, action: Action) -> None:
        if self._phase is Phase.PLAY:
            self._play(PLAY_INDEX[action.text])
            return
        self._bid(_BID_INDEX[action.text])

    def _bid(self, bid: int) -> None:
        self._bids[self._bidder] = bid
        self._bidder = (self._bidder + 1) % 4
        if None not in self._bids:
            self._advance()

    def _quick_setup(self, action: Action | str) -> bool:
        """Make a ``bid n`` (every bid 0..13 is legal) without the validated path."""
        if self._phase is not Phase.BID:
            return False
        # Only text can be listed; anything else takes the validated path.
        bid = _BID_INDEX.get(action) if isinstance(action, str) else None
        if bid is None:
            return False
        self._history.append(BID_ACTIONS[bid])
        self._bid(bid)
        return True

    def _score_deal(self, won: Sequence[int]) -> None:
        """Score the deal from each seat's tricks ``won``."""
        bids = [b or 0 for b in self._bids]
        teams = []
        for team in (0, 1):
            result = team_score(
                [bids[team], bids[team + 2]],
                [won[team], won[team + 2]],
                self._bags[team],
            )
            self._scores[team] += result["points"]
            self._bags[team] = result["bags_after"]
            teams.append(result)
        self._deals.append(
            {
                "deal": self._deal_number,
                "dealer": self._dealer,
                "bids": bids,
                "tricks": list(won),
                "teams": teams,
                "totals": list(self._scores),
            }
        )

    # -- the event log ----------------------------------------------------------

    def _emit_deal(self, emit: Emit) -> None:
        emit({"type": "deal", "deal": self._deal_number, "dealer": self._dealer})
        self._emit_hands_of(emit)

    def _emit_setup(self, seat: int, action: Action, emit: Emit) -> None:
        emit({"type": "action", "seat": seat, "action": action.text})

    # -- results and views ------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        """Match totals of the partnerships (seats 0+2, seats 1+3)."""
        return list(self._scores)

    @property
    def bags(self) -> list[int]:
        """Accumulated bags of each partnership (below 10)."""
        return list(self._bags)

    def winning_team(self) -> int | None:
        """0 (seats 0 and 2) or 1 (seats 1 and 3) once over; ``None`` before or on a
        tied single deal."""
        if self._phase is not Phase.OVER or self._scores[0] == self._scores[1]:
            return None
        return 0 if self._scores[0] > self._scores[1] else 1

    def returns(self) -> list[float]:
        """Own team's score minus the other team's per seat; zeros until the end."""
        if self._phase is not Phase.OVER:
            return [0.0, 0.0, 0.0, 0.0]
        return self.standings()

    def standings(self) -> list[float]:
        """Own team's score minus the other team's, over the deals scored so far."""
        d = float(self._scores[0] - self._scores[1])
        return [d, -d, d, -d]

    def observation(self, seat: int) -> Observation:
        """Own hand, bids, the trick, every completed trick, tricks won and scores."""
        seat = self.check_seat(seat)
        bids = self._bids
        deal = self._play_deal
        return {
            "game": "spades",
            "seat": seat,
            "phase": self._phase.value,
            "deal": self._deal_number,
            "dealer": self._dealer,
            "hand": names_of(self._current_hands()[seat]),
            "bids": list(bids),
            "contracts": [sum(b or 0 for b in (bids[t], bids[t + 2])) for t in (0, 1)],
            "leader": self._bidding_leader() if deal is None else deal.leader,
            **self._trick_lists(),
            "tricks_won": [0, 0, 0, 0] if deal is None else list(deal.won),
            "spades_broken": deal is not None and deal.broken,
            "scores": list(self._scores),
            "bags": list(self._bags),
            "target": self._game.target,
            "lose_at": self._game.lose_at,
            "to_act": self.current_player,
        }

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        spades_observation(
            out,
            seat,
            self._hands[seat],
            self._play_deal,
            self.current_player,
            self._dealer,
            self._bids,
            self._scores,
            self._bags,
            self._game.target,
        )

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's hand."""
        return cards_of(self._current_hands()[self.check_seat(seat)])

    def score_breakdown(self) -> dict[str, Any]:
        """Every finished deal (bids, tricks, each team's contract, nils, bags) and totals."""
        return {
            "deals": list(self._deals),
            "totals": list(self._scores),
            "bags": list(self._bags),
            "winning_team": self.winning_team(),
            "returns": self.returns(),
        }

    def clone(self) -> SpadesState:
        """A cheap independent copy (ints and tuples are shared, lists copied)."""
        new = object.__new__(SpadesState)
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new._scores = list(self._scores)
        new._bags = list(self._bags)
        new._deals = list(self._deals)
        new._hands = list(self._hands)
        new._bids = list(self._bids)
        new._play_deal = None if self._play_deal is None else self._play_deal.copy()
        return new
