"""A plain-Python statement of Tractor's trump order, shapes and follow legality: a
test reference, not production code.

Written from the rule text (clauses TRC-22..TRC-38 of ../shared/seeds/clauses.md),
not from the Rust engine, so that ``tests/test_tractor.py`` can hold
``cardkit._core.tractor_*`` to a second opinion. Cards are strings (``"7h"``,
``"BJ"``); hands are lists with repeats. Being obviously right is the goal.

- A card is a trump when it is a joker, a level card, or of the trump suit (TRC-22,
  TRC-29); every other card belongs to its own suit (TRC-23).
- Strength inside trumps, lowest first: the trump suit's ranks 2..A without the
  level rank, then the other level cards (all equal, TRC-27), the trump suit's level
  card, the black joker, the red joker. At no-trump: the level cards (equal), then
  the jokers. Side suits: 2..A without the level rank (TRC-26: the gap closes).
- A follow of a lead of ``k`` cards with ``p`` pairs (0 for a single, ``k / 2``
  otherwise), from a hand holding ``n`` cards of the led effective suit of which
  ``q`` identical pairs: exactly ``k`` cards of the hand; ``min(k, n)`` of them in
  the led suit (TRC-28, TRC-32); among those, at least ``min(p, q)`` identical pairs
  (TRC-30). Nothing else is asked (TRC-31, TRC-33, TRC-34).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def suit_of(card: str, level: str, trump: str | None) -> str:
    """The effective suit: ``"T"`` for trumps, else the card's suit letter."""
    if card in ("BJ", "RJ") or card[0] == level or card[1] == trump:
        return "T"
    return card[1]


def strength(card: str, level: str, trump: str | None) -> int:
    """A number that orders cards inside their effective suit (equal for equals)."""
    plain = [r for r in RANKS if r != level]
    if card == "RJ":
        return 100
    if card == "BJ":
        return 99
    if card[0] == level:
        return 98 if card[1] == trump else 97
    return plain.index(card[0])


def pairs(cards: Sequence[str]) -> int:
    """Identical pairs among ``cards``."""
    return sum(n // 2 for n in Counter(cards).values())


def is_legal_follow(
    hand: Sequence[str], lead: Sequence[str], follow: Sequence[str], level: str, trump: str | None
) -> bool:
    """Whether ``follow`` may answer ``lead`` from ``hand`` (TRC-28 .. TRC-34)."""
    k = len(lead)
    if len(follow) != k or Counter(follow) - Counter(hand):
        return False
    led = suit_of(lead[0], level, trump)
    in_hand = [c for c in hand if suit_of(c, level, trump) == led]
    in_follow = [c for c in follow if suit_of(c, level, trump) == led]
    if len(in_follow) != min(k, len(in_hand)):
        return False
    lead_pairs = 0 if k == 1 else k // 2
    return pairs(in_follow) >= min(lead_pairs, pairs(in_hand))


def multisets(hand: Sequence[str], k: int) -> Iterator[tuple[str, ...]]:
    """Every multiset of ``k`` cards of ``hand``, each once, sorted."""
    yield from sorted(set(itertools.combinations(sorted(hand), k)))


def legal_follows(
    hand: Sequence[str], lead: Sequence[str], level: str, trump: str | None
) -> set[tuple[str, ...]]:
    """Every legal follow, as sorted tuples."""
    return {f for f in multisets(hand, len(lead)) if is_legal_follow(hand, lead, f, level, trump)}


def random_hand(rng: object, size: int) -> list[str]:
    """``size`` cards drawn from two packs (``rng`` is a ``random.Random``)."""
    pack = [r + s for r in RANKS for s in SUITS] + ["BJ", "RJ"]
    return list(rng.sample(pack * 2, size))  # type: ignore[attr-defined]
