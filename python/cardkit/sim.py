"""Seeded, parallel simulation: many games, reproducible from one seed.

Game ``i`` of a run uses the seed ``derive_seed(seed, i)`` and seat ``s``'s agent
is built with ``derive_seed(game_seed, s + 1)``, so a run's results depend only on
``seed`` and the number of games, never on how many worker processes share them.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardkit._core import derive_seed
from cardkit._validate import check_count, check_seed, is_sequence
from cardkit.agents import RandomAgent
from cardkit.api import Agent
from cardkit.errors import RuleOptionError, shown
from cardkit.games import make
from cardkit.play import play

__all__ = ["AgentFactory", "SimResult", "mean_ci", "simulate"]

#: Most games and worker processes one run accepts.
MAX_GAMES = 10**9
MAX_WORKERS = 1024

#: Builds the agent for one seat of one game from a seed.
AgentFactory = Callable[[int], Agent]


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% normal confidence interval (sample variance)."""
    n = len(values)
    if n == 0:
        raise RuleOptionError("mean_ci needs at least one value")
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


@dataclass(frozen=True)
class SimResult:
    """What a simulation run measured, per seat."""

    game: str
    games: int
    seed: int
    seconds: float
    #: Mean of ``state.returns()[seat]`` over all games.
    mean_returns: list[float]
    #: Half-width of the 95% normal confidence interval of each mean.
    ci95: list[float]
    #: Every game's returns, in game order (game ``i`` used ``derive_seed(seed, i)``).
    returns: list[list[float]] = field(repr=False)

    @property
    def games_per_second(self) -> float:
        """Throughput of the run (all workers together)."""
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def table(self) -> str:
        """A plain-text summary, one line per seat."""
        lines = [
            f"{self.game}: {self.games} games from seed {self.seed} in {self.seconds:.2f} s "
            f"({self.games_per_second:,.0f} games/s)",
            "seat  mean return  95% CI",
        ]
        for seat, (m, h) in enumerate(zip(self.mean_returns, self.ci95, strict=True)):
            lines.append(f"{seat:>4}  {m:>11.4f}  ±{h:.4f}")
        return "\n".join(lines)


def _play_range(
    args: tuple[str, dict[str, Any], Sequence[AgentFactory], int, int, int],
) -> list[list[float]]:
    name, options, factories, seed, start, stop = args
    game = make(name, **options)
    out = []
    for i in range(start, stop):
        game_seed = derive_seed(seed, i)
        agents = [f(derive_seed(game_seed, s + 1)) for s, f in enumerate(factories)]
        out.append([float(r) for r in play(game, agents, seed=game_seed).returns()])
    return out


def _check_picklable(factories: Sequence[AgentFactory]) -> None:
    """Worker processes rebuild each factory from its pickle: refuse one that has none
    up front, with the seat named, instead of a pickling traceback from the pool."""
    for seat, factory in enumerate(factories):
        try:
            pickle.dumps(factory)
        except Exception as err:  # pickle raises several unrelated types
            raise RuleOptionError(
                f"seat {seat}'s agent factory {shown(factory)} cannot be sent to worker "
                "processes (use a module-level function or class, or workers=1)"
            ) from err


def simulate(
    name: str,
    games: int,
    seed: int = 0,
    *,
    agents: Sequence[AgentFactory] | None = None,
    workers: int | None = None,
    options: dict[str, Any] | None = None,
) -> SimResult:
    """Play ``games`` seeded games of ``name`` and summarise each seat's returns.

    ``agents`` holds one factory per seat (default: :class:`RandomAgent`); factories
    must be picklable (module-level functions or classes) when ``workers > 1``.
    ``workers`` defaults to every core; ``1`` runs in this process. Workers are
    started with the ``spawn`` method on every platform, so a script that calls
    this with ``workers > 1`` needs the usual ``if __name__ == "__main__":`` guard.
    """
    if options is not None and not isinstance(options, dict):
        raise RuleOptionError(f"options must be a dict, got {shown(options)}")
    options = dict(options or {})
    game = make(name, **options)
    # an upper bound keeps a huge count from running (and pickling job lists) forever.
    check_count("games", games, 1, MAX_GAMES)
    check_seed("seed", seed)
    if workers is not None:
        check_count("workers", workers, 0, MAX_WORKERS)
    if agents is not None and (not is_sequence(agents) or not all(map(callable, agents))):
        raise RuleOptionError(f"agents must be a list of agent factories, got {shown(agents)}")
    factories: list[AgentFactory] = list(agents or [RandomAgent] * game.num_players)
    if len(factories) != game.num_players:
        raise RuleOptionError(f"{name} needs {game.num_players} agents, got {len(factories)}")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise RuleOptionError(f"workers must be at least 1, got {workers}")
    chunk = max(1, math.ceil(games / (workers * 4)))
    jobs = [
        (name, options, factories, seed, start, min(start + chunk, games))
        for start in range(0, games, chunk)
    ]
    started = time.perf_counter()
    if workers == 1 or len(jobs) == 1:
        parts = [_play_range(job) for job in jobs]
    else:
        _check_picklable(factories)
        # spawn is the one start method every platform has (fork is missing on Windows
        # and unsafe on macOS), and it gives each worker a clean interpreter rather
        # than a copy of the caller's threads and locks.
        with multiprocessing.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
            parts = pool.map(_play_range, jobs)
    seconds = time.perf_counter() - started
    results = [r for part in parts for r in part]
    summaries = [mean_ci([r[seat] for r in results]) for seat in range(game.num_players)]
    means = [m for m, _ in summaries]
    halves = [h for _, h in summaries]
    return SimResult(name, games, seed, seconds, means, halves, results)
