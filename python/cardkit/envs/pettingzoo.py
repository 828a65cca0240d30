"""PettingZoo AEC environments for every registered game: ``env("hearts", **options)``.

Agents are ``player_0 .. player_{n-1}`` (seat ``i`` is ``player_i``). Each sees
``{"observation": state.observation_tensor(seat), "action_mask": mask}``: a
float32 tensor of the game's ``observation_shape`` and an int8 mask of the game's
``num_actions`` ids, all zeros unless the agent is the one to act. Actions are ids
of the game's action index (``Discrete(num_actions)``); an id that is not legal
raises :class:`~cardkit.errors.IllegalActionError` and leaves the game unchanged.

``infos[agent]["legal_actions"]`` holds the legal ids of the agent to act, ascending,
in a new int64 array (exactly ``np.flatnonzero(observation["action_mask"])``), and an
empty read-only array for every other agent: a loop that draws from it need not
scan the mask (Dou Dizhu's is 24,643 ids long), and is the fast way to sample a
random legal action::

    obs, reward, terminated, truncated, info = env.last()
    legal = info["legal_actions"]
    env.step(int(legal[rng.randrange(len(legal))]))

``copy_observations=True`` makes every observation a new dict of new arrays. By
default an engine episode (below) may hand out again a dict and arrays it handed
out before, rewritten, but only once nothing else refers to them (not the dict,
not either array, not a view of one; a weak reference does not count), so no
Python code can see an array change after it was returned; the option is for
code that relies on that by other means (``id()``, a buffer taken through C).
Arrays handed out are never written to while anything refers to them.

``reset(seed=s)`` deals exactly ``game.new_state(seed=s)``; the ``k``-th reset
without a seed after it (``k`` from 0) deals ``new_state(seed=derive_seed(s, k))``
(from a seed drawn from the OS when no seed was ever given), so the same seed
replays the same episodes.

Rewards: a match game (Hearts and Spades to their targets, Hold'em and One Poker
to the last stack) pays every seat its result of each deal as the deal is scored,
in the units of ``state.returns()``, and the episode terminates when the match
does; single-deal games pay ``returns()`` at the end. Either way one seat's rewards
over an episode add up to exactly its ``returns()`` (see
:class:`cardkit.envs._common.DealRewards`). Episodes never truncate: every game is
finite (``game.info.max_match_length``).

Speed: single deals of the games with an engine episode (Dou Dizhu, Zheng
Shangyou, Bridge, and Hearts, Spades, Guandan, Tractor and Hold'em with
``match=False``) are played in Rust by :class:`cardkit._core.AecCore`, the
episodes of the vector env one at a time. ``env.step`` and ``env.last`` of a
``raw_env`` (not of a subclass, which keeps the Python methods) are then the
engine's own: ``step`` is one call that checks and plays the id, sets the
agent to act and both agents' ``legal_actions`` infos; ``last`` one call that
writes the observation (into arrays handed out before when nothing refers to
them any more) and reads the environment's dicts. ``game_state`` is the Python
state brought up to date when ``env.game_state`` is read (dealt on the first
read, the moves since the last read replayed), so read it from the environment
after stepping rather than keeping the object from an earlier read. Matches and
the other games step their Python state.

``render_mode="ansi"`` makes ``render()`` return a text table of what the seat to
act sees (its own observation, never another seat's hidden cards; once the game is
over, the returns and every card); ``"human"`` prints it.
"""

from __future__ import annotations

import secrets
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from cardkit._core import AecCore, derive_seed
from cardkit.api import Game, State
from cardkit.envs._common import (
    RENDER_MODES,
    DealRewards,
    Obs,
    check_render_mode,
    engine_core,
    missing_extra,
    observation_space,
    observe,
    render_table,
    resolve_game,
)
from cardkit.errors import RuleOptionError
from cardkit.games._base import _check_seed as check_seed

try:
    import gymnasium
    from pettingzoo import AECEnv
except ImportError as exc:
    raise missing_extra("cardkit.envs.pettingzoo") from exc

__all__ = ["env", "raw_env"]

#: The ``legal_actions`` info of an agent not to act: one shared empty array, read-only.
_NO_IDS: npt.NDArray[np.int64] = np.empty(0, dtype=np.int64)
_NO_IDS.flags.writeable = False

#: The key of the legal ids in each agent's info.
_IDS = "legal_actions"


def _not_reset(call: str) -> AttributeError:
    """The error of ``call`` made before the first ``reset``."""
    return AttributeError(f"{call} needs an episode: call reset() first")


