"""Hearts search tuning: paired games of agent variants, and the regret of the
play and pass searches against a much longer search of the same positions.

    python benches/hearts_search_tuning.py games --baseline OLD.py --variants JSON
        [--start 0] [--deals 1000] [--out FILE]
    python benches/hearts_search_tuning.py play-regret [--start 958000] [--deals 40]
        [--truth 32000] [--reps 2] [--worlds 250 500 1000 2000 4000]
    python benches/hearts_search_tuning.py pass-regret [--hands 30] [--truth 12000]
        [--reps 2] [--variants JSON]

``games``: each variant (``{"name": {HeartsSearchAgent options}, ...}``; ``"best"``
means :data:`~cardkit.agents.hearts.STRONGEST`) plays deal ``n`` (seed ``n``,
passing ``left, right, across, hold`` by ``n % 4``) in seat ``(n // 4) % 4``
against three agents of ``OLD.py``, as ``hearts_bench.py versus`` does, and four
``OLD.py`` agents play it too; every variant meets the same deals, so their
differences are paired. Reports each variant's points, its gain over the old
agent in the same seat and deal, its gain over the first variant (95% CIs), and
its CPU a card (``process_time`` of its moves, worker threads included, over 13
cards a deal). ``--out`` appends one JSON line a deal.
``play-regret``: records the play positions of a lean counting agent (200
worlds) against old agents, values every candidate with ``--truth`` worlds, and
reports what choosing by ``W`` worlds loses against that value (points a decision,
the search's own objective) and how often it chooses another card.
``pass-regret``: random dealt hands, every three-card pass valued by
``hearts_pass_search`` over ``--truth`` deals; reports what each variant's searched
pass (``HeartsSearchAgent._searched_pass``, default variants below) loses against
the best of the 286 passes, in points a deal of the search's own objective.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Sequence
from typing import Any

import cardkit
from cardkit._core import hearts_pass_search, hearts_search
from cardkit.agents import hearts as hearts_agents
from cardkit.agents.hearts import STRONGEST, HeartsSearchAgent
from cardkit.api import Action, Observation
from cardkit.games.hearts import PASS_DIRECTIONS, Hearts
from cardkit.sim import mean_ci
from hearts_bench import load_baseline

DIRECTIONS = ["left", "right", "across", "hold"]

PASS_VARIANTS = {
    "500 deals, 8 cards": {"pass_worlds": 500},
    "500, 8 cards, halving": {"pass_worlds": 500, "pass_halving": True},
    "98, 13 cards, halving": {"pass_worlds": 98, "pass_cards": 13, "pass_halving": True},
    "200, 13 cards, halving": {"pass_worlds": 200, "pass_cards": 13, "pass_halving": True},
}


class Timed:
    """An agent whose moves' CPU time adds up in ``cpu``."""

    def __init__(self, agent: HeartsSearchAgent) -> None:
        self.agent, self.cpu = agent, 0.0

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The wrapped agent's move, timed."""
        start = time.process_time()
        action = self.agent.act(observation, legal_actions)
        self.cpu += time.process_time() - start
        return action


