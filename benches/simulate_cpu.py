"""CPU per game, by process, of ``cardkit.sim.simulate`` on 2 workers: the calling
process, the worker processes, and the other processes the executor started (Ray's
raylet and GCS server), for one executor (a local pool, Ray or Dask) alone in this
process.

On a 2-core machine every microsecond the caller (a local pool's parent, Ray's
driver, a local Dask cluster's scheduler, nannies and client, which all run in the
calling process) spends per game is taken from the two workers. CPU time per game
stays steady on a loaded machine, where wall-clock speed-ups do not: compare builds
or branches with it, runs interleaved, and leave the speed-ups to a quiet machine.

The executor is started and warmed up before timing; each run plays ``--games``
games from its own seed. Per run the line gives µs of CPU per game for the caller
(``time.process_time``), the workers and the rest (``psutil``, children of this
process), and the wall time per game.

Run: python benches/simulate_cpu.py [--executor local|ray|dask] [--game NAME]
[--games N] [--runs K] (needs ``pip install '.[sim,ray,dask]'``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import psutil

from cardkit.sim import DaskExecutor, RayExecutor, _LocalPool, simulate


def children_cpu() -> dict[int, tuple[float, str]]:
    """CPU seconds and command line of every process this one started, by pid."""
    out = {}
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
            out[child.pid] = (times.user + times.system, " ".join(child.cmdline()))
        except psutil.Error:  # a process that ended since it was listed
            continue
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--executor", default="dask", choices=("local", "ray", "dask"))
    parser.add_argument("--game", default="holdem")
    parser.add_argument("--games", type=int, default=3000, help="games per run")
    parser.add_argument("--runs", type=int, default=4)
    args = parser.parse_args()

    executor: _LocalPool | RayExecutor | DaskExecutor
    workers: Callable[[], set[int]]
    if args.executor == "local":
        executor = _LocalPool(2)
        list(executor.map(abs, [1, 2]))
        pool = executor

        def workers() -> set[int]:
            return {p.pid for p in (pool._processes or {}).values() if p.pid is not None}

    elif args.executor == "ray":
        executor = RayExecutor(num_cpus=2, include_dashboard=False, log_to_driver=False)

        def workers() -> set[int]:
            # Ray names its worker processes ray::<task> (ray::IDLE between tasks)
            return {pid for pid, (_, cmd) in children_cpu().items() if cmd.startswith("ray::")}

    else:
        executor = DaskExecutor(workers=2)
        pids = set(executor.client.run(os.getpid).values())

        def workers() -> set[int]:
            return pids

    print(
        f"{args.game}, {args.games} games a run on 2 workers ({args.executor}); load average "
        f"{os.getloadavg()[0]:.1f} at the start; µs of CPU per game"
    )
    rows: list[dict[str, float]] = []
    try:
        simulate(args.game, 64, executor=executor, workers=2)
        for run in range(args.runs):
            before, cpu, wall = children_cpu(), time.process_time(), time.perf_counter()
            simulate(args.game, args.games, seed=run, executor=executor, workers=2)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            after, busy = children_cpu(), workers()
            spent = {pid: after[pid][0] - before.get(pid, (0.0, ""))[0] for pid in after}
            per_game = 1e6 / args.games
            row = {
                "caller": cpu * per_game,
                "workers": sum(t for pid, t in spent.items() if pid in busy) * per_game,
                "other": sum(t for pid, t in spent.items() if pid not in busy) * per_game,
                "wall": wall * per_game,
            }
            rows.append(row)
            print("  ".join(f"{k} {v:,.0f}" for k, v in row.items()), flush=True)
    finally:
        executor.shutdown()
    medians = "  ".join(f"{k} {statistics.median(r[k] for r in rows):,.0f}" for k in rows[0])
    print(f"median  {medians}; load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
