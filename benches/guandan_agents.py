"""Guandan agent strength: search > rule > random, as a team and per seat.

Every matchup plays single deals (``make("guandan", match=False)``) through the
public agents and ``cardkit.play``, so it measures what users get. For each seeded
deal:

- team: the stronger agent's team in seats 0 and 2 against the weaker in 1 and 3,
  then the same deal with the teams swapped; the gain is the stronger team's mean
  levels over the two (seat and deal luck cancel);
- per seat: the stronger agent in one seat and the weaker in the other three, for
  each seat in turn, paired against the all-weak baseline of the same deal (the
  same seeds for every weak agent); the gain is the hero seat's levels minus that
  seat's baseline levels.

The ``jiefeng`` matchup measures the rule policy's jiefeng awareness (GD-29):
``GuandanRuleAgent()`` against ``GuandanRuleAgent(jiefeng=False)``, as a team and
per seat like the others.

The ``endgame`` matchup measures the endgame solver: ``GuandanSearchAgent`` with
``endgame=N`` (``--endgame N``) against the same search without it, as a team and
per seat like the others.

The ``returns`` matchup measures the rule agent's tribute return: rule agents play
each seeded match to the end of its second deal (the first with tribute), the team
returning by plan (``GuandanRuleAgent("plan")``) in seats 0 and 2, then the same
match with it in 1 and 3, against the weakest return; the gain is the plan team's
mean levels in that second deal (the first deals are the same in both games).

Each row is a mean level gain per deal with its 95% confidence interval
(``cardkit.sim.mean_ci``); "yes" when the interval excludes zero on the positive
side. A single deal pays 3, 2 or 1 levels to the first finisher's team.

Run: python benches/guandan_agents.py [--deals N] [--samples S] [--first-seed F]
[--matchups ...] [--endgame N] [--json PATH]  (issue target: N=10000)
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from collections.abc import Callable

import cardkit
from cardkit.agents import RandomAgent
from cardkit.agents.guandan import GuandanRuleAgent, GuandanSearchAgent
from cardkit.api import Agent, Game
from cardkit.sim import mean_ci

Factory = Callable[[int], Agent]
SEATS = 4
MATCHUPS = ("rule-random", "search-rule", "search-random")
#: The matchups a run may name: ``MATCHUPS``, the jiefeng awareness's, the
#: endgame solver's and the return choice's.
CHOICES = (*MATCHUPS, "jiefeng", "endgame", "returns")


def _agents(samples: int, endgame: int) -> dict[str, Factory]:
    return {
        "random": lambda s: RandomAgent(s),
        "rule": lambda s: GuandanRuleAgent(),
        "plain": lambda s: GuandanRuleAgent(jiefeng=False),
        "search": lambda s: GuandanSearchAgent(s, samples),
        "solving": lambda s: GuandanSearchAgent(s, samples, endgame=endgame),
    }


def _levels(game: Game, agents: list[Agent], seed: int, seat: int) -> float:
    return cardkit.play(game, agents, seed=seed).returns()[seat]


def matchup(
    strong: Factory,
    weak: Factory,
    deals: int,
    first_seed: int,
    checkpoint: Callable[[dict[str, list[float]]], None] | None = None,
) -> dict[str, list[float]]:
    """Per row ("team", "seat 0" .. "seat 3", "any seat": the seats' mean), one
    gain per deal; ``checkpoint`` gets the rows so far every 50 deals (a long run
    stopped early keeps what it measured)."""
    game = cardkit.games.make("guandan", match=False)
    out: dict[str, list[float]] = {"team": []}
    out.update({f"seat {s}": [] for s in range(SEATS)})
    out["any seat"] = []
    for seed in range(first_seed, first_seed + deals):
        # Agent seeds depend on the deal and seat only, so that the weak agents of a
        # hero game replay their baseline selves until the hero's play diverges.
        def seat_agent(factory: Factory, s: int, seed: int = seed) -> Agent:
            return factory(seed * SEATS + s)

        home = [seat_agent(strong if s % 2 == 0 else weak, s) for s in range(SEATS)]
        away = [seat_agent(weak if s % 2 == 0 else strong, s) for s in range(SEATS)]
        team = (_levels(game, home, seed, 0) + _levels(game, away, seed, 1)) / 2
        out["team"].append(team)
        baseline = cardkit.play(game, [seat_agent(weak, s) for s in range(SEATS)], seed=seed)
        gains = []
        for hero in range(SEATS):
            agents = [seat_agent(strong if s == hero else weak, s) for s in range(SEATS)]
            gains.append(_levels(game, agents, seed, hero) - baseline.returns()[hero])
            out[f"seat {hero}"].append(gains[-1])
        # One value per deal (the four seats' mean), so the interval treats deals
        # as the independent samples they are.
        out["any seat"].append(sum(gains) / SEATS)
        if checkpoint is not None and len(out["team"]) % 50 == 0:
            checkpoint(out)
    return out


def return_matchup(
    deals: int,
    first_seed: int,
    checkpoint: Callable[[dict[str, list[float]]], None] | None = None,
) -> dict[str, list[float]]:
    """The planned return against the weakest (module doc): one team gain per match."""
    game = cardkit.games.make("guandan", match=True)
    out: dict[str, list[float]] = {"team": []}
    for seed in range(first_seed, first_seed + deals):
        levels = []
        for team in (0, 1):
            agents = [GuandanRuleAgent("plan" if s % 2 == team else "weakest") for s in range(4)]
            state = game.new_state(seed=seed)
            while not state.is_terminal and state.deal_number < 2:
                seat = state.current_player
                assert seat is not None  # a live state has a seat to act
                state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
            deal = state.score_breakdown()["deals"][1]
            levels.append(deal["climb"] if deal["winning_team"] == team else -deal["climb"])
        out["team"].append(sum(levels) / 2)
        if checkpoint is not None and len(out["team"]) % 50 == 0:
            checkpoint(out)
    return out


def main() -> None:
    """Run the matchups and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=32, help="search samples per move")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--endgame", type=int, default=12, help="cards left to solve from (endgame matchup)"
    )
    parser.add_argument("--matchups", nargs="*", choices=CHOICES, default=list(MATCHUPS))
    parser.add_argument(
        "--json", help="also write every per-deal gain here, to pool runs over other seeds"
    )
    args = parser.parse_args()
    saved: dict[str, dict[str, list[float]]] = {}
    agents = _agents(args.samples, args.endgame)
    print(
        f"Guandan, single deals at level 2: {args.deals} seeded deals per matchup "
        f"(seeds {args.first_seed}..), search samples {args.samples}\n"
    )
    print("| matchup | as | deals | levels/deal | 95% CI | > 0 |")
    print("|---|---|---:|---:|---|:---:|")

    def save(name: str, rows: dict[str, list[float]]) -> None:
        saved[name] = rows
        if args.json:
            with open(args.json, "w") as out:
                json.dump({"first_seed": args.first_seed, "samples": args.samples, **saved}, out)

    for name in args.matchups:
        start = time.perf_counter()
        checkpoint = functools.partial(save, name)
        if name == "returns":
            strong, weak = "plan return", "weakest return"
            results = return_matchup(args.deals, args.first_seed, checkpoint)
        elif name == "jiefeng":
            strong, weak = "rule", "rule without jiefeng"
            results = matchup(
                agents["rule"], agents["plain"], args.deals, args.first_seed, checkpoint
            )
        elif name == "endgame":
            strong, weak = f"search endgame={args.endgame}", "search"
            results = matchup(
                agents["solving"], agents["search"], args.deals, args.first_seed, checkpoint
            )
        else:
            strong, weak = name.split("-")
            results = matchup(agents[strong], agents[weak], args.deals, args.first_seed, checkpoint)
        save(name, results)
        for role, values in results.items():
            mean, half = mean_ci(values)
            ok = "yes" if mean - half > 0 else "no"
            ci = f"[{mean - half:+.3f}, {mean + half:+.3f}]"
            print(
                f"| {strong} vs {weak} | {role} | {len(values)} | {mean:+.3f} | {ci} | {ok} |",
                flush=True,
            )
        print(f"| ({time.perf_counter() - start:.0f} s) | | | | | |", flush=True)


if __name__ == "__main__":
    main()
