"""Type stubs of the Rust extension ``cardkit._core`` (checked by ``stubtest``)."""

from collections.abc import Iterable
from typing import final

__all__ = [
    "Card",
    "__version__",
    "deck",
    "deck_names",
    "derive_seed",
    "hearts_playouts",
    "hearts_search",
    "parse_cards",
    "shuffled_deck",
    "spades_playouts",
    "spades_search",
    "spades_team_score",
    "trick_winner",
]

__version__: str

@final
class Card:
    """A card of the French 54-card pack (immutable, hashable, ordered by index)."""

    def __new__(cls, card: Card | str) -> Card: ...
    @staticmethod
    def from_index(index: int) -> Card: ...
    @property
    def rank(self) -> str: ...
    @property
    def rank_index(self) -> int: ...
    @property
    def suit(self) -> str | None: ...
    @property
    def index(self) -> int: ...
    @property
    def is_joker(self) -> bool: ...
    @property
    def pretty(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __reduce__(self) -> tuple[type[Card], tuple[str]]: ...

def parse_cards(cards: str | Iterable[Card | str]) -> list[Card]: ...
def deck(name: str) -> list[Card]: ...
def shuffled_deck(name: str, seed: int) -> list[Card]: ...
def derive_seed(seed: int, stream: int) -> int: ...
def deck_names() -> list[str]: ...

# -- trick-taking core (trick.rs) -------------------------------------------------

def trick_winner(cards: list[Card | str], trump: str | None = None) -> int: ...
def hearts_search(
    seat: int,
    known: list[int],
    unknown: int,
    sizes: list[int],
    voids: list[int],
    leader: int,
    trick: list[int],
    taken: list[int],
    broken: bool,
    tricks_played: int,
    candidates: list[int],
    worlds: int,
    seed: int,
    epsilon: float = 0.1,
) -> list[float]: ...
def spades_search(
    seat: int,
    known: list[int],
    unknown: int,
    sizes: list[int],
    voids: list[int],
    leader: int,
    trick: list[int],
    played: int,
    bids: list[int],
    tricks: list[int],
    bags: list[int],
    broken: bool,
    candidates: list[int],
    worlds: int,
    seed: int,
    epsilon: float = 0.1,
) -> list[float]: ...
def hearts_playouts(deals: int, seed: int, epsilon: float = 1.0) -> list[int]: ...
def spades_playouts(deals: int, seed: int, bid: int = 3, epsilon: float = 1.0) -> list[int]: ...
def spades_team_score(bids: list[int], tricks: list[int], bags: int) -> tuple[int, int]: ...
