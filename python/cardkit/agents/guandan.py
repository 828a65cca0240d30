"""Guandan players: the Rust rule policy and a determinized Monte Carlo search.

Both rebuild the card play their observation describes as a Rust ``GuandanDeal``
(``GuandanDeal.resume``): the own hand, the table, passes and places, and the
unseen cards dealt to the other seats by their card counts (the policies read only
those counts; the search deals the unseen cards afresh for every sample). The rule
policy plans its hand (bombs; plates, pair runs and straights that save plays;
then singles, pairs and triples carrying pairs) and plays from the plan: it goes
out when one play empties the hand, leads its lowest planned group, answers an
opponent only with a play that keeps the plan no longer, keeps its wilds for bombs,
straight flushes and going out, lets its partner's play stand, bombs when an
opponent is close to going out, and leads around a next opponent about to go out.
It plays for jiefeng (GD-29: the partner of a player who went out takes the lead):
it answers more readily a play an opponent went out with, and leads a single (a
pair) to a partner holding one card (two), so the partner goes out and the lead
comes back to it.
The search tries a few candidate moves (the rule move, pass, the plays that keep
the plan, the weakest bomb) in sampled deals finished by rule playouts, and leaves
the rule move only for a candidate whose sampled gain stays positive two standard
errors down; with ``endgame``, a sampled deal with few cards left is solved
exactly instead of played out. A tribute recipient returns the allowed card that costs its hand the
least (:func:`planned_return`): a card of a rank it holds once, away from its
straight chances, weakest first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardkit._core import (
    Card,
    GuandanDeal,
    GuandanPlay,
    deck,
    guandan_play_of_id,
    guandan_strength,
)
from cardkit._validate import (
    check_agent_seed,
    check_count,
    check_endgame,
    check_flag,
    check_legal_actions,
)
from cardkit.agents._climbing import choose
from cardkit.api import Action, Observation
from cardkit.games._base import check_choice

__all__ = ["GuandanRuleAgent", "GuandanSearchAgent", "deal_of", "planned_return"]

#: Natural ranks in run order, 2 to A (the ace also sits below the 2 in runs).
_RUN_RANKS = "23456789TJQKA"
#: How return cards may be chosen: ``"plan"`` (:func:`planned_return`) or ``"weakest"``.
RETURN_CHOICES = ("plan", "weakest")


def deal_of(obs: Observation) -> GuandanDeal:
    """The card play ``obs`` describes, as its seat sees it, for the seat to act."""
    seat = int(obs["seat"])
    hand = [Card(c) for c in obs["hand"]]
    seen = Counter(hand)
    for entry in obs["plays"]:
        if entry[1] == "play":
            seen.update(Card(c) for c in entry[4])
    unseen = list((Counter(deck("double108")) - seen).elements())
    hands: list[list[Card]] = []
    at = 0
    for other, count in enumerate(obs["card_counts"]):
        if other == seat:
            hands.append(hand)
        else:
            hands.append(unseen[at : at + count])
            at += count
    table = obs["table"]
    return GuandanDeal.resume(
        hands,
        str(obs["level"]),
        seat,
        None if table is None else guandan_play_of_id(int(table["id"])),
        seat if table is None else int(table["seat"]),
        int(obs["passes"]),
        [int(s) for s in obs["order"]],
    )


def _move(play: GuandanPlay | None, legal_actions: Sequence[Action]) -> Action:
    return choose(None if play is None else play.text, legal_actions)


def _weakest_return(obs: Observation, legal_actions: Sequence[Action]) -> Action:
    """The ``return <card>`` of the weakest card on offer."""
    level = str(obs["level"])
    return min(legal_actions, key=lambda a: guandan_strength(Card(a.args[0]), level))


def _positions(rank: str) -> set[int]:
    """Run positions of a natural rank: 1 for the 2 up to 13 for the ace, which is
    also 0 (below the 2)."""
    at = _RUN_RANKS.index(rank) + 1
    return {0, at} if rank == "A" else {at}


def planned_return(obs: Observation, legal_actions: Sequence[Action]) -> Action:
    """The ``return <card>`` that costs the hand the least: first a card whose rank
    the hand holds once (not a pair, triple or bomb broken), then one with the fewest
    other ranks held within two run positions (it can join no straight), then the
    weakest (the opponent receiving it gains the least)."""
    level = str(obs["level"])
    wild = Card(level + "h")
    ranks = Counter(c.rank for c in map(Card, obs["hand"]) if c != wild and c.suit is not None)

    def cost(action: Action) -> tuple[bool, int, int]:
        card = Card(action.args[0])
        mine = _positions(card.rank)
        held = {p for r in ranks if r != card.rank for p in _positions(r)}
        near = sum(1 for h in held if any(0 < abs(h - p) <= 2 for p in mine))
        return (ranks[card.rank] > 1, near, guandan_strength(card, level))

    return min(legal_actions, key=cost)


class GuandanRuleAgent:
    """The Rust rule policy (see the module doc); ``returns`` is how it picks a
    tribute return: ``"plan"`` (:func:`planned_return`, the default) or
    ``"weakest"`` (the weakest allowed card, the earlier choice, kept to measure
    against). ``jiefeng=False`` plays without the policy's jiefeng awareness (GD-29,
    ``GuandanDeal.rule_move``), kept to measure against."""

    def __init__(self, returns: str = "plan", jiefeng: bool = True) -> None:
        self.returns = check_choice("returns", returns, RETURN_CHOICES)
        self.jiefeng = check_flag("jiefeng", jiefeng)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule policy's move, or the return ``returns`` names."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "return":
            if self.returns == "weakest":
                return _weakest_return(observation, legal_actions)
            return planned_return(observation, legal_actions)
        return _move(deal_of(observation).rule_move(self.jiefeng), legal_actions)


class GuandanSearchAgent:
    """Determinized Monte Carlo search over Rust rule playouts (seeded, so games replay).

    ``samples`` deals of the unseen cards a move. ``endgame`` > 0 (off by default)
    solves each sampled deal exactly once at most that many cards are left in the
    four hands after a candidate move (alpha-beta for the two teams, scored with the
    deal's levels), instead of playing it out; a solve that needs more than
    ``endgame_nodes`` nodes gives up and that deal is played out as without the
    solver."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 32,
        endgame: int = 0,
        endgame_nodes: int = 20_000,
    ) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.samples = check_count("samples", samples, 1, 1_000_000)
        self.endgame, self.endgame_nodes = check_endgame(endgame, endgame_nodes, 108)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The move with the best sampled climb, or the planned return."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "return":
            return planned_return(observation, legal_actions)
        deal = deal_of(observation)
        seed = self._rng.getrandbits(64)
        move = deal.search_move(self.samples, seed, self.endgame, self.endgame_nodes)
        return _move(move, legal_actions)
