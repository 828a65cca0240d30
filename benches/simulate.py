"""Simulation at scale, per game: games/s through ``cardkit.sim.simulate`` with random
agents on 1 and 2 local worker processes, on a local Ray and a local Dask cluster of
2 workers, and the cost of the record keeping against a bare ``play`` loop.

Each game's count is chosen from a short calibration so that one cell takes about
``--seconds`` on one core, and at least 4 games (two blocks per worker). A game
that takes seconds (a random Spades match plays all 10,000 deals) gets those few
games, warm-ups of one game per worker, its cells timed once and fewer overhead
pairs, so that its row ends in minutes rather than hours.

Each 2-worker cell starts its pool or cluster, warms it up, times its run and stops
it (the footer gives what starting a local pool adds to a cold run), so no other
column runs beside an idle executor: Ray's raylet, GCS server and idle workers take
30 to 50 ms of CPU a second, an idle Dask cluster 10 to 15, and on 2 cores that
came out of the columns timed while they were up. The "2 procs" column
is two independent 1-worker processes side by side, the parallel speed the machine
gives right now and so the ceiling of every 2-worker column (a machine shared with
other work may not give two free cores).

With ``--rounds K`` every parallel column is timed K times in rounds (1 worker, 2
local, 2 procs, Ray, Dask, then again), and each speed-up is the median over the
rounds of the ratio to that round's own 1-worker rate, with its range. On a host
whose speed drifts (the same build's 1-worker rate moved by half between runs here),
a ratio of two runs taken seconds apart is steadier than a ratio of two best-ofs
taken minutes apart. A slow game (above) keeps its single timing per cell.

The footer gives this process's CPU per game in the 2-worker columns: the local
pool's parent, Ray's driver, and for Dask the scheduler, nannies and client of
its ``LocalCluster``, which run here and take a core's time from the workers
(``benches/simulate_cpu.py`` gives the workers' and Ray's other processes' too).

The record overhead is measured in CPU time of this process, from interleaved pairs
(a bare loop, then ``simulate(workers=1)`` with its records built, on the same
games and seeds), so that load from other processes falls on both sides alike; the
table gives the median of the pairs and their spread.

Run: python benches/simulate.py [--game NAME|all] [--seconds S] [--rounds K] [--option key=value]
(needs ``pip install '.[sim,ray,dask]'``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cardkit import derive_seed
from cardkit.agents import RandomAgent
from cardkit.games import available, make
from cardkit.play import play
from cardkit.sim import DaskExecutor, RayExecutor, _LocalPool, simulate


def bare(name: str, options: dict[str, Any], games: int, first: int = 0) -> None:
    """Plain ``play`` calls with the simulator's seeds (seed 0) for games ``first ..
    first + games - 1``: no records, no figures."""
    game = make(name, **options)
    for g in range(first, first + games):
        seed = derive_seed(0, g)
        agents = [RandomAgent(derive_seed(seed, s + 1)) for s in range(game.num_players)]
        play(game, agents, seed=seed)


#: Per column: this process's CPU per game in each timed run (µs).
CALLER: dict[str, list[float]] = {}


def rate(name: str, options: dict[str, Any], games: int, **kwargs: Any) -> float:
    """Wall-clock games/s of one ``simulate`` call."""
    start = time.perf_counter()
    simulate(name, games, seed=0, options=options, **kwargs)
    return games / (time.perf_counter() - start)


def caller_rate(
    column: str, name: str, options: dict[str, Any], games: int, **kwargs: Any
) -> float:
    """:func:`rate`, noting this process's CPU per game under ``column``: the pool's
    parent, Ray's driver, or a local Dask cluster's scheduler, nannies and client,
    all of which take a core's time from the workers on a 2-core machine."""
    start = time.process_time()
    games_per_second = rate(name, options, games, **kwargs)
    CALLER.setdefault(column, []).append((time.process_time() - start) / games * 1e6)
    return games_per_second


