"""Hand evaluation speed: cardkit against treys, eval7 and phevaluator, in one run.

Per-call: one Python call per hand, each library given its own card objects
(prepared outside the timed loop), best of five rounds that take turns. Batch:
``cardkit.poker.evaluate_batch`` on a numpy array of card indices against the
per-call loops of the peers (none of them has a batch API). Prints hands per
second and cardkit's speed-up over each peer.

    python benches/poker_eval.py [--hands 200000] [--batch 2000000] [--batch-repeat 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

import eval7
import numpy as np
import phevaluator
import treys

from cardkit import Card, deck
from cardkit.poker import evaluate, evaluate_batch


def random_hands(count: int, size: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    cards = deck("standard52")
    return [rng.sample(cards, size) for _ in range(count)]


def rate(run: Callable[[], object], count: int, repeat: int = 3) -> float:
    """Best-of-``repeat`` hands per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def per_call(hands: Sequence[Sequence[Card]]) -> dict[str, float]:
    n = len(hands)
    texts = [[str(c) for c in h] for h in hands]
    ours = [list(h) for h in hands]
    packed = ["".join(t) for t in texts]
    e7 = [[eval7.Card(c) for c in t] for t in texts]
    tr = [[treys.Card.new(c) for c in t] for t in texts]
    tr_eval = treys.Evaluator()
    ph = [[phevaluator.Card(c) for c in t] for t in texts]

    def loop(fn: Callable[[object], object], data: Sequence[object]) -> Callable[[], None]:
        def run() -> None:
            for h in data:
                fn(h)

        return run

    runs: dict[str, Callable[[], object]] = {
        "cardkit (Card list)": loop(evaluate, ours),  # type: ignore[arg-type]
        "cardkit (string)": loop(evaluate, packed),  # type: ignore[arg-type]
        "eval7": loop(eval7.evaluate, e7),
        "treys": lambda: [tr_eval.evaluate(h[:2], h[2:]) for h in tr],
        "phevaluator": lambda: [phevaluator.evaluate_cards(*h) for h in ph],
    }
    # Rounds run every library once in turn, so a drift in machine speed during
    # the run hits them all alike instead of skewing the ratios.
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(5):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: n / seconds for name, seconds in best.items()}


def batch(
    count: int, size: int, seed: int, repeat: int, peers: dict[str, float]
) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    rows = np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.uint8)
    rates = {
        f"cardkit batch, {t} thread{'s' if t > 1 else ''}": rate(
            lambda t=t: evaluate_batch(rows, threads=t), count, repeat
        )
        for t in (1, 2)
    }
    # The same with one result buffer reused across calls (``out=``): a fresh result
    # array costs page faults and zeroing on every call.
    out = np.empty(count, dtype=np.uint32)
    for t in (1, 2):
        name = f"cardkit batch, {t} thread{'s' if t > 1 else ''}, out="
        rates[name] = rate(lambda t=t: evaluate_batch(rows, threads=t, out=out), count, repeat)
    rates.update({f"{name} (per-call)": r for name, r in peers.items()})
    return rates


def print_table(title: str, rates: dict[str, float], ours: str) -> None:
    print(f"\n{title}")
    print(f"{'library':<24}{'hands/s':>14}{'cardkit x':>12}")
    for name, r in rates.items():
        ratio = rates[ours] / r
        print(f"{name:<24}{r:>14,.0f}{ratio:>11.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=1)
    # A batch call takes milliseconds and this machine's memory speed drifts from
    # moment to moment, so batch rates are the best of many calls.
    parser.add_argument("--batch-repeat", type=int, default=20)
    args = parser.parse_args()
    for size in (5, 7):
        hands = random_hands(args.hands, size, args.seed)
        calls = per_call(hands)
        print_table(f"per-call, {size}-card hands", calls, "cardkit (Card list)")
        peers = {k: v for k, v in calls.items() if not k.startswith("cardkit")}
        print_table(
            f"batch, {size}-card hands (numpy uint8, {args.batch:,} rows)",
            batch(args.batch, size, args.seed, args.batch_repeat, peers),
            "cardkit batch, 1 thread",
        )


if __name__ == "__main__":
    main()
