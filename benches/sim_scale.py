"""Simulation at scale: games/s through ``cardkit.sim.simulate`` with random agents on
1 and 2 local worker processes, on a local Ray and a local Dask cluster of 2 workers,
and the cost of the record keeping against a bare ``play`` loop. Prints each rate
and its ratio to the 1-worker local rate.

The local pool is started by each call, so its rate includes starting the workers
(as a user's run does); the Ray and Dask clusters are started once before timing
(as a cluster is). Run: python benches/sim_scale.py [--games N] [--game NAME]
(needs ``pip install '.[sim,ray,dask]'``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from cardkit import derive_seed
from cardkit.agents import RandomAgent
from cardkit.games import make
from cardkit.play import play
from cardkit.sim import DaskExecutor, RayExecutor, simulate


def bare(name: str, options: dict[str, Any], games: int) -> float:
    """Games/s of plain ``play`` calls with the simulator's seeds: no records, no figures."""
    game = make(name, **options)
    start = time.perf_counter()
    for g in range(games):
        seed = derive_seed(0, g)
        agents = [RandomAgent(derive_seed(seed, s + 1)) for s in range(game.num_players)]
        play(game, agents, seed=seed)
    return games / (time.perf_counter() - start)


def through(name: str, options: dict[str, Any], games: int, **kwargs: Any) -> float:
    """Games/s of one ``simulate`` call (records and statistics included)."""
    start = time.perf_counter()
    result = simulate(name, games, seed=0, options=options, **kwargs)
    seconds = time.perf_counter() - start
    _ = result.records  # building the table is part of the run's cost
    return result.games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="doudizhu")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--option", action="append", default=[], help="key=value (JSON)")
    args = parser.parse_args()

    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    name, n = args.game, args.games

    rows: list[tuple[str, float]] = []
    base_play = bare(name, options, n)
    one = through(name, options, n, workers=1)
    rows.append(("bare play loop, 1 process", base_play))
    rows.append(("simulate, 1 worker (in process)", one))
    rows.append(("simulate, 2 local workers", through(name, options, n, workers=2)))

    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ray_executor = RayExecutor()
        through(name, options, 200, executor=ray_executor, workers=2)  # warm the workers
        rows.append(
            (
                "simulate, Ray (2 local CPUs)",
                through(name, options, n, executor=ray_executor, workers=2),
            )
        )
    finally:
        ray.shutdown()

    dask_executor = DaskExecutor(workers=2)
    try:
        through(name, options, 200, executor=dask_executor, workers=2)
        rows.append(
            (
                "simulate, Dask (LocalCluster, 2 workers)",
                through(name, options, n, executor=dask_executor, workers=2),
            )
        )
    finally:
        dask_executor.shutdown()

    print(f"### {name} {options or ''}: {n} games, random agents")
    print()
    print("| run | games/s | vs 1 worker |")
    print("| --- | ---: | ---: |")
    for label, value in rows:
        print(f"| {label} | {value:,.0f} | {value / one:.2f}x |")
    print()
    overhead = (1 / one - 1 / base_play) * base_play
    print(f"record keeping and statistics: {overhead:+.1%} of a bare game's time")


if __name__ == "__main__":
    main()
