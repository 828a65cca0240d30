"""Hold'em agents against each other: big blinds per 100 hands with 95% intervals.

Single hands (``make("holdem", match=False)``, stacks of 50 big blinds), seeded and
played in duplicate so card luck cancels:

- heads-up, every seeded deal is played twice with the same cards and button, the
  hero in seat 0 and then in seat 1 (it holds each seat's cards once); the button
  alternates between deals;
- 6-max, every deal is played six times, the hero in each seat in turn against five
  copies of the opponent, the button rotating between deals.

A unit is one deal: the mean of the hero's results over its replays, in big blinds
per 100 hands. The interval is the normal 95% interval over units. ``hands`` counts
hands played by the hero (two or six per deal).

Resumable and chunked: units are appended to ``--state`` (JSON) after every chunk,
and a rerun continues each pairing up to ``--hands``.

    nice -n 10 python benches/holdem_agents.py --hands 100000 --only range-vs-equity-hu
    python benches/holdem_agents.py --hands 2000          # every pairing, quick
    python benches/holdem_agents.py 2000                  # the same
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from cardkit import play
from cardkit.agents import RandomAgent
from cardkit.agents.holdem import CallingStationAgent, EquityAgent, RangeAgent
from cardkit.api import Agent
from cardkit.games.holdem import Holdem
from cardkit.sim import mean_ci

Factory = Callable[[int], Agent]

#: name -> (players, hero factory, opponent factory); each agent is seeded from the deal.
PAIRINGS: dict[str, tuple[int, Factory, Factory]] = {
    "range-vs-equity-hu": (2, RangeAgent, lambda s: EquityAgent(s + 1)),
    # The strength the Monte Carlo budget buys (heads-up turns and rivers are exact).
    "range-s50-vs-equity-hu": (
        2,
        lambda s: RangeAgent(s, samples=50),
        lambda s: EquityAgent(s + 1),
    ),
    "range-s1000-vs-equity-hu": (
        2,
        lambda s: RangeAgent(s, samples=1000),
        lambda s: EquityAgent(s + 1),
    ),
    "range-vs-equity-6max": (6, RangeAgent, lambda s: EquityAgent(s + 1)),
    "range-vs-station-hu": (2, RangeAgent, lambda s: CallingStationAgent()),
    "range-vs-random-hu": (2, RangeAgent, lambda s: RandomAgent(s + 1)),
    "equity-vs-station-hu": (2, EquityAgent, lambda s: CallingStationAgent()),
    "equity-vs-random-hu": (2, EquityAgent, lambda s: RandomAgent(s + 1)),
    "station-vs-random-hu": (2, lambda s: CallingStationAgent(), lambda s: RandomAgent(s + 1)),
}


def deal_unit(players: int, hero: Factory, villain: Factory, deal: int) -> float:
    """The hero's mean result over the replays of one deal, in big blinds per 100
    hands: one replay per hero seat, the same cards and button each time."""
    game = Holdem(players=players, match=False, button=deal % players)
    big = game.blinds[1]
    total = 0.0
    for seat in range(players):
        agents = [villain(deal * players + s) for s in range(players)]
        agents[seat] = hero(deal)
        state = play(game, agents, seed=deal)
        total += state.returns()[seat] / big * 100
    return total / players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", type=int, nargs="?", default=2000, help="hero hands per pairing")
    parser.add_argument("--hands", type=int, dest="hands_option", default=None, help="the same")
    parser.add_argument("--only", action="append", choices=sorted(PAIRINGS), default=None)
    parser.add_argument("--state", type=Path, default=None, help="JSON file to resume from")
    parser.add_argument("--chunk", type=int, default=200, help="deals between saves")
    args = parser.parse_args()
    hands = args.hands if args.hands_option is None else args.hands_option
    done: dict[str, list[float]] = {}
    if args.state is not None and args.state.exists():
        done = json.loads(args.state.read_text())
    names = args.only or list(PAIRINGS)
    rows = []
    for name in names:
        players, hero, villain = PAIRINGS[name]
        units = done.setdefault(name, [])
        deals = -(-hands // players)
        start = time.perf_counter()
        while len(units) < deals:
            first = len(units)
            for deal in range(first, min(first + args.chunk, deals)):
                units.append(deal_unit(players, hero, villain, deal))
            if args.state is not None:
                args.state.write_text(json.dumps(done))
        took = time.perf_counter() - start
        mean, half = mean_ci(units)
        rows.append((name, len(units) * players, mean, half, took))
    print(f"{'pairing':<26} {'hands':>7} {'bb/100':>8} {'95% CI':>18} {'s':>6}")
    for name, hands, mean, half, took in rows:
        ci = f"[{mean - half:.1f}, {mean + half:.1f}]"
        print(f"{name:<26} {hands:>7} {mean:>8.1f} {ci:>18} {took:>6.0f}")


if __name__ == "__main__":
    main()
