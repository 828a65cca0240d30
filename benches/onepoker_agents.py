"""One Poker agents against the baselines: match win rate with 95% intervals.

Full matches (20 chips each, ante 1) from seeds 0..N-1, the strong agent in seat
0 for even seeds and seat 1 for odd ones; prints matches, deals played, the win
rate and its normal-approximation interval.

    python benches/onepoker_agents.py [matches]     # default 2000 (over 10,000 deals)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from cardkit import games, play
from cardkit.agents import RandomAgent
from cardkit.agents.holdem import CallingStationAgent
from cardkit.agents.onepoker import SignalAgent
from cardkit.api import Agent
from cardkit.games.onepoker import OnePokerState


def win_rate(
    make_hero: Callable[[int], Agent], make_villain: Callable[[int], Agent], matches: int
) -> tuple[float, float, int]:
    """Hero's match win rate, its 95% half-interval, and the deals played."""
    game = games.make("onepoker")
    wins = deals = 0
    for seed in range(matches):
        hero = seed % 2
        agents = [make_hero(seed), make_villain(seed)]
        if hero == 1:
            agents.reverse()
        state = play(game, agents, seed=seed)
        assert isinstance(state, OnePokerState)
        wins += state.returns()[hero] > 0
        deals += len(state.deals)
    rate = wins / matches
    half = 1.96 * (rate * (1 - rate) / matches) ** 0.5
    return rate, half, deals


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    pairings: list[tuple[str, Callable[[int], Agent], Callable[[int], Agent]]] = [
        ("SignalAgent vs RandomAgent", SignalAgent, lambda s: RandomAgent(s + 1)),
        ("SignalAgent vs CallingStation", SignalAgent, lambda s: CallingStationAgent()),
    ]
    print(f"{'pairing':<32} {'matches':>7} {'deals':>7} {'win rate':>9} {'95% CI':>16} {'s':>5}")
    for name, hero, villain in pairings:
        start = time.perf_counter()
        rate, half, deals = win_rate(hero, villain, matches)
        took = time.perf_counter() - start
        ci = f"[{rate - half:.3f}, {rate + half:.3f}]"
        print(f"{name:<32} {matches:>7} {deals:>7} {rate:>9.3f} {ci:>16} {took:>5.0f}")


if __name__ == "__main__":
    main()
