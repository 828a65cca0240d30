"""Simulation at scale: games/s through ``cardkit.sim.simulate`` with random agents on
1 and 2 local worker processes, on a local Ray and a local Dask cluster of 2 workers,
and the cost of the record keeping against a bare ``play`` loop. Prints each rate
and its ratio to the 1-worker local rate.

The local pool is started by each call, so its rate includes starting the workers
(as a user's run does); the Ray and Dask clusters are started once before timing
(as a cluster is). A machine shared with other work may not give two free cores:
the "two independent processes" row shows what it gives, the ceiling of every
2-worker row. Run: python benches/simulate.py [--games N] [--game NAME]
(needs ``pip install '.[sim,ray,dask]'``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
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


def two_processes(name: str, options: dict[str, Any], games: int) -> float:
    """Games/s of two independent 1-worker runs side by side, half the games each:
    the parallel speed this machine gives right now, the ceiling of any 2-worker run."""
    code = (
        "import json, sys; from cardkit.sim import simulate; "
        "simulate(sys.argv[1], int(sys.argv[2]), options=json.loads(sys.argv[3]), workers=1)"
    )
    argv = [sys.executable, "-c", code, name, str(games // 2), json.dumps(options)]
    start = time.perf_counter()
    children = [subprocess.Popen(argv) for _ in range(2)]
    for child in children:
        child.wait()
    return 2 * (games // 2) / (time.perf_counter() - start)


def on_cluster(executor: Any, args: argparse.Namespace) -> float:
    """Best games/s on a running cluster, after a short run that warms its workers."""
    options = _options(args)
    through(args.game, options, 200, executor=executor, workers=2)
    return max(
        through(args.game, options, args.games, executor=executor, workers=2)
        for _ in range(args.repeat)
    )


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="doudizhu")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--option", action="append", default=[], help="key=value (JSON)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()

    options = _options(args)
    name, n = args.game, args.games

    rows: list[tuple[str, float]] = []
    # best of interleaved pairs: on a shared machine one lone timing is mostly noise
    pairs = [
        (bare(name, options, n), through(name, options, n, workers=1)) for _ in range(args.repeat)
    ]
    base_play = max(p for p, _ in pairs)
    one = max(s for _, s in pairs)
    rows.append(("bare play loop, 1 process", base_play))
    rows.append(("simulate, 1 worker (in process)", one))
    ceiling = max(two_processes(name, options, n) for _ in range(args.repeat))
    rows.append(("ceiling: two independent 1-worker processes", ceiling))
    two = max(through(name, options, n, workers=2) for _ in range(args.repeat))
    rows.append(("simulate, 2 local workers (pool start included)", two))

    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        rows.append(("simulate, Ray (2 local CPUs)", on_cluster(RayExecutor(), args)))
    finally:
        ray.shutdown()
    dask_executor = DaskExecutor(workers=2)
    try:
        rows.append(("simulate, Dask (LocalCluster, 2 workers)", on_cluster(dask_executor, args)))
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
