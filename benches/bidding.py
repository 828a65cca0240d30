"""Bidding from search against today's bidding, the card play held the same.

Dou Dizhu: every seeded deal is played once with today's bidding (the point count)
in all three seats, the baseline, and three times more with the search bidding
(``bidding="search"``) in one seat, rotating the seat. The gap is that seat's
return minus its baseline return on the same deal (paired, so deal and seat luck
cancel), with a 95% confidence interval, overall and split by the seat's role in
its game (landlord or farmer).

Tractor: declaring from search (``declaring="search"``) against the rule agent's
trump count, like Dou Dizhu: every seeded single deal (a first deal, seat 0
speaking first) is played once with the rule's declaring in all four seats, the
baseline, and four times more with one seat declaring from search, rotating the
seat; burying and the card play are the rule agent's (``--play rule``) or the
search agent's. The gap is that seat's return (levels for its team minus the
other's) minus its baseline return on the same deal, with a 95% confidence
interval, overall and split by whether the seat's team dealt in its game; "per
deal" is the mean gap of a deal's four seats, whose interval counts each deal once.

Spades: one partnership bids from sampled play, the other like the rule agent,
sides alternating by seed. Per seeded single deal: the tested team's points minus
the other team's (95% CI); per match to 500: the tested team's win rate (95%
Wilson interval) and its points per deal.

``--play rule`` plays the cards with the rule agents (fast); ``--play search``
with the search agents (``--samples`` / ``--worlds`` each). ``--budgets`` instead
prints the search agent's strength against the rule agent at three budgets.

Run: python benches/bidding.py [--games doudizhu tractor spades] [--deals N] [--matches M]
     [--play rule|search] [--bid-samples K] [--bid-thresholds T1 T2 T3] [--first-seed S]
     [--declare-worlds W] [--budgets 8 32 128]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import cardkit
from cardkit.agents.doudizhu import BID_THRESHOLDS, DouDizhuRuleAgent, DouDizhuSearchAgent
from cardkit.agents.spades import SpadesRuleAgent, SpadesSearchAgent
from cardkit.agents.tractor import TractorRuleAgent, TractorSearchAgent
from cardkit.api import Action, Agent, Observation
from cardkit.games.spades import Spades
from cardkit.sim import mean_ci
from spades_bench import wilson

Factory = Callable[[int], Agent]


class BidThenPlay:
    """Bids (or declares) with one agent and plays the cards with another (the same
    card play for both biddings of a comparison)."""

    def __init__(self, bidder: Agent, player: Agent) -> None:
        self.bidder = bidder
        self.player = player

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The bidder's action while bidding or declaring, the player's afterwards."""
        if observation["phase"] in ("bid", "declare"):
            return self.bidder.act(observation, legal_actions)
        return self.player.act(observation, legal_actions)


def _ddz(
    play: str, samples: int, bidding: str, bid_samples: int, thresholds: Sequence[float]
) -> Factory:
    def make(seed: int) -> Agent:
        bidder = DouDizhuSearchAgent(
            seed, bidding=bidding, bid_samples=bid_samples, bid_thresholds=thresholds
        )
        player: Agent = (
            DouDizhuRuleAgent() if play == "rule" else DouDizhuSearchAgent(seed, samples)
        )
        return BidThenPlay(bidder, player)

    return make


def _spades(play: str, worlds: int, bidding: str, bid_worlds: int) -> Factory:
    def make(seed: int) -> Agent:
        bidder = SpadesSearchAgent(seed, bidding=bidding, bid_worlds=bid_worlds)
        player: Agent = SpadesRuleAgent() if play == "rule" else SpadesSearchAgent(seed, worlds)
        return BidThenPlay(bidder, player)

    return make


def _tractor(play: str, worlds: int, declaring: str, declare_worlds: int) -> Factory:
    def make(seed: int) -> Agent:
        bidder = TractorSearchAgent(seed, declaring=declaring, declare_worlds=declare_worlds)
        player: Agent = (
            TractorRuleAgent(seed) if play == "rule" else TractorSearchAgent(seed, worlds)
        )
        return BidThenPlay(bidder, player)

    return make