def overhead(name: str, options: dict[str, Any], games: int, pairs: int) -> list[float]:
    """Per interleaved pair: CPU time of ``simulate`` (records built) over that of the
    bare loop on the same games, minus one. The side that goes first alternates, so a
    drift in the machine's load falls on both alike."""

    def plain() -> float:
        start = time.process_time()
        bare(name, options, games)
        return time.process_time() - start

    def recorded() -> float:
        start = time.process_time()
        _ = simulate(name, games, seed=0, options=options, workers=1).records
        return time.process_time() - start

    out = []
    for k in range(pairs):
        if k % 2:
            with_records, without = recorded(), plain()
        else:
            without, with_records = plain(), recorded()
        out.append(with_records / without - 1)
    return out


def two_processes(name: str, options: dict[str, Any], games: int) -> float:
    """Games/s of two independent 1-worker runs side by side, half the games each (the
    sum of their rates, each timed inside its process: interpreter start left out)."""
    code = (
        "import json, sys, time; from cardkit.sim import simulate; "
        "n, options = int(sys.argv[2]), json.loads(sys.argv[3]); "
        "simulate(sys.argv[1], 4, options=options, workers=1); "
        "start = time.perf_counter(); "
        "simulate(sys.argv[1], n, options=options, workers=1); "
        "print(n / (time.perf_counter() - start))"
    )
    argv = [sys.executable, "-c", code, name, str(games // 2), json.dumps(options)]
    children = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        return sum(float(child.communicate()[0]) for child in children)
    finally:
        # on Ctrl-C (or a failed child) the other child must not play on unwatched
        for child in children:
            if child.poll() is None:
                child.terminate()
                child.wait()


@contextlib.contextmanager
def executor(column: str) -> Iterator[Any]:
    """The pool or cluster of a 2-worker column (``two``, ``ray``, ``dask``), up for
    that column's timing only; on the way out of a Ctrl-C its running blocks are
    stopped (each before its next move), or the exit would wait for them."""
    pool: Any
    if column == "two":
        pool = _LocalPool(2)
    elif column == "ray":
        pool = RayExecutor(num_cpus=2, include_dashboard=False, log_to_driver=False)
    else:
        pool = DaskExecutor(workers=2)
    try:
        yield pool
    except BaseException:
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown()


def games_per_second(rate: float) -> str:
    """A rate for the table: whole games/s, or three digits for a game that takes
    seconds (a random Spades match), which would print as 0."""
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.3g}"


#: The parallel columns, in the order a round times them.
COLUMNS = ("two", "ceiling", "ray", "dask")


@dataclass
class Row:
    """One game's figures: its count, games/s per column (the best run, or with
    rounds the median), each column's speed-ups over the 1-worker rate (one per
    round), and the overhead pairs."""

    game: str
    games: int
    bare: float
    one: float
    rates: dict[str, float]
    ratios: dict[str, list[float]]
    overheads: list[float]

    def cell(self, column: str) -> str:
        """A column's games/s with its speed-up: the ratio, or with rounds the
        median ratio and its range."""
        ratios = self.ratios[column]
        if len(ratios) == 1:
            return f"{games_per_second(self.rates[column])} ({ratios[0]:.2f}x)"
        return (
            f"{games_per_second(self.rates[column])} ({statistics.median(ratios):.2f}x; "
            f"{min(ratios):.2f} .. {max(ratios):.2f})"
        )


def measure(name: str, options: dict[str, Any], args: argparse.Namespace) -> Row:
    """Every column of one game's row, with a count sized to ``--seconds`` of CPU."""
    # imports and first arrays, then the cost of one game on this machine now, a
    # game at a time (one random Spades match takes seconds)
    _ = simulate(name, 1, options=options, workers=1).records
    calibrated, start = 0, time.process_time()
    while time.process_time() - start < 0.3:
        bare(name, options, 1, calibrated)
        calibrated += 1
    per_game = (time.process_time() - start) / calibrated
    n = max(4, round(args.seconds / per_game))
    # a slow game: one timing per cell, and overhead pairs of one game a side worth
    # about --seconds in all (at least 3)
    slow = per_game * n > 5 * args.seconds
    repeat = 1 if slow else args.repeat
    small = max(1 if slow else 8, n // (2 * args.pairs))
    pairs = max(3, min(args.pairs, round(args.seconds / (2 * per_game)))) if slow else args.pairs

    def once(column: str) -> float:
        if column == "one":
            return rate(name, options, n, workers=1)
        if column == "ceiling":
            return two_processes(name, options, n)
        with executor(column) as pool:
            simulate(name, 2 if slow else 16, options=options, executor=pool, workers=2)
            return caller_rate(column, name, options, n, executor=pool, workers=2)

    start = time.perf_counter()
    bare(name, options, n)
    plain = n / (time.perf_counter() - start)
    if args.rounds > 1 and not slow:
        # each round times every column once, back to back, so that a drift of the
        # host's speed between rounds falls on a round's 1-worker rate too
        rounds = [{c: once(c) for c in ("one", *COLUMNS)} for _ in range(args.rounds)]
        one = statistics.median(r["one"] for r in rounds)
        rates = {c: statistics.median(r[c] for r in rounds) for c in COLUMNS}
        ratios = {c: [r[c] / r["one"] for r in rounds] for c in COLUMNS}
    else:
        one = max(once("one") for _ in range(repeat))
        rates = {c: max(once(c) for _ in range(repeat)) for c in COLUMNS}
        ratios = {c: [rates[c] / one] for c in COLUMNS}
    return Row(name, n, plain, one, rates, ratios, overhead(name, options, small, pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="doudizhu", help="a game name, or all")
    parser.add_argument("--option", action="append", default=[], help="key=value (JSON)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per cell")
    parser.add_argument("--repeat", type=int, default=2, help="best of this many runs")
    parser.add_argument(
        "--rounds", type=int, default=1, help="time the columns in this many rounds (medians)"
    )
    parser.add_argument("--pairs", type=int, default=15, help="interleaved overhead pairs")
    args = parser.parse_args()
    # Started with `&` from a script (a shell without job control), this process
    # inherits SIGINT ignored, as POSIX asks, and CPython then installs no
    # KeyboardInterrupt handler: `kill -INT` did nothing, and a killed run leaves its
    # Ray and Dask processes behind. A bench is meant to be stopped that way.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    names = available() if args.game == "all" else [args.game]

    start = time.perf_counter()
    local = _LocalPool(2)
    list(local.map(abs, [1, 2]))
    pool_start = time.perf_counter() - start
    local.shutdown()
    load = os.getloadavg()
    print(
        f"random agents{' ' + json.dumps(options) if options else ''}; load average "
        f"{load[0]:.1f} at the start (2 cores)"
    )
    print()
    print(
        "| game | games | bare play | 1 worker | 2 local | 2 procs | Ray 2 | Dask 2 "
        "| records overhead, median (spread) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", flush=True)
    for name in names:
        r = measure(name, options, args)
        spread = f"{min(r.overheads):+.1%} .. {max(r.overheads):+.1%}"
        cells = " | ".join(r.cell(c) for c in COLUMNS)
        print(
            f"| {r.game} | {r.games:,} | {games_per_second(r.bare)} | "
            f"{games_per_second(r.one)} | {cells} "
            f"| {statistics.median(r.overheads):+.1%} ({spread}) |",
            flush=True,
        )
    print()
    what = (
        f"the median of {args.rounds} rounds; (x) is the median ratio to the round's "
        "1 worker, with its range"
        if args.rounds > 1
        else f"the best of {args.repeat} runs; (x) is the ratio to 1 worker"
    )
    print(f"games/s, {what}.")
    print("Targets: 2 local >= 1.8x, Ray and Dask >= 1.6x, records <= 10% of a Dou Dizhu game.")
    caller = ", ".join(
        f"{label} {statistics.median(CALLER[c]):,.0f} µs"
        for c, label in (("two", "2 local"), ("ray", "Ray 2"), ("dask", "Dask 2"))
        if c in CALLER
    )
    print(f"This process's CPU per game (median over the timed runs of every game): {caller}.")
    print(
        f"Starting a local pool of 2 took "
        f"{pool_start:.2f} s (a cold workers=2 run pays it once). Load average at the "
        f"end: {os.getloadavg()[0]:.1f}."
    )


if __name__ == "__main__":
    main()
