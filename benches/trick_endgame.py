"""Hearts and Spades endgame solver: its cost by cards left, and what it adds to
the determinized search.

    python benches/trick_endgame.py solve [--deals 200] [--nodes 20000]
        [--left 8 12 16 20 24]
    python benches/trick_endgame.py strength --game hearts|spades [--deals 400]
        [--worlds 50] [--endgame 12] [--every 100]

``solve``: ``--deals`` random deals a row, played by the playout heuristic down to
that many cards left in the hands, then solved for the seat to act with a fresh
table and at most ``--nodes`` nodes (the search's ``endgame_nodes``): the share
solved within the budget, mean nodes a solve, time a solve and nodes per second
(one thread, the solves that gave up included). Inside a search the table is
shared by the worlds of a move, so solves there cost less than these cold ones.

``strength``: paired (duplicate) comparison at the same worlds. Deal ``n`` (seed
``n``) is played twice: once with the search with ``endgame=--endgame`` in the
tested seat (Hearts: seat ``n % 4``) or partnership (Spades: team ``n % 2``) and
the plain search elsewhere, once with the plain search in every seat. Each seat's
agent has the same seed in both plays, so both searches sample the same worlds
until their choices differ. Reports the tested side's result with and without the
solver and their paired difference with 95% CIs (Hearts: penalty points, lower is
better; Spades: the team's return, the deal's score difference, higher is better),
and the share of deals where the play differed at all.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import cardkit
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.agents.hearts import HeartsSearchAgent
from cardkit.agents.spades import SpadesSearchAgent
from cardkit.api import Agent
from cardkit.games.hearts import Hearts
from cardkit.games.spades import Spades
from cardkit.sim import mean_ci


def solve(deals: int, nodes: int, lefts: list[int]) -> None:
    print(f"Endgame solves: {deals} deals a row, budget {nodes} nodes, one thread, cold table")
    print(
        f"{'game':7} {'cards':>5} {'solved':>7} {'nodes/solve':>12} {'ms/solve':>9} {'nodes/s':>11}"
    )
    for game in ("hearts", "spades"):
        for left in lefts:
            start = time.perf_counter()
            solved, gave_up, visited = _bench.trick_endgame(game, left, deals, 1, nodes)
            elapsed = time.perf_counter() - start
            n = solved + gave_up
            print(
                f"{game:7} {left:5} {100 * solved / n:6.1f}% {visited / n:12.0f} "
                f"{1000 * elapsed / n:9.3f} {visited / elapsed:11.0f}",
                flush=True,
            )


Factory = Callable[[int], Agent]


def strength(game: str, deals: int, worlds: int, endgame: int, every: int) -> None:
    if game == "hearts":
        table: cardkit.api.Game = Hearts(match=False)

        def make(seed: int, on: bool) -> Agent:
            return HeartsSearchAgent(seed, worlds, endgame=endgame if on else 0)
    else:
        table = Spades(match=False)

        def make(seed: int, on: bool) -> Agent:
            return SpadesSearchAgent(seed, worlds, endgame=endgame if on else 0)

    unit = "penalty points, lower is better" if game == "hearts" else "team return"
    print(
        f"{game} search worlds={worlds}, endgame={endgame} vs off, same worlds; {unit}",
        flush=True,
    )
    print(
        f"{'deals':>6} {'with solver':>15} {'without':>15} {'paired diff':>15} "
        f"{'differed':>9} {'time':>8}",
        flush=True,
    )
    with_solver: list[float] = []
    without: list[float] = []
    paired: list[float] = []
    differed = 0
    began = time.perf_counter()
    for k, seed in enumerate(range(deals), 1):
        if game == "hearts":
            side = seed % 4

            def tested(s: int) -> bool:
                return s == side  # noqa: B023
        else:
            side = seed % 2

            def tested(s: int) -> bool:
                return s % 2 == side  # noqa: B023

        mixed = cardkit.play(table, [make(seed * 4 + s, tested(s)) for s in range(4)], seed=seed)
        control = cardkit.play(table, [make(seed * 4 + s, False) for s in range(4)], seed=seed)
        if game == "hearts":
            a, b = float(mixed.scores[side]), float(control.scores[side])
        else:
            a, b = float(mixed.returns()[side]), float(control.returns()[side])
        with_solver.append(a)
        without.append(b)
        paired.append(a - b)
        differed += mixed.history != control.history
        if k % every == 0 or k == deals:
            stats = map(mean_ci, (with_solver, without, paired))
            cells = [f"{m:7.2f} ± {h:5.2f}" for m, h in stats]
            print(
                f"{k:6} {' '.join(f'{c:>15}' for c in cells)} {100 * differed / k:8.1f}% "
                f"{time.perf_counter() - began:7.0f}s",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["solve", "strength"])
    parser.add_argument("--game", choices=["hearts", "spades"], default="hearts")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--left", type=int, nargs="+", default=[8, 12, 16, 20, 24])
    parser.add_argument("--worlds", type=int, default=50)
    parser.add_argument("--endgame", type=int, default=12)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    if args.mode == "solve":
        solve(args.deals or 200, args.nodes, args.left)
    else:
        strength(args.game, args.deals or 400, args.worlds, args.endgame, args.every)


if __name__ == "__main__":
    main()
