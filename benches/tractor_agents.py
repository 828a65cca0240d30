"""Tractor agent strength over seeded single deals, the teams swapping seats every
deal: the rule agent against random players, and (``--search-deals``) the search
agent against the rule agent. Prints each pairing's mean levels per deal for the
first-named team (the game's single-deal return) with a 95% confidence interval.

Run: python benches/tractor_agents.py [--deals N] [--search-deals N] [--worlds W]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

import cardkit
from cardkit.agents import RandomAgent
from cardkit.agents.tractor import TractorRuleAgent, TractorSearchAgent
from cardkit.api import Agent


def pairing(
    name: str, deals: int, ours: Callable[[int], Agent], theirs: Callable[[int], Agent]
) -> None:
    """Play ``deals`` seeded deals, ``ours`` on seats 0/2 in even deals and 1/3 in odd ones."""
    game = cardkit.games.make("tractor", match=False)
    results = []
    for seed in range(deals):
        team = seed % 2
        agents = [ours(4 * seed + s) if s % 2 == team else theirs(4 * seed + s) for s in range(4)]
        results.append(cardkit.play(game, agents, seed=seed).returns()[team])
    mean = statistics.mean(results)
    half = 1.96 * statistics.stdev(results) / len(results) ** 0.5
    print(f"{name} over {len(results)} deals: {mean:+.3f} levels per deal")
    print(f"  95% CI [{mean - half:+.3f}, {mean + half:+.3f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--search-deals", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=16)
    args = parser.parse_args()
    pairing("rule vs random", args.deals, TractorRuleAgent, RandomAgent)
    if args.search_deals:
        pairing(
            f"search (worlds={args.worlds}) vs rule",
            args.search_deals,
            lambda seed: TractorSearchAgent(seed, worlds=args.worlds),
            TractorRuleAgent,
        )


if __name__ == "__main__":
    main()
