"""Spades agents: a rule-based player (bids from hand strength, nil when the hand
is safely low, wins cheaply while the contract needs tricks, ducks to protect a
nil or avoid bags) and a search player that samples hidden hands consistent with
the play so far and scores each card by fast Rust playouts, and which can also bid
from sampled play (``bidding="search"``, see :func:`search_bid`). Both read only
their observation."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardkit._core import spades_bid_playouts, spades_search
from cardkit._validate import (
    check_agent_seed,
    check_count,
    check_endgame,
    check_flag,
    check_legal_actions,
    check_real,
    check_seed,
    is_sequence,
)
from cardkit.api import Action, Observation
from cardkit.errors import InvalidCardError, RuleOptionError, shown
from cardkit.games._base import check_choice
from cardkit.games._tricks import NAMES, PLAY_INDEX, bits
from cardkit.games.spades import BID_ACTIONS

from ._trickview import TrickView, check_time_per_move, mask_of_names, search_values

__all__ = [
    "BIDDINGS",
    "NIL_MIN_SHARE",
    "OBJECTIVES",
    "OVERTRICK_VALUE",
    "UNKNOWN_BID",
    "SpadesRuleAgent",
    "SpadesSearchAgent",
    "rule_bid",
    "search_bid",
]

#: The search agent's bidding styles: the rule agent's count, or sampled play.
BIDDINGS = ("rule", "search")
#: What the search agent's play values: the deal's points difference, or that plus
#: the match won or lost when the deal can end it.
OBJECTIVES = ("deal", "match")
#: The bid the bidding playouts assume for a seat that has not bid yet (about the
#: average bid of a 13-card hand).
UNKNOWN_BID = 3
#: What an overtrick is worth when choosing a bid: its point, less a tenth of the
#: 100 that every 10 bags cost.
OVERTRICK_VALUE = 1.0 - 10.0
#: The least share of trickless playouts for a nil: the playouts' opponents never
#: try to set a nil, so the share flatters it against players who do.
NIL_MIN_SHARE = 0.8


def _rank(card: int) -> int:
    return card >> 2


def rule_bid(hand_names: list[str], partner_bid: int | None) -> int:
    """A bid from hand strength: side aces and guarded kings, top spades and long
    spades, ruffs from short side suits; nil when the hand is safely low."""
    hand = mask_of_names(_check_hand(hand_names))
    if partner_bid is not None:
        check_count("partner_bid", partner_bid, 0, 13)
    spades = [c for c in bits(hand) if c & 3 == 3]
    tricks = 0.0
    for suit in range(3):
        cards = [c for c in bits(hand) if c & 3 == suit]
        ranks = {_rank(c) for c in cards}
        if 12 in ranks:
            tricks += 1.0 if len(cards) <= 5 else 0.7
        if 11 in ranks and len(cards) >= 2:
            tricks += 0.8 if len(cards) <= 4 else 0.4
        if len(cards) <= 1 and len(spades) >= 3:
            tricks += 0.7 * (2 - len(cards)) / 2 + 0.3
    spade_ranks = sorted((_rank(c) for c in spades), reverse=True)
    for i, r in enumerate(spade_ranks):
        if r >= 12 - i or i >= 3:
            tricks += 1.0
        elif r >= 9:
            tricks += 0.5
    high = [c for c in bits(hand) if _rank(c) >= 11]
    top_spade = spade_ranks[0] if spade_ranks else -1
    # Nil: nothing high, no spade above the ten and few spades, partner covering.
    if tricks < 1.2 and not high and top_spade < 8 and len(spades) <= 3 and partner_bid != 0:
        return 0
    return max(1, min(13, round(tricks)))


def _check_hand(hand_names: object) -> list[str]:
    """``hand_names`` as a list of card texts, else an :class:`InvalidCardError`."""
    if (
        isinstance(hand_names, (str, bytes))
        or not isinstance(hand_names, Sequence)
        or not all(isinstance(n, str) and n in NAMES for n in hand_names)
    ):
        raise InvalidCardError(f"hand_names must be a list of card texts, got {shown(hand_names)}")
    return [str(n) for n in hand_names]


def _contract_value(bid: int, tricks: list[int]) -> float:
    """Mean points of bidding ``bid`` alone over a histogram of tricks taken."""
    total = 0.0
    for taken, count in enumerate(tricks):
        made = 10.0 * bid + OVERTRICK_VALUE * (taken - bid)
        total += count * (made if taken >= bid else -10.0 * bid)
    return total / sum(tricks)


def search_bid(
    hand_names: list[str],
    seat: int,
    bids: Sequence[int | None],
    leader: int | None,
    worlds: int,
    seed: int,
    epsilon: float = 0.1,
) -> int:
    """A bid from sampled play: ``worlds`` deals of the 39 unseen cards to the
    other seats, each played out in Rust by the playout policy (``epsilon``
    random moves) with the bids made so far (:data:`UNKNOWN_BID` for the rest).

    Playing for every trick (its own bid 13), the seat's tricks over the deals
    give each bid ``b`` a mean value: ``10 b`` plus :data:`OVERTRICK_VALUE` per
    overtrick when made, ``-10 b`` when set; the best ``b`` is bid, at most 13
    less a partner's known bid (the pair cannot take more than 13). Playing nil
    (bid 0, ducking), the share of deals with no trick, ``p``, values nil at
    ``100 (2p - 1)``; the seat bids nil when that is higher and ``p`` is at least
    :data:`NIL_MIN_SHARE`, never beside a nil partner. Deterministic given
    ``seed``; ``leader`` ``None``: the holder of 2♣ leads."""
    hand = mask_of_names(_check_hand(hand_names))
    seat = check_count("seat", seat, 0, 3)
    if not is_sequence(bids) or len(bids) != 4:
        raise RuleOptionError(f"bids must be four bids or None, got {shown(bids)}")
    known = [None if b is None else check_count("bids", b, 0, 13) for b in bids]
    if leader is not None:
        check_count("leader", leader, 0, 3)
    worlds = check_count("worlds", worlds, 1, 1_000_000)
    seed = check_seed("seed", seed) or 0
    epsilon = check_real("epsilon", epsilon, 0.0, 1.0)
    partner = known[(seat + 2) % 4]
    play_bids = [UNKNOWN_BID if b is None else b for b in known]
    play_bids[seat] = 13
    tricks = spades_bid_playouts(seat, hand, play_bids, leader, worlds, seed, epsilon)
    cap = 13 - (partner or 0)
    bid = max(range(1, max(1, cap) + 1), key=lambda b: _contract_value(b, tricks))
    if partner == 0:
        return bid
    play_bids[seat] = 0
    ducked = spades_bid_playouts(seat, hand, play_bids, leader, worlds, seed, epsilon)
    share = ducked[0] / worlds
    nil = 100.0 * (2.0 * share - 1.0)
    return 0 if share >= NIL_MIN_SHARE and nil > _contract_value(bid, tricks) else bid


def _wants_tricks(obs: Observation, seat: int) -> bool:
    bids = obs["bids"]
    if bids[seat] == 0:
        return False
    partner = (seat + 2) % 4
    contract = bids[seat] + (bids[partner] or 0)
    have = obs["tricks_won"][seat] + (obs["tricks_won"][partner] if bids[partner] else 0)
    return bool(have < contract)


def _winner_pos(trick: list[int]) -> int:
    best = 0
    for pos in range(1, len(trick)):
        c, top = trick[pos], trick[best]
        if (c & 3 == top & 3 and c > top) or (c & 3 == 3 and top & 3 != 3):
            best = pos
    return best


def _rule_play(obs: Observation, legal: int) -> int:
    view = TrickView.from_observation(obs)
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0]
    seat = view.seat
    want = _wants_tricks(obs, seat)
    partner = (seat + 2) % 4
    partner_nil = obs["bids"][partner] == 0
    if not view.trick:
        side = [c for c in cards if c & 3 != 3] or cards
        return max(side, key=_rank) if want else min(side, key=_rank)
    pos = _winner_pos(view.trick)
    winner_seat = (view.leader + pos) % 4
    partner_winning = winner_seat == partner
    winners = [c for c in cards if _winner_pos([*view.trick, c]) == len(view.trick)]
    losers = [c for c in cards if c not in winners]
    # Cover a nil partner who is winning the trick.
    if partner_nil and partner_winning and winners:
        return max(winners, key=lambda c: (c & 3 != 3, _rank(c)))
    if want and not partner_winning and winners:
        led = view.trick[0] & 3
        same = [c for c in winners if c & 3 == led]
        return min(same or winners)
    if losers:
        return max(losers, key=_rank) if not want else min(losers, key=_rank)
    return min(cards, key=_rank)


class SpadesRuleAgent:
    """Rule-based Spades: strength bids and safe nils; wins cheaply while the
    partnership needs tricks, covers a nil partner, ducks to avoid bags.
    Deterministic: the same observation gives the same action."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule's choice among ``legal_actions``."""
        check_legal_actions(legal_actions)
        if legal_actions[0].kind == "bid":
            seat = observation["seat"]
            bid = rule_bid(observation["hand"], observation["bids"][(seat + 2) % 4])
            return BID_ACTIONS[bid]
        legal = 0
        for a in legal_actions:
            legal |= 1 << PLAY_INDEX[a.text]
        return Action(f"play {NAMES[_rule_play(observation, legal)]}")


