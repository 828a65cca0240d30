"""Env steps per second of ``cardkit.envs.VectorEnv`` on 1 and 2 threads.

Random legal actions are drawn in numpy, as a learning loop would: from the
masks (a uniform draw per id, zeroed where illegal, argmax per row) for Hearts,
Spades, Zheng Shangyou and Hold'em (four players, the game's defaults), and from
``env.legal_ids()`` (the same ids without the zeros; one index per row) for Dou
Dizhu, Guandan and Tractor, whose 24,643-, 2,410- and 3,693-wide masks cost numpy
more to scan than the env takes to step. Two rates per row: counting only the time inside
``step`` (the env), and the whole loop with the sampling. Build with
``maturin develop --release`` for real numbers.

    python benches/vector_env.py [--envs 2048] [--steps 300] [--game tractor]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardkit.envs import VectorEnv
from cardkit.envs.vector import GAMES


def measure(game: str, num_envs: int, threads: int, steps: int) -> tuple[float, float]:
    """(env-only, whole-loop) env steps per second over ``steps`` calls."""
    env = VectorEnv(game, num_envs, seed=1, threads=threads)
    batch = env.reset()
    rng = np.random.default_rng(0)
    wide = batch.masks.shape[1] > 1000
    draw = np.empty(batch.masks.shape if not wide else 0, dtype=np.float32)
    in_step = 0.0
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
    return num_envs * steps / in_step, num_envs * steps / total


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
    for game in [args.game] if args.game else GAMES:
        for threads in (1, 2):
            env_rate, loop_rate = measure(game, args.envs, threads, args.steps)
            print(f"| {game} | {threads} | {env_rate:,.0f} | {loop_rate:,.0f} |")


if __name__ == "__main__":
    main()
