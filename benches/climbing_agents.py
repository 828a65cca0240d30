"""Agent strength for Dou Dizhu and Zheng Shangyou: search > rule > random.

Each matchup plays every seeded deal three times, the stronger agent in one seat and
the weaker in the other two, rotating the seat. It reports the stronger agent's mean
return per deal with a 95% confidence interval (a gap is shown when the interval
excludes zero); for Dou Dizhu also split by whether it was the landlord or a farmer
(the farmer row: the stronger agent is one farmer, partnered with a weaker one).

Run: python benches/climbing_agents.py [--deals N] [--samples S]  (issue target: N=10000)
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import cardkit
from cardkit.agents import RandomAgent
from cardkit.agents.doudizhu import DouDizhuRuleAgent, DouDizhuSearchAgent
from cardkit.agents.zhengshangyou import ZhengShangyouRuleAgent, ZhengShangyouSearchAgent
from cardkit.api import Agent

Factory = Callable[[int], Agent]


def _agents(game: str, samples: int) -> dict[str, Factory]:
    if game == "doudizhu":
        return {
            "random": lambda s: RandomAgent(s),
            "rule": lambda s: DouDizhuRuleAgent(),
            "search": lambda s: DouDizhuSearchAgent(s, samples),
        }
    return {
        "random": lambda s: RandomAgent(s),
        "rule": lambda s: ZhengShangyouRuleAgent(),
        "search": lambda s: ZhengShangyouSearchAgent(s, samples),
    }


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    n = len(values)
    if n < 2:
        return (values[0] if values else 0.0, math.inf)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def matchup(game_name: str, strong: Factory, weak: Factory, deals: int) -> dict[str, list[float]]:
    game = cardkit.games.make(game_name)
    out: dict[str, list[float]] = {"all": [], "landlord": [], "farmer": []}
    for seed in range(deals):
        for hero in range(3):
            agents = [strong(seed * 3 + s) if s == hero else weak(seed * 3 + s) for s in range(3)]
            state = cardkit.play(game, agents, seed=seed)
            value = state.returns()[hero]
            out["all"].append(value)
            if game_name == "doudizhu":
                landlord = state.score_breakdown()["landlord"]
                out["landlord" if landlord == hero else "farmer"].append(value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--games", nargs="*", default=["doudizhu", "zhengshangyou"])
    args = parser.parse_args()
    print(f"deals per matchup: {args.deals} (x3 seat rotations); search samples {args.samples}")
    print(f"{'game':<14} {'matchup':<18} {'as':<9} {'n':>6} {'mean':>8} {'95% CI':>18} gap>0")
    for name in args.games:
        agents = _agents(name, args.samples)
        for strong, weak in (("rule", "random"), ("search", "rule")):
            start = time.perf_counter()
            results = matchup(name, agents[strong], agents[weak], args.deals)
            for role, values in results.items():
                if not values:
                    continue
                mean, half = interval(values)
                ok = "yes" if mean - half > 0 else "no"
                ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
                label = f"{strong} vs {weak}"
                print(
                    f"{name:<14} {label:<18} {role:<9} {len(values):>6} {mean:>+8.2f} {ci:>18} {ok}"
                )
            print(f"{'':<14} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
