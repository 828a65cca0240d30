"""Chinese Poker arrangement: speed (cardkit vs treys/eval7 arrangers) and strength
(solver vs greedy vs a random legal arrangement over seeded deals).

Run on a release build:
    pip install '.[bench]' && python benches/chinese_poker_solver.py --deals 10000

Speed: per-hand cost of the greedy arranger, of checking all 72,072 splits for
properness, and of the solver (single thread), against the same arrangers written
in Python on top of treys and eval7. Strength: every deal is played at a
three-handed table (solver, greedy, random proper set; seats rotate by deal), and
the table reports each player's mean points per deal and the solver's net against
the greedy arranger in their pairwise comparison, with 95% confidence intervals.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

from cardkit._core import _bench  # unstable helpers, for benches and tests only

sys.path.insert(0, str(Path(__file__).resolve().parent))

import eval7
import treys

import cardkit
from _timing import per_call, table
from cardkit._core import (  # the _bench_ binding is unstable, for benches only
    ChinesePokerRules,
    chinese_poker_greedy_set,
    chinese_poker_random_set,
    chinese_poker_score,
    chinese_poker_solve,
)
from cardkit.sim import mean_ci

_EVALUATOR = treys.Evaluator()


def _treys_greedy(hand: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Strongest back, strongest middle of the rest, last three in front (treys: lower wins)."""
    cards = [treys.Card.new(c) for c in hand]
    back = min(itertools.combinations(range(13), 5), key=lambda ix: _treys_rank(cards, ix))
    rest = [i for i in range(13) if i not in back]
    middle = min(itertools.combinations(rest, 5), key=lambda ix: _treys_rank(cards, ix))
    front = [i for i in rest if i not in middle]
    return [hand[i] for i in front], [hand[i] for i in middle], [hand[i] for i in back]


def _treys_rank(cards: list[int], ix: tuple[int, ...]) -> int:
    rank: int = _EVALUATOR.evaluate([cards[i] for i in ix[:2]], [cards[i] for i in ix[2:]])
    return rank


def _eval7_greedy(hand: list[str]) -> tuple[list[str], list[str], list[str]]:
    """The same greedy arranger on eval7 (higher wins)."""
    cards = [eval7.Card(c) for c in hand]
    back = max(
        itertools.combinations(range(13), 5), key=lambda ix: eval7.evaluate([cards[i] for i in ix])
    )
    rest = [i for i in range(13) if i not in back]
    middle = max(
        itertools.combinations(rest, 5), key=lambda ix: eval7.evaluate([cards[i] for i in ix])
    )
    front = [i for i in rest if i not in middle]
    return [hand[i] for i in front], [hand[i] for i in middle], [hand[i] for i in back]


def _eval7_count_proper(hand: list[str]) -> int:
    """Walk all 72,072 splits with eval7, checking back >= middle (eval7 has no
    three-card front ranking, so this peer does less work than cardkit)."""
    cards = [eval7.Card(c) for c in hand]
    fives = {
        ix: eval7.evaluate([cards[i] for i in ix]) for ix in itertools.combinations(range(13), 5)
    }
    count = 0
    for front in itertools.combinations(range(13), 3):
        rest = [i for i in range(13) if i not in front]
        for middle in itertools.combinations(rest, 5):
            back = tuple(i for i in rest if i not in middle)
            if fives[back] >= fives[middle]:
                count += 1
    return count


def speed(hands: list[list[str]], samples: int) -> None:
    rules = ChinesePokerRules()
    it = itertools.cycle(hands)
    rows = [
        (
            "greedy arrangement",
            "cardkit",
            per_call(lambda: chinese_poker_greedy_set(next(it)), 200),
        ),
        ("greedy arrangement", "treys", per_call(lambda: _treys_greedy(next(it)), 5, repeat=3)),
        ("greedy arrangement", "eval7", per_call(lambda: _eval7_greedy(next(it)), 20, repeat=3)),
        (
            "check 72,072 splits",
            "cardkit",
            per_call(lambda: _bench.chinese_poker_count_sets(next(it)), 50),
        ),
        (
            "check 72,072 splits",
            "eval7 (back>=middle only)",
            per_call(lambda: _eval7_count_proper(next(it)), 1, repeat=2),
        ),
    ]
    seeds = itertools.count()
    for players in (2, 4):
        rows.append(
            (
                f"solve ({players} players, {samples} samples)",
                "cardkit",
                per_call(
                    lambda p=players: chinese_poker_solve(
                        next(it), rules, players=p, samples=samples, seed=next(seeds)
                    ),
                    20,
                    repeat=3,
                ),
            )
        )
    print(table("Chinese Poker: per-hand cost (one thread)", rows))


def strength(deals: int, variant: str, samples: int, seed: int) -> None:
    rules = ChinesePokerRules(variant=variant)
    points: dict[str, list[float]] = {"solver": [], "greedy": [], "random": []}
    solver_vs_greedy: list[float] = []
    declared = 0
    start = time.perf_counter()
    for deal in range(deals):
        deck = cardkit.shuffled_deck("standard52", cardkit.derive_seed(seed, deal))
        # Four positions are dealt (CP-04); three are played, seats rotating by deal.
        hands = [deck[p:52:4] for p in range(4)]
        roles = ["solver", "greedy", "random"]
        shift = deal % 3
        seat_role = roles[shift:] + roles[:shift]
        entries: list[object] = []
        for seat, role in enumerate(seat_role):
            hand = hands[seat]
            if role == "solver":
                declare, chosen, *_ = chinese_poker_solve(
                    hand,
                    rules,
                    players=3,
                    samples=samples,
                    seed=cardkit.derive_seed(seed + 1, deal),
                )
                if declare is not None:
                    declared += 1
                    entries.append(declare)
                else:
                    entries.append(chosen)
            elif role == "greedy":
                entries.append(chinese_poker_greedy_set(hand))
            else:
                entries.append(chinese_poker_random_set(hand, cardkit.derive_seed(seed + 2, deal)))
        result = chinese_poker_score(entries, rules)
        for seat, role in enumerate(seat_role):
            points[role].append(float(result[seat]))
        s, g = seat_role.index("solver"), seat_role.index("greedy")
        pair = chinese_poker_score([entries[s], entries[g]], rules)
        solver_vs_greedy.append(float(pair[0]))
    elapsed = time.perf_counter() - start
    print(f"### Chinese Poker strength: {deals} deals, variant {variant}, {samples} samples")
    print()
    print("| player | points per deal | 95% CI |")
    print("| --- | ---: | ---: |")
    for role, values in points.items():
        mean, half = mean_ci(values)
        print(f"| {role} | {mean:+.3f} | ±{half:.3f} |")
    mean, half = mean_ci(solver_vs_greedy)
    print(f"| solver vs greedy (pairwise net) | {mean:+.3f} | ±{half:.3f} |")
    print()
    print(f"solver declared {declared} automatic wins; {elapsed / deals * 1e3:.1f} ms per deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    hands = [[str(c) for c in cardkit.shuffled_deck("standard52", k)[:13]] for k in range(64)]
    if not args.skip_speed:
        speed(hands, args.samples)
        print()
    strength(args.deals, args.variant, args.samples, args.seed)


if __name__ == "__main__":
    main()
