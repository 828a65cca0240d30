"""Hearts benchmarks: speed side by side with OpenSpiel, and agent strength.

    python benches/hearts_bench.py speed [--deals 3000]
    python benches/hearts_bench.py strength [--deals 10000] [--worlds 100]
    python benches/hearts_bench.py versus --baseline OLD.py [--deals 10000] [--worlds 100]
        [--kind search|rule] [--start 0] [--every 500] [--new-worlds N]
        [--policy plain|counting|unloading] [--new-epsilon E] [--evidence] [--pass-worlds N]
        [--endgame N] [--best]

``speed``: random single deals through the Python State API (cardkit and
OpenSpiel's ``hearts``, passing included in both; five alternating rounds of
``deals / 5`` seeded deals each, so load from other processes hits both alike),
and the Rust playout path the search agent uses (random and heuristic policies, one thread).
``strength``: seeded deals (``match=False``), the tested agent in one seat
(rotating) against three copies of the weaker agent; reports the tested seat's
average penalty points and the opponents', with 95% confidence intervals of the
per-deal difference. Lower points are better.
``versus``: this checkout's agent against the same agent of an older checkout,
whose ``cardkit/agents/hearts.py`` is saved to ``OLD.py`` (for example
``git show main:python/cardkit/agents/hearts.py > /tmp/hearts_main.py``; it runs on
this build, whose ``hearts_search`` defaults keep the old objective and playouts).
Deal ``n`` (seed ``n``) is a single deal passing ``left, right, across, hold``
by ``n % 4``, with the new agent in seat ``(n // 4) % 4`` and the old one in the
other three; the same deal is also played by four old agents (duplicate play).
Reports the new seat's points per deal, the old agent's in the same seat and deal,
their paired difference, the new seat's points minus its opponents' mean (all
with 95% CIs), and the moons shot by the new seat and against it (by an opponent),
and by the old seat and against it in the duplicate, every ``--every`` deals.
The new agent's options (``--new-worlds``, ``--policy``, ``--new-epsilon``,
``--evidence``, ``--pass-worlds``, ``--endgame``) are ``HeartsSearchAgent``'s;
``--best`` plays ``cardkit.agents.hearts.STRONGEST`` instead of them.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from types import ModuleType

import cardkit
from _timing import ci_row, interleaved
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.agents import RandomAgent
from cardkit.agents.hearts import STRONGEST, HeartsRuleAgent, HeartsSearchAgent
from cardkit.api import Agent
from cardkit.games.hearts import Hearts
from cardkit.sim import mean_ci


def speed(deals: int) -> None:
    ck, os_rate = interleaved(Hearts(match=False), "hearts", deals)
    n = 200_000
    start = time.perf_counter()
    _bench.hearts_playouts(n, 1, 1.0)
    rust_random = n / (time.perf_counter() - start)
    start = time.perf_counter()
    _bench.hearts_playouts(n, 1, 0.1)
    rust_heur = n / (time.perf_counter() - start)
    print(f"Hearts, random single deals ({deals} per engine), deals/s")
    print(f"{'engine':44} {'deals/s':>12} {'vs OpenSpiel':>13}")
    base = os_rate or float("nan")
    rows = [
        ("OpenSpiel hearts (Python API)", os_rate),
        ("cardkit State API (Python)", ck),
        ("cardkit Rust playout, random (1 thread)", rust_random),
        ("cardkit Rust playout, heuristic (1 thread)", rust_heur),
    ]
    for name, rate in rows:
        if rate is None:
            print(f"{name:44} {'not installed':>12}")
        else:
            print(f"{name:44} {rate:12,.0f} {rate / base:12.2f}x")


def strength(
    deals: int, tested: Callable[[int], Agent], weaker: Callable[[int], Agent], label: str
) -> None:
    game = Hearts(match=False)
    diffs: list[float] = []
    own: list[float] = []
    others: list[float] = []
    start = time.perf_counter()
    for seed in range(deals):
        seat = seed % 4
        agents = [tested(seed) if s == seat else weaker(seed * 4 + s) for s in range(4)]
        state = cardkit.play(game, agents, seed=seed)
        points = state.scores
        mine = points[seat]
        rest = (sum(points) - mine) / 3
        own.append(mine)
        others.append(rest)
        diffs.append(mine - rest)
    elapsed = time.perf_counter() - start
    m, h = mean_ci(diffs)
    print(
        f"{label:28} {deals:7} {sum(own) / deals:9.2f} {sum(others) / deals:10.2f} "
        f"{m:+9.2f} ± {h:4.2f} {elapsed:8.1f}s"
    )


def load_baseline(path: str) -> ModuleType:
    """An older ``cardkit/agents/hearts.py`` as a module of this package (its
    relative imports resolve against this checkout's ``cardkit.agents``)."""
    spec = importlib.util.spec_from_file_location("cardkit.agents._hearts_baseline", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def moon_of(state: cardkit.api.State) -> int | None:
    """The seat that shot the moon in a finished single deal, or ``None``."""
    shooter: int | None = state.score_breakdown()["deals"][0]["shot_the_moon"]
    return shooter


def versus(
    deals: int, start: int, every: int, new: Callable[[int], Agent], old: Callable[[int], Agent]
) -> None:
    directions = ["left", "right", "across", "hold"]
    games = {d: Hearts(match=False, pass_direction=d) for d in directions}
    new_pts: list[float] = []
    old_pts: list[float] = []
    paired: list[float] = []
    margin: list[float] = []
    moons = {"new shot": 0, "shot vs new": 0, "old shot": 0, "shot vs old": 0}
    began = time.perf_counter()
    print(
        f"{'deals':>6} {'new pts':>15} {'old pts':>15} {'new - old':>15} "
        f"{'new - opps':>15} {'moons new/vs new/old/vs old':>28} {'time':>8}",
        flush=True,
    )
    for k, seed in enumerate(range(start, start + deals), 1):
        game = games[directions[seed % 4]]
        seat = (seed // 4) % 4
        tested = [new(seed) if s == seat else old(seed * 4 + s) for s in range(4)]
        mixed = cardkit.play(game, tested, seed=seed)
        control = cardkit.play(game, [old(seed * 4 + s) for s in range(4)], seed=seed)
        points, base = mixed.scores, control.scores
        new_pts.append(points[seat])
        old_pts.append(base[seat])
        paired.append(points[seat] - base[seat])
        margin.append(points[seat] - (sum(points) - points[seat]) / 3)
        outcomes = ((mixed, "new shot", "shot vs new"), (control, "old shot", "shot vs old"))
        for state, shot, against in outcomes:
            shooter = moon_of(state)
            if shooter == seat:
                moons[shot] += 1
            elif shooter is not None:
                moons[against] += 1
        if k % every == 0 or k == deals:
            counts = "/".join(str(v) for v in moons.values())
            ci_row(k, (new_pts, old_pts, paired, margin), began, f"{counts:>28}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["speed", "strength", "versus"])
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--baseline", help="an older cardkit/agents/hearts.py (versus)")
    parser.add_argument("--kind", choices=["search", "rule"], default="search")
    parser.add_argument(
        "--new-worlds", type=int, default=None, help="the new agent's worlds (versus)"
    )
    parser.add_argument(
        "--policy",
        choices=["plain", "counting", "unloading"],
        default="plain",
        help="new agent's playouts",
    )
    parser.add_argument("--evidence", action="store_true", help="new agent's Q♠ evidence")
    parser.add_argument(
        "--best", action="store_true", help="the new agent with STRONGEST (overrides the rest)"
    )
    parser.add_argument("--endgame", type=int, default=0, help="new agent's endgame solver")
    parser.add_argument("--pass-worlds", type=int, default=0, help="new agent's pass search")
    parser.add_argument("--new-epsilon", type=float, default=None, help="new agent's epsilon")
    parser.add_argument("--start", type=int, default=0, help="first seed (versus)")
    parser.add_argument("--every", type=int, default=500, help="report interval (versus)")
    args = parser.parse_args()
    if args.mode == "speed":
        speed(args.deals or 3000)
        return
    if args.mode == "versus":
        if not args.baseline:
            parser.error("versus needs --baseline OLD.py")
        old = load_baseline(args.baseline)
        worlds = args.worlds
        new_worlds = args.new_worlds or worlds
        new_options: dict[str, object] = {
            "policy": args.policy,
            "evidence": args.evidence,
            "pass_worlds": args.pass_worlds,
            "endgame": args.endgame,
        }
        if args.new_epsilon is not None:
            new_options["epsilon"] = args.new_epsilon
        if args.best:
            new_options = dict(STRONGEST)
            new_worlds = int(STRONGEST["worlds"])
            del new_options["worlds"]
        print(
            f"Hearts {args.kind}: this checkout (worlds={new_worlds}) vs {args.baseline} "
            f"(worlds={worlds}), seeds {args.start}.., new options {new_options}"
        )
        if args.kind == "search":
            versus(
                args.deals or 10_000,
                args.start,
                args.every,
                lambda s: HeartsSearchAgent(s, new_worlds, **new_options),
                lambda s: old.HeartsSearchAgent(s, worlds),
            )
        else:
            versus(
                args.deals or 10_000,
                args.start,
                args.every,
                lambda s: HeartsRuleAgent(),
                lambda s: old.HeartsRuleAgent(),
            )
        return
    deals = args.deals or 10_000
    print(f"Hearts strength, {deals} seeded deals each, search worlds={args.worlds}")
    print(
        f"{'tested vs 3 opponents':28} {'deals':>7} {'tested':>9} {'opponents':>10} "
        f"{'diff (95% CI)':>16} {'time':>9}"
    )
    worlds = args.worlds
    strength(deals, lambda s: HeartsRuleAgent(), RandomAgent, "rule vs random")
    strength(
        deals, lambda s: HeartsSearchAgent(s, worlds), lambda s: HeartsRuleAgent(), "search vs rule"
    )
    strength(deals, lambda s: HeartsSearchAgent(s, worlds), RandomAgent, "search vs random")


if __name__ == "__main__":
    main()
