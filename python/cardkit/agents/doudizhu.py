"""Dou Dizhu players: a rule-based agent and a determinized Monte Carlo search.

Both bid from a hand-strength count. In card play the rule agent plans its hand
into combinations, leads the lowest planned group, answers with the response that
keeps its plan cheapest, saves bombs and the rocket for when an opponent is close to
going out, and as a farmer never beats its partner. The search agent deals the
unseen cards at random to the other two seats many times, tries each candidate move
in each deal and finishes it with fast Rust playouts of the rule policy, and plays
the move with the best mean score. Neither reads hidden state.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardkit._validate import check_legal_actions, check_text
from cardkit.agents._climbing import ClimbingSearch, choose, view_of
from cardkit.api import Action, Observation

__all__ = ["DouDizhuRuleAgent", "DouDizhuSearchAgent", "bid_strength"]

GAME = "doudizhu"
_VALUES = {"R": 4, "B": 3, "2": 2, "A": 1}


def bid_strength(hand_ranks: str) -> int:
    """Points of a hand for bidding: R 4, B 3, each 2 two, each A one, each bomb 4."""
    check_text("hand_ranks", hand_ranks)
    points = sum(_VALUES.get(r, 0) for r in hand_ranks)
    bombs = sum(1 for r in set(hand_ranks) if hand_ranks.count(r) == 4)
    return points + 4 * bombs


def _bid(observation: Observation, legal_actions: Sequence[Action]) -> Action:
    strength = bid_strength(str(observation["hand_ranks"]))
    want = 3 if strength >= 11 else 2 if strength >= 8 else 1 if strength >= 6 else 0
    if want > int(observation["bid"]):
        for action in legal_actions:
            if action == f"bid {want}":
                return action
    return choose(None, legal_actions)


class DouDizhuRuleAgent:
    """Plans the hand, keeps bombs, cooperates as a farmer (see the module doc)."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Bid by hand strength; in play, the Rust rule policy's move."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "bid":
            return _bid(observation, legal_actions)
        return choose(view_of(GAME, observation).rule_move(), legal_actions)


class DouDizhuSearchAgent(ClimbingSearch):
    """Determinized Monte Carlo search over rule playouts (seeded, so games replay).

    ``samples`` deals of the unseen cards are tried for every candidate move.
    With ``endgame`` > 0, a sampled deal with at most that many cards left in all
    hands is solved exactly (alpha-beta with a transposition table, every hand
    known in that sample) instead of played out, each solve capped at
    ``endgame_nodes`` nodes (past that, the sample is played out as without it).
    """

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Bid by hand strength; in play, the move with the best sampled mean score."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "bid":
            return _bid(observation, legal_actions)
        return self._search(GAME, observation, legal_actions)
