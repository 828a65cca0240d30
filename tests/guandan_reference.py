"""A plain-Python Guandan combination oracle: a test reference, not production code.

Written from the rule text (clauses GD-30..GD-44 of ../shared/seeds/clauses.md) and the
shared notation in GUANDAN_SPEC.md, not from the Rust engine, so that
``tests/test_guandan_combinations.py`` can hold ``cardkit._core.guandan_*`` to a second,
independent opinion. Speed is not a goal; being obviously right is.

The whole method in one paragraph: every combination is a *shape*, a list of groups
``(key, need)`` in reading order (low end first; a full house's triple before its pair),
where ``key`` is a rank character (``"7"``, ``"B"``) or, for straight flushes, a card
(``"7s"``). There are a few hundred shapes, written out once by :func:`shapes`; the level
only decides which cards are wild and how ranks order. A hand fills a shape by putting,
in every group, ``k`` of its natural cards of that key (``0 <= k <= need``) and
``need - k`` wilds standing for that key, using at most the wilds it holds. Jokers are
never stood for (GD-38), and a fill made only of wilds is allowed only for the level rank
(GD-39: a lone wild is a level-rank card, two wilds a level-rank pair). Each fill is one
listed play; its canonical text is the naturals of every group in reading order, then one
``W=<key>`` token per wild in reading order.

Ranks, level and wilds (GD-10..GD-12): natural ranks ``23456789TJQKA``; the level is one
of them; the two hearts of the level rank are the wilds, every other card a natural.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = {"BJ": "B", "RJ": "R"}
# Run positions: A low, 2 .. K, A high (GD-37). A run is a window of consecutive positions,
# so it can hold A at one end but never at both (no wrap).
RUN_POSITIONS = "A" + RANKS
BOMB_SIZES = range(4, 11)


@dataclass(frozen=True)
class Play:
    """One reading of one listed combination, with the fields ``GuandanPlay`` has."""

    text: str
    type: str
    main_rank: str
    suit: str | None
    size: int
    wilds: int
    naturals: str
    is_bomb: bool


@dataclass(frozen=True)
class Shape:
    """A combination pattern: its type, groups in reading order, main rank and suit."""

    type: str
    groups: tuple[tuple[str, int], ...]
    main_rank: str
    suit: str | None = None


def card_text(card: str) -> str:
    """The normal text of one card string: ``"7h"``, ``"Th"`` (also from ``"10h"``), or
    ``"BJ"``/``"RJ"``. Raises ValueError on anything else."""
    text = card.strip()
    if text.upper() in JOKERS:
        return text.upper()
    rank, suit = text[:-1].upper(), text[-1:].lower()
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    return rank + suit


def rank_of(card: str) -> str:
    """The rank character of a card string: ``"7"`` for ``"7h"``, ``"B"`` for ``"BJ"``."""
    text = card_text(card)
    return JOKERS.get(text, text[0])


def wild_card(level: str) -> str:
    """The card whose two copies are the wilds at this level: the level rank's heart."""
    return level + "h"


def strength(rank: str, level: str) -> int:
    """Order of singles and same-rank groups (GD-30): 2 lowest, then up to A with the level
    rank taken out, then the level rank, B, R. Suits have no part in it (GD-31)."""
    if rank == "R":
        return 14
    if rank == "B":
        return 13
    if rank == level:
        return 12
    index = RANKS.index(rank)
    return index - 1 if index > RANKS.index(level) else index


def _window(start: int, length: int) -> str:
    return RUN_POSITIONS[start : start + length]


@cache
def shapes() -> tuple[Shape, ...]:
    """Every combination pattern of GD-33 and GD-41..GD-44, level-free (the level only
    decides which cards are wilds and the order of ranks)."""
    out: list[Shape] = []
    for rank in RANKS + "BR":
        out.append(Shape("single", ((rank, 1),), rank))
        out.append(Shape("pair", ((rank, 2),), rank))  # BB and RR are pairs; BR is not
    for rank in RANKS:
        out.append(Shape("triple", ((rank, 3),), rank))
        out.extend(Shape("bomb", ((rank, n),), rank) for n in BOMB_SIZES)
        # GD-34: the pair may be BB or RR (never BR, which is no single key); never the
        # triple's own rank, which would be a five-card bomb.
        for pair in RANKS + "BR":
            if pair != rank:
                out.append(Shape("full_house", ((rank, 3), (pair, 2)), rank))
    for kind, length, need in (("straight", 5, 1), ("pair_run", 3, 2), ("plate", 2, 3)):
        for start in range(len(RUN_POSITIONS) - length + 1):
            window = _window(start, length)
            out.append(Shape(kind, tuple((r, need) for r in window), window[-1]))
    for suit in SUITS:
        for start in range(len(RUN_POSITIONS) - 5 + 1):
            window = _window(start, 5)
            groups = tuple((r + suit, 1) for r in window)
            out.append(Shape("straight_flush", groups, window[-1], suit))
    out.append(Shape("joker_bomb", (("B", 2), ("R", 2)), "R"))
    return tuple(out)


