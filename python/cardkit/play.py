"""Running a game to the end with one agent per seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardkit._validate import is_sequence
from cardkit.api import Agent, Game, State
from cardkit.errors import RuleOptionError, shown

__all__ = ["CHECK_EVERY", "play"]

#: Moves between two calls of :func:`play`'s ``check``: rare enough to cost nothing
#: per move, often enough that a stopped game ends within milliseconds.
CHECK_EVERY = 256


def play(
    game: Game,
    agents: Sequence[Agent],
    seed: int | None = None,
    *,
    check: Callable[[], None] | None = None,
) -> State:
    """Play a new state of ``game`` from ``seed`` until it ends and return it.

    ``agents[i]`` plays seat ``i``; each sees only ``state.observation(i)``.

    ``check``, when given, is called with no arguments after every
    :data:`CHECK_EVERY` moves; whatever it raises ends the game there and propagates
    to the caller (no state is returned). It is how a long game is stopped from
    outside: a match can run to thousands of deals (a random Spades match plays all
    10,000), and a cancelled simulation (:func:`cardkit.sim.simulate`) must not wait
    for it to end.
    """
    if not isinstance(getattr(game, "num_players", None), int):
        raise RuleOptionError(f"play needs a Game such as games.make(...), got {shown(game)}")
    if not is_sequence(agents) or not all(callable(getattr(a, "act", None)) for a in agents):
        raise RuleOptionError(f"agents must be a list of Agents (with .act), got {shown(agents)}")
    if len(agents) != game.num_players:
        raise RuleOptionError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    if check is not None and not callable(check):
        raise RuleOptionError(f"check must be a callable or None, got {shown(check)}")
    state = game.new_state(seed=seed)
    countdown = CHECK_EVERY
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None  # a live state always has a player to act
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
        countdown -= 1
        if not countdown:
            countdown = CHECK_EVERY
            if check is not None:
                check()
    return state
