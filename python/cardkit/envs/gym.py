"""A Gymnasium environment in which one seat learns and cardkit agents play the rest.

``SingleSeatEnv("hearts", seat=0, opponents=["rule", "random", "random"])``: the
observation is the dict of :mod:`cardkit.envs.pettingzoo` (``observation``, the
seat's float32 tensor, and ``action_mask``, int8, all zeros once the episode is
over), the action space ``Discrete(num_actions)``. Each ``step`` plays the seat's
action id, then the opponents' moves until the seat is to act again or the game
is over; its reward is what the seat earned since its previous step (the first
step also pays deals the opponents finished before the seat's first turn): per
deal in match games, ``returns()`` at the end of single-deal games, adding up to
exactly ``returns()[seat]`` over the episode (see :class:`cardkit.envs._common.DealRewards`).

Opponents, one per other seat in seat order (or one for all of them): an agent
name of :func:`cardkit.agents.agent_names` (``"random"``, ``"rule"`` ...), a
factory called with a seed (such as :func:`cardkit.agents.agent_factory`'s), or an
agent object. Names and factories are built anew at each reset, seeded from the
deal's seed, so ``reset(seed=s)`` replays the same episode for the same actions;
agent objects are used as they are and keep their own state between episodes.

An action id that is not legal ends the episode (``terminated``) with reward
``game.info.min_utility`` and ``info["illegal_action"] = True`` when
``illegal_action="end"`` (the default, what Gymnasium's checker and unmasked
policies need); ``illegal_action="raise"`` raises
:class:`~cardkit.errors.IllegalActionError` and leaves the game unchanged.
:meth:`SingleSeatEnv.action_masks` serves masking learners (sb3-contrib's
``MaskablePPO`` calls it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt

from cardkit._core import derive_seed
from cardkit._validate import check_seed
from cardkit.agents import agent_factory
from cardkit.api import Agent, Game, State
from cardkit.envs._common import (
    RENDER_MODES,
    DealRewards,
    Obs,
    check_render_mode,
    missing_extra,
    observation_space,
    observe,
    render_table,
    resolve_game,
)
from cardkit.errors import IllegalActionError, RuleOptionError, shown

try:
    import gymnasium
except ImportError as exc:
    raise missing_extra("cardkit.envs.gym") from exc

__all__ = ["SingleSeatEnv"]

#: An opponent: an agent name, a factory taking a seed, or an agent object.
Opponent = str | Callable[[int], Agent] | Agent

_MAX_SEED = 2**63
# Opponent seeds are sub-seeds of the deal's seed past any deal's own stream
# (deal n of a state is shuffled by derive_seed(seed, n), n < MAX_DEALS).
_AGENT_STREAM = 1 << 32
# How many deals reset tries for one in which the learning seat acts at all.
_MAX_DEALS_WITHOUT_TURN = 100


class SingleSeatEnv(gymnasium.Env[Obs, np.int64]):
    """Seat ``seat`` of ``game`` (a registered name with rule ``options``, or a
    game object) as a Gymnasium environment against ``opponents`` (default: random
    agents). See the module docs for observations, rewards and opponents."""

    # Gymnasium declares metadata a plain class attribute, so no ClassVar here.
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] | None = None,
        *,
        render_mode: str | None = None,
        illegal_action: str = "end",
        **options: Any,
    ) -> None:
        self.game = resolve_game(game, options)
        info = self.game.info
        n = info.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise RuleOptionError(f"seat must be an int in 0..{n - 1}, got {shown(seat)}")
        if illegal_action not in ("end", "raise"):
            raise RuleOptionError(
                f"illegal_action must be 'end' or 'raise', got {shown(illegal_action)}"
            )
        self.seat = seat
        self.render_mode = check_render_mode(render_mode)
        self._illegal_ends = illegal_action == "end"
        self._min_utility = float(info.min_utility)
        self._num_actions = info.num_actions
        self._agents, self._factories = self._check_opponents(opponents, n)
        self.observation_space = observation_space(info)
        self.action_space = gymnasium.spaces.Discrete(info.num_actions)
        self._rewards = DealRewards(self.game)
        self._done = False
        self._pending = 0.0
        #: The cardkit state of the episode (after ``reset``): read it, never apply to it.
        self.game_state: State

    def _check_opponents(
        self, opponents: Opponent | Sequence[Opponent] | None, n: int
    ) -> tuple[dict[int, Agent], dict[int, Callable[[int], Agent]]]:
        """The agent objects and the factories of the other seats."""
        others = [s for s in range(n) if s != self.seat]
        if opponents is None:
            opponents = "random"
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            given: list[Opponent] = [opponents] * len(others)
        else:
            given = list(opponents)
        if len(given) != len(others):
            raise RuleOptionError(
                f"{self.game.name} needs {len(others)} opponents (seats {others}), got {len(given)}"
            )
        agents: dict[int, Agent] = {}
        factories: dict[int, Callable[[int], Agent]] = {}
        for s, spec in zip(others, given, strict=True):
            if isinstance(spec, str):
                factories[s] = agent_factory(self.game.name, spec)
            elif isinstance(spec, Agent) and not isinstance(spec, type):
                agents[s] = spec
            elif callable(spec):
                factories[s] = spec
            else:
                raise RuleOptionError(
                    f"an opponent is an agent name, a factory or an agent, got {shown(spec)}"
                )
        return agents, factories

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game and let the opponents play up to the seat's first turn.

        ``seed`` deals ``game.new_state(seed=seed)`` (the opponents' seeds derive
        from it); without it the deal's seed comes from the generator the last
        seeded reset started. A deal in which the seat never acts (an empty stack
        given in the options) is skipped for the next. ``options`` is Gymnasium's
        reset argument; the rule options are fixed when the environment is made,
        so it is not read."""
        check_seed("seed", seed, optional=True)  # before it seeds anything
        super().reset(seed=seed)
        deal_seed = seed
        for _ in range(_MAX_DEALS_WITHOUT_TURN):
            if deal_seed is None:
                deal_seed = int(self.np_random.integers(_MAX_SEED))
            self.game_state = self.game.new_state(seed=deal_seed)
            for s, factory in self._factories.items():
                self._agents[s] = factory(derive_seed(deal_seed, _AGENT_STREAM + s))
            self._rewards.reset()
            self._done = False
            # Deals the opponents finish before the seat's first turn are paid with
            # the seat's first step (reset returns no reward).
            self._pending = self._play_opponents()
            if not self._done:
                return self._observe(), {}
            deal_seed = None
        raise RuleOptionError(
            f"seat {self.seat} never acts in {_MAX_DEALS_WITHOUT_TURN} deals of "
            f"{self.game.name} with {shown(dict(self.game.options))}"
        )

    def _play_opponents(self) -> float:
        """Play the other seats until the learning seat is to act or the game is
        over; the seat's reward meanwhile."""
        state = self.game_state
        earned = 0.0
        while True:
            to_act = state.current_player
            if to_act is None:
                self._done = True
                return earned
            if to_act == self.seat:
                return earned
            agent = self._agents[to_act]
            state.apply(agent.act(state.observation(to_act), state.legal_actions()))
            earned += self._earned(state)

    def _earned(self, state: State) -> float:
        deltas = self._rewards.after_move(state)
        return 0.0 if deltas is None else deltas[self.seat]

    def _observe(self) -> Obs:
        obs = observe(self.game_state, self.seat, self._num_actions)
        if self._done:
            # An illegal id ends the episode with the seat still to act.
            obs["action_mask"][:] = 0
        return obs

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play action id ``action`` for the seat, then the opponents up to its next
        turn: ``(observation, reward, terminated, truncated, info)``; episodes
        never truncate (every game is finite)."""
        if self._done:
            raise IllegalActionError("the episode is over: call reset() before step()")
        n = self._num_actions
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"an action id is an int, got {shown(action)}")
        if not 0 <= action < n:
            raise IllegalActionError(f"action id {shown(action)} is outside 0..{n - 1}")
        state = self.game_state
        if not state.legal_action_mask()[action]:
            if not self._illegal_ends:
                raise IllegalActionError(f"action id {int(action)} is not legal now")
            self._done = True
            return self._observe(), self._min_utility, True, False, {"illegal_action": True}
        state.apply(state.id_to_action(int(action)))
        reward = self._pending + self._earned(state) + self._play_opponents()
        self._pending = 0.0
        return self._observe(), reward, self._done, False, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The seat's legal-action mask as bools (all false once the episode is over)."""
        return self._observe()["action_mask"].astype(np.bool_)

    def render(self) -> str | None:
        """The table of what the learning seat sees (``"ansi"`` returns it,
        ``"human"`` prints it); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        table = render_table(self.game_state, self.seat)
        if self.render_mode == "human":
            print(table)
            return None
        return table
