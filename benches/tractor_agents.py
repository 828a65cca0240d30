"""Tractor agent strength: the rule agent's team against random players over seeded
single deals, the teams swapping seats every deal. Prints the rule team's mean levels
per deal (the game's single-deal return) with a 95% confidence interval.

Run: python benches/tractor_agents.py [--deals N]
"""

from __future__ import annotations

import argparse
import statistics

import cardkit
from cardkit.agents import RandomAgent
from cardkit.agents.tractor import TractorRuleAgent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2_000)
    args = parser.parse_args()
    game = cardkit.games.make("tractor", match=False)
    results = []
    for seed in range(args.deals):
        team = seed % 2
        agents = [
            TractorRuleAgent(4 * seed + s) if s % 2 == team else RandomAgent(4 * seed + s)
            for s in range(4)
        ]
        results.append(cardkit.play(game, agents, seed=seed).returns()[team])
    mean = statistics.mean(results)
    half = 1.96 * statistics.stdev(results) / len(results) ** 0.5
    print(f"rule vs random over {len(results)} deals: {mean:+.3f} levels per deal")
    print(f"  95% CI [{mean - half:+.3f}, {mean + half:+.3f}]")


if __name__ == "__main__":
    main()
