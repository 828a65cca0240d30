"""Per-call overhead of card parsing and seeded shuffles, cardkit vs treys and eval7.

These calls bound every Python-driven game loop. Run on a release build:
    pip install '.[bench]' && python benches/cards.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import eval7
import treys

import cardkit
from _timing import per_call, table


def main() -> None:
    n = 200_000
    rows = [
        ("parse one card", "cardkit", per_call(lambda: cardkit.Card("Th"), n)),
        ("parse one card", "eval7", per_call(lambda: eval7.Card("Th"), n)),
        ("parse one card", "treys", per_call(lambda: treys.Card.new("Th"), n)),
        ("parse 7 cards", "cardkit", per_call(lambda: cardkit.parse_cards("AsKdQhJcTs9d8h"), n)),
        (
            "parse 7 cards",
            "treys",
            per_call(
                lambda: treys.Card.hand_to_binary(["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h"]), n
            ),
        ),
    ]
    seeds = iter(range(10**9))
    py_deck = list(range(52))
    py_rng = random.Random(1)
    e7 = eval7.Deck()
    m = 20_000
    rows += [
        (
            "shuffle 52",
            "cardkit",
            per_call(lambda: cardkit.shuffled_deck("standard52", next(seeds)), m),
        ),
        ("shuffle 52", "eval7", per_call(e7.shuffle, m)),
        ("shuffle 52", "python random", per_call(lambda: py_rng.shuffle(py_deck), m)),
    ]
    print(table("Cards: per-call cost from Python", rows))


if __name__ == "__main__":
    main()
