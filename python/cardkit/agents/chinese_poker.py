"""Chinese Poker players: the Monte Carlo solver, a greedy arranger and a random
legal arrangement.

All three read only their own seat's observation (hand and rules). The solver
and the arrangers run in Rust; the solver releases the GIL.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardkit._core import (
    Card,
    ChinesePokerRules,
    chinese_poker_greedy_set,
    chinese_poker_random_set,
    chinese_poker_solve,
)
from cardkit._validate import MAX_SEED, check_agent_seed, check_count, check_seed
from cardkit.api import Action, Observation
from cardkit.errors import RuleOptionError

__all__ = [
    "GreedyAgent",
    "RandomSetAgent",
    "Solution",
    "SolverAgent",
    "greedy_set",
    "random_set",
    "solve",
]

#: The largest ``samples`` and ``candidates`` the Rust solver takes (every one of the
#: 72,072 splits of a hand can be a candidate); an agent refuses more when it is made,
#: not at its first move.
MAX_SAMPLES = 100_000
MAX_CANDIDATES = 72_072

_SCORING = ("variant", "automatic_win_points", "dragon_points", "majority", "western_bonus", "shot")


@dataclass(frozen=True)
class Solution:
    """What the solver chose for a hand.

    ``action`` is the action to play: ``declare <name>`` when declaring pays more,
    else ``set F / M / B``. ``expected`` is the chosen set's mean points per deal
    against the sampled opponents; ``declare_value`` what the best qualifying
    automatic win pays (0 when none qualifies); ``proper`` how many of the 72,072
    splits are properly set.
    """

    action: Action
    set_text: str
    declare: str | None
    expected: float
    declare_value: float
    proper: int


def _rules_of(options: dict[str, Any]) -> ChinesePokerRules:
    return ChinesePokerRules(**{k: options[k] for k in _SCORING if k in options})


def _set_action(front: str, middle: str, back: str) -> Action:
    return Action(f"set {front} / {middle} / {back}")


def solve(
    hand: str | Sequence[Card | str],
    players: int = 4,
    samples: int = 200,
    candidates: int = 64,
    seed: int = 0,
    **rules: Any,
) -> Solution:
    """Solve a 13-card hand against ``players - 1`` sampled greedy opponents.

    ``rules`` are the scoring options of the game (``variant``, ``dragon_points``
    ...). Screening ranks every properly set split, the best ``candidates`` are
    scored exactly against ``samples`` sampled deals of the unseen cards.
    """
    # Rust checks the ranges it needs (2..4 players, at least one sample); here only
    # that each is an int it can take, so no OverflowError or TypeError escapes.
    for name, value in (("players", players), ("samples", samples), ("candidates", candidates)):
        check_count(name, value, 0, MAX_SEED)
    check_seed("seed", seed)
    try:
        scoring = ChinesePokerRules(**rules)
    except TypeError as exc:
        raise RuleOptionError(f"bad Chinese Poker scoring option: {exc}") from exc
    return _solve(hand, scoring, players, samples, candidates, seed)


def _solve(
    hand: str | Sequence[Card | str],
    rules: ChinesePokerRules,
    players: int,
    samples: int,
    candidates: int,
    seed: int,
) -> Solution:
    declare, (front, middle, back), expected, declare_value, proper = chinese_poker_solve(
        hand, rules, players=players, samples=samples, candidates=candidates, seed=seed
    )
    set_action = _set_action(front, middle, back)
    action = Action(f"declare {declare}") if declare is not None else set_action
    return Solution(
        action=action,
        set_text=set_action.text[len("set ") :],
        declare=declare,
        expected=expected,
        declare_value=declare_value,
        proper=proper,
    )


def greedy_set(hand: str | Sequence[Card | str]) -> Action:
    """The greedy arranger's set: the strongest back, then the strongest middle of
    the remaining eight, the last three in front (properly set in every case)."""
    return _set_action(*chinese_poker_greedy_set(hand))


def random_set(hand: str | Sequence[Card | str], seed: int) -> Action:
    """A uniformly random properly set arrangement of ``hand`` (seeded)."""
    check_seed("seed", seed)
    return _set_action(*chinese_poker_random_set(hand, seed))


class SolverAgent:
    """Plays the solver's choice: the best expected arrangement, or a declaration
    when an automatic win pays more. Seeded, so games replay exactly."""

    def __init__(self, seed: int | None = None, samples: int = 200, candidates: int = 64) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.samples = check_count("samples", samples, 1, MAX_SAMPLES)
        self.candidates = check_count("candidates", candidates, 1, MAX_CANDIDATES)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Solve the observed hand under the observed rules."""
        options = observation["rules"]
        return _solve(
            observation["hand"],
            _rules_of(options),
            int(observation["players"]),
            self.samples,
            self.candidates,
            self._rng.getrandbits(64),
        ).action


class GreedyAgent:
    """The greedy arranger as a player: strongest back, then middle; never declares."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The greedy set of the observed hand."""
        return greedy_set(observation["hand"])


class RandomSetAgent:
    """A uniformly random properly set arrangement among all 72,072 splits (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(check_agent_seed(seed))

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A random proper set of the observed hand."""
        return random_set(observation["hand"], self._rng.getrandbits(64))
