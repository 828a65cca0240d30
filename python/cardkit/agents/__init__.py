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

__all__ = ["AgentSpec", "RandomAgent", "agent_factory", "agent_names", "agent_options"]

# game -> short name -> "module:Class"; every game also has "random".
_AGENTS: dict[str, dict[str, str]] = {
    "bridge": {
        "rule": "cardkit.agents.bridge:BridgeRuleAgent",
        "search": "cardkit.agents.bridge:BridgeSearchAgent",
    },
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
        "range": "cardkit.agents.holdem:RangeAgent",
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
    """A picklable agent factory: ``spec(seed)`` builds the agent (seeded if it takes
    one) with the constructor keyword ``options``."""

    path: str
    options: tuple[tuple[str, object], ...] = ()

    def __call__(self, seed: int) -> Agent:
        module, name = self.path.split(":")
        cls = getattr(importlib.import_module(module), name)
        options = dict(self.options)
        if "seed" in inspect.signature(cls).parameters:
            options["seed"] = seed
        agent: Agent = cls(**options)
        return agent


def agent_factory(game: str, name: str, **options: object) -> AgentSpec:
    """The factory of agent ``name`` for ``game`` with the given constructor options
    (:func:`agent_options` lists them); unknown names and options, and option values
    the agent refuses, raise RuleOptionError."""
    if name == "random":
        spec = AgentSpec("cardkit.agents:RandomAgent")
    else:
        try:
            spec = AgentSpec(_AGENTS[game][name])
        except KeyError:
            raise RuleOptionError(
                f"unknown agent {name!r} for {game}: choose from {', '.join(agent_names(game))}"
            ) from None
    if not options:
        return spec
    known = agent_options(game)[name][1]
    for key in options:
        if key not in known:
            raise RuleOptionError(
                f"agent {name!r} of {game} has no option {key!r}: "
                f"its options are {', '.join(known) or 'none'}"
            )
    spec = AgentSpec(spec.path, tuple(sorted(options.items())))
    spec(0)  # the constructor checks the values now, not in a worker process later
    return spec


def agent_options(game: str) -> dict[str, tuple[str, dict[str, object]]]:
    """Each agent name of ``game`` with its ``module:Class`` and the keyword options of
    its constructor (the seed aside) with their defaults."""
    out: dict[str, tuple[str, dict[str, object]]] = {}
    for name in agent_names(game):
        path = agent_factory(game, name).path
        module, cls = path.split(":")
        params = inspect.signature(getattr(importlib.import_module(module), cls)).parameters
        options = {
            k: p.default
            for k, p in params.items()
            if k != "seed" and p.default is not inspect.Parameter.empty
        }
        out[name] = (path, options)
    return out
