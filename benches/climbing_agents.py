"""Agent strength for Dou Dizhu and Zheng Shangyou: search > rule > random.

Each matchup plays every seeded deal three times, the stronger agent in one seat and
the weaker in the other two, rotating the seat, and once more with the weaker agent in
every seat (the baseline). The gap is the stronger agent's return minus the baseline
return of the same seat on the same deal (paired, so seat and deal luck cancel),
averaged with a 95% confidence interval; "gap>0" when the interval excludes zero. For
Dou Dizhu the gap is also split by the stronger agent's role in its game: landlord, or
farmer (partnered with a weaker agent).

Run: python benches/climbing_agents.py [--deals N] [--samples S]  (issue target: N=10000)
     [--endgame CARDS] [--halving] [--only-endgame]: the search with the endgame
     solver, or by successive halving (halving=True), vs the plain search
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import cardkit
from cardkit.agents import RandomAgent
from cardkit.agents.doudizhu import DouDizhuRuleAgent, DouDizhuSearchAgent
from cardkit.agents.zhengshangyou import ZhengShangyouRuleAgent, ZhengShangyouSearchAgent
from cardkit.api import Agent
from cardkit.sim import mean_ci

Factory = Callable[[int], Agent]


def _agents(game: str, samples: int, endgame: int) -> dict[str, Factory]:
    search = DouDizhuSearchAgent if game == "doudizhu" else ZhengShangyouSearchAgent
    rule = DouDizhuRuleAgent if game == "doudizhu" else ZhengShangyouRuleAgent
    return {
        "random": lambda s: RandomAgent(s),
        "rule": lambda s: rule(),
        "search": lambda s: search(s, samples),
        # the same search, solving sampled deals exactly from `endgame` cards left
        "endgame": lambda s: search(s, samples, endgame=endgame),
        # the same playouts, spent by successive halving of the candidate moves
        "halving": lambda s: search(s, samples, halving=True),
    }


def matchup(game_name: str, strong: Factory, weak: Factory, deals: int) -> dict[str, list[float]]:
    game = cardkit.games.make(game_name)
    out: dict[str, list[float]] = {"all": [], "landlord": [], "farmer": []}
    for seed in range(deals):
        baseline = cardkit.play(game, [weak(seed * 3 + s) for s in range(3)], seed=seed).returns()
        for hero in range(3):
            agents = [strong(seed * 3 + s) if s == hero else weak(seed * 3 + s) for s in range(3)]
            state = cardkit.play(game, agents, seed=seed)
            value = state.returns()[hero] - baseline[hero]
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
    parser.add_argument(
        "--endgame",
        type=int,
        default=0,
        help="also pit the search with the endgame solver from this many cards left "
        "against the plain search (0: skip)",
    )
    parser.add_argument(
        "--halving",
        action="store_true",
        help="also pit the search by successive halving against the plain search",
    )
    parser.add_argument(
        "--only-endgame",
        action="store_true",
        help="run only the --endgame and --halving matchups",
    )
    args = parser.parse_args()
    print(f"deals per matchup: {args.deals} (x3 seat rotations); search samples {args.samples}")
    print(f"{'game':<14} {'matchup':<18} {'as':<9} {'n':>6} {'gap':>8} {'95% CI':>18} gap>0")
    for name in args.games:
        agents = _agents(name, args.samples, args.endgame)
        pairs = [] if args.only_endgame else [("rule", "random"), ("search", "rule")]
        if args.endgame:
            pairs.append(("endgame", "search"))
        if args.halving:
            pairs.append(("halving", "search"))
        for strong, weak in pairs:
            start = time.perf_counter()
            results = matchup(name, agents[strong], agents[weak], args.deals)
            for role, values in results.items():
                if not values:
                    continue
                mean, half = mean_ci(values)
                ok = "yes" if mean - half > 0 else "no"
                ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
                label = f"{strong} vs {weak}"
                print(
                    f"{name:<14} {label:<18} {role:<9} {len(values):>6} {mean:>+8.2f} {ci:>18} {ok}"
                )
            print(f"{'':<14} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