def _render(shape: Shape, naturals: Sequence[int]) -> Play:
    """The play that fills ``shape`` with ``naturals[i]`` natural cards in group ``i`` and
    wilds for the rest, with its canonical text (GUANDAN_SPEC "Action text")."""
    natural_text = "".join(key * k for (key, _), k in zip(shape.groups, naturals, strict=True))
    tokens = [
        f"W={key}"
        for (key, need), k in zip(shape.groups, naturals, strict=True)
        for _ in range(need - k)
    ]
    size = sum(need for _, need in shape.groups)
    wilds = len(tokens)
    return Play(
        text=" ".join(([natural_text] if natural_text else []) + tokens),
        type=shape.type,
        main_rank=shape.main_rank,
        suit=shape.suit,
        size=size,
        wilds=wilds,
        naturals="".join(key[0] * k for (key, _), k in zip(shape.groups, naturals, strict=True)),
        is_bomb=shape.type in ("bomb", "straight_flush", "joker_bomb"),
    )


def _wild_may_stand_for(key: str) -> bool:
    return key[0] in RANKS  # any natural card, never a joker (GD-38)


def _all_wild_allowed(shape: Shape, level: str) -> bool:
    # GD-39: wilds alone read only as the level rank (one wild a single, two a pair).
    return shape.type in ("single", "pair") and shape.main_rank == level


class Hand:
    """The natural cards of a hand, counted by rank and by card, and its number of wilds."""

    def __init__(self, cards: Iterable[str], level: str) -> None:
        if level not in RANKS:
            raise ValueError(f"not a level: {level!r}")
        self.level = level
        counted = Counter(card_text(c) for c in cards)
        self.wilds = counted.pop(wild_card(level), 0)
        self.by_card = counted
        self.by_rank: Counter[str] = Counter()
        for card, n in counted.items():
            self.by_rank[rank_of(card)] += n

    def available(self, key: str) -> int:
        """Natural cards of a group key: a rank (any suit) or one exact card."""
        return self.by_rank[key] if len(key) == 1 else self.by_card[key]


def _fills(shape: Shape, hand: Hand) -> Iterator[tuple[int, ...]]:
    """Every way the hand fills the shape: naturals per group, the rest wilds."""
    choices = []
    for key, need in shape.groups:
        # no group can take more wilds than the hand holds, and none may stand for a joker
        lowest = max(0, need - hand.wilds) if _wild_may_stand_for(key) else need
        choices.append(range(lowest, min(need, hand.available(key)) + 1))
    size = sum(need for _, need in shape.groups)
    for naturals in itertools.product(*choices):
        if size - sum(naturals) > hand.wilds:
            continue
        if sum(naturals) == 0 and not _all_wild_allowed(shape, hand.level):
            continue
        yield naturals


def leads(cards: Iterable[str], level: str) -> list[Play]:
    """Every legal lead of the hand, each (reading, naturals, stand-ins) once."""
    hand = Hand(cards, level)
    return [_render(shape, fill) for shape in shapes() for fill in _fills(shape, hand)]


def _ladder(play: Play, level: str) -> tuple[int, int]:
    """Bomb power (GD-41..GD-44): 4-card < 5-card < straight flush < 6 .. 10-card < the
    joker bomb; inside one step bombs by rank strength, straight flushes by top rank."""
    if play.type == "joker_bomb":
        return (8, 0)
    if play.type == "straight_flush":
        return (2, RANKS.index(play.main_rank))
    step = play.size - 4 if play.size <= 5 else play.size - 3
    return (step, strength(play.main_rank, level))


def _ordinary_value(play: Play, level: str) -> int:
    if play.type in ("straight", "pair_run", "plate"):
        # Runs compare by top position. An A-low run tops at 5, 3 or 2, so the natural
        # index of the top rank (A highest) orders every window of one length.
        return RANKS.index(play.main_rank)
    return strength(play.main_rank, level)


def beats(play: Play, table: Play, level: str) -> bool:
    """Whether ``play`` may answer ``table`` (GD-32, GD-41..GD-44); equal never beats."""
    if play.is_bomb:
        return not table.is_bomb or _ladder(play, level) > _ladder(table, level)
    return (
        not table.is_bomb
        and play.type == table.type
        and play.size == table.size
        and _ordinary_value(play, level) > _ordinary_value(table, level)
    )


def responses(cards: Iterable[str], level: str, table: Play) -> list[Play]:
    """Every listed play of the hand that beats the table (passing is not listed)."""
    return [play for play in leads(cards, level) if beats(play, table, level)]


def readings(cards: Iterable[str], level: str) -> list[Play]:
    """Every reading of playing exactly these cards (an ambiguous set has several)."""
    held = list(cards)
    return [play for play in leads(held, level) if play.size == len(held)]


# Tie order of suits when a rank-text play picks copies (GUANDAN_SPEC "Copies").
COPY_SUIT_ORDER = "cdsh"


