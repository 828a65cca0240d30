"""A batched environment stepped in Rust, like EnvPool for card games.

``VectorEnv(game, num_envs, seed, threads=1, **options)`` holds ``num_envs``
independent episodes: single deals (``match=False``) of Hearts or Spades
(passing and bidding included), Bridge deals (auction and play), games of Dou
Dizhu (bidding, redeals and card play), Zheng Shangyou deals, single Guandan
deals (``match=False``, no tribute), single Tractor deals (``match=False``:
declaring, burying and card play) or Texas Hold'em hands (``match=False``),
and steps them all at once without the GIL. Every call writes the same five numpy arrays
in place (see :class:`Batch`): keep a copy of anything needed after the next
call. Layouts, seeds and the auto-reset rule are
in ``docs/vector_env.md``.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, NamedTuple

from cardkit._core import VectorEnv as _CoreEnv
from cardkit._core import derive_seed
from cardkit.api import Game
from cardkit.errors import RuleOptionError, shown
from cardkit.games import make
from cardkit.games._base import BaseGame, check_int

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["GAMES", "MAX_ENVS", "MAX_THREADS", "Batch", "VectorEnv", "engine_rules"]

#: The games a :class:`VectorEnv` can play.
GAMES = (
    "hearts",
    "spades",
    "bridge",
    "doudizhu",
    "zhengshangyou",
    "guandan",
    "tractor",
    "holdem",
)
#: Most slots in one env (the Rust side also bounds the bytes of its arrays); the
#: Rust limit, read here so that bad sizes fail before the call with a typed error.
MAX_ENVS: int = _CoreEnv.MAX_ENVS
#: Most threads one env steps its slots on (the Rust limit).
MAX_THREADS: int = _CoreEnv.MAX_THREADS


def engine_rules(game: Game) -> tuple[str, tuple[Any, ...]]:
    """The Rust engine that plays single deals of ``game`` (its constructor's name on
    ``cardkit._core.VectorEnv`` and ``AecCore``) and the rule arguments it takes
    after the env's own: the one mapping from rule options to engines, shared by
    the vector env and the AEC env's engine episodes. A ``RuleOptionError`` says
    why no engine plays these options."""
    name = game.name
    if name not in GAMES:
        raise RuleOptionError(f"VectorEnv plays {', '.join(GAMES)}, not {shown(name)} (yet)")
    options = game.options
    if options.get("match", False) is not False:
        raise RuleOptionError("VectorEnv plays single deals: match must be False")
    if name == "hearts":
        direction = options.get("pass_direction", "left")
        if direction != "left":
            # The engine's deals pass left (or hold with passing=False).
            raise RuleOptionError(
                f"the engine plays Hearts deals that pass left: pass_direction={shown(direction)}"
                " is not supported (use passing=False to hold)"
            )
        return name, (options["passing"], options["target"])
    if name == "spades":
        two_of_clubs = options["first_lead"] == "two_of_clubs"
        return name, (options["dealer"], two_of_clubs, options["target"])
    if name == "bridge":
        return name, (list(game.vulnerable),)  # type: ignore[attr-defined]
    if name == "doudizhu":
        return name, (options["bidding"] == "single_round",)
    if name == "zhengshangyou":
        return name, ()
    if name in ("guandan", "tractor"):
        second = "double_win_ends" if name == "guandan" else "first_speaker"
        return name, (options["level"], options[second])
    stacks = game.starting_stacks  # type: ignore[attr-defined]
    return name, (stacks, tuple(options["blinds"]), options["button"])


class Batch(NamedTuple):
    """The env's output arrays, rewritten in place by every ``reset`` and ``step``.

    Row ``i`` belongs to slot ``i``. While an episode runs, ``observations`` holds
    the ``observation_tensor`` of the seat to act and ``masks`` its legal ids; on
    the step that ends it, ``done`` is true, ``players`` is -1, ``masks`` is all
    false, ``rewards`` holds the episode's returns (zero on every other step) and
    ``observations`` the tensor of the seat that made the last move.
    """

    #: ``(num_envs, *observation_shape)`` float32.
    observations: npt.NDArray[np.float32]
    #: ``(num_envs, num_actions)`` bool.
    masks: npt.NDArray[np.bool_]
    #: ``(num_envs, num_players)`` float32.
    rewards: npt.NDArray[np.float32]
    #: ``(num_envs,)`` int64: the seat to act, -1 once the episode is over.
    players: npt.NDArray[np.int64]
    #: ``(num_envs,)`` bool: the episode ended on this call.
    done: npt.NDArray[np.bool_]


class VectorEnv:
    """``num_envs`` episodes of ``game`` stepped together in Rust.

    ``options`` are the game's rule options as ``make`` takes them; ``match``
    defaults to ``False`` and must stay so (Dou Dizhu and Zheng Shangyou have no match;
    Guandan plays one deal at ``level``, without tribute; Tractor one deal at
    ``level``, declaring from ``first_speaker``). Episode
    ``k`` of slot ``i`` is the game of
    ``make(game, **options).new_state(seed=env.episode_seed(i, k))``, so results
    depend on ``seed`` but never on ``threads``. Call :meth:`reset` before the
    first :meth:`step`.
    """

    def __init__(
        self, game: str, num_envs: int, seed: int, threads: int = 1, **options: Any
    ) -> None:
        if game not in GAMES:
            raise RuleOptionError(f"VectorEnv plays {', '.join(GAMES)}, not {shown(game)} (yet)")
        if game in ("hearts", "spades", "guandan", "tractor", "holdem"):
            # The climbing games are one deal already; the others must not play a match.
            options.setdefault("match", False)
        rules = make(game, **options)
        check_int("num_envs", num_envs, 1, MAX_ENVS)
        check_int("threads", threads, 1, MAX_THREADS)
        check_int("seed", seed, 0, 2**64 - 1)
        engine, rule_args = engine_rules(rules)
        self._core = getattr(_CoreEnv, engine)(num_envs, seed, threads, *rule_args)
        self._game: BaseGame = rules  # type: ignore[assignment]
        # Calls from several Python threads take turns, as moves on a shared state
        # do: the Rust env is borrowed for a whole call with the GIL released, and a
        # second call meeting that borrow would fail with an untyped error.
        self._lock = threading.Lock()
        self._num_envs = num_envs
        self._threads = threads
        self._seed = seed

    @property
    def game(self) -> BaseGame:
        """The game (``make(game, **options)``) every slot plays."""
        return self._game

    @property
    def num_envs(self) -> int:
        """Number of slots."""
        return self._num_envs

    @property
    def threads(self) -> int:
        """Threads each call splits the slots across."""
        return self._threads

    @property
    def seed(self) -> int:
        """The seed episodes derive from (the last one given to ``reset``)."""
        return self._seed

    def episode_seed(self, slot: int, k: int) -> int:
        """The state seed of episode ``k`` (from 0) of ``slot``: ``derive_seed(seed,
        k * num_envs + slot)`` (modulo 2**64)."""
        check_int("slot", slot, 0, self._num_envs - 1)
        check_int("k", k, 0, 2**64 - 1)
        return derive_seed(self._seed, (k * self._num_envs + slot) % 2**64)

    def reset(self, seed: int | None = None) -> Batch:
        """Start a new episode in every slot and return the arrays; with ``seed``,
        reseed and count each slot's episodes from 0 again."""
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
        with self._lock:
            arrays = self._core.reset(seed)
            if seed is not None:
                self._seed = seed
            return Batch(*arrays)

    def legal_ids(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The rows of ``masks`` as compact lists, for games with wide masks
        (Dou Dizhu's 24,643 ids): ``(ids, offsets)``, new int64 arrays; slot
        ``i``'s legal ids, ascending, are ``ids[offsets[i]:offsets[i + 1]]``."""
        with self._lock:
            ids, offsets = self._core.legal_ids()
        return ids, offsets

    def step(self, actions: npt.NDArray[np.int64]) -> Batch:
        """Apply one int64 action id per slot (``(num_envs,)`` array) and return
        the arrays, rewritten in place.

        A slot whose episode ended on the previous call ignores its id and starts
        its next episode. Any illegal id raises :class:`IllegalActionError`
        naming the slot, and no slot moves.
        """
        with self._lock:
            return Batch(*self._core.step(actions))
