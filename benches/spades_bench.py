"""Spades benchmarks: speed side by side with OpenSpiel, and agent strength.

    python benches/spades_bench.py speed [--deals 3000]
    python benches/spades_bench.py strength [--deals 10000] [--matches 1000] [--worlds 100]
    python benches/spades_bench.py versus --out RESULTS.jsonl [--pairs 400] [--first-seed 600000]
        [--worlds 200] [--endgame 16] [--bidding search] [--bid-worlds 256] [--objective match]
        [--nil-play]
    python benches/spades_bench.py report RESULTS.jsonl [MORE.jsonl ...]

``speed``: random single deals through the Python State API (cardkit and
OpenSpiel's ``spades``, bidding included in both; five alternating rounds of
``deals / 5`` seeded deals each, so load from other processes hits both alike),
and the Rust playout path the search agent uses (one thread).
``strength``: the tested agent as one partnership against the weaker agent,
sides alternating by seed. Per seeded deal (``match=False``): the tested team's
deal points minus the other team's, with a 95% confidence interval. Per match (to
500, default options): the tested team's win rate with a 95% Wilson score
interval (a normal interval collapses to zero width at a 100% win rate).
``versus``: a search team configured by the options (the candidate strong team)
against today's search team (``SpadesSearchAgent(seed)`` at its defaults: 100
worlds, rule bidding), in matches to 500. Each deal seed is played twice, the
tested team as seats 0 and 2, then as seats 1 and 3, on the same cards (a
paired, duplicate-style pair). Every match is appended to ``--out`` as one JSON
line as soon as it ends (seed, side, winner, each deal's points difference, CPU
seconds and moves of each team); a rerun with the same ``--out`` skips the matches
already there, so a long run can be stopped and resumed, or split in chunks of
seeds (``--first-seed``). ``report`` prints the win rate of the tested team with
a 95% Wilson interval, its points per deal (95% CI over the deal pairs' seeds,
each seed's matches as one sample), and each team's CPU time per move: bids and
cards apart, from ``time.process_time`` around each ``act`` (the search's worker
thread included).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cardkit
from _timing import interleaved
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.agents import RandomAgent
from cardkit.agents.spades import SpadesRuleAgent, SpadesSearchAgent
from cardkit.api import Action, Agent, Observation
from cardkit.games.spades import Spades
from cardkit.sim import mean_ci


def speed(deals: int) -> None:
    ck, os_rate = interleaved(Spades(match=False), "spades", deals)
    n = 200_000
    start = time.perf_counter()
    _bench.spades_playouts(n, 1, 3, 1.0)
    rust_random = n / (time.perf_counter() - start)
    start = time.perf_counter()
    _bench.spades_playouts(n, 1, 3, 0.1)
    rust_heur = n / (time.perf_counter() - start)
    print(f"Spades, random single deals ({deals} per engine), deals/s")
    print(f"{'engine':44} {'deals/s':>12} {'vs OpenSpiel':>13}")
    base = os_rate or float("nan")
    rows = [
        ("OpenSpiel spades (Python API)", os_rate),
        ("cardkit State API (Python)", ck),
        ("cardkit Rust playout, random (1 thread)", rust_random),
        ("cardkit Rust playout, heuristic (1 thread)", rust_heur),
    ]
    for name, rate in rows:
        if rate is None:
            print(f"{name:44} {'not installed':>12}")
        else:
            print(f"{name:44} {rate:12,.0f} {rate / base:12.2f}x")


Factory = Callable[[int], Agent]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval (low, high) of a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _table(seed: int, tested: Factory, weaker: Factory) -> tuple[list[Agent], int]:
    team = seed % 2
    agents = [tested(seed * 4 + s) if s % 2 == team else weaker(seed * 4 + s) for s in range(4)]
    return agents, team


def strength(deals: int, matches: int, tested: Factory, weaker: Factory, label: str) -> None:
    start = time.perf_counter()
    diffs: list[float] = []
    for seed in range(deals):
        agents, team = _table(seed, tested, weaker)
        state = cardkit.play(Spades(match=False), agents, seed=seed)
        diffs.append(state.returns()[team])
    wins = 0
    match_deals = 0
    for seed in range(matches):
        agents, team = _table(seed, tested, weaker)
        state = cardkit.play(Spades(), agents, seed=seed)
        wins += state.winning_team() == team
        match_deals += len(state.score_breakdown()["deals"])
    elapsed = time.perf_counter() - start
    m, h = mean_ci(diffs)
    low, high = wilson(wins, matches)
    rate = 100 * wins / matches if matches else float("nan")
    print(
        f"{label:20} {deals:7} {m:+9.1f} ± {h:5.1f} {matches:8} {rate:6.1f}% "
        f"[{100 * low:5.1f}, {100 * high:5.1f}] {match_deals:7} {elapsed:8.1f}s"
    )


class TimedAgent:
    """An agent whose ``act`` calls are counted and timed in CPU seconds, bids and
    cards apart, into a shared ``clock`` (one per team)."""

    def __init__(self, agent: Agent, clock: dict[str, float]) -> None:
        self.agent = agent
        self.clock = clock

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The wrapped agent's action, its CPU time added to the clock."""
        kind = "bid" if observation["phase"] == "bid" else "play"
        start = time.process_time()
        action = self.agent.act(observation, legal_actions)
        self.clock[f"{kind}_cpu"] += time.process_time() - start
        self.clock[f"{kind}_moves"] += 1
        return action


