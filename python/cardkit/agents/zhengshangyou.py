"""Zheng Shangyou players: a rule-based agent and a determinized Monte Carlo search.

The rule agent plans its hand into combinations, leads the lowest planned group and,
since it must beat the table when it can, answers with the play that keeps its plan
cheapest, spending bombs last. The search agent deals the unseen cards at random to
the opponents, tries every candidate move in each deal, finishes with fast Rust rule
playouts and plays the best mean score (card penalties and bomb bonuses included).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardkit._validate import check_legal_actions
from cardkit.agents._climbing import ClimbingSearch, choose, view_of
from cardkit.api import Action, Observation

__all__ = ["ZhengShangyouRuleAgent", "ZhengShangyouSearchAgent"]

GAME = "zhengshangyou"


class ZhengShangyouRuleAgent:
    """Plans the hand and spends bombs last (see the module doc)."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The Rust rule policy's move."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        return choose(view_of(GAME, observation).rule_move(), legal_actions)


class ZhengShangyouSearchAgent(ClimbingSearch):
    """Determinized Monte Carlo search over rule playouts (seeded, so games replay).

    ``samples`` deals of the unseen cards are tried for every candidate move.
    With ``endgame`` > 0, a sampled deal with at most that many cards left in all
    hands is solved exactly (alpha-beta with a transposition table, every hand
    known in that sample) instead of played out, each solve capped at
    ``endgame_nodes`` nodes (past that, the sample is played out as without it).
    Zheng Shangyou has three sides: the solver assumes both other players play
    against this one, the score it can guarantee. ``halving=True`` spends the same
    playouts by successive halving of the candidate moves. ``evidence=True`` (the
    default) deals the unseen cards to fit the passes so far: a seat passes only
    when nothing in its hand beats the table, so a seat that passed on a single
    king holds no ace, no two and no bomb. ``evidence=False`` deals them uniformly.
    ``shedding=True`` finishes the samples with the shedding policy instead of the
    rule policy: it leads long groups (pairs, triples, runs) before low singles and
    answers with a bomb when that keeps its plan as cheap; off by default, it is
    what makes the strongest search (``docs/zhengshangyou.md``).
    """

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The move with the best sampled mean score."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self._search(GAME, observation, legal_actions)