class SpadesSearchAgent:
    """Determinized search: samples ``worlds`` deals consistent with the play so
    far (shown voids) and plays each candidate card out in Rust with a heuristic
    policy (``epsilon`` random moves); picks the card with the best average deal
    score difference for its partnership (bags included).

    ``time_per_move`` (seconds) replaces the fixed ``worlds``: the agent searches
    batches of 16 worlds until the time is spent (at least one batch).

    ``bidding="rule"`` (default) bids like the rule agent; ``bidding="search"``
    bids from ``bid_worlds`` sampled deals played out (:func:`search_bid`).

    With ``endgame`` > 0, a sampled world with at most that many cards left in the
    hands (once the candidate is played) is solved exactly instead of played out:
    alpha-beta on the same score difference, partnership against partnership
    (``docs/spades.md``, Endgame solver), each solve capped at ``endgame_nodes``
    nodes (past that, the world is played out as without it). Off by default.

    ``objective="deal"`` (default) values a card by the deal's points difference
    alone; ``objective="match"`` adds 200 to a world in which the deal ends the
    match with its team ahead and takes 200 off one in which it ends behind
    (``docs/spades.md``, Search objective), from the observation's ``scores``,
    ``target`` and ``lose_at``. Where the deal cannot end the match the two are
    the same.

    ``nil_play=True`` makes the playouts play around nils: each seat tries to set
    an opponent's nil that has taken no trick and covers a nil partner (off by
    default: the playouts then let nils through)."""

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 100,
        epsilon: float = 0.1,
        time_per_move: float | None = None,
        bidding: str = "rule",
        bid_worlds: int = 256,
        endgame: int = 0,
        endgame_nodes: int = 20_000,
        objective: str = "deal",
        nil_play: bool = False,
    ) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.worlds = check_count("worlds", worlds, 1, 1_000_000)
        self.epsilon = check_real("epsilon", epsilon, 0.0, 1.0)
        self.time_per_move = check_time_per_move(time_per_move)
        self.bidding = check_choice("bidding", bidding, BIDDINGS)
        self.bid_worlds = check_count("bid_worlds", bid_worlds, 1, 1_000_000)
        self.endgame, self.endgame_nodes = check_endgame(endgame, endgame_nodes, 52)
        self.objective = check_choice("objective", objective, OBJECTIVES)
        self.nil_play = check_flag("nil_play", nil_play)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The searched choice among ``legal_actions``."""
        check_legal_actions(legal_actions)
        if legal_actions[0].kind == "bid":
            seat = observation["seat"]
            bids = observation["bids"]
            if self.bidding == "rule":
                return BID_ACTIONS[rule_bid(observation["hand"], bids[(seat + 2) % 4])]
            seed = self._rng.getrandbits(64)
            bid = search_bid(
                observation["hand"],
                seat,
                bids,
                observation["leader"],
                self.bid_worlds,
                seed,
                self.epsilon,
            )
            return BID_ACTIONS[bid]
        if len(legal_actions) == 1:
            return legal_actions[0]
        view = TrickView.from_observation(observation)
        known, unknown, sizes = view.hidden([0, 0, 0, 0])
        candidates = [PLAY_INDEX[a.text] for a in legal_actions]
        played = view.played & ~sum(1 << c for c in view.trick)

        def search(worlds: int, seed: int) -> list[float]:
            return spades_search(
                view.seat,
                known,
                unknown,
                sizes,
                view.voids,
                view.leader,
                view.trick,
                played,
                observation["bids"],
                view.tricks_won,
                observation["bags"],
                observation["spades_broken"],
                candidates,
                worlds,
                seed,
                self.epsilon,
                endgame_cards=self.endgame,
                endgame_nodes=self.endgame_nodes,
                objective=self.objective,
                scores=observation["scores"],
                target=observation["target"],
                nil_play=self.nil_play,
                lose_at=observation["lose_at"],
            )

        values = search_values(search, self.worlds, self.time_per_move, self._rng)
        best = max(range(len(values)), key=lambda i: values[i])
        return legal_actions[best]
