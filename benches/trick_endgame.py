"""Hearts, Spades and Tractor endgame solvers: their cost by cards left, and what
they add to the determinized search.

    python benches/trick_endgame.py solve [--game hearts|spades|tractor]
        [--deals 200] [--nodes 20000] [--left 8 12 16 20 24]
    python benches/trick_endgame.py move --game hearts|spades [--deals 40]
        [--worlds 100] [--nodes 20000] [--left 12 16 20]
    python benches/trick_endgame.py strength --game hearts|spades|tractor
        [--deals 400] [--worlds 50] [--endgame 12] [--every 100] [--start 0]

``solve``: ``--deals`` random deals a row (of ``--game``, else Hearts and
Spades), played by the playout heuristic down to that many cards left in the
hands, then solved for the seat to act with a fresh table and at most
``--nodes`` nodes (the search's ``endgame_nodes``): the share solved within the
budget, mean nodes a solve, CPU time a solve and nodes per CPU second (one
thread, the solves that gave up included). Inside a Hearts or Spades search the
table is shared by the worlds of a move, so solves there cost less than these
cold ones; a Tractor search shares one table among the actions of a world.

``move``: the search agent's time per card with the solver off and with
``endgame`` at each ``--left`` value, on the same positions: ``--deals`` deals
played by the plain search (``--worlds``), every decision with at most the largest
``--left`` cards in the hands (and more than one legal card) timed for each setting.
Rows are the cards in the hands at the decision; the solver answers only where the
cards left after the candidate are at most ``endgame``.

``strength``: paired (duplicate) comparison at the same worlds. Deal ``n`` (seed
``n``, from ``--start``; a fresh ``--start`` re-checks a gain) is played twice:
once with the search with ``endgame=--endgame`` in the tested seat (Hearts: seat
``n % 4``) or partnership (Spades and Tractor: team ``n % 2``) and the plain
search elsewhere, once with the plain search in every seat. Each seat's
agent has the same seed in both plays, so both searches sample the same worlds
until their choices differ. Reports the tested side's result with and without the
solver and their paired difference with 95% CIs (Hearts: penalty points, lower is
better; Spades: the team's return, the deal's score difference, higher is better;
Tractor: team ``n % 2``'s card points, the attackers' points counted for the
attackers and against the dealer's team, higher is better, with the levels the deal
gave the team, its return, after them), and the share of deals where the play
differed at all. Tractor's declaring and burying are the rule agent's in every seat.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import cardkit
from _timing import ci_row
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.agents.hearts import HeartsSearchAgent
from cardkit.agents.spades import SpadesSearchAgent
from cardkit.agents.tractor import TractorSearchAgent
from cardkit.api import Agent, State
from cardkit.games.hearts import Hearts
from cardkit.games.spades import Spades
from cardkit.games.tractor import Tractor


def solve(games: list[str], deals: int, nodes: int, lefts: list[int]) -> None:
    print(f"Endgame solves: {deals} deals a row, budget {nodes} nodes, one thread, cold table")
    print(
        f"{'game':7} {'cards':>5} {'solved':>7} {'nodes/solve':>12} {'ms/solve':>9} {'nodes/s':>11}"
    )
    for game in games:
        for left in lefts:
            start = time.process_time()
            solved, gave_up, visited = _bench.trick_endgame(game, left, deals, 1, nodes)
            elapsed = time.process_time() - start
            n = solved + gave_up
            print(
                f"{game:7} {left:5} {100 * solved / n:6.1f}% {visited / n:12.0f} "
                f"{1000 * elapsed / n:9.3f} {visited / elapsed:11.0f}",
                flush=True,
            )


Factory = Callable[[int], Agent]


def _search(game: str, seed: int, worlds: int, endgame: int, nodes: int = 20_000) -> Agent:
    if game == "hearts":
        return HeartsSearchAgent(seed, worlds, endgame=endgame, endgame_nodes=nodes)
    if game == "tractor":
        return TractorSearchAgent(seed, worlds, endgame=endgame, endgame_nodes=nodes)
    return SpadesSearchAgent(seed, worlds, endgame=endgame, endgame_nodes=nodes)


def move(game: str, deals: int, worlds: int, nodes: int, lefts: list[int]) -> None:
    table = Hearts(match=False) if game == "hearts" else Spades(match=False)
    settings = [0, *lefts]
    times: dict[tuple[int, int], list[float]] = {}
    for seed in range(deals):
        state = table.new_state(seed=seed)
        players = [_search(game, seed * 4 + s, worlds, 0) for s in range(4)]
        while not state.is_terminal:
            seat = state.current_player
            obs, legal = state.observation(seat), state.legal_actions()
            # The seat to act has not played to the trick: every seat held its
            # hand's size when the trick began.
            in_hands = 4 * len(obs["hand"]) - len(obs["trick"])
            if legal[0].kind == "play" and len(legal) > 1 and in_hands <= max(lefts):
                for endgame in settings:
                    agent = _search(game, seed, worlds, endgame, nodes)
                    start = time.perf_counter()
                    agent.act(obs, legal)
                    times.setdefault((in_hands, endgame), []).append(time.perf_counter() - start)
            assert seat is not None
            state.apply(players[seat].act(obs, legal))
    print(f"{game}: ms per searched card, worlds={worlds}, endgame_nodes={nodes}, {deals} deals")
    print(f"{'cards':>5} {'moves':>6} " + " ".join(f"{'endgame=' + str(e):>12}" for e in settings))
    for left in sorted({k for k, _ in times}, reverse=True):
        row = [times.get((left, e), []) for e in settings]
        cells = " ".join(f"{1000 * sum(r) / len(r):12.2f}" for r in row)
        print(f"{left:5} {len(row[0]):6} {cells}", flush=True)


def _team_points(state: State, team: int) -> float:
    """The attackers' points of a finished single Tractor deal, for ``team``."""
    deal = state.score_breakdown()["deals"][-1]
    points = float(deal["attacker_points"])
    return points if team % 2 != deal["dealer"] % 2 else -points