def tractor_gaps(
    tested: Factory, base: Factory, deals: int, first: int = 0
) -> dict[str, list[float]]:
    """Paired gaps of the tested declaring in one rotating seat (see the module doc)."""
    game = cardkit.games.make("tractor", match=False)
    out: dict[str, list[float]] = {"all": [], "dealing": [], "attacking": [], "per deal": []}
    for seed in range(first, first + deals):
        agents = [base(seed * 4 + s) for s in range(4)]
        baseline = cardkit.play(game, agents, seed=seed).returns()
        # The four seats of a deal share its baseline game: their mean is one
        # independent sample, for a confidence interval that does not overcount.
        out["per deal"].append(0.0)
        for hero in range(4):
            agents = [tested(seed * 4 + s) if s == hero else base(seed * 4 + s) for s in range(4)]
            state = cardkit.play(game, agents, seed=seed)
            value = state.returns()[hero] - baseline[hero]
            out["all"].append(value)
            dealer = state.score_breakdown()["deals"][0]["dealer"]
            out["dealing" if dealer % 2 == hero % 2 else "attacking"].append(value)
            out["per deal"][-1] += value / 4
    return out


def ddz_gaps(tested: Factory, base: Factory, deals: int, first: int = 0) -> dict[str, list[float]]:
    """Paired gaps of the tested agent in one rotating seat (see the module doc)."""
    game = cardkit.games.make("doudizhu")
    out: dict[str, list[float]] = {"all": [], "landlord": [], "farmer": []}
    for seed in range(first, first + deals):
        baseline = cardkit.play(game, [base(seed * 3 + s) for s in range(3)], seed=seed).returns()
        for hero in range(3):
            agents = [tested(seed * 3 + s) if s == hero else base(seed * 3 + s) for s in range(3)]
            state = cardkit.play(game, agents, seed=seed)
            value = state.returns()[hero] - baseline[hero]
            out["all"].append(value)
            landlord = state.score_breakdown()["landlord"]
            out["landlord" if landlord == hero else "farmer"].append(value)
    return out


def _print_gaps(label: str, heading: str, gaps: Callable[[], dict[str, list[float]]]) -> None:
    """Run ``gaps`` and print each role's mean gap with its 95% CI under ``heading``."""
    print(f"{heading:<34} {'as':<9} {'n':>6} {'gap':>8} {'95% CI':>20}")
    start = time.perf_counter()
    for role, values in gaps().items():
        if values:
            mean, half = mean_ci(values)
            ci = f"[{mean - half:+.3f}, {mean + half:+.3f}]"
            print(f"{label:<34} {role:<9} {len(values):>6} {mean:>+8.3f} {ci:>20}")
    print(f"{'':<34} ({time.perf_counter() - start:.0f} s)")


def _table(seed: int, tested: Factory, base: Factory) -> tuple[list[Agent], int]:
    team = seed % 2
    return [tested(seed * 4 + s) if s % 2 == team else base(seed * 4 + s) for s in range(4)], team


def spades_strength(tested: Factory, base: Factory, deals: int, matches: int, label: str) -> None:
    """Points per single deal and match win rate of the tested team."""
    start = time.perf_counter()
    diffs: list[float] = []
    for seed in range(deals):
        agents, team = _table(seed, tested, base)
        diffs.append(cardkit.play(Spades(match=False), agents, seed=seed).returns()[team])
    wins, per_deal = 0, []
    for seed in range(matches):
        agents, team = _table(seed, tested, base)
        state = cardkit.play(Spades(), agents, seed=seed)
        wins += state.winning_team() == team
        for deal in state.score_breakdown()["deals"]:
            points = [t["points"] for t in deal["teams"]]
            per_deal.append(float(points[team] - points[1 - team]))
    m, h = mean_ci(diffs) if diffs else (float("nan"), float("nan"))
    low, high = wilson(wins, matches)
    rate = 100 * wins / matches if matches else float("nan")
    pm, ph = mean_ci(per_deal) if per_deal else (float("nan"), float("nan"))
    print(
        f"{label:<34} {deals:>6} {m:+8.1f} ± {h:5.1f} {matches:>7} {rate:6.1f}% "
        f"[{100 * low:5.1f}, {100 * high:5.1f}] {len(per_deal):>6} {pm:+7.1f} ± {ph:5.1f} "
        f"{time.perf_counter() - start:7.0f}s"
    )


