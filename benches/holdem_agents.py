"""Hold'em agents against the baselines: big blinds per 100 hands with 95% intervals.

Heads-up single hands (``make("holdem", players=2, match=False)``, stacks of 50 big
blinds), seeded, with the button alternating so each agent sits in both seats.
``EquityAgent`` plays ``RandomAgent`` and ``CallingStationAgent``.

    python benches/holdem_agents.py [hands]     # default 10000 per pairing
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from cardkit import games, play
from cardkit.agents import RandomAgent
from cardkit.agents.holdem import CallingStationAgent, EquityAgent
from cardkit.api import Agent
from cardkit.sim import mean_ci


def bb_per_100(
    make_hero: Callable[[int], Agent], make_villain: Callable[[int], Agent], hands: int
) -> tuple[float, float]:
    """Mean and 95% half-interval of the hero's big blinds won per 100 hands."""
    results = []
    big = 20
    for seed in range(hands):
        hero = seed % 2
        game = games.make("holdem", players=2, match=False, button=seed % 2)
        agents = [make_hero(seed), make_villain(seed)]
        if hero == 1:
            agents.reverse()
        state = play(game, agents, seed=seed)
        results.append(state.returns()[hero] / big * 100)
    return mean_ci(results)


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    pairings: list[tuple[str, Callable[[int], Agent], Callable[[int], Agent]]] = [
        ("EquityAgent vs RandomAgent", EquityAgent, lambda s: RandomAgent(s + 1)),
        ("EquityAgent vs CallingStation", EquityAgent, lambda s: CallingStationAgent()),
        ("CallingStation vs RandomAgent", lambda s: CallingStationAgent(), RandomAgent),
    ]
    print(f"{'pairing':<32} {'hands':>6} {'bb/100':>9} {'95% CI':>20} {'s':>6}")
    for name, hero, villain in pairings:
        start = time.perf_counter()
        mean, half = bb_per_100(hero, villain, hands)
        took = time.perf_counter() - start
        ci = f"[{mean - half:.1f}, {mean + half:.1f}]"
        print(f"{name:<32} {hands:>6} {mean:>9.1f} {ci:>20} {took:>6.0f}")


if __name__ == "__main__":
    main()
