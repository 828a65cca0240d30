"""Type stubs of the Rust extension ``cardkit._core`` (checked by ``stubtest``)."""

from collections.abc import Callable, Iterable, Sequence
from typing import final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Card",
    "ChinesePokerRules",
    "HandRank",
    "Range",
    "__version__",
    "chinese_poker_automatic_wins",
    "chinese_poker_count_sets",
    "chinese_poker_greedy_set",
    "chinese_poker_random_set",
    "chinese_poker_rank_set",
    "chinese_poker_sample_sets",
    "chinese_poker_score",
    "chinese_poker_solve",
    "deck",
    "deck_names",
    "derive_seed",
    "hearts_playouts",
    "hearts_search",
    "parse_cards",
    "poker_compare",
    "poker_equity",
    "poker_evaluate",
    "poker_evaluate_batch",
    "poker_winners",
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

# Poker hand evaluation (rust/python/src/poker.rs)

@final
class HandRank:
    """The strength of a poker hand: totally ordered (higher is better), hashable."""

    @property
    def value(self) -> int: ...
    @property
    def category(self) -> str: ...
    @property
    def best_five(self) -> list[Card]: ...
    @property
    def is_front(self) -> bool: ...
    def describe(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: HandRank, /) -> bool: ...
    def __le__(self, other: HandRank, /) -> bool: ...
    def __gt__(self, other: HandRank, /) -> bool: ...
    def __ge__(self, other: HandRank, /) -> bool: ...

def poker_evaluate(cards: str | Iterable[Card | str]) -> HandRank: ...
def poker_compare(a: str | Iterable[Card | str], b: str | Iterable[Card | str]) -> int: ...
def poker_winners(
    hands: Iterable[str | Iterable[Card | str]], board: str | Iterable[Card | str] | None = None
) -> list[int]: ...

@final
class Range:
    """A weighted range of Texas Hold'em starting hands."""

    def __new__(cls, text: str) -> Range: ...
    @property
    def text(self) -> str: ...
    def combos(
        self, dead: str | Iterable[Card | str] | None = None
    ) -> list[tuple[Card, Card, float]]: ...
    def __len__(self) -> int: ...

def poker_equity(
    players: Iterable[Range | str | Iterable[Card | str]],
    board: str | Iterable[Card | str] | None = None,
    dead: str | Iterable[Card | str] | None = None,
    *,
    exact: bool | None = None,
    samples: int | None = None,
    stderr: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[float], object] | None = None,
) -> tuple[list[tuple[float, float, float, float]], bool, int, int]: ...
def poker_evaluate_batch(
    cards: npt.NDArray[np.uint8], threads: int | None = None
) -> npt.NDArray[np.uint32]: ...

# -- Chinese Poker (rust/python/src/chinese_poker.rs) ---------------------------

@final
class ChinesePokerRules:
    """The scoring rules of a Chinese Poker table (immutable)."""

    def __new__(
        cls,
        variant: str = "basic",
        automatic_win_points: int = 3,
        dragon_points: int = 13,
        majority: str = "two_of_three",
        western_bonus: bool = False,
        shot: str = "multiply",
    ) -> ChinesePokerRules: ...
    @property
    def variant(self) -> str: ...
    @property
    def automatic_win_points(self) -> int: ...
    @property
    def dragon_points(self) -> int: ...
    @property
    def majority(self) -> str: ...
    @property
    def western_bonus(self) -> bool: ...
    @property
    def shot(self) -> str: ...

def chinese_poker_automatic_wins(hand: str | Iterable[Card | str]) -> list[str]: ...
def chinese_poker_rank_set(
    front: str | Iterable[Card | str],
    middle: str | Iterable[Card | str],
    back: str | Iterable[Card | str],
) -> tuple[list[int], list[str], list[str], bool]: ...
def chinese_poker_score(
    entries: Iterable[
        str
        | tuple[
            str | Iterable[Card | str],
            str | Iterable[Card | str],
            str | Iterable[Card | str],
        ]
    ],
    rules: ChinesePokerRules,
) -> list[int]: ...
def chinese_poker_count_sets(hand: str | Iterable[Card | str]) -> tuple[int, int]: ...
def chinese_poker_sample_sets(
    hand: str | Iterable[Card | str], count: int, improper: bool = False
) -> list[tuple[str, str, str]]: ...
def chinese_poker_greedy_set(hand: str | Iterable[Card | str]) -> tuple[str, str, str]: ...
def chinese_poker_random_set(
    hand: str | Iterable[Card | str], seed: int
) -> tuple[str, str, str]: ...
def chinese_poker_solve(
    hand: str | Iterable[Card | str],
    rules: ChinesePokerRules,
    players: int = 4,
    samples: int = 200,
    candidates: int = 64,
    seed: int = 0,
) -> tuple[str | None, tuple[str, str, str], float, float, int]: ...