def spades_header() -> None:
    print(
        f"{'spades: tested vs base':<34} {'deals':>6} {'pts/deal 95% CI':>16} {'matches':>7} "
        f"{'win% [95% Wilson]':>22} {'m.deals':>6} {'match pts/deal':>15} {'time':>8}"
    )


def budgets(games: list[str], deals: int, matches: int, levels: list[int]) -> None:
    """The search agent (today's bidding) against the rule agent at each budget."""
    for name in games:
        if name == "spades":
            spades_header()
        for level in levels:
            if name == "doudizhu":
                start = time.perf_counter()
                results = ddz_gaps(
                    lambda s, n=level: DouDizhuSearchAgent(s, n),
                    lambda s: DouDizhuRuleAgent(),
                    deals,
                )
                label = f"doudizhu search samples={level}"
                _print_gaps(label, results, time.perf_counter() - start)
            else:
                spades_strength(
                    lambda s, n=level: SpadesSearchAgent(s, n),
                    lambda s: SpadesRuleAgent(),
                    deals,
                    matches,
                    f"spades search worlds={level}",
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", default=["doudizhu", "tractor", "spades"])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--play", choices=["rule", "search"], default="rule")
    parser.add_argument("--samples", type=int, default=8, help="Dou Dizhu search samples")
    parser.add_argument("--worlds", type=int, default=32, help="Spades search worlds")
    parser.add_argument("--bid-samples", type=int, default=256)
    parser.add_argument(
        "--declare-worlds", type=int, default=64, help="Tractor declaring playouts per speech"
    )
    parser.add_argument("--tractor-worlds", type=int, default=16, help="Tractor search worlds")
    parser.add_argument(
        "--bid-thresholds", type=float, nargs=3, default=list(BID_THRESHOLDS), help="Dou Dizhu"
    )
    parser.add_argument("--budgets", type=int, nargs="*", default=None)
    parser.add_argument(
        "--first-seed", type=int, default=0, help="Dou Dizhu, Tractor: deals from this seed on"
    )
    args = parser.parse_args()
    if args.budgets:
        budgets(args.games, args.deals, args.matches, args.budgets)
        return
    print(
        f"card play: {args.play}; bidding playouts per decision: {args.bid_samples}; "
        f"Dou Dizhu thresholds {args.bid_thresholds}; Tractor declaring worlds "
        f"{args.declare_worlds}"
    )
    if "doudizhu" in args.games:
        thresholds = args.bid_thresholds
        ddz = (
            _ddz(args.play, args.samples, "search", args.bid_samples, thresholds),
            _ddz(args.play, args.samples, "points", args.bid_samples, thresholds),
        )
        _print_gaps(
            "doudizhu bidding",
            "doudizhu: search vs points bidding",
            lambda: ddz_gaps(*ddz, args.deals, args.first_seed),
        )
    if "tractor" in args.games:
        tractor = (
            _tractor(args.play, args.tractor_worlds, "search", args.declare_worlds),
            _tractor(args.play, args.tractor_worlds, "rule", args.declare_worlds),
        )
        _print_gaps(
            "tractor declaring",
            "tractor: search vs rule declaring",
            lambda: tractor_gaps(*tractor, args.deals, args.first_seed),
        )
    if "spades" in args.games:
        spades_header()
        spades_strength(
            _spades(args.play, args.worlds, "search", args.bid_samples),
            _spades(args.play, args.worlds, "rule", args.bid_samples),
            args.deals,
            args.matches,
            "spades search vs rule bidding",
        )


if __name__ == "__main__":
    main()