def _clock() -> dict[str, float]:
    return {"bid_cpu": 0.0, "bid_moves": 0, "play_cpu": 0.0, "play_moves": 0}


def versus(args: argparse.Namespace) -> None:
    """Play the tested team against today's search team, one JSON line per match."""
    config = {
        "worlds": args.worlds,
        "endgame": args.endgame,
        "bidding": args.bidding,
        "bid_worlds": args.bid_worlds,
        "objective": args.objective,
        "nil_play": args.nil_play,
    }
    out = Path(args.out)
    done: set[tuple[int, int]] = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if row["config"] != config:
                raise SystemExit(f"{out} holds matches of another configuration: {row['config']}")
            done.add((row["seed"], row["side"]))
    print(f"tested {config} against SpadesSearchAgent(seed) (100 worlds, rule bidding)")
    with out.open("a") as sink:
        for seed in range(args.first_seed, args.first_seed + args.pairs):
            for side in (0, 1):
                if (seed, side) in done:
                    continue
                clocks = [_clock(), _clock()]
                agents: list[Agent] = []
                for s in range(4):
                    if s % 2 == side:
                        agent: Agent = SpadesSearchAgent(
                            seed * 4 + s,
                            args.worlds,
                            bidding=args.bidding,
                            bid_worlds=args.bid_worlds,
                            endgame=args.endgame,
                            objective=args.objective,
                            nil_play=args.nil_play,
                        )
                        agents.append(TimedAgent(agent, clocks[0]))
                    else:
                        agents.append(TimedAgent(SpadesSearchAgent(seed * 4 + s), clocks[1]))
                state = cardkit.play(Spades(), agents, seed=seed)
                points = []
                for deal in state.score_breakdown()["deals"]:
                    teams = [t["points"] for t in deal["teams"]]
                    points.append(teams[side] - teams[1 - side])
                row = {
                    "seed": seed,
                    "side": side,
                    "won": state.winning_team() == side,
                    "points": points,
                    "tested": clocks[0],
                    "base": clocks[1],
                    "config": config,
                }
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                print(
                    f"seed {seed} side {side}: {'won' if row['won'] else 'lost'} "
                    f"in {len(points)} deals, {sum(points):+d}",
                    flush=True,
                )
    report([out])


