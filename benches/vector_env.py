"""Env steps per second of ``cardkit.envs.VectorEnv`` on 1 and 2 threads.

Random legal actions are drawn in numpy, as a learning loop would: from the
masks (a uniform draw per id, zeroed where illegal, argmax per row) for Hearts,
Spades, Zheng Shangyou and Hold'em (four players, the game's defaults), and from
``env.legal_ids()`` (the same ids without the zeros; one index per row) for Dou
Dizhu, Guandan and Tractor, whose 24,643-, 2,410- and 3,693-wide masks cost numpy
more to scan than the env takes to step. Two rates per row: counting only the time inside
``step`` (the env), and the whole loop with the sampling. Build with
``maturin develop --release`` for real numbers.

On a shared machine two runs of one build differ as much as builds do, so a
second table reads the env's own per-thread counters (``cardkit._core._test``,
not API): each thread's busy time inside the calls and its share of the slots,
and the busy-time scaling (1-thread busy time over the 2-thread run's busiest
thread: 2.00 is linear), which CPU time shows where wall time cannot.

    python benches/vector_env.py [--envs 2048] [--steps 300] [--game tractor]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardkit._core import _test  # type: ignore[attr-defined]
from cardkit.envs import VectorEnv
from cardkit.envs.vector import GAMES

#: Each thread's (busy seconds, CPU seconds, slots stepped, calls), helpers first,
#: the caller last.
Busy = list[tuple[float, float, int, int]]


def measure(game: str, num_envs: int, threads: int, steps: int) -> tuple[float, float, Busy]:
    """(env-only, whole-loop) env steps per second over ``steps`` calls, and each
    thread's work in those calls."""
    env = VectorEnv(game, num_envs, seed=1, threads=threads)
    batch = env.reset()
    rng = np.random.default_rng(0)
    wide = batch.masks.shape[1] > 1000
    draw = np.empty(batch.masks.shape if not wide else 0, dtype=np.float32)
    in_step = 0.0
    # Counters since the env was made: the reset's work is taken off at the end.
    before = _test.vector_thread_busy(env._core)
    start = time.perf_counter()
    for _ in range(steps):
        if wide:
            ids, offsets = env.legal_ids()
            counts = np.diff(offsets)
            # Finished slots have no ids and ignore their action: any index will do.
            pick = np.minimum(
                offsets[:-1] + (rng.random(num_envs) * counts).astype(np.int64),
                max(ids.size - 1, 0),
            )
            actions = ids[pick] if ids.size else np.zeros(num_envs, dtype=np.int64)
        else:
            rng.random(dtype=np.float32, out=draw)
            np.multiply(draw, batch.masks, out=draw)
            actions = draw.argmax(axis=1).astype(np.int64)
        t = time.perf_counter()
        batch = env.step(actions)
        in_step += time.perf_counter() - t
    total = time.perf_counter() - start
    after = _test.vector_thread_busy(env._core)
    busy = [
        tuple(late - early for early, late in zip(b, a, strict=True))
        for b, a in zip(before, after, strict=True)
    ]
    return num_envs * steps / in_step, num_envs * steps / total, busy


def busy_cells(busy: Busy) -> str:
    """Each thread's CPU (and wall) time, share of the slots and calls joined."""
    total = sum(b[2] for b in busy) or 1
    return " / ".join(
        f"{cpu * 1e3:,.0f} ms CPU ({wall * 1e3:,.0f} wall), {slots / total:.0%}, {calls}"
        for wall, cpu, slots, calls in busy
    )


def per_slot(busy: Busy) -> float:
    """CPU nanoseconds per slot stepped, over every thread."""
    return sum(b[1] for b in busy) / max(sum(b[2] for b in busy), 1) * 1e9


def main() -> None:
    """Print a markdown table of the rates for every supported game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=2048)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--game", choices=GAMES, help="one game only (default: all)")
    args = parser.parse_args()
    print(f"### VectorEnv, {args.envs} envs, {args.steps} steps, random legal actions")
    print()
    print("| game | threads | env steps/s (step only) | env steps/s (with numpy sampling) |")
    print("| --- | ---: | ---: | ---: |")
    work: list[tuple[str, Busy, Busy]] = []
    for game in [args.game] if args.game else GAMES:
        runs = {}
        for threads in (1, 2):
            env_rate, loop_rate, runs[threads] = measure(game, args.envs, threads, args.steps)
            print(f"| {game} | {threads} | {env_rate:,.0f} | {loop_rate:,.0f} |")
        work.append((game, runs[1], runs[2]))
    print()
    print("### Per-thread work in step: CPU time (wall), share of slots, calls")
    print()
    print(
        "Helper first, caller last. Per-slot efficiency: CPU ns per slot on 1 thread"
        " over that on 2 (1.00: each thread steps as fast as one alone). CPU scaling:"
        " 1-thread CPU time over the 2-thread run's busiest thread (2.00: linear)."
    )
    print()
    print("| game | 1 thread | 2 threads | ns/slot 1 → 2 | per-slot efficiency | CPU scaling |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for game, one, two in work:
        ns1, ns2 = per_slot(one), per_slot(two)
        scaling = one[-1][1] / max(max(b[1] for b in two), 1e-12)
        print(
            f"| {game} | {busy_cells(one)} | {busy_cells(two)} | {ns1:,.0f} → {ns2:,.0f}"
            f" | {ns1 / ns2:.2f} | {scaling:.2f}x |"
        )


if __name__ == "__main__":
    main()
