"""Seeded simulation at scale: many games, reproducible from one seed, on one core,
a local process pool, any :class:`concurrent.futures.Executor`, Ray or Dask.

Seeds. Deal ``d`` of a run uses the seed ``derive_seed(seed, d)``, and the agent
at seat ``s`` is built with ``derive_seed(deal_seed, s + 1)``. Games are cut into
blocks of consecutive indices and every block is played from these seeds alone,
so a run's records depend only on its arguments, never on the worker count, the
block size or the executor.

Seatings. The ``agents`` list names one agent per seat. With ``rotate_seats``
(the default) game ``g`` shifts them by ``g`` seats (seating ``g % k`` of the
``k`` distinct rotations: the agent listed at ``j`` sits at ``(j + r) % players``),
so every agent plays every seat equally often. With ``duplicate=True`` each deal is
played once in every distinct rotation, as duplicate bridge replays a board with
the pairs swapped, and the agents' gaps are measured deal by deal (paired).

Records. Every game gives one row of :attr:`SimulationResult.records` (a pyarrow
table): its index, deal, seed and seating; per seat ``s`` the agent ``agent_s``,
the return ``return_s``, whether it won ``won_s`` (its return is the largest and
not every seat's return is) and its role ``role_s`` where the game has roles; and
the game's key figures from ``score_breakdown()`` as ``score.*`` columns
(:func:`key_figures`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import importlib.util
import itertools
import json
import math
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cardkit import games as _games
from cardkit._core import derive_seed
from cardkit._validate import check_count, check_flag, check_seed, is_sequence
from cardkit.agents import AgentSpec, RandomAgent, agent_factory, agent_names
from cardkit.api import Agent, State
from cardkit.errors import CardkitError, RuleOptionError, shown
from cardkit.games import make
from cardkit.play import play
from cardkit.tables import parse_options

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "AgentFactory",
    "AgentStats",
    "DaskExecutor",
    "PairedGap",
    "RayExecutor",
    "SimResult",
    "SimulationResult",
    "TournamentResult",
    "flatten_breakdown",
    "key_figures",
    "mean_ci",
    "seat_roles",
    "simulate",
    "tournament",
    "wilson_interval",
]

#: Most games and worker processes one run accepts.
MAX_GAMES = 10**9
MAX_WORKERS = 1024
#: Most games in one block of work: small enough for a prompt progress display and
#: cancellation, large enough that sending a block costs little against playing it.
MAX_BLOCK = 500

#: Builds the agent for one seat of one game from a seed.
AgentFactory = Callable[[int], Agent]

#: A value of one record column.
Figure = bool | int | float | str | None | list[Any]

#: A progress callback: ``progress(games_done, games_total)``.
Progress = Callable[[int, int], None]

_SCALARS = (bool, int, float, str)
_PLAIN_SCALARS = frozenset({bool, int, float, str, type(None)})


# -- statistics ----------------------------------------------------------------------


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% normal confidence interval (sample variance)."""
    n = len(values)
    if n == 0:
        raise RuleOptionError("mean_ci needs at least one value")
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def wilson_interval(wins: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default ``z``).

    Unlike the normal interval it stays inside ``0..1`` and is sound for rates near
    0 or 1 and for few trials. ``trials == 0`` gives ``(0.0, 1.0)``: nothing is known.
    """
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean_ci(values: np.ndarray) -> tuple[float, float]:
    """:func:`mean_ci` on a numpy vector."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    var = float(values.var(ddof=1)) if n > 1 else 0.0
    return float(values.mean()), 1.96 * math.sqrt(var / n)


# -- key figures of a finished game ------------------------------------------------------


def flatten_breakdown(breakdown: Mapping[str, Any], prefix: str = "") -> dict[str, Figure]:
    """The scalar figures of a ``score_breakdown()`` as flat, dotted columns.

    The rule, the same for every game (those registered later included):

    - a scalar (bool, int, float, str, None) is one column, named by its key path
      joined with dots (``{"contract": {"level": 4}}`` gives ``contract.level``);
    - a list of scalars is one list column (``team_levels``, ``penalties``);
    - a list of records (the deals of a match, the hands of a session) gives its
      length as ``<key>.count`` and its last record, flattened by the same rule,
      under ``<key>.last.`` (in a match the last deal holds the final levels and
      totals);
    - anything else (lists of lists: hole cards, action logs) is left out: replay the
      game from its recorded seed (:meth:`SimulationResult.replay`) for the whole
      breakdown.

    The top-level ``returns`` is left out too: records hold it per seat.
    """
    out: dict[str, Figure] = {}
    _flatten_into(out, breakdown, prefix, skip_returns=not prefix)
    return out


def _flatten_into(
    out: dict[str, Figure], breakdown: Mapping[str, Any], prefix: str, skip_returns: bool
) -> None:
    """:func:`flatten_breakdown` writing into ``out``: one dict per game, however deep."""
    for key, value in breakdown.items():
        if skip_returns and key == "returns":
            continue
        name = f"{prefix}{key}"
        if value is None or isinstance(value, _SCALARS):
            out[name] = value
        # dict first: the Mapping ABC test costs several times an exact type test
        elif isinstance(value, (dict, Mapping)):
            _flatten_into(out, value, f"{name}.", False)
        elif isinstance(value, (list, tuple)):
            # The set of exact types settles the common lists at once; the isinstance
            # scans remain for subclasses (an IntEnum, a Mapping that is not a dict).
            kinds = {type(v) for v in value}
            if kinds <= _PLAIN_SCALARS or all(v is None or isinstance(v, _SCALARS) for v in value):
                out[name] = list(value)
            elif kinds == {dict} or all(isinstance(v, Mapping) for v in value):
                out[f"{name}.count"] = len(value)
                _flatten_into(out, value[-1], f"{name}.last.", False)


def _poker_pots(records: Sequence[Mapping[str, Any]]) -> int:
    """Chips in every pot of a session's hands or deals (main and side pots)."""
    total = 0
    for record in records:
        pots = record.get("pots")
        total += sum(p["amount"] for p in pots) if pots is not None else record.get("pot", 0)
    return total


def _holdem_figures(breakdown: Mapping[str, Any]) -> dict[str, Figure]:
    hands = breakdown.get("hands", [])
    return {"pot": _poker_pots(hands), "showdowns": sum(1 for h in hands if h.get("shown"))}


def _onepoker_figures(breakdown: Mapping[str, Any]) -> dict[str, Figure]:
    deals = breakdown.get("deals", [])
    return {
        "pot": _poker_pots(deals),
        "showdowns": sum(1 for d in deals if d.get("folded") is None),
    }


# Session totals the generic rule cannot see (they add up over every hand). A game
# whose key figures are all scalars of its breakdown needs no entry here.
_EXTRA_FIGURES: dict[str, Callable[[Mapping[str, Any]], dict[str, Figure]]] = {
    "holdem": _holdem_figures,
    "onepoker": _onepoker_figures,
}


def key_figures(game: str, breakdown: Mapping[str, Any]) -> dict[str, Figure]:
    """A game's key figures as record columns, each named ``score.<path>``.

    :func:`flatten_breakdown` of the breakdown, plus session totals for the poker
    games (``score.pot``: chips in every pot; ``score.showdowns``: hands that reached
    a showdown).
    """
    figures: dict[str, Figure] = {}
    _flatten_into(figures, breakdown, "score.", skip_returns=True)
    extra = _EXTRA_FIGURES.get(game)
    if extra is not None:
        figures.update((f"score.{k}", v) for k, v in extra(breakdown).items())
    return figures


#: Role names of the seat a breakdown names and of the other seats.
_ROLE_KEYS = {"landlord": ("landlord", "farmer"), "declarer": ("declarer", "defender")}
#: Partnership games: seat ``s`` plays for team ``s % 2`` (partners sit across).
_PARTNERSHIPS = frozenset({"guandan", "spades", "bridge", "tractor"})


