"""Hearts: two search agents of this checkout compared in the same seat of the same deal.

    python benches/hearts_paired.py --baseline OLD.py --candidate '{"policy": "unloading"}'
        [--reference '{...}'] [--deals 2000] [--start 0] [--every 250]

Each deal is played three times with the same three opponents (``HeartsSearchAgent``
of an older checkout's ``cardkit/agents/hearts.py`` at 100 worlds, as in
``hearts_bench.py versus``, whose seats, pass directions and agent seeds it reuses):
the candidate in the rotating seat, the reference in that seat, and four old agents.
The candidate and the reference are ``cardkit.agents.hearts.STRONGEST`` updated with
the given JSON options (``--reference`` defaults to none: ``STRONGEST`` itself).
Both take the deal's seed, so they draw the same worlds until their plays differ,
and ``candidate - reference`` (the seat's penalty points, lower is better) has a
much smaller spread than either agent against the old one: it resolves a few
tenths of a point a deal in a few thousand deals. Reports, with 95% CIs over the
deals, ``candidate - reference``, ``candidate - old`` and ``reference - old``, the
moons shot against each agent, and each agent's CPU per card played
(``process_time``, worker threads included).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

import cardkit
from _timing import ci_row
from cardkit.agents.hearts import STRONGEST, HeartsSearchAgent
from cardkit.api import Action, Observation
from cardkit.games.hearts import Hearts
from hearts_bench import load_baseline, moon_of


class Timed:
    """An agent whose CPU time and cards played (passes left out) are counted."""

    def __init__(self, agent: HeartsSearchAgent, clock: list[float]) -> None:
        self.agent = agent
        self.clock = clock

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The wrapped agent's action, its CPU time added to the clock."""
        start = time.process_time()
        action = self.agent.act(observation, legal_actions)
        if legal_actions[0].kind != "pass":
            self.clock[0] += time.process_time() - start
            self.clock[1] += 1
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", required=True, help="an older cardkit/agents/hearts.py")
    parser.add_argument("--candidate", required=True, help="JSON options over STRONGEST")
    parser.add_argument("--reference", default="{}", help="JSON options over STRONGEST")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--every", type=int, default=250, help="report interval")
    args = parser.parse_args()
    old = load_baseline(args.baseline)
    options = [{**STRONGEST, **json.loads(text)} for text in (args.candidate, args.reference)]
    print(f"Hearts paired, seeds {args.start}.., candidate {options[0]}, reference {options[1]}")
    directions = ["left", "right", "across", "hold"]
    games = {d: Hearts(match=False, pass_direction=d) for d in directions}
    clocks = [[0.0, 0], [0.0, 0]]
    series: tuple[list[float], list[float], list[float]] = ([], [], [])
    against = [0, 0]
    began = time.perf_counter()
    print(
        f"{'deals':>6} {'cand - ref':>15} {'cand - old':>15} {'ref - old':>15} "
        f"{'moons vs cand/ref':>17} {'ms/card cand/ref':>17} {'time':>8}",
        flush=True,
    )
    for k, seed in enumerate(range(args.start, args.start + args.deals), 1):
        game = games[directions[seed % 4]]
        seat = (seed // 4) % 4
        points = []
        for i, (tested, clock) in enumerate(zip(options, clocks, strict=True)):
            agent = Timed(HeartsSearchAgent(seed, **tested), clock)  # type: ignore[arg-type]
            table = [
                agent if s == seat else old.HeartsSearchAgent(seed * 4 + s, 100) for s in range(4)
            ]
            state = cardkit.play(game, table, seed=seed)
            points.append(state.scores[seat])
            shooter = moon_of(state)
            against[i] += shooter is not None and shooter != seat
        control = cardkit.play(
            game, [old.HeartsSearchAgent(seed * 4 + s, 100) for s in range(4)], seed=seed
        )
        base = control.scores[seat]
        series[0].append(points[0] - points[1])
        series[1].append(points[0] - base)
        series[2].append(points[1] - base)
        if k % args.every == 0 or k == args.deals:
            ms = "/".join(f"{1000 * c[0] / max(c[1], 1):.2f}" for c in clocks)
            ci_row(k, series, began, f"{against[0]:>8}/{against[1]:<8}", f"{ms:>17}")


if __name__ == "__main__":
    main()
