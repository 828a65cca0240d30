"""What the PettingZoo and the Gymnasium environments share: the game lookup, the
spaces and observations, the per-deal rewards and the text table of ``render``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from cardkit._core import AecCore
from cardkit.api import Game, GameInfo, State
from cardkit.envs.vector import engine_rules
from cardkit.errors import RuleOptionError, shown


def missing_extra(module: str) -> ImportError:
    """The error an environment module raises when PettingZoo or Gymnasium is absent."""
    return ImportError(
        f"{module} needs pettingzoo and gymnasium, which cardkit does not install by "
        "itself: pip install 'cardkit[envs]'"
    )


try:
    import gymnasium
except ImportError as exc:
    raise missing_extra("cardkit.envs") from exc

#: An observation of either environment: the seat's tensor and the legal-action mask.
Obs = dict[str, npt.NDArray[Any]]

#: ``render`` cuts each value of its table to this many characters.
CELL_CHARS = 72

#: ``render_mode`` values both environments take (``None`` renders nothing).
RENDER_MODES = ("ansi", "human")


def resolve_game(game: object, options: Mapping[str, Any]) -> Game:
    """``make(game, **options)`` for a registered name; a game object as it is."""
    from cardkit import games

    if isinstance(game, str):
        return games.make(game, **options)
    if isinstance(game, Game):
        if options:
            raise RuleOptionError(
                f"rule options {shown(dict(options))} go with a game name, "
                f"not with a game object ({shown(game)})"
            )
        return game
    raise RuleOptionError(f"a game is a registered name or a Game, got {shown(game)}")


def check_render_mode(render_mode: object) -> str | None:
    """``render_mode`` if it is ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RuleOptionError(
            f"render_mode must be None, 'ansi' or 'human', got {shown(render_mode)}"
        )
    return render_mode


def observation_space(info: GameInfo) -> gymnasium.spaces.Space[Obs]:
    """``{"observation": Box(float32), "action_mask": Box(int8, 0..1)}`` for ``info``.

    The contract promises finite tensor values but no range common to every game
    (each game's page gives its slices), so the box spans the finite float32 values.
    """
    limit = float(np.finfo(np.float32).max)
    space = gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                -limit, limit, shape=info.observation_shape, dtype=np.float32
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(info.num_actions,), dtype=np.int8),
        }
    )
    # A Dict space is typed Space[dict[str, Any]]; its samples are these two arrays.
    return cast("gymnasium.spaces.Space[Obs]", space)


def engine_core(game: Game) -> AecCore | None:
    """An engine episode that plays single deals of ``game`` exactly as its states
    do (the same episodes the vector env steps, checked move for move against the
    Python states in tests/test_envs.py), or ``None`` for a game without one or
    options it does not play (a match)."""
    if len(game.observation_shape) != 1:
        return None
    try:
        engine, rule_args = engine_rules(game)
    except RuleOptionError:
        return None
    core: AecCore = getattr(AecCore, engine)(*rule_args)
    return core


def observe(state: State, seat: int, num_actions: int) -> Obs:
    """What ``seat`` sees now; its mask is all zeros unless it is the seat to act."""
    if state.current_player == seat:
        # Both arrays are fresh for every call (the contract's), so a view is safe.
        mask = state.legal_action_mask().view(np.int8)
    else:
        mask = np.zeros(num_actions, dtype=np.int8)
    return {"observation": state.observation_tensor(seat), "action_mask": mask}


class DealRewards:
    """Per-deal rewards whose sum over an episode is exactly ``state.returns()``.

    After each move the state's ``standings()`` (each seat's result over the deals
    scored so far, in ``returns()`` units) are compared with the last ones: a deal
    that has just been scored pays each seat the change. When the state ends they
    are ``returns()`` itself, so the last deal's reward also settles anything the
    standings do not show. Single-deal games pay ``returns()`` at the end.
    """

    __slots__ = ("_last", "_running")

    def __init__(self, game: Game) -> None:
        # A game whose options make it one deal (match=False) pays at the end.
        self._running = game.max_match_length != game.max_game_length
        self._last = [0.0] * game.num_players

    def reset(self) -> None:
        """Start a new episode (every total is zero before the first deal is scored)."""
        self._last = [0.0] * len(self._last)

    def after_move(self, state: State) -> list[float] | None:
        """Each seat's reward for the move just applied, ``None`` when all are zero."""
        if state.is_terminal:
            now = state.returns()
        elif not self._running:
            return None
        else:
            now = state.standings()
        last = self._last
        if now == last:
            return None
        self._last = now
        return [a - b for a, b in zip(now, last, strict=True)]


def _cell(value: object) -> str:
    if value is None:
        text = "-"
    elif isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        text = " ".join(str(v) for v in value) or "-"
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, separators=(",", ":"))
    else:
        text = str(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 3] + "..."


def render_table(state: State, seat: int | None) -> str:
    """A text table of what ``seat`` sees (its own observation); once the state is
    over, the returns and every card's zone, since nothing is hidden any more."""
    game = state.game
    if state.is_terminal:
        title = f"{game.name}: over"
        rows: list[tuple[str, object]] = [("returns", state.returns())]
        rows += [(zone, [str(c) for c in cards]) for zone, cards in state.zones().items()]
    else:
        assert seat is not None  # a live state has a seat to show
        title = f"{game.name}: player_{state.current_player} to act, seen by player_{seat}"
        rows = list(state.observation(seat).items())
    cells = [(key, _cell(value)) for key, value in rows]
    left = max(len(key) for key, _ in cells)
    right = max(len(text) for _, text in cells)
    rule = f"+-{'-' * left}-+-{'-' * right}-+"
    body = [f"| {key:<{left}} | {text:<{right}} |" for key, text in cells]
    return "\n".join([title, rule, *body, rule])
