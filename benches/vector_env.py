"""Env steps per second of ``cardkit.envs.VectorEnv`` on 1 and 2 threads.

Random legal actions are drawn from the masks in numpy (a uniform draw per id,
zeroed where illegal, argmax per row), as a learning loop would. Two rates per
row: counting only the time inside ``step`` (the env), and the whole loop with
the numpy sampling. Build with ``maturin develop --release`` for real numbers.

    python benches/vector_env.py [--envs 2048] [--steps 300]
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
    draw = np.empty(batch.masks.shape, dtype=np.float32)
    in_step = 0.0
    start = time.perf_counter()
    for _ in range(steps):
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
    args = parser.parse_args()
    print(f"### VectorEnv, {args.envs} envs, {args.steps} steps, random legal actions")
    print()
    print("| game | threads | env steps/s (step only) | env steps/s (with numpy sampling) |")
    print("| --- | ---: | ---: | ---: |")
    for game in GAMES:
        for threads in (1, 2):
            env_rate, loop_rate = measure(game, args.envs, threads, args.steps)
            print(f"| {game} | {threads} | {env_rate:,.0f} | {loop_rate:,.0f} |")


if __name__ == "__main__":
    main()
