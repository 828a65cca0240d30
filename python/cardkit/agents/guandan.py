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
The search tries a few candidate moves (the rule move, pass, the plays that keep
the plan, the weakest bomb) in sampled deals finished by rule playouts, and leaves
the rule move only for a candidate whose sampled gain stays positive two standard
errors down. A tribute recipient returns its weakest allowed card.
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
from cardkit._validate import check_agent_seed, check_count, check_legal_actions
from cardkit.agents._climbing import choose
from cardkit.api import Action, Observation

__all__ = ["GuandanRuleAgent", "GuandanSearchAgent", "deal_of"]


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


class GuandanRuleAgent:
    """The Rust rule policy (see the module doc)."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule policy's move, or the weakest return."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "return":
            return _weakest_return(observation, legal_actions)
        return _move(deal_of(observation).rule_move(), legal_actions)


class GuandanSearchAgent:
    """Determinized Monte Carlo search over Rust rule playouts (seeded, so games replay)."""

    def __init__(self, seed: int | None = None, samples: int = 32) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.samples = check_count("samples", samples, 1, 1_000_000)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The move with the best sampled climb, or the weakest return."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "return":
            return _weakest_return(observation, legal_actions)
        deal = deal_of(observation)
        return _move(deal.search_move(self.samples, self._rng.getrandbits(64)), legal_actions)