class raw_env(AECEnv):
    """The AEC environment of ``game`` (a registered name with its rule options, or
    a game object); :func:`env` makes one.

    It checks its own call order (``reset`` first) instead of PettingZoo's
    ``OrderEnforcingWrapper``, whose attribute forwarding would cost more per step
    than the rest of the environment: calling ``step``, ``observe``, ``last`` or
    ``render``, or reading ``game_state``, before ``reset`` raises an
    :class:`AttributeError` that says so (``agents``, ``agent_selection`` and the
    other per-episode attributes do not exist until then). The class defines no
    ``__getattr__``: on CPython 3.11 one would slow every attribute read of every
    step, not only the failed ones.

    Single deals of the games with an engine episode are played in Rust and
    ``game_state`` follows them when read (see the module docs): a loop that never
    reads it never pays for it.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": "cardkit_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        copy_observations: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if not isinstance(copy_observations, bool):
            raise RuleOptionError(
                f"copy_observations must be True or False, got {copy_observations!r}"
            )
        self.game = resolve_game(game, options)
        self.render_mode = check_render_mode(render_mode)
        info = self.game.info
        self.metadata = {**type(self).metadata, "name": f"cardkit_{info.name}_v0"}
        self._num_actions = info.num_actions
        self.possible_agents = [f"player_{seat}" for seat in range(info.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = observation_space(info)
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        actions = gymnasium.spaces.Discrete(info.num_actions)
        self.action_spaces = {agent: actions for agent in self.possible_agents}
        self._rewards = DealRewards(self.game)
        #: Resets without a seed deal ``derive_seed(_base_seed, k)`` for k = 0, 1, ...
        #: (``_unseeded`` is the next k) from the last seed given, else from the OS.
        self._base_seed = secrets.randbits(64)
        self._unseeded = 0
        # Fresh copies of these start each episode's dicts (copying is cheaper than
        # building them).
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._falses = dict.fromkeys(self.possible_agents, False)
        self._skip_agent_selection: str | None = None
        #: The engine episode that plays single deals in Rust, if the game has one;
        #: ``_core`` is it once ``reset`` has run (so calls before then fail as
        #: every other per-episode read does).
        self._engine = engine_core(self.game)
        if self._engine is not None:
            self._engine.attach(self, self.possible_agents, copy_observations)
            if type(self) is raw_env:
                # The hot path: the engine's own step and last, with no Python frame
                # (they do what the methods below do; before reset they raise the
                # same AttributeError). A subclass keeps its methods.
                self.step = self._engine.step  # type: ignore[method-assign]
                self.last = self._engine.last  # type: ignore[method-assign]
        self._core: AecCore | None
        #: True while ``rewards`` may hold a nonzero value (else nothing to clear).
        self._paid = False
        #: The Python state of the episode (with an engine episode: ``None`` until
        #: read), its seed, and how many of the engine's moves it has replayed.
        self._state: State | None
        self._seed = 0
        self._replayed = 0

    @property
    def game_state(self) -> State:
        """The cardkit state of the episode (after ``reset``): read it, never apply to
        it; with an engine episode it shows the moves made when it is read."""
        try:
            state = self._state
        except AttributeError:
            raise _not_reset("game_state") from None
        if state is None:
            state = self._state = self.game.new_state(seed=self._seed)
        core = self._core
        if core is not None:
            for action_id in core.played(self._replayed):
                state.apply(state.id_to_action(action_id))
                self._replayed += 1
        return state

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same Dict space object for every call with ``agent``."""
        space: gymnasium.spaces.Space[Any] = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_actions)``, the same object for every call with ``agent``."""
        space: gymnasium.spaces.Space[Any] = self.action_spaces[agent]
        return space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed`` when given (``game.new_state(seed=seed)``),
        else from the next seed derived from the last seed given (module docs).
        ``options`` is PettingZoo's reset argument; the rule options are fixed when
        the environment is made, so it is not read."""
        if seed is None:
            seed = derive_seed(self._base_seed, self._unseeded)
            self._unseeded += 1
        else:
            check_seed(seed)
            self._base_seed = seed
            self._unseeded = 0
        core = self._core = self._engine
        # With an engine episode the Python state is dealt when first read.
        self._state = self.game.new_state(seed=seed) if core is None else None
        self._seed = seed
        self._replayed = 0
        agents = self.possible_agents
        self.agents = agents[:]
        self.rewards = self._zeros.copy()
        self._cumulative_rewards = self._zeros.copy()
        self.terminations = self._falses.copy()
        self.truncations = self._falses.copy()
        self.infos: dict[str, dict[str, Any]] = {agent: {_IDS: _NO_IDS} for agent in agents}
        self._paid = False
        self._skip_agent_selection = None
        self.agent_selection = agents[0]
        # A deal can end before anyone acts (blinds that put every stack all in).
        if core is None:
            self._rewards.reset()
            self._after_move()
        else:
            # The engine keeps the infos' legal ids from here on (see step).
            seat = core.reset(
                seed, self.infos, self._cumulative_rewards, self.terminations, self.truncations
            )
            if seat >= 0:
                self.agent_selection = agents[seat]
            else:
                self._finish(core)

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """The observation, cumulative reward, termination, truncation and info of
        the agent to act (PettingZoo's, read directly)."""
        try:
            core = self._core
        except AttributeError:  # free on CPython 3.11+ when nothing is raised
            raise _not_reset("last()") from None
        if core is not None:
            return core.last(observe)
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation tensor and action mask (see the module docs); new
        arrays on every call, which the environment never writes to afterwards."""
        try:
            core = self._core
        except AttributeError:
            raise _not_reset("observe()") from None
        if core is None:
            return observe(self._state, self._seats[agent], self._num_actions)  # type: ignore[arg-type]
        return core.observe(self._seats[agent])

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent to act (``None`` for an agent whose
        episode is over, as PettingZoo's loop does)."""
        try:
            core = self._core
        except AttributeError:
            raise _not_reset("step()") from None
        if core is None:
            self._step_state(action)
        else:
            core.step(action)

    def _engine_event(self, code: int, action: object) -> None:
        """What :meth:`AecCore.step <cardkit._core.AecCore.step>` leaves to Python:
        the deal just ended (-1), the id was refused (-2), or the deal was already
        over (-3, the step of a finished agent). An engine deal pays nothing
        before its end and never truncates, so while it runs the engine's step
        leaves every reward, termination and truncation as it is."""
        if code == -1:
            self._finish(self._engine)  # type: ignore[arg-type]
        elif code == -2:
            self._refuse(action)
        else:
            self._was_dead_step(action)

    def _step_state(self, action: int | None) -> None:
        """:meth:`step` of an episode the Python state plays."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        assert state is not None  # dealt by reset without an engine episode
        # id_to_action refuses a non-int or out-of-range id, apply an illegal one.
        state.apply(state.id_to_action(action))  # type: ignore[arg-type]
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent][_IDS] = _NO_IDS
        self._after_move()

    def _refuse(self, action: object) -> NoReturn:
        """Raise what the Python state raises for ``action``, an id the engine
        episode refused (not an int, out of range or illegal), on a copy of it."""
        state = self.game_state.clone()
        state.apply(state.id_to_action(action))  # type: ignore[arg-type]
        raise AssertionError(f"the engine refused action id {action!r}, which the state plays")

    def _finish(self, core: AecCore) -> None:
        """The engine's deal is over: every agent's episode ends and each is paid
        its ``returns()``."""
        self._pay(core.returns())
        for name in self.terminations:
            self.terminations[name] = True

    def _pay(self, deltas: list[float] | None) -> None:
        """Set ``rewards`` to ``deltas`` by seat (zeros for ``None``) and add them to
        the cumulative rewards; the all-zero case, most moves, costs nothing."""
        rewards = self.rewards
        if deltas is None:
            if self._paid:
                for name in rewards:
                    rewards[name] = 0.0
                self._paid = False
            return
        cumulative = self._cumulative_rewards
        seats = self._seats
        for name in rewards:
            reward = rewards[name] = deltas[seats[name]]
            cumulative[name] += reward
        self._paid = True

    def _clear_rewards(self) -> None:
        super()._clear_rewards()
        self._paid = False

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step of an agent whose episode is over (it leaves; the next
        agent whose episode is over goes next, else the one that was to act), with
        the same effects but without rebuilding the list of dead agents."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations, truncations = self.terminations, self.truncations
        del terminations[agent], truncations[agent]
        del self.rewards[agent], self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        for other in agents:
            if terminations[other] or truncations[other]:
                if self._skip_agent_selection is None:
                    self._skip_agent_selection = agent
                self.agent_selection = other
                break
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self._clear_rewards()

    def _after_move(self) -> None:
        """After a move of the Python state: pay the rewards of the move just made
        and select the next agent, or end every agent's episode once the game is over."""
        state = self._state
        assert state is not None  # dealt by reset without an engine episode
        self._pay(self._rewards.after_move(state))
        seat = state.current_player
        if seat is None:
            for name in self.terminations:
                self.terminations[name] = True
        else:
            agent = self.agent_selection = self.possible_agents[seat]
            self.infos[agent][_IDS] = np.array(state.legal_action_ids(), dtype=np.int64)

    def render(self) -> str | None:
        """The table of what the seat to act sees (``"ansi"`` returns it, ``"human"``
        prints it); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        state = self.game_state
        table = render_table(state, state.current_player)
        if self.render_mode == "human":
            print(table)
            return None
        return table

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""


def env(
    game: str | Game,
    render_mode: str | None = None,
    copy_observations: bool = False,
    **options: Any,
) -> raw_env:
    """The AEC environment of ``game`` with rule ``options`` (see the module docs)."""
    return raw_env(game, render_mode=render_mode, copy_observations=copy_observations, **options)
