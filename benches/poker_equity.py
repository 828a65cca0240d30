"""Equity speed: cardkit against eval7 and pokerkit, in one run.

- exact heads-up preflop (AhAs vs KdKc, 1,712,304 boards): cardkit on 1 and 2
  threads (eval7's ``py_hand_vs_range_exact`` is left out: it returns 1.0 at once for
  this preflop question, so it does not enumerate boards; pokerkit has no exact mode);
- heads-up Monte Carlo (AhKh vs QsQd on Jh9h2c, and preflop): trials per second of
  cardkit on 1 and 2 threads, eval7's ``py_hand_vs_range_monte_carlo`` and pokerkit's
  ``calculate_equities`` (pokerkit is pure Python, so it gets far fewer trials);
- hand against a range (AhKh vs two ranges, preflop): cardkit on 1 and 2 threads and
  eval7's ``py_hand_vs_range_monte_carlo``, ratios against cardkit on one thread.

    python benches/poker_equity.py [--samples 5000000] [--pokerkit-samples 2000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import eval7
import pokerkit

from cardkit.poker import equity


def best_time(run: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def print_table(title: str, unit: str, rates: dict[str, float], ours: str) -> None:
    print(f"\n{title}")
    print(f"{'library':<28}{unit:>16}{'cardkit x':>12}")
    for name, r in rates.items():
        print(f"{name:<28}{r:>16,.1f}{rates[ours] / r:>11.2f}x")


def monte_carlo_rates(board: tuple[str, ...], n: int, m: int) -> dict[str, float]:
    """Trials per second for AhKh vs QsQd on ``board``."""
    rates = {
        f"cardkit MC, {t} thread{'s' if t > 1 else ''}": n
        / best_time(
            lambda t=t: equity(["AhKh", "QsQd"], " ".join(board), samples=n, seed=1, threads=t)
        )
        for t in (1, 2)
    }
    hand = [eval7.Card("Ah"), eval7.Card("Kh")]
    e7_board = [eval7.Card(c) for c in board]
    e7_range = eval7.HandRange("QsQd")
    rates["eval7 monte carlo"] = n / best_time(
        lambda: eval7.py_hand_vs_range_monte_carlo(hand, e7_range, e7_board, n), repeat=1
    )
    pk_ranges = (pokerkit.parse_range("AhKh"), pokerkit.parse_range("QsQd"))
    pk_board = tuple(pokerkit.Card.parse("".join(board)))
    rates["pokerkit calculate_equities"] = m / best_time(
        lambda: pokerkit.calculate_equities(
            pk_ranges,
            pk_board,
            2,
            5,
            pokerkit.Deck.STANDARD,
            (pokerkit.StandardHighHand,),
            sample_count=m,
        ),
        repeat=1,
    )
    return rates


def hand_vs_range_rates(villain: str, n: int) -> dict[str, float]:
    """Trials per second for AhKh against the range ``villain``, preflop."""
    rates = {
        f"cardkit MC, {t} thread{'s' if t > 1 else ''}": n
        / best_time(lambda t=t: equity(["AhKh", villain], samples=n, seed=1, threads=t))
        for t in (1, 2)
    }
    hand = [eval7.Card("Ah"), eval7.Card("Kh")]
    e7_range = eval7.HandRange(villain)
    rates["eval7 monte carlo"] = n / best_time(
        lambda: eval7.py_hand_vs_range_monte_carlo(hand, e7_range, [], n), repeat=1
    )
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5_000_000)
    parser.add_argument("--pokerkit-samples", type=int, default=2000)
    args = parser.parse_args()

    # Exact heads-up preflop: runs per second (1 / seconds per run).
    exact: dict[str, float] = {
        f"cardkit exact, {t} thread{'s' if t > 1 else ''}": 1
        / best_time(lambda t=t: equity(["AhAs", "KdKc"], exact=True, threads=t))
        for t in (1, 2)
    }
    print_table("exact AhAs vs KdKc preflop", "runs/s", exact, "cardkit exact, 2 threads")
    for name, r in exact.items():
        print(f"  {name}: {1000 / r:.2f} ms per run")

    for label, board in (("flop Jh9h2c", ("Jh", "9h", "2c")), ("preflop", ())):
        print_table(
            f"heads-up Monte Carlo, AhKh vs QsQd {label}",
            "trials/s",
            monte_carlo_rates(board, args.samples, args.pokerkit_samples),
            "cardkit MC, 2 threads",
        )
    for villain in ("QQ+,AKs,AKo", "22+,A2s+,KTs+,ATo+"):
        print_table(
            f"hand vs range Monte Carlo, AhKh vs {villain} preflop",
            "trials/s",
            hand_vs_range_rates(villain, args.samples),
            "cardkit MC, 1 thread",
        )


if __name__ == "__main__":
    main()