def strength(game: str, deals: int, worlds: int, endgame: int, every: int, start: int) -> None:
    tables = {"hearts": Hearts, "spades": Spades, "tractor": Tractor}
    table = tables[game](match=False)

    def make(seed: int, on: bool) -> Agent:
        return _search(game, seed, worlds, endgame if on else 0)

    units = {
        "hearts": "penalty points, lower is better",
        "spades": "team return",
        "tractor": "team card points (attackers' points, signed), then team return",
    }
    unit = units[game]
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
    # Tractor: the team's return (levels) too, beside its card points.
    levels: tuple[list[float], list[float], list[float]] = ([], [], [])
    differed = 0
    began = time.perf_counter()
    for k, seed in enumerate(range(start, start + deals), 1):
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
        elif game == "tractor":
            a, b = _team_points(mixed, side), _team_points(control, side)
            ra, rb = float(mixed.returns()[side]), float(control.returns()[side])
            levels[0].append(ra)
            levels[1].append(rb)
            levels[2].append(ra - rb)
        else:
            a, b = float(mixed.returns()[side]), float(control.returns()[side])
        with_solver.append(a)
        without.append(b)
        paired.append(a - b)
        differed += mixed.history != control.history
        if k % every == 0 or k == deals:
            ci_row(k, (with_solver, without, paired), began, f"{100 * differed / k:8.1f}%")
            if game == "tractor":
                ci_row(k, levels, began, "  levels")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["solve", "move", "strength"])
    parser.add_argument("--game", choices=["hearts", "spades", "tractor"], default=None)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--left", type=int, nargs="+", default=None)
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--endgame", type=int, default=12)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    game = args.game or "hearts"
    if args.mode == "solve":
        games = [args.game] if args.game else ["hearts", "spades"]
        solve(games, args.deals or 200, args.nodes, args.left or [8, 12, 16, 20, 24])
    elif args.mode == "move":
        if game == "tractor":
            parser.error("move times Hearts and Spades searches only")
        move(game, args.deals or 40, args.worlds or 100, args.nodes, args.left or [12, 16, 20])
    else:
        strength(game, args.deals or 400, args.worlds or 50, args.endgame, args.every, args.start)


if __name__ == "__main__":
    main()