# -- climbing games (Dou Dizhu, Zheng Shangyou) ---------------------------------

__all__ += [
    "ClimbingActions",
    "ClimbingDeal",
    "ClimbingView",
    "Combination",
    "climbing_beats",
    "climbing_classify",
    "climbing_leads",
    "climbing_play_texts",
    "climbing_random_playouts",
    "climbing_responses",
    "climbing_type_names",
    "doudizhu_action_space_size",
    "doudizhu_legal_ids_batch",
    "doudizhu_play_id",
    "doudizhu_play_of_id",
    "doudizhu_plays_batch",
]

from typing import Any  # noqa: E402  (this section only; the header is shared)

_Ranks = str | Iterable[Card | str]

@final
class Combination:
    """One reading of a play: type, main rank, length and cards (rank text)."""

    @property
    def type(self) -> str: ...
    @property
    def main_rank(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def cards(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def is_bomb(self) -> bool: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class ClimbingView:
    """A card-play position as one seat sees it, for the rule policy and search."""

    def __new__(
        cls,
        game: str,
        seat: int,
        hand: _Ranks,
        counts: Sequence[int],
        unknown: _Ranks,
        table: Combination | None = None,
        table_owner: int = 0,
        passes: int = 0,
        plays: Sequence[int] = ...,
        landlord: int = 0,
        bid: int = 1,
        bombs: int = 0,
        opening: bool = False,
        pending_bomb: bool = False,
        pinned: Sequence[str] | None = None,
    ) -> ClimbingView: ...
    def rule_move(self) -> str | None: ...
    def search_move(self, samples: int, seed: int) -> str | None: ...
    def legal(self) -> list[str | None]: ...

@final
class ClimbingActions:
    """The shared action objects of a climbing game: pass and one per play."""

    def __new__(cls, make: Callable[[str], Any], pass_action: Any) -> ClimbingActions: ...

@final
class ClimbingDeal:
    """The card play of one climbing deal, stepped one move at a time."""

    def __new__(
        cls,
        game: str,
        hands: Sequence[Sequence[Card | str]],
        leader: int,
        actions: ClimbingActions,
        landlord: int = 0,
        bid: int = 1,
        plays: Sequence[int] = ...,
    ) -> ClimbingDeal: ...
    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: object) -> Any | None: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def table(self) -> Combination | None: ...
    @property
    def table_owner(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def plays(self) -> list[int]: ...
    @property
    def card_counts(self) -> list[int]: ...
    @property
    def opening(self) -> bool: ...
    @property
    def pending_bomb(self) -> bool: ...
    @property
    def bombs(self) -> int: ...
    @property
    def rockets(self) -> int: ...
    @property
    def bonus(self) -> list[int]: ...
    def hand(self, seat: int) -> list[Card]: ...
    def hand_ranks(self, seat: int) -> str: ...
    def played(self, seat: int) -> list[Card]: ...
    def played_ranks(self, seat: int) -> str: ...
    def log(self) -> list[tuple[int, str]]: ...
    def bonus_log(self) -> list[tuple[int, str]]: ...
    def copy(self) -> ClimbingDeal: ...

def climbing_classify(game: str, cards: _Ranks, opening: bool = False) -> list[Combination]: ...
def climbing_leads(game: str, hand: _Ranks, opening: bool = False) -> list[Combination]: ...
def climbing_responses(
    game: str, hand: _Ranks, table: Combination | _Ranks, opening: bool = False
) -> list[Combination]: ...
def climbing_beats(game: str, play: Combination, table: Combination) -> bool: ...
def climbing_play_texts(
    game: str, hand: str, table: Combination | None, opening: bool = False
) -> list[str]: ...
def climbing_random_playouts(game: str, games: int, seed: int, policy_name: str) -> list[int]: ...
def climbing_type_names() -> list[str]: ...
def doudizhu_action_space_size() -> int: ...
def doudizhu_legal_ids_batch(
    hands: Sequence[str], tables: Sequence[Combination | None] | None = None
) -> list[bytes]: ...
def doudizhu_plays_batch(
    hands: Sequence[str], tables: Sequence[Combination | None] | None = None
) -> tuple[bytes, bytes]: ...
def doudizhu_play_id(cards: _Ranks) -> int | None: ...
def doudizhu_play_of_id(id: int) -> Combination | None: ...

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
