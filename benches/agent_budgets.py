"""What a search agent's budget buys: its strength against the rule agent at three budgets.

For each game, the search agent at each budget (``samples=`` or ``worlds=``, fixed
counts, so the table does not depend on the machine) plays seeded single deals
against the game's rule agent through :func:`cardkit.sim.simulate` with
``duplicate=True``: every deal is played once in each distinct rotation of the
seating, so the search agent meets every seat and role of the same cards. A
game's gap is the mean return of the search agent's seats minus the mean return
of the rule agent's seats in that game (the game's own return units: Dou Dizhu and
Zheng Shangyou scores, Hearts and Spades points, Guandan and Tractor levels, Bridge
North-South points, Chinese Poker points), averaged per deal over its rotations,
with a 95% confidence interval over deals. Team games seat the search agent in one
partnership and the rule agent in the other. Seconds per deal are wall time for
all of a deal's rotations.

Run: python benches/agent_budgets.py [--deals N] [--game NAME ...] [--workers W]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardkit.agents import agent_factory
from cardkit.sim import mean_ci, simulate


@dataclass(frozen=True)
class Setup:
    """One game's bench: the budget option, its three values and the seating."""

    option: str
    budgets: tuple[int, int, int]
    rule: str = "rule"
    teams: bool = False
    options: tuple[tuple[str, Any], ...] = ()


SETUPS: dict[str, Setup] = {
    "doudizhu": Setup("samples", (8, 32, 128)),
    "zhengshangyou": Setup("samples", (8, 32, 128)),
    "hearts": Setup("worlds", (25, 100, 400), options=(("match", False),)),
    "spades": Setup("worlds", (25, 100, 400), teams=True, options=(("match", False),)),
    "guandan": Setup("samples", (8, 32, 128), teams=True, options=(("match", False),)),
    "tractor": Setup("worlds", (4, 16, 64), teams=True, options=(("match", False),)),
    "bridge": Setup("samples", (4, 16, 64), teams=True),
    "chinese_poker": Setup("samples", (50, 200, 800), rule="greedy"),
}


def strength(game: str, budget: int, deals: int, workers: int) -> tuple[float, float, float]:
    """The search agent's gap over the rule agent at ``budget`` (mean, CI half-width)
    and the seconds per deal."""
    setup = SETUPS[game]
    search_name = "solver" if game == "chinese_poker" else "search"
    search = agent_factory(game, search_name, **{setup.option: budget})
    rule = agent_factory(game, setup.rule)
    from cardkit.games import make

    players = make(game, **dict(setup.options)).num_players
    if setup.teams:
        agents = [search, rule] * (players // 2)
        labels = ["search", "rule"] * (players // 2)
    else:
        agents = [search] + [rule] * (players - 1)
        labels = ["search"] + ["rule"] * (players - 1)
    start = time.perf_counter()
    result = simulate(
        game,
        deals,
        seed=2026,
        agents=agents,
        options=dict(setup.options),
        workers=workers,
        duplicate=True,
    )
    seconds = time.perf_counter() - start
    # The seating maps seat -> agent index; labels name the index in `agents` order.
    is_search = np.array([[labels[i] == "search" for i in s] for s in result.seatings])
    mask = is_search[result.seating]
    returns = result.returns_array
    gap = (returns * mask).sum(1) / mask.sum(1) - (returns * ~mask).sum(1) / (~mask).sum(1)
    per_deal = np.zeros(deals)
    np.add.at(per_deal, result.deal, gap)
    per_deal /= np.bincount(result.deal, minlength=deals)
    mean, half = mean_ci(per_deal.tolist())
    return mean, half, seconds / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--game", nargs="*", default=list(SETUPS), choices=list(SETUPS))
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(f"search vs rule at three budgets, {args.deals} seeded deals each, every rotation")
    print(f"{'game':15} {'budget':>15} {'gap per deal':>20} {'s/deal':>8}")
    for game in args.game:
        setup = SETUPS[game]
        for budget in setup.budgets:
            mean, half, per = strength(game, budget, args.deals, args.workers)
            label = f"{setup.option}={budget}"
            print(f"{game:15} {label:>15} {mean:+12.3f} ± {half:5.3f} {per:8.3f}", flush=True)


if __name__ == "__main__":
    main()
