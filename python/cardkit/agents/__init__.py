"""Players. Every game ships ``RandomAgent`` (here) and stronger ones in its own module.

:func:`agent_factory` finds an agent by game and short name (``"random"``,
``"rule"``, ``"search"`` ...; :func:`agent_names` lists them) for the simulator
and the ``cardkit simulate --agents`` option.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardkit._validate import check_agent_seed, check_legal_actions
from cardkit.api import Action, Agent, Observation
from cardkit.errors import RuleOptionError

__all__ = ["AgentSpec", "RandomAgent", "agent_factory", "agent_names"]

# game -> short name -> "module:Class"; every game also has "random".
_AGENTS: dict[str, dict[str, str]] = {
    "doudizhu": {
        "rule": "cardkit.agents.doudizhu:DouDizhuRuleAgent",
        "search": "cardkit.agents.doudizhu:DouDizhuSearchAgent",
    },
    "zhengshangyou": {
        "rule": "cardkit.agents.zhengshangyou:ZhengShangyouRuleAgent",
        "search": "cardkit.agents.zhengshangyou:ZhengShangyouSearchAgent",
    },
    "guandan": {
        "rule": "cardkit.agents.guandan:GuandanRuleAgent",
        "search": "cardkit.agents.guandan:GuandanSearchAgent",
    },
    "hearts": {
        "rule": "cardkit.agents.hearts:HeartsRuleAgent",
        "search": "cardkit.agents.hearts:HeartsSearchAgent",
    },
    "spades": {
        "rule": "cardkit.agents.spades:SpadesRuleAgent",
        "search": "cardkit.agents.spades:SpadesSearchAgent",
    },
    "holdem": {
        "calling_station": "cardkit.agents.holdem:CallingStationAgent",
        "equity": "cardkit.agents.holdem:EquityAgent",
    },
    "onepoker": {"signal": "cardkit.agents.onepoker:SignalAgent"},
    "tractor": {
        "rule": "cardkit.agents.tractor:TractorRuleAgent",
        "search": "cardkit.agents.tractor:TractorSearchAgent",
    },
    "chinese_poker": {
        "greedy": "cardkit.agents.chinese_poker:GreedyAgent",
        "random_set": "cardkit.agents.chinese_poker:RandomSetAgent",
        "solver": "cardkit.agents.chinese_poker:SolverAgent",
    },
}


class RandomAgent:
    """Picks uniformly among the listed legal actions; seeded, so games replay exactly."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(check_agent_seed(seed))

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        check_legal_actions(legal_actions)
        return legal_actions[self._rng.randrange(len(legal_actions))]


def agent_names(game: str) -> list[str]:
    """The short agent names :func:`agent_factory` accepts for ``game``."""
    return sorted({"random", *_AGENTS.get(game, {})})


@dataclass(frozen=True)
class AgentSpec:
    """A picklable agent factory: ``spec(seed)`` builds the agent (seeded if it takes one)."""

    path: str

    def __call__(self, seed: int) -> Agent:
        module, name = self.path.split(":")
        cls = getattr(importlib.import_module(module), name)
        agent: Agent = cls(seed) if "seed" in inspect.signature(cls).parameters else cls()
        return agent


def agent_factory(game: str, name: str) -> AgentSpec:
    """The factory of agent ``name`` for ``game``; unknown names raise RuleOptionError."""
    if name == "random":
        return AgentSpec("cardkit.agents:RandomAgent")
    try:
        return AgentSpec(_AGENTS[game][name])
    except KeyError:
        raise RuleOptionError(
            f"unknown agent {name!r} for {game}: choose from {', '.join(agent_names(game))}"
        ) from None
