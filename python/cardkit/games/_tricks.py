"""Shared pieces of the trick-taking games (Hearts, Spades): cards as indices
``rank * 4 + suit`` (the ``Card.index`` of the 52-card pack, aces high), hands as
int bitsets, cached card names and ``play`` actions, and the trick winner.

Hands are ints so that following suit, legal-move lists and clones stay cheap in
the Python game loop; the hot AI loops run in Rust (``cardkit._core``).
"""

from __future__ import annotations

from cardkit._core import Card
from cardkit.api import Action
from cardkit.errors import IllegalActionError, InvalidCardError, RuleOptionError

__all__ = [
    "CARDS",
    "NAMES",
    "PLAY_ACTIONS",
    "PLAY_INDEX",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "bits",
    "card_index",
    "cards_of",
    "check_bool",
    "mask_of",
    "names_of",
    "play_actions",
    "trick_winner",
]

#: Every card of the pack by index.
CARDS: list[Card] = [Card.from_index(i) for i in range(52)]
#: Canonical text of every card by index.
NAMES: list[str] = [str(c) for c in CARDS]
#: The ``play <card>`` action of every card by index.
PLAY_ACTIONS: list[Action] = [Action(f"play {n}") for n in NAMES]
#: Card index of every ``play <card>`` action text.
PLAY_INDEX: dict[str, int] = {a.text: i for i, a in enumerate(PLAY_ACTIONS)}
#: Bits of each suit (clubs, diamonds, hearts, spades) in a hand bitset.
SUIT_MASKS: list[int] = [sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)]
#: Suit names for readable reasons.
SUIT_NAMES: list[str] = ["clubs", "diamonds", "hearts", "spades"]

_INDEX: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
# Legal-move lists are read 13 bits at a time from these per-chunk caches.
_CHUNK = 13
_CHUNK_MASK = (1 << _CHUNK) - 1
_CHUNK_ACTIONS: list[dict[int, tuple[Action, ...]]] = [{} for _ in range(4)]


def check_bool(name: str, value: object) -> bool:
    """``value`` if it is a bool, else a :class:`RuleOptionError` naming ``name``."""
    if not isinstance(value, bool):
        raise RuleOptionError(f"option {name} must be a bool, got {value!r}")
    return value


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: list[int] | tuple[int, ...]) -> int:
    """The bitset of ``indices``."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def names_of(mask: int) -> list[str]:
    """Canonical card texts of ``mask`` in index order (rank, then suit)."""
    return [NAMES[i] for i in bits(mask)]


def cards_of(mask: int) -> list[Card]:
    """``Card`` objects of ``mask`` in index order."""
    return [CARDS[i] for i in bits(mask)]


def play_actions(mask: int) -> list[Action]:
    """The ``play`` actions of every card in ``mask``, in index order."""
    out: list[Action] = []
    for chunk in range(4):
        part = (mask >> (chunk * _CHUNK)) & _CHUNK_MASK
        if not part:
            continue
        cache = _CHUNK_ACTIONS[chunk]
        actions = cache.get(part)
        if actions is None:
            base = chunk * _CHUNK
            actions = tuple(PLAY_ACTIONS[base + i] for i in bits(part))
            cache[part] = actions
        out.extend(actions)
    return out


def card_index(text: str) -> int:
    """The index of one card of the 52-card pack named by ``text``.

    Raises :class:`IllegalActionError` naming the text when it is no such card.
    """
    i = _INDEX.get(text)
    if i is not None:
        return i
    try:
        card = Card(text)
    except InvalidCardError as exc:
        raise IllegalActionError(f"{text!r} is not a card: {exc}") from exc
    if card.is_joker:
        raise IllegalActionError(f"{text} is not in the 52-card pack")
    return card.index


def trick_winner(cards: list[int], trump: int | None) -> int:
    """Position (in play order) of the winning card: the highest trump if any was
    played, else the highest card of the suit led."""
    best = 0
    for pos in range(1, len(cards)):
        card, top = cards[pos], cards[best]
        same = (card & 3) == (top & 3)
        if (same and card > top) or (not same and trump is not None and card & 3 == trump):
            best = pos
    return best