def report(paths: Sequence[Path]) -> None:
    """The tested team's match win rate, points per deal and each team's CPU per move."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        rows += [json.loads(line) for line in Path(path).read_text().splitlines()]
    if not rows:
        print("no matches")
        return
    configs = {json.dumps(r["config"], sort_keys=True) for r in rows}
    print(f"tested team: {', '.join(configs)}; base: today's SpadesSearchAgent(seed)")
    wins = sum(r["won"] for r in rows)
    low, high = wilson(wins, len(rows))
    # The two matches of a seed share their cards: each seed is one sample (a
    # cluster of deals), and the interval of the ratio (points over deals) is the
    # delta method's over seeds.
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_seed.setdefault(r["seed"], []).append(r)
    points = [sum(sum(r["points"]) for r in group) for group in by_seed.values()]
    counts = [sum(len(r["points"]) for r in group) for group in by_seed.values()]
    deals = sum(counts)
    mean = sum(points) / deals
    k = len(points)
    spread = sum((x - mean * n) ** 2 for x, n in zip(points, counts, strict=True))
    half = 1.96 * math.sqrt(k / (k - 1) * spread) / deals if k > 1 else float("nan")
    pairs = [sum(r["won"] for r in group) for group in by_seed.values() if len(group) == 2]
    print(
        f"matches {len(rows)} (seeds {k}): win rate {100 * wins / len(rows):.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}] (95% Wilson); seeds won twice "
        f"{pairs.count(2)}, split {pairs.count(1)}, lost twice {pairs.count(0)}"
    )
    print(f"deals {deals}: points per deal {mean:+.1f} ± {half:.1f} (95% CI over seeds)")
    for team in ("tested", "base"):
        cpu = {k: sum(r[team][k] for r in rows) for k in _clock()}
        bid = 1000 * cpu["bid_cpu"] / max(1, cpu["bid_moves"])
        card = 1000 * cpu["play_cpu"] / max(1, cpu["play_moves"])
        total = 1000 * (cpu["bid_cpu"] + cpu["play_cpu"])
        total /= max(1, cpu["bid_moves"] + cpu["play_moves"])
        print(
            f"{team:6} CPU per move {total:7.2f} ms (bid {bid:7.2f} ms over "
            f"{cpu['bid_moves']:.0f}, card {card:6.2f} ms over {cpu['play_moves']:.0f})"
        )
    print(f"CPU per match (both teams): {sum(_seconds(r) for r in rows) / len(rows):.2f} s")


def _seconds(row: dict[str, Any]) -> float:
    return sum(row[t]["bid_cpu"] + row[t]["play_cpu"] for t in ("tested", "base"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["speed", "strength", "versus", "report"])
    parser.add_argument("files", nargs="*", help="report: the versus --out files")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--out", help="versus: the JSON lines file, appended to")
    parser.add_argument("--pairs", type=int, default=400, help="versus: seeds, two matches each")
    parser.add_argument("--first-seed", type=int, default=600_000, help="versus: the first seed")
    parser.add_argument("--endgame", type=int, default=0, help="versus: the tested endgame")
    parser.add_argument("--bidding", default="rule", help="versus: the tested bidding")
    parser.add_argument("--bid-worlds", type=int, default=256, help="versus: its bid worlds")
    parser.add_argument("--objective", default="deal", help="versus: the tested objective")
    parser.add_argument("--nil-play", action="store_true", help="versus: the tested nil play")
    args = parser.parse_args()
    if args.mode == "versus":
        if not args.out:
            parser.error("versus needs --out RESULTS.jsonl")
        versus(args)
        return
    if args.mode == "report":
        report([Path(f) for f in args.files])
        return
    if args.mode == "speed":
        speed(args.deals or 3000)
        return
    deals = args.deals or 10_000
    worlds = args.worlds
    print(f"Spades strength, search worlds={worlds}; tested team vs weaker team")
    print(
        f"{'tested vs weaker':20} {'deals':>7} {'pts/deal (95% CI)':>17} {'matches':>8} "
        f"{'win rate [95% Wilson]':>22} {'m.deals':>7} {'time':>9}"
    )
    strength(deals, args.matches, lambda s: SpadesRuleAgent(), RandomAgent, "rule vs random")
    strength(
        deals,
        args.matches,
        lambda s: SpadesSearchAgent(s, worlds),
        lambda s: SpadesRuleAgent(),
        "search vs rule",
    )


if __name__ == "__main__":
    main()
