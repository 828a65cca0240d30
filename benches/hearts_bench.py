"""Hearts benchmarks: speed side by side with OpenSpiel, and agent strength.

    python benches/hearts_bench.py speed [--deals 3000]
    python benches/hearts_bench.py strength [--deals 10000] [--worlds 100]

``speed``: random single deals through the Python State API (cardkit and
OpenSpiel's ``hearts``, passing included in both; five alternating rounds of
``deals / 5`` seeded deals each, so load from other processes hits both alike),
and the Rust playout path the search agent uses (random and heuristic policies, one thread).
``strength``: seeded deals (``match=False``), the tested agent in one seat
(rotating) against three copies of the weaker agent; reports the tested seat's
average penalty points and the opponents', with 95% confidence intervals of the
per-deal difference. Lower points are better.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import cardkit
from _timing import interleaved
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.agents import RandomAgent
from cardkit.agents.hearts import HeartsRuleAgent, HeartsSearchAgent
from cardkit.api import Agent
from cardkit.games.hearts import Hearts
from cardkit.sim import mean_ci


def speed(deals: int) -> None:
    ck, os_rate = interleaved(Hearts(match=False), "hearts", deals)
    n = 200_000
    start = time.perf_counter()
    _bench.hearts_playouts(n, 1, 1.0)
    rust_random = n / (time.perf_counter() - start)
    start = time.perf_counter()
    _bench.hearts_playouts(n, 1, 0.1)
    rust_heur = n / (time.perf_counter() - start)
    print(f"Hearts, random single deals ({deals} per engine), deals/s")
    print(f"{'engine':44} {'deals/s':>12} {'vs OpenSpiel':>13}")
    base = os_rate or float("nan")
    rows = [
        ("OpenSpiel hearts (Python API)", os_rate),
        ("cardkit State API (Python)", ck),
        ("cardkit Rust playout, random (1 thread)", rust_random),
        ("cardkit Rust playout, heuristic (1 thread)", rust_heur),
    ]
    for name, rate in rows:
        if rate is None:
            print(f"{name:44} {'not installed':>12}")
        else:
            print(f"{name:44} {rate:12,.0f} {rate / base:12.2f}x")


def strength(
    deals: int, tested: Callable[[int], Agent], weaker: Callable[[int], Agent], label: str
) -> None:
    game = Hearts(match=False)
    diffs: list[float] = []
    own: list[float] = []
    others: list[float] = []
    start = time.perf_counter()
    for seed in range(deals):
        seat = seed % 4
        agents = [tested(seed) if s == seat else weaker(seed * 4 + s) for s in range(4)]
        state = cardkit.play(game, agents, seed=seed)
        points = state.scores
        mine = points[seat]
        rest = (sum(points) - mine) / 3
        own.append(mine)
        others.append(rest)
        diffs.append(mine - rest)
    elapsed = time.perf_counter() - start
    m, h = mean_ci(diffs)
    print(
        f"{label:28} {deals:7} {sum(own) / deals:9.2f} {sum(others) / deals:10.2f} "
        f"{m:+9.2f} ± {h:4.2f} {elapsed:8.1f}s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["speed", "strength"])
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--worlds", type=int, default=100)
    args = parser.parse_args()
    if args.mode == "speed":
        speed(args.deals or 3000)
        return
    deals = args.deals or 10_000
    print(f"Hearts strength, {deals} seeded deals each, search worlds={args.worlds}")
    print(
        f"{'tested vs 3 opponents':28} {'deals':>7} {'tested':>9} {'opponents':>10} "
        f"{'diff (95% CI)':>16} {'time':>9}"
    )
    worlds = args.worlds
    strength(deals, lambda s: HeartsRuleAgent(), RandomAgent, "rule vs random")
    strength(
        deals, lambda s: HeartsSearchAgent(s, worlds), lambda s: HeartsRuleAgent(), "search vs rule"
    )
    strength(deals, lambda s: HeartsSearchAgent(s, worlds), RandomAgent, "search vs random")


if __name__ == "__main__":
    main()
