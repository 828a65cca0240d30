"""Guandan speed against the issue's targets: every legal lead of a 27-card hand
holding both wilds through the batch path (one thread), Rust playouts of whole deals
(random and rule policies, one thread), and random full deals through the Python
State API. No peer library plays Guandan, so each rate is printed with its target.

Run: python benches/guandan_speed.py [--hands N] [--deals N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random

import cardkit
from _timing import best_rate, cardkit_random_deals, row
from cardkit._core import (  # the _bench bindings are unstable, for benches only
    Card,
    GuandanDeal,
    _bench,
    deck,
    guandan_lead_ids_batch,
)


def wild_hands(n: int) -> list[list[Card]]:
    """Random 27-card hands holding both wilds at level 2 (both heart twos)."""
    wild = Card("2h")
    rest = [c for c in deck("double108") if c != wild]
    rng = random.Random(1)
    return [[*rng.sample(rest, 25), wild, wild] for _ in range(n)]


def rule_playouts(deals: int) -> int:
    pack = deck("double108")
    for seed in range(deals):
        cards = list(pack)
        random.Random(seed).shuffle(cards)
        deal = GuandanDeal([cards[27 * s : 27 * s + 27] for s in range(4)], "2", seed % 4)
        while not deal.over:
            deal.apply(deal.rule_move())
    return deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    hands = wild_hands(args.hands)
    leads = len(guandan_lead_ids_batch(hands[:100], "2")[0]) // 2 / 100
    print(f"Guandan speed (best of {args.rounds}; {leads:.0f} leads per wild hand)")
    row(
        "all leads, 27 cards with both wilds (batch, 1 thread)",
        best_rate(lambda: len(guandan_lead_ids_batch(hands, "2")[1]) // 8 - 1, args.rounds),
        200_000,
        "hands/s",
    )
    row(
        "Rust random playouts (1 thread)",
        best_rate(
            lambda: (_bench.bench_guandan_random_playouts(args.deals, 1, "2"), args.deals)[1],
            args.rounds,
        ),
        50_000,
        "deals/s",
    )
    row(
        "rule playouts stepped from Python (GuandanDeal)",
        best_rate(lambda: rule_playouts(args.deals // 10), args.rounds),
        None,
        "deals/s",
    )
    game = cardkit.games.make("guandan", match=False)
    row(
        "random deals through the Python State API",
        max(cardkit_random_deals(game, args.deals // 20) for _ in range(args.rounds)),
        3_000,
        "deals/s",
    )


if __name__ == "__main__":
    main()