def _run_distance(rank: str, other: str) -> int:
    """Positions apart in a run; the A sits at both ends."""
    return min(abs(a - b) for a in _positions(rank) for b in _positions(other))


def _positions(rank: str) -> list[int]:
    return [i for i, r in enumerate(RUN_POSITIONS) if r == rank]


def _copies(hand: Hand, rank: str, count: int) -> list[str]:
    if rank in "BR":
        suits_first = [rank + "J"]
    else:
        near = [r for r in RANKS if _run_distance(rank, r) <= 4]
        suits_first = sorted(
            (rank + suit for suit in SUITS),
            key=lambda card: (
                sum(hand.by_card[r + card[1]] > 0 for r in near),
                COPY_SUIT_ORDER.index(card[1]),
            ),
        )
    out: list[str] = []
    for card in suits_first:
        out.extend([card] * min(count - len(out), hand.by_card[card]))
    return out


def take(cards: Iterable[str], level: str, play: Play) -> list[str]:
    """The cards the play removes from the hand (GUANDAN_SPEC "Copies"): a straight flush
    takes the cards it names; otherwise each natural rank takes its copies suit by suit,
    first the suit in which the hand holds the fewest ranks within 4 run positions
    (straight-flush chances, so a second copy of a card does not count), ties in
    :data:`COPY_SUIT_ORDER`. Raises ValueError if the hand lacks them."""
    hand = Hand(cards, level)
    if play.type == "straight_flush":
        taken = list(Counter(_split_ranks(play.text.split()[0])).elements())
    else:
        taken = []
        for rank, count in Counter(play.naturals).items():
            taken.extend(_copies(hand, rank, count))
    taken.extend([wild_card(level)] * play.wilds)
    if len(taken) != play.size or Counter(taken) - Counter(map(card_text, cards)):
        raise ValueError(f"the hand lacks {play.text!r}")
    return taken


def _split_ranks(text: str) -> list[str] | None:
    """``"3s4s"`` -> ``["3s", "4s"]``, ``"10jq"`` -> ``["T", "J", "Q"]``: rank characters
    (``10`` read as ``T``), each optionally followed by a suit letter; None if not that."""
    out: list[str] = []
    i, upper = 0, text.upper()
    while i < len(upper):
        if upper.startswith("10", i):
            rank, i = "T", i + 2
        elif upper[i] in RANKS + "BR":
            rank, i = upper[i], i + 1
        else:
            return None
        if i < len(upper) and upper[i].lower() in SUITS:
            rank, i = rank + upper[i].lower(), i + 1
        out.append(rank)
    return out


@cache
def _shapes_by_cards() -> dict[frozenset[tuple[str, int]], list[Shape]]:
    """The shapes indexed by the multiset of their group keys, for parsing."""
    index: dict[frozenset[tuple[str, int]], list[Shape]] = {}
    for shape in shapes():
        index.setdefault(frozenset(shape.groups), []).append(shape)
    return index


def _natural_copies(key: str, level: str) -> int:
    """How many natural cards of a rank (or copies of one card) the two packs hold: the
    level rank's two hearts are wilds, not naturals (GD-10, GD-12)."""
    wilds_among = 2 if key in (level, wild_card(level)) else 0
    return (2 if len(key) == 2 or key in "BR" else 8) - wilds_among


def _read(text: str, level: str) -> Play | None:
    naturals: list[str] = []
    stand_ins: list[str] = []
    for token in text.split():
        name, sep, value = token.partition("=")
        if not sep:
            if naturals or stand_ins:
                return None  # the naturals are one token, ahead of the wild tokens
            naturals = _split_ranks(token) or []
            if not naturals:
                return None
            continue
        stands = _split_ranks(value)
        if not (name.upper() == "W" or _split_ranks(name) == [wild_card(level)]):
            return None
        if stands is None or len(stands) != 1:
            return None
        stand_ins.extend(stands)
    wanted_naturals, wanted_stand_ins = Counter(naturals), Counter(stand_ins)
    if len(stand_ins) > 2 or any(
        n > _natural_copies(key, level) for key, n in wanted_naturals.items()
    ):
        return None
    cards = frozenset((wanted_naturals + wanted_stand_ins).items())
    for shape in _shapes_by_cards().get(cards, []):
        if any(wanted_stand_ins[key] and not _wild_may_stand_for(key) for key, _ in shape.groups):
            continue
        fill = tuple(wanted_naturals[key] for key, _ in shape.groups)
        if sum(fill) == 0 and not _all_wild_allowed(shape, level):
            continue
        return _render(shape, fill)
    return None


def parse(text: str, level: str) -> Play:
    """The reading an action text (without ``play``) names, in canonical form.

    Accepts what GUANDAN_SPEC lists: any case, ``10`` for ``T``, naturals and wild tokens
    in any order (the wild tokens after the naturals), ``<level>h=x`` for ``W=x``. A text
    naming more natural cards than the packs hold is no play. Raises ValueError naming the
    text otherwise.
    """
    play = _read(text, level)
    if play is None:
        raise ValueError(f"not a play: {text!r}")
    return play
