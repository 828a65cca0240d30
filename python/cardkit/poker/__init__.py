"""Poker hand evaluation (implemented in Rust, re-exported here).

>>> from cardkit.poker import evaluate, compare, winners
>>> evaluate("Kh Kd Ks 5c 5d").describe()
'Full House, Kings full of Fives'
>>> evaluate("As2d3h4c5s").describe()
'Straight, Five high'
>>> compare("AsAdKhQc2c", "KsKdAhQd3c")
1
>>> winners(["AsKs", "AhKh", "7c2d"], board="Qs Js Td 3c 2h")
[0, 1]

- :func:`evaluate` ranks 5, 6 or 7 cards (the best five count) and 3-card Chinese
  Poker front hands (trips, pair or high cards; straights and flushes do not count)
  on one scale, so a front hand compares directly with a five-card hand.
- :class:`HandRank` is totally ordered and hashable; suits never break ties.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardkit._core import Card, HandRank, poker_compare, poker_winners
from cardkit._core import poker_evaluate as evaluate

__all__ = ["CardsLike", "HandRank", "compare", "evaluate", "winners"]

CardsLike = str | Iterable[Card | str]
"""Cards as a string (``"AsKs"``, ``"As Ks"``) or an iterable of cards / card strings."""


def compare(a: CardsLike, b: CardsLike) -> int:
    """-1, 0 or 1 as hand ``a`` loses to, ties with or beats hand ``b``."""
    return poker_compare(a, b)


def winners(hands: Iterable[CardsLike], board: CardsLike = "") -> list[int]:
    """Indices of the best hands among ``hands``, each played with the shared ``board``.

    Ties list every winner. A card may appear only once among all hands and the board.
    """
    return poker_winners(hands, board)
