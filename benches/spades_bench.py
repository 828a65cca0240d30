"""Spades benchmarks: speed side by side with OpenSpiel, and agent strength.

    python benches/spades_bench.py speed [--deals 3000]
    python benches/spades_bench.py strength [--deals 10000] [--matches 1000] [--worlds 100]

``speed``: random single deals through the Python State API (cardkit and
OpenSpiel's ``spades``, bidding included in both; five alternating rounds of
``deals / 5`` seeded deals each, so load from other processes hits both alike),
and the Rust playout path the search agent uses (one thread).
``strength``: the tested agent as one partnership against the weaker agent,
sides alternating by seed. Per seeded deal (``match=False``): the tested team's
deal points minus the other team's, with a 95% confidence interval. Per match (to
500, default options): the tested team's win rate with a 95% Wilson score
interval (a normal interval collapses to zero width at a 100% win rate).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import cardkit
from _timing import interleaved
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.agents import RandomAgent
from cardkit.agents.spades import SpadesRuleAgent, SpadesSearchAgent
from cardkit.api import Agent
from cardkit.games.spades import Spades
from cardkit.sim import mean_ci


def speed(deals: int) -> None:
    ck, os_rate = interleaved(Spades(match=False), "spades", deals)
    n = 200_000
    start = time.perf_counter()
    _bench.spades_playouts(n, 1, 3, 1.0)
    rust_random = n / (time.perf_counter() - start)
    start = time.perf_counter()
    _bench.spades_playouts(n, 1, 3, 0.1)
    rust_heur = n / (time.perf_counter() - start)
    print(f"Spades, random single deals ({deals} per engine), deals/s")
    print(f"{'engine':44} {'deals/s':>12} {'vs OpenSpiel':>13}")
    base = os_rate or float("nan")
    rows = [
        ("OpenSpiel spades (Python API)", os_rate),
        ("cardkit State API (Python)", ck),
        ("cardkit Rust playout, random (1 thread)", rust_random),
        ("cardkit Rust playout, heuristic (1 thread)", rust_heur),
    ]
    for name, rate in rows:
        if rate is None:
            print(f"{name:44} {'not installed':>12}")
        else:
            print(f"{name:44} {rate:12,.0f} {rate / base:12.2f}x")


Factory = Callable[[int], Agent]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval (low, high) of a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _table(seed: int, tested: Factory, weaker: Factory) -> tuple[list[Agent], int]:
    team = seed % 2
    agents = [tested(seed * 4 + s) if s % 2 == team else weaker(seed * 4 + s) for s in range(4)]
    return agents, team


def strength(deals: int, matches: int, tested: Factory, weaker: Factory, label: str) -> None:
    start = time.perf_counter()
    diffs: list[float] = []
    for seed in range(deals):
        agents, team = _table(seed, tested, weaker)
        state = cardkit.play(Spades(match=False), agents, seed=seed)
        diffs.append(state.returns()[team])
    wins = 0
    match_deals = 0
    for seed in range(matches):
        agents, team = _table(seed, tested, weaker)
        state = cardkit.play(Spades(), agents, seed=seed)
        wins += state.winning_team() == team
        match_deals += len(state.score_breakdown()["deals"])
    elapsed = time.perf_counter() - start
    m, h = mean_ci(diffs)
    low, high = wilson(wins, matches)
    rate = 100 * wins / matches if matches else float("nan")
    print(
        f"{label:20} {deals:7} {m:+9.1f} ± {h:5.1f} {matches:8} {rate:6.1f}% "
        f"[{100 * low:5.1f}, {100 * high:5.1f}] {match_deals:7} {elapsed:8.1f}s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["speed", "strength"])
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=100)
    args = parser.parse_args()
    if args.mode == "speed":
        speed(args.deals or 3000)
        return
    deals = args.deals or 10_000
    worlds = args.worlds
    print(f"Spades strength, search worlds={worlds}; tested team vs weaker team")
    print(
        f"{'tested vs weaker':20} {'deals':>7} {'pts/deal (95% CI)':>17} {'matches':>8} "
        f"{'win rate [95% Wilson]':>22} {'m.deals':>7} {'time':>9}"
    )
    strength(deals, args.matches, lambda s: SpadesRuleAgent(), RandomAgent, "rule vs random")
    strength(
        deals,
        args.matches,
        lambda s: SpadesSearchAgent(s, worlds),
        lambda s: SpadesRuleAgent(),
        "search vs rule",
    )


if __name__ == "__main__":
    main()