def games(old: Any, variants: dict[str, dict[str, Any]], start: int, deals: int, out: str) -> None:
    rows: list[dict[str, float]] = []
    for seed in range(start, start + deals):
        game = Hearts(match=False, pass_direction=DIRECTIONS[seed % 4])
        seat = (seed // 4) % 4

        def table(tested: Any, seed: int = seed, seat: int = seat) -> list[Any]:
            return [
                tested if s == seat else old.HeartsSearchAgent(seed * 4 + s, 100) for s in range(4)
            ]

        row = {
            "seed": seed,
            "old": cardkit.play(
                game, table(old.HeartsSearchAgent(seed * 4 + seat, 100)), seed=seed
            ).scores[seat],
        }
        for name, options in variants.items():
            timed = Timed(HeartsSearchAgent(seed, **options))
            row[name] = cardkit.play(game, table(timed), seed=seed).scores[seat]
            row[f"{name} cpu"] = timed.cpu
        rows.append(row)
        if out:
            with open(out, "a") as f:
                f.write(json.dumps(row) + "\n")
    first = next(iter(variants))
    print(f"{len(rows)} deals, seeds {start}..{start + deals - 1}; penalty points, lower is better")
    print(
        f"{'variant':24} {'points':>7} {'- old (95% CI)':>16} {f'- {first}':>16} {'ms a card':>10}"
    )
    for name in variants:
        gain, h = mean_ci([r[name] - r["old"] for r in rows])
        vs, hv = mean_ci([r[name] - r[first] for r in rows])
        cpu = sum(r[f"{name} cpu"] for r in rows) / len(rows) / 13 * 1000
        points = sum(r[name] for r in rows) / len(rows)
        print(f"{name:24} {points:7.2f} {gain:+8.2f} ± {h:4.2f} {vs:+8.2f} ± {hv:4.2f} {cpu:10.2f}")


def regret_row(label: str, regrets: list[float], wrong: int, cpu: float) -> None:
    m, h = mean_ci(regrets)
    n = len(regrets)
    print(f"{label:24} {m:8.4f} ± {h:6.4f} {wrong / n:8.3f} {cpu / n * 1000:10.1f}")


def play_regret(old: Any, start: int, deals: int, truth: int, reps: int, worlds: list[int]) -> None:
    recorded: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def recording(*args: Any, **kwargs: Any) -> list[float]:
        recorded.append((args, kwargs))
        return hearts_search(*args, **kwargs)

    hearts_agents.hearts_search = recording  # type: ignore[assignment]
    for seed in range(start, start + deals):
        game = Hearts(match=False, pass_direction=DIRECTIONS[seed % 4])
        seat = (seed // 4) % 4
        lean = HeartsSearchAgent(seed, 200, epsilon=0.0, policy="counting", endgame=12)
        table = [lean if s == seat else old.HeartsSearchAgent(seed * 4 + s, 100) for s in range(4)]
        cardkit.play(game, table, seed=seed)
    hearts_agents.hearts_search = hearts_search

    def search(position: tuple[tuple[Any, ...], dict[str, Any]], n: int, seed: int) -> list[float]:
        args = list(position[0])
        args[11], args[12] = n, seed  # worlds, seed
        return hearts_search(*args, **position[1])

    rng = random.Random(7)
    regrets: dict[int, list[float]] = {w: [] for w in worlds}
    wrong = dict.fromkeys(worlds, 0)
    cpu = dict.fromkeys(worlds, 0.0)
    for i, position in enumerate(recorded):
        values = search(position, truth, 10**9 + i)
        for w in worlds:
            for _ in range(reps):
                began = time.process_time()
                estimate = search(position, w, rng.getrandbits(64))
                cpu[w] += time.process_time() - began
                chosen = max(range(len(estimate)), key=estimate.__getitem__)
                regrets[w].append(max(values) - values[chosen])
                wrong[w] += values[chosen] < max(values)
    print(
        f"{len(recorded)} play decisions of {deals} deals (seeds {start}..), truth {truth} worlds"
    )
    print(f"{'worlds':24} {'regret a decision':>17} {'wrong':>8} {'ms a move':>10}")
    for w in worlds:
        regret_row(str(w), regrets[w], wrong[w], cpu[w])


def pass_regret(hands: int, truth: int, reps: int, variants: dict[str, dict[str, Any]]) -> None:
    rng = random.Random(13)
    regrets: dict[str, list[float]] = {name: [] for name in variants}
    wrong = dict.fromkeys(variants, 0)
    cpu = dict.fromkeys(variants, 0.0)
    for h in range(hands):
        cards = rng.sample(range(52), 13)
        hand = sum(1 << c for c in cards)
        direction = ["left", "across", "right"][h % 3]
        trios = [sum(1 << c for c in t) for t in itertools.combinations(sorted(cards), 3)]
        offset = dict(PASS_DIRECTIONS)[direction]
        values = dict(
            zip(
                trios,
                hearts_pass_search(
                    0, hand, trios, offset, truth, 10**9 + h, 0.0, policy="counting"
                ),
                strict=True,
            )
        )
        best = max(values.values())
        observation: Observation = {
            "seat": 0,
            "pass_direction": direction,
            "scores": [0, 0, 0, 0],
            "deal": 0,
            "target": 100,
        }
        for name, options in variants.items():
            for _ in range(reps):
                agent = HeartsSearchAgent(
                    rng.getrandbits(64), epsilon=0.0, policy="counting", **options
                )
                began = time.process_time()
                chosen = sum(1 << c for c in agent._searched_pass(observation, hand))
                cpu[name] += time.process_time() - began
                regrets[name].append(best - values[chosen])
                wrong[name] += values[chosen] < best
    print(f"{hands} random hands, truth {truth} deals for each of the 286 passes")
    print(f"{'pass search':24} {'regret a deal':>17} {'wrong':>8} {'ms a pass':>10}")
    for name in variants:
        regret_row(name, regrets[name], wrong[name], cpu[name])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["games", "play-regret", "pass-regret"])
    parser.add_argument("--baseline", help="an older cardkit/agents/hearts.py (games, play-regret)")
    parser.add_argument("--variants", help="JSON: name -> HeartsSearchAgent options")
    parser.add_argument("--start", type=int, default=None)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--out", default="", help="append one JSON line a deal (games)")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--truth", type=int, default=None)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--worlds", type=int, nargs="+", default=[250, 500, 1000, 2000, 4000])
    args = parser.parse_args()
    variants = json.loads(args.variants) if args.variants else None
    if variants:
        variants = {k: dict(STRONGEST) if v == "best" else v for k, v in variants.items()}
    if args.mode == "pass-regret":
        pass_regret(args.hands, args.truth or 12_000, args.reps, variants or PASS_VARIANTS)
        return
    if not args.baseline:
        parser.error(f"{args.mode} needs --baseline OLD.py")
    old = load_baseline(args.baseline)
    if args.mode == "games":
        if not variants:
            parser.error("games needs --variants")
        games(old, variants, args.start or 0, args.deals or 1000, args.out)
    else:
        start = 958_000 if args.start is None else args.start
        play_regret(old, start, args.deals or 40, args.truth or 32_000, args.reps, args.worlds)


if __name__ == "__main__":
    main()
