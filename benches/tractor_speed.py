"""Tractor speed against the issue's targets: Rust random playouts of whole deals
(deal, random trumps, a random burial, random card play; one thread), random card
play stepped through ``TractorDeal`` from Python, and random full deals (declaring,
burying, card play) through the Python State API. No peer library plays Tractor, so
each rate is printed with its target.

Run: python benches/tractor_speed.py [--deals N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random

import cardkit
from _timing import best_rate, cardkit_random_deals, row
from cardkit._core import (  # the _bench bindings are unstable, for benches only
    TractorDeal,
    _bench,
    deck,
)


def stepped_deals(deals: int) -> int:
    """Random card play of dealt hands (the kitty left out) stepped from Python."""
    pack = deck("double108")
    for seed in range(deals):
        rng = random.Random(seed)
        cards = list(pack)
        rng.shuffle(cards)
        deal = TractorDeal([cards[25 * s : 25 * s + 25] for s in range(4)], "2", "s", 0)
        while not deal.over:
            ids = deal.legal_ids()
            deal.apply_id(ids[rng.randrange(len(ids))])
    return deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"Tractor speed (best of {args.rounds})")
    row(
        "Rust random playouts of whole deals (1 thread)",
        best_rate(
            lambda: (_bench.bench_tractor_random_playouts(args.deals, 1), args.deals)[1],
            args.rounds,
        ),
        50_000,
        "deals/s",
    )
    row(
        "random card play stepped from Python (TractorDeal)",
        best_rate(lambda: stepped_deals(args.deals // 100), args.rounds),
        None,
        "deals/s",
    )
    game = cardkit.games.make("tractor", match=False)
    row(
        "random deals through the Python State API",
        max(cardkit_random_deals(game, args.deals // 100) for _ in range(args.rounds)),
        2_000,
        "deals/s",
    )


if __name__ == "__main__":
    main()