def seat_roles(
    game: str, state: State, breakdown: Mapping[str, Any] | None = None
) -> list[str] | None:
    """Each seat's role in a finished game, or ``None`` for a game without roles.

    In order: the state's own ``roles()`` method where a game defines one (the hook
    for a game whose roles this function cannot read); a seat named by the
    breakdown's ``landlord`` or ``declarer`` figure, at the top level or in a
    ``contract`` record (``landlord``/``farmer``, ``declarer``/``defender``; a game
    where that figure is empty, as a passed-out deal, has no roles); the
    partnership games (``team 0`` for seats 0 and 2, ``team 1`` for 1 and 3).
    ``breakdown`` is the state's ``score_breakdown()`` where the caller has it.
    """
    hook = getattr(state, "roles", None)
    if callable(hook):
        return [str(r) for r in hook()]
    if breakdown is None:
        breakdown = state.score_breakdown()
    players = state.game.num_players
    places = [p for p in (breakdown, breakdown.get("contract")) if isinstance(p, Mapping)]
    for key, (named, other) in _ROLE_KEYS.items():
        for place in places:
            if key not in place:
                continue
            seat = place[key]
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
                return [named if s == seat else other for s in range(players)]
            # named but empty (a bridge deal passed out): this game has no roles
            return None
    if game in _PARTNERSHIPS:
        return [f"team {s % 2}" for s in range(players)]
    return None


# -- one block of games, run wherever the executor runs it ----------------------------


@dataclass(frozen=True)
class _Block:
    """Games ``start .. stop - 1`` of a run: everything a worker needs to play them."""

    game: str
    options: dict[str, Any]
    factories: tuple[AgentFactory, ...]
    seatings: tuple[tuple[int, ...], ...]
    duplicate: bool
    seed: int
    start: int
    stop: int
    figures: bool
    #: The run's stop flag where the executor has one that travels with the job
    #: (Dask); a local pool's workers hold theirs from their start instead.
    halt: Any = None
    #: The factory of a game added with ``games.register``: a fresh worker process
    #: knows only the built-in games, so a registered one travels with the block.
    registered: Callable[..., Any] | None = None
    #: Played by a cluster's worker (Ray, Dask): the block quiets that process's
    #: collector while it runs (:func:`_quiet_collector`).
    cluster: bool = False
    #: Sent back to the caller from another process: the figure columns travel
    #: packed (:class:`_Packed`), which costs more than it saves in process.
    pack: bool = True


def _deal_and_seating(block: _Block, g: int) -> tuple[int, int]:
    k = len(block.seatings)
    return (g // k, g % k) if block.duplicate else (g, g % k)


def _seated(block: _Block, seating: int, deal_seed: int) -> list[Agent]:
    """The agents of one game by seat (``seatings[j][s]`` is the agent index at ``s``)."""
    order = block.seatings[seating]
    return [block.factories[a](derive_seed(deal_seed, s + 1)) for s, a in enumerate(order)]


def _make(block: _Block) -> Any:
    if block.registered is not None and block.game not in _games.available():
        _games.register(block.game, block.registered)
    return make(block.game, **block.options)


def _play_block(block: _Block) -> dict[str, Any]:
    """Play one block: numpy arrays for the core columns, the key figures column by
    column (:func:`_columns`)."""
    game = _make(block)
    n, players = block.stop - block.start, game.num_players
    deals = np.empty(n, dtype=np.int64)
    seatings = np.empty(n, dtype=np.int64)
    seeds = np.empty(n, dtype=np.uint64)
    returns = np.empty((n, players), dtype=np.float64)
    roles: list[list[str] | None] = []
    figures: list[dict[str, Figure]] = []
    halt = block.halt if block.halt is not None else _stop
    if _stop is not None:
        _settle_heap()
    check = None
    # a cluster worker is not ours: its collector is quieted for the block only
    with _quiet_collector() if block.cluster else contextlib.nullcontext():
        for row, g in enumerate(range(block.start, block.stop)):
            if halt is not None:
                check = _checker(halt, g)
                check()
            deal, seating = _deal_and_seating(block, g)
            deal_seed = derive_seed(block.seed, deal)
            agents = _seated(block, seating, deal_seed)
            # inside the game too: one match can take minutes (a random Spades match
            # plays all 10,000 deals), and a cancelled run must not wait for it
            state = play(game, agents, seed=deal_seed, check=check)
            deals[row], seatings[row], seeds[row] = deal, seating, deal_seed
            returns[row] = state.returns()
            breakdown = state.score_breakdown()
            roles.append(seat_roles(block.game, state, breakdown))
            if block.figures:
                figures.append(key_figures(block.game, breakdown))
    return {
        "start": block.start,
        "deal": deals,
        "seating": seatings,
        "seed": seeds,
        "returns": returns,
        "roles": roles,
        "figures": _columns(figures, block.pack) if block.figures else None,
    }


def _play_sealed(block: _Block) -> bytes:
    """:func:`_play_block` on a Dask worker: its result sealed into one pickle.

    Dask sends a result dict value by value, each numpy array and packed column as
    frames of its own (about 60 for a Hold'em block), and sizes every value on
    arrival, all in the client's event loop in the caller's process, which on a
    2-core machine takes a worker's time. One bytes object is one frame, unpickled
    once by :func:`_run_blocks`: 3.9 ms of the caller's CPU a Hold'em block
    against 5.3 ms (docs/simulation.md, "Round five")."""
    return pickle.dumps(_play_block(block), protocol=pickle.HIGHEST_PROTOCOL)


def _checker(halt: Any, game: int) -> Callable[[], None]:
    """A check that raises :class:`_Stopped` once ``halt`` is set, for game ``game``."""

    def check() -> None:
        if halt.is_set():
            raise _Stopped(f"games from {game} on were cancelled")

    return check


#: Numpy types of the figure columns whose values all share one Python type.
_PACKED = {bool: np.bool_, int: np.int64, float: np.float64}


@dataclass(frozen=True)
class _Packed:
    """A figure column of ints, texts or lists (of ints or of texts), nulls allowed,
    as a few numpy buffers: what a block sends back in place of a list of Python objects.

    Hold'em's figure columns are mostly such lists (boards, stacks, shown cards) and
    texts (hand names): 27 kB for an 80-game block, and unpickling the lists of
    Python objects cost the caller about 8 µs a game, in the same thread that serves
    a Dask cluster's traffic. As buffers they pickle and unpickle as a few copies.
    The column is turned back into the very same Python values only when the
    records are built (:func:`_figure_table`), so the records do not change.

    ``valid[g]`` says whether game ``g`` has a value (``None`` otherwise); a text is
    ``texts[codes[k]]``; game ``g``'s list holds elements ``offsets[g] ..
    offsets[g + 1] - 1`` (``offsets`` is ``None`` for a column of single values).
    """

    valid: np.ndarray | None
    offsets: np.ndarray | None
    #: The ints themselves, or each text's index into ``texts``.
    codes: np.ndarray
    #: The distinct texts, for a column of texts (``None`` for ints).
    texts: tuple[str, ...] | None

    @staticmethod
    def of(values: list[Figure]) -> _Packed | None:
        """The column packed, or ``None`` where it is not of a kind packed here (a
        mix of kinds, floats or bools in lists, an int beyond 64 bits, a subclass)."""
        present = [v for v in values if v is not None]
        kinds = set(map(type, present))
        if kinds == {str} or kinds == {int}:
            items: list[Any] = present
            offsets = None
        elif kinds == {list}:
            items = [x for v in present for x in v]  # type: ignore[union-attr]
            ends = itertools.accumulate(0 if v is None else len(v) for v in values)  # type: ignore[arg-type]
            offsets = _narrow([0, *ends])
        else:
            return None
        # null-free columns (most) need no mask
        valid = (
            None
            if len(present) == len(values)
            else np.asarray([v is not None for v in values], dtype=np.bool_)
        )
        inner = set(map(type, items))
        if inner <= {int}:
            try:
                return _Packed(valid, offsets, _narrow(items), None)
            except OverflowError:
                return None
        if inner == {str}:
            index: dict[str, int] = {}
            codes = _narrow([index.setdefault(t, len(index)) for t in items])
            return _Packed(valid, offsets, codes, tuple(index))
        return None

    def unpack(self) -> list[Figure]:
        """The column's values, as the games gave them."""
        items: list[Any] = self.codes.tolist()
        if self.texts is not None:
            texts = self.texts
            items = [texts[k] for k in items]
        rows = len(items) if self.offsets is None else len(self.offsets) - 1
        valid = [True] * rows if self.valid is None else self.valid.tolist()
        if self.offsets is None:
            it = iter(items)
            return [next(it) if ok else None for ok in valid]
        bounds = self.offsets.tolist()
        return [items[bounds[g] : bounds[g + 1]] if ok else None for g, ok in enumerate(valid)]


def _narrow(ints: list[int]) -> np.ndarray:
    """``ints`` as int32 where they fit (half the bytes to send), else int64 (which
    raises ``OverflowError`` beyond 64 bits)."""
    wide = np.asarray(ints, dtype=np.int64)
    if len(wide) and (wide.min() < -(2**31) or wide.max() >= 2**31):
        return wide
    return wide.astype(np.int32)


def _columns(
    rows: list[dict[str, Figure]], pack: bool = True
) -> dict[str, np.ndarray | _Packed | list[Figure]]:
    """A block's key figures by column (first-seen order, null where a game lacks one).

    A column of one numeric type is a numpy array (8 bytes a value, a few µs to send
    and to turn into Arrow); with ``pack``, one of ints, texts or lists of ints or
    texts, nulls allowed, is packed into buffers too (:class:`_Packed`: about 11 µs
    a Hold'em game here, against about 15 µs saved where the caller unpickles it,
    and 4 µs of pickling); others stay lists, equal texts sharing one object. The
    Arrow table is built once, when the records are asked for
    (:func:`_figure_table`), so a run that only wants statistics never pays for it.
    """
    out: dict[str, np.ndarray | _Packed | list[Figure]] = {}
    texts: dict[str, str] = {}
    for key in dict.fromkeys(k for row in rows for k in row):
        values = [row.get(key) for row in rows]
        kinds = set(map(type, values))
        dtype = _PACKED.get(kinds.pop()) if len(kinds) == 1 else None
        if dtype is not None:
            try:
                out[key] = np.array(values, dtype=dtype)
                continue
            except OverflowError:  # an int beyond 64 bits: Arrow decides below
                pass
        packed = _Packed.of(values) if pack else None
        out[key] = packed or [texts.setdefault(v, v) if type(v) is str else v for v in values]
    return out


# -- executors ------------------------------------------------------------------------


class _Stopped(Exception):
    """A block cut short because its run was cancelled."""


#: In a local pool's worker: the run's stop flag, checked before every game.
_stop: Any = None


def _init_worker(stop: Any) -> None:
    global _stop
    _stop = stop
    # Ctrl-C reaches every process of the terminal's group: the parent alone decides
    # (it raises the stop flag), so a worker must not die mid-block with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A young collection walks what is alive among the objects made since the last
    # one: a game's state, mostly. Every 10,000 allocations rather than 700, far
    # fewer walks see about as much each: the collector's share of a Hold'em worker
    # fell from 4.6% to 2.4% (after the freeze below; 9% before either).
    gc.set_threshold(10_000)
    _settle_heap()


def _settle_heap() -> None:
    """In a local pool's worker, before each block: collect the last block's cyclic
    garbage, then move every object still alive out of the collector's sight.

    What survives a block is the worker's modules and the games' bounded action
    caches (:mod:`cardkit.games._intern`), which grow by thousands of entries a
    block toward their cap of 100,000 (a Hold'em worker holds 100,000 tracked
    objects after 1,800 games). Each full collection walks every one of them: 6% of
    a Hold'em worker's CPU went to full collections (1% once frozen, measured in
    thread time over 1,800 games). Frozen, each object is walked once, by the
    collection here, and never again. No garbage is frozen (the collection runs
    first), and what is frozen alive and dies later (the pool's call item and this
    block) holds no cycle, so reference counting still frees it. Only the pool's
    own processes do this, never the caller's, whose collector a simulation must
    not change.

    An object that dies after it was frozen inside a reference cycle would stay
    unreachable for good, so every :data:`THAW_EVERY` blocks the frozen objects go
    back to the collector for one full collection first: such a leak lasts at most
    that many blocks, for one full walk of the heap in that many blocks."""
    global _settled
    _settled += 1
    if _settled % THAW_EVERY == 0:
        gc.unfreeze()
    gc.collect()
    gc.freeze()


#: A local pool worker's frozen objects get one full collection every this many blocks.
THAW_EVERY = 16

#: A cluster worker's blocks running now, and the collector settings the first found.
_quieted = 0
_quiet_saved: tuple[tuple[int, ...], bool] = ((), False)
_quiet_lock = threading.Lock()


@contextlib.contextmanager
def _quiet_collector() -> Iterator[None]:
    """While a block runs on a cluster's worker (Ray, Dask): what the worker already
    holds is frozen out of the collector's sight, and a young collection waits for
    10,000 allocations, as in a local pool's worker (:func:`_init_worker`).

    A Dask worker holds about 115,000 tracked objects (the server, its event loop,
    the modules), which each full collection walks while the games allocate: a
    block of 1,000 Hold'em games took 1.25-1.52 s of its thread's CPU there against
    1.11 s in a local pool's worker, and 1.10 s quieted so. The worker is not ours
    to keep changed (a cluster of one's own runs other work too), so this lasts
    only while blocks run: the last block to leave puts the thresholds back and
    gives the objects back to the collector, garbage frozen meanwhile included, so
    nothing is kept from it for longer than a block. A worker whose objects were
    already frozen by someone else is left as it is."""
    global _quieted, _quiet_saved
    with _quiet_lock:
        if _quieted == 0:
            _quiet_saved = (gc.get_threshold(), gc.get_freeze_count() == 0)
            if _quiet_saved[1]:
                gc.freeze()
            gc.set_threshold(10_000, *_quiet_saved[0][1:])
        _quieted += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quieted -= 1
            if _quieted == 0:
                gc.set_threshold(*_quiet_saved[0])
                if _quiet_saved[1]:
                    gc.unfreeze()


#: In a local pool's worker: how many times its heap was settled (start and blocks).
_settled = 0


class _LocalPool(cf.ProcessPoolExecutor):
    """A spawn-started process pool whose blocks stop within a few hundred moves when
    the run is cancelled.

    Its workers watch a shared stop flag rather than being terminated: a worker
    killed while it sends a result leaves half a message in the result pipe, on
    which the pool's manager thread then waits for ever.
    """

    def __init__(self, workers: int) -> None:
        # spawn is the one start method every platform has (fork is missing on
        # Windows and unsafe on macOS), and it gives each worker a clean interpreter
        # rather than a copy of the caller's threads and locks.
        context = multiprocessing.get_context("spawn")
        self._stop_flag = context.Event()
        super().__init__(
            workers, mp_context=context, initializer=_init_worker, initargs=(self._stop_flag,)
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the pool; with ``cancel_futures`` the running blocks stop too, each
        within :data:`cardkit.play.CHECK_EVERY` moves."""
        if cancel_futures:
            self._stop_flag.set()
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return fn(*args, **kwargs)


class RayExecutor(cf.Executor):
    """Runs blocks of games as Ray tasks (``pip install 'cardkit[ray]'``).

    ``address`` is passed to ``ray.init`` when Ray is not initialized yet: ``None``
    starts a local Ray (or joins the cluster named by ``RAY_ADDRESS``), ``"auto"``
    joins the cluster this machine belongs to, ``"ray://head:10001"`` connects a
    client. Every worker node needs the same cardkit (and the agents' modules)
    installed. ``init_options`` go to ``ray.init`` as well (``num_cpus=2`` ...).
    :meth:`shutdown` stops the Ray this executor started, and leaves one it found.
    """

    def __init__(self, address: str | None = None, **init_options: Any) -> None:
        import ray

        self._started = not ray.is_initialized()
        if self._started:
            ray.init(address=address, **init_options)
        self._ray = ray
        self._remote = ray.remote(_call)
        self._refs: dict[cf.Future[Any], Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        """Run ``fn(*args, **kwargs)`` as one Ray task."""
        ref = self._remote.remote(fn, args, kwargs)
        future: cf.Future[Any] = ref.future()
        self._refs[future] = ref
        future.add_done_callback(lambda f: self._refs.pop(f, None))
        return future

    def cancel(self, futures: Iterable[cf.Future[Any]]) -> None:
        """Stop the tasks of ``futures``: one not started never starts, and a running one
        is interrupted at once (Ray raises ``KeyboardInterrupt`` in its task; the
        worker process lives on). Its games are dropped, so stopping mid-game is safe."""
        for future in futures:
            ref = self._refs.pop(future, None)
            if ref is not None:
                self._ray.cancel(ref, force=False)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel the outstanding tasks if asked, then stop Ray if this executor started it."""
        if cancel_futures:
            self.cancel(list(self._refs))
        self._refs.clear()
        if self._started:
            self._started = False
            self._ray.shutdown()


class DaskExecutor(cf.Executor):
    """Runs blocks of games on a Dask distributed cluster (``pip install 'cardkit[dask]'``).

    ``address`` is a scheduler's (``"tcp://scheduler:8786"``); ``None`` uses the one
    named by ``DASK_SCHEDULER_ADDRESS`` or, failing that, starts a
    ``distributed.LocalCluster`` of ``workers`` single-threaded worker processes,
    closed again by :meth:`shutdown`. Every worker needs the same cardkit (and the
    agents' modules) installed. ``client`` uses a ``distributed.Client`` the caller
    already holds (and leaves it open).
    """

    def __init__(
        self, address: str | None = None, *, workers: int | None = None, client: Any = None
    ) -> None:
        import dask
        import distributed

        self._owned: list[Any] = []
        if client is None:
            address = address or os.environ.get("DASK_SCHEDULER_ADDRESS")
            if address is None:
                # read when the servers start: the workers get it from their nannies
                with dask.config.set(QUIET_DASK):
                    cluster = distributed.LocalCluster(
                        n_workers=workers or os.cpu_count() or 1,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        # the cluster object's metadata sent to the scheduler (every
                        # second by default): nothing here reads it
                        scheduler_sync_interval=10,
                    )
                    self._owned.append(cluster)
                    address = cluster.scheduler_address
                    # results straight from the workers: a LocalCluster's scheduler
                    # runs in this process, and relaying each block's result through
                    # it cost this process a second receive and send
                    client = distributed.Client(address, direct_to_workers=True)
            else:
                client = distributed.Client(address)
            self._owned.insert(0, client)
        self.client = client
        self._executor = client.get_executor(pure=False)
        self.halt = _DaskHalt()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        """Run ``fn(*args, **kwargs)`` as one Dask task."""
        future: cf.Future[Any] = self._executor.submit(fn, *args, **kwargs)
        return future

    def cancel(self, futures: Iterable[cf.Future[Any]]) -> None:
        """Stop the tasks of ``futures``: one not started never starts, and a running
        block stops within a few hundred moves once it sees the run's stop flag
        (:attr:`halt`, which it asks the scheduler about every half second). Later
        runs get a fresh flag."""
        halt, self.halt = self.halt, _DaskHalt()
        halt.set(self.client)
        for future in futures:
            future.cancel()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel outstanding tasks if asked, then close the client and cluster it started."""
        if cancel_futures:
            self.halt.set(self.client)
        self._executor.shutdown(wait=wait and not cancel_futures)
        for owned in self._owned:
            owned.close()
        self._owned.clear()


#: The Dask settings of the ``LocalCluster`` a :class:`DaskExecutor` starts. Dask's
#: housekeeping runs on timers whatever the tasks do: every 10 ms each worker samples
#: its task's stack for the dashboard's profile, every 20 ms each server (scheduler,
#: workers, nannies, client) ticks its event loop, every 100 ms ... 1 s the monitors
#: and work stealing run. The scheduler, which a ``LocalCluster`` runs inside the
#: calling process, spent 0.35 CPU s per 1,000 Hold'em games on 2 busy cores (the
#: median of seven runs), growing with wall time rather than with tasks; with these
#: settings, 0.26 s. Blocks of games need none of it: no dashboard, and the run
#: keeps only a few blocks queued per worker, so there is little to steal. Nor do
#: they need the memory manager's replicas (each result is fetched once), the
#: client's poll of the scheduler's worker list every 2 s, or the system monitor's
#: samples more often than every 10 s: without them an idle cluster cost the caller
#: 5.5 to 6.5 ms of CPU a second rather than 7.1 to 8.9 (docs/simulation.md,
#: "Round five"). A cluster of one's own is tuned with the same keys
#: (``dask.config`` or ``DASK_*`` variables, see docs/simulation.md).
QUIET_DASK: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "10s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
    "distributed.scheduler.active-memory-manager.start": False,
    "distributed.client.scheduler-info-interval": "10s",
}


class _DaskHalt:
    """A run's stop flag on a Dask cluster: a named ``distributed.Event``. Dask cannot
    interrupt a running task, so a block asks the flag itself, at most every
    :data:`HALT_POLL` seconds.

    Each question is a round trip to the scheduler, which on a busy machine takes
    tens of milliseconds: asked from the block's own thread, it left the worker idle
    for 3% of a Hold'em run. A short-lived thread asks instead, and the block reads
    its answer at a later check, so the games never wait for the scheduler."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or f"cardkit-halt-{uuid.uuid4().hex}"
        self._next: float | None = None
        self._asking: threading.Thread | None = None
        self._set = False

    def __reduce__(self) -> tuple[Any, ...]:
        return (_DaskHalt, (self.name,))

    def is_set(self) -> bool:
        """Whether the run was cancelled, as of the last answer (asked in a worker)."""
        if self._set:
            return True
        now = time.monotonic()
        if self._next is None:  # a block shorter than one poll never asks
            self._next = now + HALT_POLL
        if now < self._next:
            return False
        self._next = now + HALT_POLL
        if self._asking is None or not self._asking.is_alive():
            from distributed import get_client

            # the worker's client is found from the task's thread only
            self._asking = threading.Thread(target=self._ask, args=(get_client(),), daemon=True)
            self._asking.start()
        return False

    def _ask(self, client: Any) -> None:
        from distributed import Event

        try:
            self._set = bool(Event(self.name, client=client).is_set())
        except Exception:  # a scheduler gone away has no run left to stop
            return

    def set(self, client: Any) -> None:
        """Raise the flag (from the client's side)."""
        from distributed import Event

        Event(self.name, client=client).set()


#: Seconds between two looks at a Dask run's stop flag by a running block.
HALT_POLL = 0.5

_EXECUTORS = ("local", "ray", "dask")


def _executor_for(kind: str, workers: int) -> cf.Executor:
    if kind == "ray":
        return RayExecutor(num_cpus=workers) if not _ray_running() else RayExecutor()
    if kind == "dask":
        return DaskExecutor(workers=workers)
    return _LocalPool(workers)


def _ray_running() -> bool:
    import ray

    return bool(ray.is_initialized()) or "RAY_ADDRESS" in os.environ


def _serializer(runner: cf.Executor) -> Callable[[Any], bytes] | None:
    """How ``runner`` sends a job to its workers, where it is known."""
    if isinstance(runner, cf.ProcessPoolExecutor):
        return pickle.dumps
    if isinstance(runner, RayExecutor):
        from ray import cloudpickle as ray_cloudpickle

        dumps: Callable[[Any], bytes] = ray_cloudpickle.dumps
        return dumps
    if isinstance(runner, DaskExecutor):
        import cloudpickle

        return cloudpickle.dumps  # type: ignore[no-any-return]
    return None


def _check_sendable(
    dumps: Callable[[Any], bytes] | None,
    factories: Sequence[AgentFactory],
    labels: Sequence[str],
    game: str,
    registered: Callable[..., Any] | None,
) -> None:
    """Refuse up front, naming the agent or the game, a factory the workers cannot
    rebuild, instead of a serialization traceback from inside the executor."""
    if dumps is None:
        return
    for seat, (factory, label) in enumerate(zip(factories, labels, strict=True)):
        _sendable(
            dumps,
            factory,
            f"seat {seat}'s agent factory {label!r} ({shown(factory, 40)})",
            "use an agent name, a module-level function or class, or workers=1",
        )
    if registered is not None:
        _sendable(
            dumps,
            registered,
            f"game {game!r} was added with games.register, and its factory "
            f"({shown(registered, 40)})",
            "worker processes know only the built-in games: register a module-level "
            "function or class, or use workers=1",
        )


def _sendable(dumps: Callable[[Any], bytes], thing: Any, what: str, remedy: str) -> None:
    err = _send_error(dumps, thing)
    if err is not None:
        raise RuleOptionError(f"{what} cannot be sent to worker processes ({remedy})") from err


def _send_error(dumps: Callable[[Any], bytes], thing: Any) -> Exception | None:
    try:
        dumps(thing)
    except Exception as err:  # pickling raises several unrelated types
        return err
    return None


# -- the run ----------------------------------------------------------------------------


class _Display:
    """``progress=True``: a line on stderr with games/s and ETA, only on a terminal."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        if not self.enabled or elapsed < 0.5:
            return
        self.shown = True
        rate = done / elapsed
        eta = (total - done) / rate if rate > 0 else math.inf
        bar = "#" * (done * 30 // total)
        print(
            f"\r[{bar:<30}] {done:,}/{total:,} games  {rate:,.0f} games/s  ETA {eta:,.0f} s ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    def close(self) -> None:
        if self.shown:
            self.shown = False
            print(file=sys.stderr)


def _run_blocks(
    executor: cf.Executor,
    blocks: Iterable[_Block],
    window: int,
    collect: Callable[[dict[str, Any]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Every block's result, in block order; at most ``window`` blocks in flight, so a
    long run holds neither every job nor every future at once. A Dask cluster's
    blocks travel sealed (:func:`_play_sealed`)."""
    sealed = isinstance(executor, DaskExecutor)
    task: Callable[[_Block], Any] = _play_sealed if sealed else _play_block
    pending: dict[cf.Future[Any], int] = {}
    parts: list[dict[str, Any]] = []
    todo: Iterator[_Block] = iter(blocks)

    def fill() -> None:
        while len(pending) < window:
            block = next(todo, None)
            if block is None:
                return
            pending[executor.submit(task, block)] = block.start

    try:
        fill()
        while pending:
            # a timeout keeps the main thread waking up, so Ctrl-C is seen at once
            done, _ = cf.wait(pending, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for future in done:
                pending.pop(future)
                result = future.result()
                parts.append(collect(pickle.loads(result) if sealed else result))
            fill()
    except BaseException:
        if isinstance(executor, (RayExecutor, DaskExecutor)):
            executor.cancel(pending)
        for future in pending:
            future.cancel()
        raise
    parts.sort(key=lambda p: p["start"])
    return parts


def _cuts(total: int, workers: int, coarse: bool = False) -> Iterator[tuple[int, int]]:
    """The blocks of a run as ``(start, stop)``: about eight per worker, then, over the
    last two rounds, blocks that shrink with the games left, down to a sixteenth of
    the full size; ``coarse`` (a Ray or Dask cluster): about four per worker, down to
    a quarter.

    A worker that finishes early idles until the run ends, for as long as the last
    block still running elsewhere. Blocks of one size leave that tail at up to a
    whole block; where game lengths vary widely (a Hold'em session lasts from one
    hand to dozens) the blocks' lengths vary too, and the tail grew to a tenth of a
    short run. Shrinking blocks keep it to a small one, while the run still sends
    only about half again as many blocks. A cluster's blocks are coarser because
    each costs the caller far more there: a Dask block's round trips through the
    scheduler and the client took about 9 ms of the caller's CPU on a loaded
    2-core machine, against well under 1 ms for a local pool's (docs/simulation.md,
    "Round four"). The cut depends on ``total``, ``workers`` and ``coarse`` alone,
    and no record depends on it.
    """
    rounds, shrink = (4, 4) if coarse else (8, 16)
    size = max(1, min(MAX_BLOCK, math.ceil(total / (workers * rounds))))
    smallest = max(1, math.ceil(size / shrink))
    start = 0
    while start < total:
        left = total - start
        stop = start + min(size, max(smallest, math.ceil(left / (2 * workers))), left)
        yield start, stop
        start = stop


def _rotations(factories: Sequence[AgentFactory]) -> tuple[tuple[int, ...], ...]:
    """The distinct cyclic seatings: ``seating[s]`` is the index of the agent at seat ``s``."""
    n = len(factories)
    seen: list[tuple[AgentFactory, ...]] = []
    out: list[tuple[int, ...]] = []
    for r in range(n):
        order = tuple((s - r) % n for s in range(n))
        key = tuple(factories[a] for a in order)
        if key not in seen:
            seen.append(key)
            out.append(order)
    return tuple(out)


def _permutations(factories: Sequence[AgentFactory]) -> tuple[tuple[int, ...], ...]:
    """Every distinct seating of the agents (equal factories are interchangeable)."""
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    canon = [factories.index(f) for f in factories]
    for order in itertools.permutations(range(len(factories))):
        key = tuple(canon[a] for a in order)
        if key not in seen:
            seen.add(key)
            out.append(order)
    return tuple(out)


def _resolve_agents(
    name: str, players: int, agents: Sequence[AgentFactory | str] | None
) -> tuple[list[AgentFactory], list[str]]:
    """Factories and display labels: names go through :func:`agent_factory`; equal
    factories share a label, and different ones never do."""
    if agents is None:
        return [RandomAgent] * players, ["random"] * players
    if not is_sequence(agents) or not all(isinstance(a, str) or callable(a) for a in agents):
        raise RuleOptionError(
            f"agents must be a list of agent names or factories, got {shown(agents)}"
        )
    if len(agents) != players:
        raise RuleOptionError(f"{name} needs {players} agents, got {len(agents)}")
    factories: list[AgentFactory] = []
    labels: list[str] = []
    for agent in agents:
        if isinstance(agent, str):
            factory: AgentFactory = _named_agent(name, agent)
            label = agent
        else:
            factory = agent
            label = _label(name, agent)
        if factory in factories:
            label = labels[factories.index(factory)]
        else:
            base, k = label, 2
            while label in labels:
                label, k = f"{base}#{k}", k + 1
        factories.append(factory)
        labels.append(label)
    return factories, labels


def _named_agent(game: str, text: str) -> AgentSpec:
    """``name`` or ``name:key=value:key=value`` (values read as JSON where they parse,
    ``search:samples=64``) as the agent's factory."""
    name, *pairs = text.split(":")
    return agent_factory(game, name, **parse_options(pairs))


def _label(game: str, factory: AgentFactory) -> str:
    """An agent's short name where it has one (``rule``), else its factory's name."""
    if factory is RandomAgent:
        return "random"
    if isinstance(factory, AgentSpec):
        names = [n for n in agent_names(game) if agent_factory(game, n) == factory]
        return names[0] if names else factory.path.rsplit(":", 1)[-1]
    return str(getattr(factory, "__name__", type(factory).__name__))


def _run(
    name: str,
    games: int,
    seed: int,
    agents: Sequence[AgentFactory | str] | None,
    *,
    options: dict[str, Any] | None,
    workers: int | None,
    executor: cf.Executor | str | None,
    seatings_of: Callable[[Sequence[AgentFactory]], tuple[tuple[int, ...], ...]],
    duplicate: bool,
    progress: Progress | bool | None,
) -> SimulationResult:
    if options is not None and not isinstance(options, dict):
        raise RuleOptionError(f"options must be a dict, got {shown(options)}")
    options = dict(options or {})
    game = make(name, **options)
    # an upper bound keeps a huge count from running (and pickling job lists) forever.
    check_count("games", games, 1, MAX_GAMES)
    check_seed("seed", seed)
    if workers is not None:
        check_count("workers", workers, 1, MAX_WORKERS)
    if isinstance(executor, str) and executor not in _EXECUTORS:
        raise RuleOptionError(f"executor must be one of {', '.join(_EXECUTORS)}, got {executor!r}")
    if executor is not None and not isinstance(executor, (str, cf.Executor)):
        raise RuleOptionError(
            f"executor must be a concurrent.futures.Executor, got {shown(executor)}"
        )
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise RuleOptionError(f"progress must be a callable or a bool, got {shown(progress)}")
    factories, labels = _resolve_agents(name, game.num_players, agents)
    seatings = seatings_of(factories)
    total = games * len(seatings) if duplicate else games
    check_count("games x seatings", total, 1, MAX_GAMES)
    workers = workers or os.cpu_count() or 1
    kind = executor if isinstance(executor, str) else ("custom" if executor else "local")
    in_process = kind == "local" and workers == 1
    figures = _has_pyarrow()
    # a fresh worker process knows only the built-in games (see _Block.registered)
    registered = _games.registered_factory(name)
    if (
        registered is not None
        and isinstance(executor, cf.Executor)
        and not isinstance(executor, (RayExecutor, DaskExecutor))
        and _send_error(_serializer(executor) or pickle.dumps, registered) is not None
    ):
        # the caller's pool may be forked, its workers holding the game already: send
        # the factory where it can be sent, and leave the rest to the workers
        registered = None

    def blocks(halt: Any = None, cluster: bool = False, pack: bool = True) -> Iterator[_Block]:
        for s, end in _cuts(total, workers, coarse=cluster):
            yield _Block(
                name,
                options,
                tuple(factories),
                seatings,
                duplicate,
                seed,
                s,
                end,
                figures,
                halt,
                registered,
                cluster,
                pack,
            )

    display = _Display() if progress is True else None
    callback: Progress | None = display or (progress if callable(progress) else None)
    done = 0
    shared_roles: dict[tuple[str, ...], tuple[str, ...]] = {}

    def collect(part: dict[str, Any]) -> dict[str, Any]:
        nonlocal done
        done += len(part["deal"])
        if callback is not None:
            callback(done, total)
        return _compact(part, shared_roles)

    started = time.perf_counter()
    try:
        if in_process:
            parts = [collect(_play_block(block)) for block in blocks(pack=False)]
        else:
            if isinstance(executor, cf.Executor):
                runner, owned = executor, None
            else:
                if kind == "local":
                    # before the pool: starting spawn workers takes a while
                    _check_sendable(pickle.dumps, factories, labels, name, registered)
                runner = owned = _executor_for(kind, workers)
            try:
                _check_sendable(_serializer(runner), factories, labels, name, registered)
                halt = runner.halt if isinstance(runner, DaskExecutor) else None
                cluster = isinstance(runner, (RayExecutor, DaskExecutor))
                parts = _run_blocks(runner, blocks(halt, cluster), 2 * workers, collect)
            except BrokenProcessPool as err:
                raise CardkitError(
                    "simulation worker processes died (spawned workers re-import the "
                    "calling script: it needs a file and an `if __name__ == '__main__':` "
                    "guard; or use workers=1)"
                ) from err
            except BaseException:
                if owned is not None:
                    owned.shutdown(wait=True, cancel_futures=True)
                    owned = None
                raise
            finally:
                if owned is not None:
                    owned.shutdown(wait=True)
    finally:
        if display is not None:
            display.close()
    seconds = time.perf_counter() - started
    return SimulationResult._from_parts(
        name, options, seed, duplicate, factories, labels, seatings, parts, seconds
    )


def _has_pyarrow() -> bool:
    # found, not imported: importing pyarrow (and the pandas its first array imports)
    # takes a second, which a run pays only when it asks for its records
    return importlib.util.find_spec("pyarrow") is not None


def simulate(
    name: str,
    games: int,
    seed: int = 0,
    agents: Sequence[AgentFactory | str] | None = None,
    *,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    executor: cf.Executor | str | None = None,
    rotate_seats: bool = True,
    duplicate: bool = False,
    progress: Progress | bool | None = None,
) -> SimulationResult:
    """Play seeded games of ``name`` between ``agents`` and measure them.

    ``agents`` holds one agent per seat, each a name from
    :func:`cardkit.agents.agent_names` or a factory ``f(seed) -> Agent`` (default:
    :class:`~cardkit.agents.RandomAgent` everywhere). ``options`` are the game's
    rule options (``make(name, **options)``).

    ``rotate_seats`` turns the seating one seat per game, so every agent plays every
    seat equally; ``duplicate=True`` plays each of ``games`` deals once in every
    distinct rotation (the run plays ``games x rotations`` games, whatever
    ``rotate_seats`` says) and measures the agents' paired gaps.

    Where the games run: ``workers=1`` in this process; otherwise a local pool of
    ``workers`` processes (default: every core), started with ``spawn`` on every
    platform, so a script needs the usual ``if __name__ == "__main__":`` guard and
    factories must be picklable (names always are; a clear error names the agent
    that is not). ``executor`` takes any :class:`concurrent.futures.Executor`
    instead (the caller's to shut down), or ``"ray"`` / ``"dask"`` for a
    :class:`RayExecutor` / :class:`DaskExecutor` started (and stopped) for the run.

    ``progress`` is a callback ``progress(games_done, games_total)`` called as blocks
    finish, or ``True`` for a games/s and ETA line on stderr when it is a terminal.
    Ctrl-C stops the work and raises ``KeyboardInterrupt``; nothing is returned or
    written. Blocks not started never start; running ones stop within a few hundred
    moves (:data:`cardkit.play.CHECK_EVERY`), even inside a long match,
    on a local pool and on Dask (within about :data:`HALT_POLL` seconds), are
    interrupted at once on Ray, and run to their end on any other executor.

    The records and statistics are the same for any ``workers`` and ``executor``.
    """
    check_flag("rotate_seats", rotate_seats)
    check_flag("duplicate", duplicate)
    seatings_of = _rotations if duplicate or rotate_seats else _identity
    return _run(
        name,
        games,
        seed,
        agents,
        options=options,
        workers=workers,
        executor=executor,
        seatings_of=seatings_of,
        duplicate=duplicate,
        progress=progress,
    )


def _identity(factories: Sequence[AgentFactory]) -> tuple[tuple[int, ...], ...]:
    return (tuple(range(len(factories))),)


# -- results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentStats:
    """One agent's (or one agent in one role's) figures over a run."""

    agent: str
    #: ``None`` for the agent over every seat; else the role (``landlord``, ``team 0`` ...).
    role: str | None
    #: Games in which the agent held a seat (with this role).
    games: int
    #: Mean return per game: the mean over the agent's seats of each game, then over games.
    mean: float
    #: Half-width of the 95% normal confidence interval of ``mean``.
    ci95: float
    #: Share of the agent's seats (with this role) that won.
    win_rate: float
    #: The Wilson 95% interval of ``win_rate``.
    win_low: float
    win_high: float


@dataclass(frozen=True)
class PairedGap:
    """``agent`` minus ``other``, deal by deal, over a duplicate run: the mean over
    deals of the difference of their mean returns on that deal."""

    agent: str
    other: str
    deals: int
    mean: float
    ci95: float


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """What a run played and measured: per-game records and per-agent statistics.

    The core arrays (``returns``, ``agent_index`` ...) are numpy; :attr:`records`
    turns them and the key figures into a pyarrow table.
    """

    game: str
    options: dict[str, Any]
    games: int
    seed: int
    #: Wall time of the run, starting the pool or cluster it started included.
    seconds: float
    duplicate: bool
    #: The agent label of each agent index (the ``agents`` list, seat order).
    agents: list[str]
    #: ``seatings[j][s]``: the agent index at seat ``s`` in seating ``j``.
    seatings: tuple[tuple[int, ...], ...]
    #: Per game: the deal index (its seed is ``derive_seed(seed, deal)``) and seating.
    deal: np.ndarray = field(repr=False)
    seating: np.ndarray = field(repr=False)
    #: ``returns_array[g, s]``: game ``g``'s return of seat ``s``.
    returns_array: np.ndarray = field(repr=False)
    #: Per game, each seat's role, or ``None`` when the game has no roles.
    roles: list[tuple[str, ...] | None] = field(repr=False)
    _factories: tuple[AgentFactory, ...] = field(repr=False)
    #: Per game, the seed it was dealt from (``derive_seed(seed, deal)``).
    _seeds: np.ndarray = field(repr=False)
    #: Per block, its number of games and key figures by column (``None`` without pyarrow).
    _figures: list[tuple[int, dict[str, Any]]] | None = field(repr=False)

    @classmethod
    def _from_parts(
        cls,
        name: str,
        options: dict[str, Any],
        seed: int,
        duplicate: bool,
        factories: Sequence[AgentFactory],
        labels: Sequence[str],
        seatings: tuple[tuple[int, ...], ...],
        parts: list[dict[str, Any]],
        seconds: float,
    ) -> SimulationResult:
        return cls(
            game=name,
            options=options,
            games=sum(len(p["deal"]) for p in parts),
            seed=seed,
            seconds=seconds,
            duplicate=duplicate,
            agents=list(labels),
            seatings=seatings,
            deal=np.concatenate([p["deal"] for p in parts]),
            seating=np.concatenate([p["seating"] for p in parts]),
            returns_array=np.concatenate([p["returns"] for p in parts]),
            roles=[r for p in parts for r in p["roles"]],
            _factories=tuple(factories),
            _seeds=np.concatenate([p["seed"] for p in parts]),
            _figures=None
            if any(p["figures"] is None for p in parts)
            else [(len(p["deal"]), p["figures"]) for p in parts],
        )

    # -- per game -----------------------------------------------------------------

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.returns_array.shape[1])

    @cached_property
    def agent_index(self) -> np.ndarray:
        """``agent_index[g, s]``: the index into :attr:`agents` of game ``g``'s seat ``s``
        (the first index of its label, so seats of one agent listed twice share it)."""
        first = np.asarray([self.agents.index(label) for label in self.agents], dtype=np.int64)
        index: np.ndarray = first[np.asarray(self.seatings, dtype=np.int64)][self.seating]
        return index

    @cached_property
    def won(self) -> np.ndarray:
        """``won[g, s]``: seat ``s`` has the largest return of game ``g`` and not every
        seat has it (a game where all tie has no winner)."""
        r = self.returns_array
        top = r.max(axis=1, keepdims=True)
        won: np.ndarray = (r == top) & (r.min(axis=1, keepdims=True) < top)
        return won

    @property
    def returns(self) -> list[list[float]]:
        """Every game's returns by seat, in game order."""
        out: list[list[float]] = self.returns_array.tolist()
        return out

    @property
    def mean_returns(self) -> list[float]:
        """Mean return of each seat (whoever sat there)."""
        return [_mean_ci(self.returns_array[:, s])[0] for s in range(self.players)]

    @property
    def ci95(self) -> list[float]:
        """Half-width of the 95% confidence interval of each seat's mean return."""
        return [_mean_ci(self.returns_array[:, s])[1] for s in range(self.players)]

    @property
    def games_per_second(self) -> float:
        """Throughput of the run (all workers together)."""
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def seed_of(self, game: int) -> int:
        """The seed game ``game`` was dealt from."""
        return int(derive_seed(self.seed, int(self.deal[game])))

    def replay(self, game: int) -> State:
        """Play game ``game`` again, in this process, from its recorded seed and seating:
        the same game, move for move (its whole ``score_breakdown()`` included)."""
        check_count("game", game, 0, self.games - 1)
        block = _Block(
            self.game,
            self.options,
            self._factories,
            self.seatings,
            self.duplicate,
            self.seed,
            game,
            game + 1,
            False,
        )
        deal_seed = self.seed_of(game)
        agents = _seated(block, int(self.seating[game]), deal_seed)
        return play(make(self.game, **self.options), agents, seed=deal_seed)

    # -- statistics ---------------------------------------------------------------

    def _agent_rows(self, role: str | None, agent: int) -> AgentStats | None:
        held = self.agent_index == agent
        if role is not None:
            held &= self._role_matrix == role
        games = held.any(axis=1)
        if not games.any():
            return None
        counts = held.sum(axis=1)[games]
        per_game = (self.returns_array * held).sum(axis=1)[games] / counts
        mean, half = _mean_ci(per_game)
        wins, trials = int((self.won & held).sum()), int(held.sum())
        low, high = wilson_interval(wins, trials)
        return AgentStats(
            self.agents[agent], role, int(games.sum()), mean, half, wins / trials, low, high
        )

    @cached_property
    def _role_matrix(self) -> np.ndarray:
        rows = [r if r is not None else [""] * self.players for r in self.roles]
        return np.asarray(rows, dtype=object).reshape(self.games, self.players)

    def _distinct_agents(self) -> list[int]:
        return sorted({self.agents.index(label) for label in self.agents})

    @cached_property
    def agent_stats(self) -> list[AgentStats]:
        """Per agent: mean return with its 95% CI and win rate with its Wilson interval."""
        rows = (self._agent_rows(None, a) for a in self._distinct_agents())
        return [r for r in rows if r is not None]

    @cached_property
    def role_stats(self) -> list[AgentStats]:
        """Per agent and role (landlord/farmer, declarer/defender, team): the same figures
        over the seats the agent held in that role. Empty for a game without roles."""
        names = sorted({r for row in self.roles if row is not None for r in row})
        rows = (self._agent_rows(role, a) for a in self._distinct_agents() for role in names)
        return [r for r in rows if r is not None]

    @cached_property
    def paired_gaps(self) -> list[PairedGap]:
        """Per pair of distinct agents (in list order), their paired gap: only for a
        ``duplicate=True`` run, empty otherwise."""
        if not self.duplicate:
            return []
        deals = int(self.deal.max()) + 1
        agents = self._distinct_agents()
        means = np.zeros((deals, len(agents)))
        for k, agent in enumerate(agents):
            held = self.agent_index == agent
            total = np.bincount(self.deal, (self.returns_array * held).sum(axis=1), deals)
            seats = np.bincount(self.deal, held.sum(axis=1), deals)
            means[:, k] = total / np.maximum(seats, 1)
        gaps = []
        for i, j in itertools.combinations(range(len(agents)), 2):
            mean, half = _mean_ci(means[:, i] - means[:, j])
            gaps.append(
                PairedGap(self.agents[agents[i]], self.agents[agents[j]], deals, mean, half)
            )
        return gaps

    def table(self) -> str:
        """A plain-text report: the run, then per agent, per agent and role, and the
        paired gaps of a duplicate run."""
        lines = [
            f"{self.game}: {self.games} games from seed {self.seed} in {self.seconds:.2f} s "
            f"({self.games_per_second:,.0f} games/s)",
        ]
        width = max(5, *(len(a) for a in self.agents))
        header = f"{'agent':<{width}}  {'role':<8}  {'games':>7}  {'mean return':>11}  95% CI"
        lines.append(f"{header}     win rate  (95% Wilson)")
        for row in [*self.agent_stats, *self.role_stats]:
            lines.append(
                f"{row.agent:<{width}}  {row.role or 'all':<8}  {row.games:>7}  "
                f"{row.mean:>11.4f}  ±{row.ci95:<8.4f}  {row.win_rate:>6.1%}  "
                f"({row.win_low:.1%} .. {row.win_high:.1%})"
            )
        for gap in self.paired_gaps:
            lines.append(
                f"paired gap {gap.agent} - {gap.other} over {gap.deals} deals: "
                f"{gap.mean:.4f} ±{gap.ci95:.4f}"
            )
        return "\n".join(lines)

    # -- records ------------------------------------------------------------------

    @cached_property
    def records(self) -> pa.Table:
        """One row per game (see the module docs for the columns); needs pyarrow
        (``pip install 'cardkit[sim]'``). ``records.to_pandas()`` gives a DataFrame."""
        pa = _pyarrow()
        columns: dict[str, Any] = {
            "game": pa.array(np.arange(self.games, dtype=np.int64)),
            "deal": pa.array(self.deal),
            "seed": pa.array(self._seeds),
            "seating": pa.array(self.seating),
        }
        labels = np.asarray(self.agents, dtype=object)
        has_roles = any(r is not None for r in self.roles)
        for s in range(self.players):
            columns[f"agent_{s}"] = pa.array(labels[self.agent_index[:, s]].tolist(), pa.string())
            columns[f"return_{s}"] = pa.array(self.returns_array[:, s])
            columns[f"won_{s}"] = pa.array(self.won[:, s])
            if has_roles:
                roles = [r[s] if r is not None else None for r in self.roles]
                columns[f"role_{s}"] = pa.array(roles, pa.string())
        if self._figures is not None:
            columns.update(_figure_table(pa, self._figures))
        return pa.table(columns)

    def to_pandas(self) -> Any:
        """:attr:`records` as a pandas DataFrame (needs pandas)."""
        return self.records.to_pandas()

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`records` to a Parquet file, whole or not at all (through a
        temporary file beside it, renamed into place)."""
        import pyarrow.parquet as pq

        records = self.records
        _write_atomically(Path(path), lambda tmp: pq.write_table(records, tmp))

    def plot(self, path: str | os.PathLike[str]) -> None:
        """Save a PNG (needs matplotlib): each agent's running mean return with its 95%
        band, and the distribution of its per-game returns."""
        from matplotlib.figure import Figure as MplFigure

        fig = MplFigure(figsize=(11, 4.5), layout="constrained")
        running, spread = fig.subplots(1, 2)
        for agent in self._distinct_agents():
            held = self.agent_index == agent
            games = held.any(axis=1)
            per_game = (self.returns_array * held).sum(axis=1)[games] / held.sum(axis=1)[games]
            k = np.arange(1, len(per_game) + 1)
            mean = np.cumsum(per_game) / k
            sq = np.cumsum(per_game**2) / k
            half = 1.96 * np.sqrt(np.maximum(sq - mean**2, 0) / np.maximum(k - 1, 1))
            label = self.agents[agent]
            (line,) = running.plot(k, mean, label=label)
            running.fill_between(k, mean - half, mean + half, color=line.get_color(), alpha=0.2)
            spread.hist(per_game, bins=40, alpha=0.5, label=label, color=line.get_color())
        running.axhline(0, color="grey", linewidth=0.8)
        running.set(xlabel="games", ylabel="mean return", title="running mean, 95% band")
        spread.set(xlabel="return per game", ylabel="games", title="returns")
        running.legend()
        spread.legend()
        fig.suptitle(f"{self.game}: {self.games:,} games from seed {self.seed}")
        _write_atomically(Path(path), lambda tmp: fig.savefig(tmp, format="png", dpi=100))


#: Kept for callers of the name before records existed.
SimResult = SimulationResult


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as err:
        raise CardkitError("simulation records need pyarrow: pip install 'cardkit[sim]'") from err
    return pyarrow


def _write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _figure_table(pa: Any, blocks: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """The blocks' key figures as Arrow arrays, one per column, in first-seen order;
    a figure a game lacks is null. A column of one numpy type in every block is
    joined as it is; any other is read by Arrow as a whole (ints mixed with floats
    become floats), and one whose values Arrow cannot give one type (an int in one
    game, a text in another) is kept as JSON text. Either way the column depends on
    the games alone, never on how they were cut into blocks."""
    arrays = {}
    for key in dict.fromkeys(k for _, columns in blocks for k in columns):
        parts = [columns.get(key) for _, columns in blocks]
        kinds = {p.dtype if isinstance(p, np.ndarray) else None for p in parts}
        if len(kinds) == 1 and None not in kinds:
            arrays[key] = pa.array(np.concatenate([p for p in parts if p is not None]))
            continue
        values: list[Any] = []
        for (n, _), part in zip(blocks, parts, strict=True):
            if part is None:
                values.extend([None] * n)
            else:
                values.extend(
                    part.tolist()
                    if isinstance(part, np.ndarray)
                    else part.unpack()
                    if isinstance(part, _Packed)
                    else part
                )
        try:
            arrays[key] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            arrays[key] = pa.array(
                [None if v is None else json.dumps(v) for v in values], pa.string()
            )
    return arrays


def _compact(part: dict[str, Any], roles: dict[tuple[str, ...], tuple[str, ...]]) -> dict[str, Any]:
    """A block's result as it is kept until the run ends: role rows shared between games."""
    part["roles"] = [
        None if r is None else roles.setdefault(tuple(r), tuple(r)) for r in part["roles"]
    ]
    return part


# -- tournaments -------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentResult:
    """A tournament's ranking: agents by mean return, with their Elo ratings."""

    #: Every game the tournament played (a duplicate run over every seating).
    result: SimulationResult
    #: Per agent, best first.
    ranking: list[AgentStats]
    #: Elo rating per agent (mean 1500), fitted as a Bradley-Terry model on every
    #: pair of seats of different agents in every game (the higher return wins,
    #: equal returns count half).
    elo: dict[str, float]

    def table(self) -> str:
        """The ranking as text: place, agent, mean return with its CI, win rate, Elo."""
        lines = [f"{'#':>2}  {'agent':<12}  {'mean return':>11}  95% CI     win rate   Elo"]
        for place, row in enumerate(self.ranking, 1):
            lines.append(
                f"{place:>2}  {row.agent:<12}  {row.mean:>11.4f}  ±{row.ci95:<8.4f}  "
                f"{row.win_rate:>7.1%}  {self.elo[row.agent]:>5.0f}"
            )
        return "\n".join(lines)


def _fit_elo(result: SimulationResult) -> dict[str, float]:
    agents = result._distinct_agents()
    slot = {a: k for k, a in enumerate(agents)}
    n = len(agents)
    wins = np.zeros((n, n))
    r, idx = result.returns_array, result.agent_index
    for s, t in itertools.combinations(range(result.players), 2):
        a = np.array([slot[x] for x in idx[:, s]])
        b = np.array([slot[x] for x in idx[:, t]])
        differ = a != b
        score = np.where(r[:, s] > r[:, t], 1.0, np.where(r[:, s] < r[:, t], 0.0, 0.5))[differ]
        np.add.at(wins, (a[differ], b[differ]), score)
        np.add.at(wins, (b[differ], a[differ]), 1 - score)
    # Hunter's MM iteration for Bradley-Terry; half a win against each other agent
    # keeps an agent that never won (or never lost) at a finite rating.
    wins += 0.5 * (1 - np.eye(n))
    games = wins + wins.T
    strength = np.ones(n)
    for _ in range(1000):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = wins.sum(axis=1) / denom
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, strength, rtol=1e-10, atol=0):
            break
        strength = new
    ratings = 400 * np.log10(strength)
    ratings += 1500 - ratings.mean()
    return {result.agents[a]: float(ratings[k]) for k, a in enumerate(agents)}


def tournament(
    name: str,
    agents: Sequence[AgentFactory | str],
    games: int,
    seed: int = 0,
    *,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    executor: cf.Executor | str | None = None,
    progress: Progress | bool | None = None,
) -> TournamentResult:
    """Play ``games`` deals in every distinct seating of ``agents`` (one per seat,
    names or factories) and rank them by mean return, with Elo ratings.

    Every seating meets the same deals, so luck of the cards cancels out; the run
    plays ``games x seatings`` games (up to ``players!``). The other arguments are
    those of :func:`simulate`.
    """
    result = _run(
        name,
        games,
        seed,
        agents,
        options=options,
        workers=workers,
        executor=executor,
        seatings_of=_permutations,
        duplicate=True,
        progress=progress,
    )
    ranking = sorted(result.agent_stats, key=lambda row: row.mean, reverse=True)
    return TournamentResult(result, ranking, _fit_elo(result))
