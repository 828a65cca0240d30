"""Type stubs of the Rust extension ``cardkit._core`` (checked by ``stubtest``).

Every public name has a docstring whose first line is the first line of the
binding's runtime ``__doc__`` (its Rust ``///`` comment; ``tests/test_core_stub.py``
holds the two together), then ``Args:``, ``Returns:`` and ``Raises:`` sections. The
error classes are those of :mod:`cardkit.errors`. Calls that can run long stop on
Ctrl-C with ``KeyboardInterrupt`` (with every worker thread stopped).
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, final

import numpy as np
import numpy.typing as npt

from cardkit.api import Action

__all__ = [
    "ActionTable",
    "BettingCore",
    "Card",
    "ChinesePokerRules",
    "HandRank",
    "Range",
    "TrickDeal",
    "__version__",
    "bit_ids",
    "bit_mask",
    "bridge_observation",
    "bridge_sample_deals",
    "bridge_score",
    "chinese_poker_automatic_wins",
    "chinese_poker_greedy_set",
    "chinese_poker_random_set",
    "chinese_poker_rank_set",
    "chinese_poker_sample_sets",
    "chinese_poker_score",
    "chinese_poker_solve",
    "dd_par",
    "dd_solve",
    "dd_solve_many",
    "dd_table",
    "dd_tables",
    "deck",
    "deck_names",
    "derive_seed",
    "hearts_moon_card",
    "hearts_observation",
    "hearts_pass_search",
    "hearts_search",
    "parse_cards",
    "poker_compare",
    "poker_equity",
    "poker_evaluate",
    "poker_evaluate_batch",
    "poker_winners",
    "shuffled_deck",
    "shuffled_deck_indices",
    "spades_bid_playouts",
    "spades_observation",
    "spades_search",
    "trick_winner",
]

__version__: str

@final
class Card:
    """A card of the French 54-card pack (immutable, hashable, ordered by index).

    ``Card(card)`` parses a card string or copies a ``Card``.

    Args:
        card: A ``Card``, or a card string: rank then suit, as ``"As"``, ``"10h"``,
            ``"Th"`` or ``"A♠"``, or ``"BJ"`` / ``"RJ"`` for the black and red jokers.

    Raises:
        InvalidCardError: If ``card`` is neither a ``Card`` nor a string naming a card.
    """

    def __new__(cls, card: Card | str) -> Card: ...
    @staticmethod
    def from_index(index: int) -> Card:
        """The card with index 0..=53 (see ``Card.index``).

        Args:
            index: An int in 0..=53 (a bool is refused).

        Returns:
            The card whose ``index`` is ``index``.

        Raises:
            InvalidCardError: If ``index`` is not an int in 0..=53.
        """
    @property
    def rank(self) -> str:
        """The rank as text: 2 to 9, T, J, Q, K, A, or BJ/RJ for the jokers."""
    @property
    def rank_index(self) -> int:
        """Rank number: 0 (deuce) .. 12 (ace), 13 black joker, 14 red joker."""
    @property
    def suit(self) -> str | None:
        """Suit letter ``c``, ``d``, ``h`` or ``s``; ``None`` for jokers."""
    @property
    def index(self) -> int:
        """Index 0..=53: ``rank * 4 + suit`` (suits c, d, h, s), then BJ = 52, RJ = 53."""
    @property
    def is_joker(self) -> bool:
        """True for the two jokers."""
    @property
    def pretty(self) -> str:
        """Display form with suit symbols: ``A♠``, ``10♥``, ``BJ``."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __reduce__(self) -> tuple[type[Card], tuple[str]]: ...

def parse_cards(cards: str | Iterable[Card | str]) -> list[Card]:
    """Parse a string of cards or an iterable of cards and card strings into ``Card``s.

    A string may pack or separate its cards: ``"As Kd Th"``, ``"AsKdTh"``, ``"As,Kd"``.

    Args:
        cards: A string of cards, or an iterable (even an endless one) of ``Card``
            objects and card strings.

    Returns:
        The cards in the order given (repeats are kept).

    Raises:
        InvalidCardError: If a card does not parse, an item is neither a ``Card`` nor a
            string, ``cards`` is neither a string nor iterable, or it holds more than
            108 cards (the largest deck).
    """

def deck(name: str) -> list[Card]:
    """The cards of a named deck in ascending order, pack after pack.

    The names: ``standard52``, ``french54``, ``double104``, ``double108``, ``zhengshangyou48``.

    Args:
        name: One of ``deck_names()``.

    Returns:
        The deck's cards, ascending by index within each pack.

    Raises:
        RuleOptionError: If ``name`` is not a str or names no deck.
    """

def shuffled_deck(name: str, seed: int) -> list[Card]:
    """The named deck shuffled by the portable ChaCha8 stream of ``seed`` (0..2**64).

    The same name and seed give the same order on every platform.

    Args:
        name: One of ``deck_names()``.
        seed: An int in 0..2**64-1 (a bool is refused).

    Returns:
        The deck's cards in shuffled order.

    Raises:
        RuleOptionError: If ``name`` is not a str or names no deck, or ``seed`` is not
            an int in 0..2**64-1.
    """

def shuffled_deck_indices(name: str, seed: int) -> bytes:
    """The card indices (``Card.index``) of ``shuffled_deck(name, seed)``, one byte a card.

    For dealing code that sorts or counts cards as small ints: no ``Card`` is made.

    Args:
        name: One of ``deck_names()``.
        seed: An int in 0..2**64-1 (a bool is refused).

    Returns:
        ``bytes([card.index for card in shuffled_deck(name, seed)])``.

    Raises:
        RuleOptionError: If ``name`` is not a str or names no deck, or ``seed`` is not
            an int in 0..2**64-1.
    """

def derive_seed(seed: int, stream: int) -> int:
    """Sub-seed number ``stream`` of ``seed`` (per deal, per worker), platform independent.

    Args:
        seed: The parent seed, an int in 0..2**64-1.
        stream: The number of the sub-stream, an int in 0..2**64-1.

    Returns:
        A seed in 0..2**64-1; different streams of one seed give unrelated seeds.

    Raises:
        RuleOptionError: If ``seed`` or ``stream`` is not an int in 0..2**64-1 (bools
            are refused).
    """

def deck_names() -> list[str]:
    """The names accepted by ``deck`` and ``shuffled_deck``.

    Returns:
        ``["standard52", "french54", "double104", "double108", "zhengshangyou48"]``.
    """

# Poker hand evaluation (rust/python/src/poker.rs)

@final
class HandRank:
    """The strength of a poker hand: totally ordered (higher is better), hashable.

    Hands that split the pot are equal. Made by ``poker_evaluate``; ``str()`` gives
    ``describe()``.
    """

    @property
    def value(self) -> int:
        """The numeric strength: higher is better, equal values tie.

        Five-card hands are multiples of 256; three-card front hands lie between them.
        """
    @property
    def category(self) -> str:
        """The category name, from ``straight_flush`` down to ``high_card``.

        One of ``straight_flush``, ``four_of_a_kind``, ``full_house``, ``flush``,
        ``straight``, ``three_of_a_kind``, ``two_pair``, ``one_pair``, ``high_card``.
        """
    @property
    def best_five(self) -> list[Card]:
        """The five cards that make the hand, most significant first.

        A three-card front hand gives its three cards. Ties between equal fives go to
        the one with the highest cards, so the result never depends on input order.
        """
    @property
    def is_front(self) -> bool:
        """True for a three-card (Chinese Poker front) hand."""
    def describe(self) -> str:
        """The hand in words: "Full House, Kings full of Fives", "Straight, Five high".

        Returns:
            The category and the ranks that decide it, in English.
        """
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: HandRank, /) -> bool: ...
    def __le__(self, other: HandRank, /) -> bool: ...
    def __gt__(self, other: HandRank, /) -> bool: ...
    def __ge__(self, other: HandRank, /) -> bool: ...

def poker_evaluate(cards: str | Iterable[Card | str]) -> HandRank:
    """Evaluate a poker hand of 3 (Chinese Poker front), 5, 6 or 7 cards.

    Six and seven cards rank as their best five.

    Args:
        cards: A string such as ``"AsKsQsJsTs"`` or ``"As Ks Qs Js Ts"``, or an iterable
            of ``Card`` objects and card strings.

    Returns:
        The hand's rank.

    Raises:
        InvalidCardError: If a card does not parse, a card repeats, a joker is among
            them, or there are not 3, 5, 6 or 7 cards.
    """

def poker_compare(a: str | Iterable[Card | str], b: str | Iterable[Card | str]) -> int:
    """-1, 0 or 1 as hand ``a`` is worse than, ties with or beats hand ``b``.

    Args:
        a: A hand of 3, 5, 6 or 7 cards, as for ``poker_evaluate``.
        b: Another hand, read the same way (it may share cards with ``a``).

    Returns:
        -1, 0 or 1.

    Raises:
        InvalidCardError: If either hand is not a valid poker hand.
    """

def poker_winners(
    hands: Iterable[str | Iterable[Card | str]], board: str | Iterable[Card | str] | None = None
) -> list[int]:
    """Indices of the best hands (all of them on a tie).

    Each hand is combined with the shared ``board``; no card may appear twice among
    all hands and the board.

    Args:
        hands: The players' cards, each as for ``parse_cards``.
        board: The shared cards, or ``None`` for none.

    Returns:
        The indices into ``hands`` of the winning hands, ascending; empty when
        ``hands`` is.

    Raises:
        InvalidCardError: If a card does not parse or appears twice, or a hand with the
            board is not 3, 5, 6 or 7 cards without jokers.
    """

@final
class Range:
    """A weighted range of Texas Hold'em starting hands: ``"QQ+, AKs, A5s-A2s, AhKh, AKo:0.5"``.

    Tokens are separated by commas; an empty token (a comma at either end or two
    commas in a row, as in ``"AA,,KK"``) and an empty text raise ``InvalidRangeError``,
    whose message names the bad token or the position of the empty one. ``len()``
    is the number of combos with a positive weight.

    Args:
        text: The range text.

    Raises:
        InvalidRangeError: If ``text`` is not a str or does not parse.
    """

    def __new__(cls, text: str) -> Range: ...
    @property
    def text(self) -> str:
        """The text the range was parsed from."""
    def combos(
        self, dead: str | Iterable[Card | str] | None = None
    ) -> list[tuple[Card, Card, float]]:
        """Every live combo of the range as ``(card, card, weight)``, higher card first.

        Live: a positive weight and no card of ``dead``; in ascending combo order.

        Args:
            dead: Cards no combo may use (as for ``parse_cards``), or ``None``.

        Returns:
            One ``(high card, low card, weight)`` per live combo.

        Raises:
            InvalidCardError: If ``dead`` does not parse as cards.
        """
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
) -> tuple[list[tuple[float, float, float, float]], bool, int, int]:
    """Equity of 2 to 10 players (hands or ranges); see ``cardkit.poker.equity``.

    A player's equity is their expected share of the pot (``win`` from outright
    wins plus ``tie`` from split pots); the equities sum to 1. Runs without the GIL;
    Ctrl-C stops it.

    Args:
        players: Each player's ``Range``, range text (a hand such as ``"AhAs"`` is a
            one-combo range) or two cards.
        board: Up to 5 board cards, or ``None``.
        dead: Cards no one can receive, or ``None``.
        exact: ``True`` enumerates every board, ``False`` samples (Monte Carlo),
            ``None`` enumerates when that takes about a second or less and neither
            ``samples`` nor ``stderr`` is given.
        samples: The most Monte Carlo trials (default 100,000,000); at least 1.
        stderr: Stop once every player's standard error is at most this (default
            5e-4 when ``samples`` is not given either); a positive number.
        seed: The Monte Carlo seed, an int in 0..2**64-1 (default 0).
        threads: Worker threads (``None`` or 0: every core; at most 256).
        progress: Called with the fraction done (0 to 1) about ten times a second
            and once at the end; an exception it raises stops the run and propagates.

    Returns:
        ``(players, exact, samples, boards)``: ``(equity, win, tie, stderr)`` per
        player (``stderr`` is 0 when exact), whether the answer is exact, the
        Monte Carlo trials run (0 when exact) and the boards enumerated (0 for
        Monte Carlo).

    Raises:
        InvalidRangeError: If a range text does not parse.
        InvalidCardError: If a card does not parse or repeats among the board and dead
            cards, a player given as cards is not two different cards, the board
            holds more than 5 cards, or no deal gives every player a hand.
        RuleOptionError: If there are not 2 to 10 players, ``exact=True`` comes with
            ``samples`` or ``stderr`` or the enumeration is too large, ``samples`` is 0,
            ``stderr`` is not positive, or Monte Carlo cannot deal the ranges.
        KeyboardInterrupt: On Ctrl-C during the run.
    """

def poker_evaluate_batch(
    cards: npt.NDArray[np.uint8],
    threads: int | None = None,
    out: npt.NDArray[np.uint32] | None = None,
) -> npt.NDArray[np.uint32]:
    """Rank each row of an ``(N, 5|6|7)`` uint8 array of card indices into a uint32 array.

    The ``HandRank.value``s go into ``out`` (length N, written in place and returned)
    or a new array. Runs without the GIL on ``threads`` threads; a large batch stops
    on Ctrl-C with ``KeyboardInterrupt``.

    Args:
        cards: An ``(N, 5)``, ``(N, 6)`` or ``(N, 7)`` uint8 array of card indices
            0..=51 (``Card.index``), distinct within each row.
        threads: Worker threads (``None`` or 0: every core; at most 256).
        out: A writable, contiguous uint32 array of length N to fill, or ``None``.

    Returns:
        ``out``, or a new uint32 array of length N.

    Raises:
        InvalidCardError: If rows are not 5, 6 or 7 wide, or a row has an index above
            51 or a repeated card (the message names the first such row).
        RuleOptionError: If ``out`` is not writable, not contiguous or not of length N.
        KeyboardInterrupt: On Ctrl-C during a batch of 2**23 rows or more.
    """

# -- Chinese Poker (rust/python/src/chinese_poker.rs) ---------------------------

@final
class ChinesePokerRules:
    """The scoring rules of a Chinese Poker table (immutable).

    Args:
        variant: The point system: ``basic``, ``eastern``, ``western`` or ``mandarin``.
        automatic_win_points: Points a declared automatic win other than the Dragon
            takes from each opponent, 0..=1000.
        dragon_points: Points a declared Dragon takes from each opponent, 0..=1000.
        majority: Who earns the majority point: ``two_of_three`` or ``more_segments``.
        western_bonus: Whether the western variant also pays the eastern bonus hands.
        shot: How the mandarin shot and home run apply to the regular value:
            ``multiply`` or ``add``.

    Raises:
        RuleOptionError: If ``variant``, ``majority`` or ``shot`` is not one of its
            names, or a points value is outside 0..=1000.
    """

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
    def variant(self) -> str:
        """The point system: basic, eastern, western or mandarin."""
    @property
    def automatic_win_points(self) -> int:
        """Points a declared automatic win other than the Dragon takes from each opponent."""
    @property
    def dragon_points(self) -> int:
        """Points a declared Dragon takes from each opponent."""
    @property
    def majority(self) -> str:
        """Who earns the majority point: two_of_three or more_segments."""
    @property
    def western_bonus(self) -> bool:
        """Whether the western variant also pays the eastern bonus hands."""
    @property
    def shot(self) -> str:
        """How the mandarin shot and home run apply: multiply or add."""

def chinese_poker_automatic_wins(hand: str | Iterable[Card | str]) -> list[str]:
    """The automatic wins a 13-card hand qualifies for, strongest first.

    The names: ``dragon``, ``six_pairs``, ``three_flushes``, ``three_straights``.

    Args:
        hand: 13 distinct cards of the 52-card pack, as for ``parse_cards``.

    Returns:
        The names of the automatic wins the hand qualifies for (empty if none).

    Raises:
        InvalidCardError: If a card does not parse or is a joker.
        IllegalActionError: If the hand is not 13 distinct cards.
    """

def chinese_poker_rank_set(
    front: str | Iterable[Card | str],
    middle: str | Iterable[Card | str],
    back: str | Iterable[Card | str],
) -> tuple[list[int], list[str], list[str], bool]:
    """Rank a set: ``(values, categories, made, proper)`` for front, middle and back.

    Args:
        front: The 3 front cards.
        middle: The 5 middle cards.
        back: The 5 back cards.

    Returns:
        ``(values, categories, made, proper)``: ``values`` share one scale (higher
        wins; the front ranks as three cards), ``categories`` are the
        ``HandRank.category`` names, ``made`` the bonus classes (``plain``,
        ``trips``, ``full_house``, ``quads``, ``straight_flush``), and ``proper``
        says whether the set is in ranking order (the back at least the middle,
        the middle above the front).

    Raises:
        InvalidCardError: If a card does not parse or is a joker.
        IllegalActionError: If the segments are not 3, 5 and 5 cards or a card
            repeats.
    """

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
) -> list[int]:
    """Points per player for a table of entries (the Rust scoring kernel).

    Each entry is a ``(front, middle, back)`` tuple or a declared automatic win's
    name (the caller has checked that it qualifies). The points sum to zero. A set
    of 13 distinct cards that is misordered or has the wrong segment sizes is
    scored as improperly set.

    Args:
        entries: 2 to 4 entries, one per player (any iterable; reading stops at
            the fifth).
        rules: The table's scoring rules.

    Returns:
        Each player's points, in entry order.

    Raises:
        RuleOptionError: If there are not 2 to 4 entries.
        IllegalActionError: If an entry is neither a name nor a 3-tuple, a name is no
            automatic win, or a set is not 13 distinct cards.
        InvalidCardError: If a card does not parse or is a joker.
    """

def chinese_poker_sample_sets(
    hand: str | Iterable[Card | str], count: int, improper: bool = False
) -> list[tuple[str, str, str]]:
    """Up to ``count`` properly set splits of a hand, spread evenly over all of them.

    Each is ``(front, middle, back)`` card strings; with ``improper``, one misordered
    split follows.

    Args:
        hand: 13 distinct cards of the 52-card pack.
        count: The most properly set splits to return (0 for none).
        improper: Whether to append one misordered split.

    Returns:
        ``(front, middle, back)`` card strings per split, properly set ones first.

    Raises:
        InvalidCardError: If a card does not parse or is a joker.
        IllegalActionError: If the hand is not 13 distinct cards.
    """

def chinese_poker_greedy_set(hand: str | Iterable[Card | str]) -> tuple[str, str, str]:
    """The greedy set: the strongest back, the strongest middle of the rest, the rest in front.

    When that is misordered, the best properly set split instead.

    Args:
        hand: 13 distinct cards of the 52-card pack.

    Returns:
        ``(front, middle, back)`` card strings.

    Raises:
        InvalidCardError: If a card does not parse or is a joker.
        IllegalActionError: If the hand is not 13 distinct cards.
    """

def chinese_poker_random_set(hand: str | Iterable[Card | str], seed: int) -> tuple[str, str, str]:
    """A uniformly random properly set split, drawn with the stream of ``seed``.

    Args:
        hand: 13 distinct cards of the 52-card pack.
        seed: An int in 0..2**64-1.

    Returns:
        ``(front, middle, back)`` card strings.

    Raises:
        InvalidCardError: If a card does not parse or is a joker.
        IllegalActionError: If the hand is not 13 distinct cards.
    """

def chinese_poker_solve(
    hand: str | Iterable[Card | str],
    rules: ChinesePokerRules,
    players: int = 4,
    samples: int = 200,
    candidates: int = 64,
    seed: int = 0,
) -> tuple[str | None, tuple[str, str, str], float, float, int]:
    """Solve a hand: ``(declare, (front, middle, back), expected, declare_value, proper)``.

    ``declare`` names the automatic win to declare instead of setting, or is None.
    Every properly set split is screened; the best ``candidates`` are scored exactly
    against ``samples`` sampled deals of greedy opponents. A long solve runs
    without the GIL and stops on Ctrl-C.

    Args:
        hand: 13 distinct cards of the 52-card pack.
        rules: The table's scoring rules.
        players: Players at the table, 2..=4.
        samples: Sampled deals of the unseen cards, 1..=100,000.
        candidates: Splits kept from screening for exact scoring, 1..=72,072.
        seed: The sampling seed, an int in 0..2**64-1.

    Returns:
        ``(declare, (front, middle, back), expected, declare_value, proper)``: the
        automatic win to declare or ``None``, the best properly set arrangement, its
        mean points per deal against all sampled opponents together, what declaring
        the best qualifying automatic win pays (0 when none qualifies), and the
        number of properly set splits of the hand.

    Raises:
        InvalidCardError: If a card does not parse or is a joker.
        IllegalActionError: If the hand is not 13 distinct cards.
        RuleOptionError: If ``players``, ``samples`` or ``candidates`` is out of range.
        KeyboardInterrupt: On Ctrl-C during a long solve.
    """

# -- climbing games (Dou Dizhu, Zheng Shangyou) ---------------------------------

__all__ += [
    "ClimbingActions",
    "ClimbingDeal",
    "ClimbingView",
    "Combination",
    "climbing_beats",
    "climbing_card_play_size",
    "climbing_classify",
    "climbing_leads",
    "climbing_responses",
    "doudizhu_action_space_size",
    "doudizhu_landlord_playouts",
    "doudizhu_legal_ids_batch",
    "doudizhu_play_id",
    "doudizhu_play_of_id",
    "doudizhu_plays_batch",
    "zhengshangyou_action_space_size",
    "zhengshangyou_play_id",
    "zhengshangyou_play_of_id",
]

_Ranks = str | Iterable[Card | str]

@final
class Combination:
    """One reading of a play: ``type``, ``main_rank``, ``length`` and ``cards`` (rank text).

    Rank text writes each card as its rank, weakest first: ``3``..``9``, ``T``,
    ``J``, ``Q``, ``K``, ``A``, ``2``, ``B`` (black joker), ``R`` (red joker).
    Combinations compare and hash by value.
    """

    @property
    def type(self) -> str:
        """The type name: ``single``, ``pair``, ..., ``airplane_singles``, ``bomb``, ``rocket``."""
    @property
    def main_rank(self) -> str:
        """The rank that decides strength (the highest core rank of runs and airplanes)."""
    @property
    def length(self) -> int:
        """Consecutive core ranks (run and airplane length; 1 otherwise)."""
    @property
    def cards(self) -> str:
        """The ranks played, weakest first: ``"33344456"``."""
    @property
    def size(self) -> int:
        """Number of cards."""
    @property
    def is_bomb(self) -> bool:
        """True for bombs (and the rocket): they answer any ordinary combination."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class ClimbingView:
    """A card-play position as one seat sees it, for the rule policy and the search.

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.
        seat: The seat to move, 0..=2.
        hand: The seat's cards (rank text or cards).
        counts: Every seat's card count.
        unknown: Every card ``seat`` cannot see (rank text or cards), split among the
            other seats by the search.
        table: The combination to beat, or ``None`` when ``seat`` leads.
        table_owner: The seat that played ``table``, 0..=2.
        passes: Consecutive passes since ``table`` was played.
        plays: Plays each seat has made.
        landlord: Dou Dizhu's landlord, 0..=2.
        bid: Dou Dizhu's settled bid, 1..=3.
        bombs: Dou Dizhu's bombs played so far.
        opening: Zheng Shangyou: the next play is the deal's opening play.
        pending_bomb: Zheng Shangyou: ``table`` is a response bomb not yet settled.
        pinned: Per seat, rank text of cards known to be in that hand, or ``None``.
        history: The card play so far as (seat, rank text, or ``None`` for a pass),
            oldest first, or ``None``: at most 162 moves, the longest card play
            (three moves a card of the 54-card pack). With it, the search deals the
            unseen cards to fit the other seats' passes (Zheng Shangyou: nothing in
            the passer's hand beat the table; Dou Dizhu: hands the rule policy would
            have answered an opponent with are less likely).

    Raises:
        InvalidArgumentError: If an argument has the wrong type, or ``history`` is
            longer than 162 moves (refused by its length, before any move is read).
        RuleOptionError: If ``game`` is unknown or a Dou Dizhu ``bid`` is not 1..=3.
        IllegalActionError: If a seat is not 0..=2, ``hand`` and ``unknown`` do not
            match ``counts``, or a move of ``history`` is out of turn, a pass on an
            empty table or a play that does not fit the table of its turn.
        InvalidCardError: If ``hand``, ``unknown``, ``pinned`` or a play of ``history``
            does not read as ranks.
    """

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
        history: Sequence[tuple[int, str | None]] | None = None,
    ) -> ClimbingView: ...
    def rule_move(self) -> str | None:
        """The rule-based policy's move: rank text, or None to pass.

        Returns:
            The rank text of the play, or ``None`` to pass.
        """
    def search_move(
        self,
        samples: int,
        seed: int,
        endgame_cards: int = 0,
        endgame_nodes: int = 20_000,
        halving: bool = False,
        shedding: bool = False,
    ) -> str | None:
        """The search's move after ``samples`` determinized deals (seeded): rank text or None.

        Each sample deals ``unknown`` to the other seats (``pinned`` cards stay with
        their seat; with a ``history``, redrawn up to 8 times to fit its passes),
        plays each candidate move and finishes the deal with the rule
        policy (a random move one time in 32); the move with the best total score
        for the seat wins. With ``endgame_cards`` > 0, a sample is solved exactly
        (alpha-beta, every hand known) once at most that many cards are left in all
        hands, unless the solve needs more than ``endgame_nodes`` nodes. Runs
        without the GIL.

        Args:
            samples: Determinized deals to play out, an int in 0..2**32-1 (0 counts
                as 1).
            seed: The sampling seed, an int in 0..2**64-1.
            endgame_cards: Cards left at which samples are solved, an int in
                0..255 (0: never).
            endgame_nodes: Nodes one solve may visit, an int in 0..2**32-1.
            halving: Spend the same playouts by successive halving: each round
                plays the candidates still in the race on fresh deals and drops
                the worse half (a bool).
            shedding: Play the playouts with the shedding policy instead of the
                rule policy: leads weigh each card of a planned group as three
                ranks lower, and answers do not hold back a bomb (a bool; the
                stronger playouts of both games' searches).

        Returns:
            The rank text of the chosen play, or ``None`` to pass.

        Raises:
            KeyboardInterrupt: On Ctrl-C during a long search.
        """
    def legal(self) -> list[str | None]:
        """The seat's legal moves as rank texts (pass as None).

        Returns:
            Rank text per legal play, ``None`` for the pass.
        """

@final
class ClimbingActions:
    """The shared action objects of a climbing game: pass and one per play.

    One game family's canonical objects, shared by all its deals: ``pass`` and one
    object per play (keyed by its ranks), made once by ``make(rank_text)``, so that
    listing the legal actions of a turn builds no strings and no objects.

    Bounded like every action cache of cardkit: once ``limit`` plays are kept, a new
    play's object is still made and handed out, only not kept.

    Args:
        make: Called once per distinct play with its rank text; returns its action.
        pass_action: The action object of a pass.
        limit: The most play objects kept (``cardkit.games._intern.MAX_INTERNED``).
    """

    def __new__(
        cls, make: Callable[[str], Any], pass_action: Any, limit: int
    ) -> ClimbingActions: ...
    def __len__(self) -> int:
        """How many play objects are kept (at most ``limit``)."""

@final
class ClimbingDeal:
    """The card play of one climbing deal, stepped one move at a time.

    Dou Dizhu after the bidding, or Zheng Shangyou, stepped from Python: legal
    actions as shared action objects, apply by action, and the hands, table, plays
    and bonuses for observations and scoring.

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.
        hands: The three seats' cards (``Card`` objects or card strings).
        leader: The seat that leads first, 0..=2.
        actions: The game's shared action objects.
        landlord: Dou Dizhu's landlord, 0..=2.
        bid: Dou Dizhu's settled bid, 1..=3.
        plays: Plays each seat made before (for positions set up mid-deal); a Zheng
            Shangyou deal is at its opening play while nobody has played.

    Raises:
        RuleOptionError: If ``game`` is unknown, or a Dou Dizhu ``landlord`` is not
            0..=2 or ``bid`` not 1..=3.
        InvalidCardError: If a card does not parse or is in a hand twice or in two
            hands.
        IllegalActionError: If ``leader`` is not 0..=2.
    """

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
    def legal_actions(self) -> list[Any]:
        """The legal actions of the seat to act (plays, then pass); empty once over.

        Returns:
            The shared action objects of the legal moves.

        Raises:
            Exception: Whatever ``make`` raises when it builds a new play's action.
        """
    def apply(self, action: object) -> Any | None:
        """Apply ``action`` and return its listed object; ``None`` (no change) if illegal.

        ``action`` is a listed action object or its canonical text.

        Args:
            action: An object ``legal_actions()`` listed, or its text: ``"pass"`` or
                ``"play "`` and the ranks weakest first (``"play 33344"``).

        Returns:
            The listed action object applied, or ``None`` when ``action`` names no
            legal move now.

        Raises:
            Exception: Whatever ``make`` raises when it builds a new play's action.
        """
    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once a hand is empty."""
    @property
    def winner(self) -> int | None:
        """The seat that went out, or None."""
    @property
    def over(self) -> bool:
        """True once a hand is empty."""
    @property
    def table(self) -> Combination | None:
        """The combination to beat, or None when the seat to act leads."""
    @property
    def table_owner(self) -> int:
        """The seat that played the table (the last leader when the table is empty)."""
    @property
    def passes(self) -> int:
        """Consecutive passes since the table was played."""
    @property
    def plays(self) -> list[int]:
        """Plays (not passes) each seat has made."""
    @property
    def card_counts(self) -> list[int]:
        """Cards left in each hand."""
    @property
    def opening(self) -> bool:
        """Zheng Shangyou: the next play is the deal's opening play."""
    @property
    def pending_bomb(self) -> bool:
        """Zheng Shangyou: the table is a response bomb whose bonus is not settled yet."""
    @property
    def bombs(self) -> int:
        """Dou Dizhu: four-card bombs played."""
    @property
    def rockets(self) -> int:
        """Dou Dizhu: rockets played."""
    @property
    def bonus(self) -> list[int]:
        """Zheng Shangyou: settled bomb bonuses per seat."""
    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat``'s hand, weakest rank first.

        Args:
            seat: 0, 1 or 2.

        Returns:
            The cards, weakest rank first, then by card index.

        Raises:
            RuleOptionError: If ``seat`` is 3 or more.
        """
    def hand_ranks(self, seat: int) -> str:
        """The ranks of ``seat``'s hand as rank text, weakest first.

        Args:
            seat: 0, 1 or 2.

        Returns:
            The hand's rank text.

        Raises:
            RuleOptionError: If ``seat`` is 3 or more.
        """
    def played(self, seat: int) -> list[Card]:
        """The cards ``seat`` has played, in play order.

        Args:
            seat: 0, 1 or 2.

        Returns:
            Every card the seat has played this deal.

        Raises:
            RuleOptionError: If ``seat`` is 3 or more.
        """
    def played_ranks(self, seat: int) -> str:
        """The ranks ``seat`` has played, weakest first.

        Args:
            seat: 0, 1 or 2.

        Returns:
            The rank text of every card the seat has played.

        Raises:
            RuleOptionError: If ``seat`` is 3 or more.
        """
    def log(self) -> list[tuple[int, str]]:
        """Every card-play move so far as (seat, action text).

        Returns:
            ``(seat, "pass")`` or ``(seat, "play <ranks>")`` per move, in order.
        """
    def bonus_log(self) -> list[tuple[int, str]]:
        """Zheng Shangyou: (owner, ranks) of every response bomb whose bonus was settled.

        Returns:
            ``(owner seat, rank text)`` per settled bomb, in order.
        """
    def legal_ids(self) -> list[int]:
        """The fixed action-index ids of the legal moves, ascending (pass is 0).

        The game's index (Dou Dizhu's or Zheng Shangyou's) numbers every play a
        hand can make, so every listed move has one.

        Returns:
            The ids, ascending; empty once the deal is over.
        """
    def write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> int:
        """Write the card-play part of ``seat``'s observation tensor into ``out``.

        ``out`` is a float32 array of zeros at least ``climbing_card_play_size(game)``
        long; returns how many floats were written (the rest is the game's).

        Args:
            seat: The observing seat, 0..=2 (seats are rotated so it comes first).
            out: A writable, contiguous one-dimensional float32 array.

        Returns:
            The number of floats written, ``climbing_card_play_size(game)``.

        Raises:
            RuleOptionError: If ``seat`` is not 0..=2, or ``out`` is not a
                one-dimensional float32 array, is read-only, not contiguous or too
                short.
        """
    def copy(self) -> ClimbingDeal:
        """An independent copy (the action table is shared).

        Returns:
            A deal that can be stepped without changing this one.
        """

def climbing_classify(game: str, cards: _Ranks, opening: bool = False) -> list[Combination]:
    """Every reading of ``cards`` as one combination of ``game`` (empty if none).

    ``opening``: Zheng Shangyou's first play, where four threes are the heavenly bomb.

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.
        cards: Rank text (``"33344BR"``) or an iterable of cards and card strings.
        opening: Whether this is Zheng Shangyou's opening play.

    Returns:
        Every combination the cards can be read as.

    Raises:
        RuleOptionError: If ``game`` is unknown.
        InvalidCardError: If ``cards`` does not read as ranks.
    """

def climbing_leads(game: str, hand: _Ranks, opening: bool = False) -> list[Combination]:
    """Every legal lead from ``hand``.

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.
        hand: Rank text or an iterable of cards and card strings.
        opening: Whether this is Zheng Shangyou's opening play.

    Returns:
        Every combination ``hand`` may lead.

    Raises:
        RuleOptionError: If ``game`` is unknown.
        InvalidCardError: If ``hand`` does not read as ranks.
    """

def climbing_responses(
    game: str, hand: _Ranks, table: Combination | _Ranks, opening: bool = False
) -> list[Combination]:
    """Every play from ``hand`` that beats ``table`` (pass not included).

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.
        hand: Rank text or an iterable of cards and card strings.
        table: The combination to beat, or its ranks (read as their first reading).
        opening: Whether ``table`` is read as Zheng Shangyou's opening play.

    Returns:
        Every combination of ``hand`` that beats ``table``.

    Raises:
        RuleOptionError: If ``game`` is unknown.
        InvalidCardError: If ``hand`` or ``table`` does not read as ranks.
        IllegalActionError: If the ranks of ``table`` are no combination.
    """

def climbing_beats(game: str, play: Combination, table: Combination) -> bool:
    """Whether ``play`` beats ``table``.

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.
        play: The combination played.
        table: The combination to beat.

    Returns:
        True if ``play`` may answer ``table`` under ``game``'s rules.

    Raises:
        RuleOptionError: If ``game`` is unknown.
    """

def doudizhu_action_space_size() -> int:
    """Size of the Dou Dizhu action space: pass, bids 1-3 and every play.

    Returns:
        The number of action-index ids.
    """

def doudizhu_legal_ids_batch(
    hands: Sequence[str],
    tables: Sequence[Combination | None] | None = None,
    threads: int | None = None,
) -> list[bytes]:
    """The action-index ids of every legal Dou Dizhu move of each hand, a buffer a hand.

    For each hand (rank text) and its table (``None``: leading), the fixed
    action-index ids of every legal move (pass, id 0, included when following) as
    little-endian ``u16``s: ``numpy.frombuffer(b, "<u2")``. Runs without the GIL on
    ``threads`` threads (default: every core).

    Args:
        hands: A list (or other sequence) of rank texts.
        tables: The table each hand answers (``None``: it leads), one to one with
            ``hands``; ``None`` for every hand leading.
        threads: Worker threads (``None`` or 0: every core; at most 256).

    Returns:
        One bytes buffer of ``u16`` ids per hand; plays outside the index (hands of
        more than 20 cards) are left out.

    Raises:
        InvalidCardError: If ``hands`` is not a list of rank strings or a hand does
            not read as ranks.
        IllegalActionError: If ``tables`` is not a list of combinations and ``None``
            matching ``hands`` one to one.
        RuleOptionError: If the hands have more legal moves in all than one call may
            list (1 GiB of output): split the batch.
        KeyboardInterrupt: On Ctrl-C while a long batch is read or listed.
    """

def doudizhu_plays_batch(
    hands: Sequence[str],
    tables: Sequence[Combination | None] | None = None,
    threads: int | None = None,
) -> tuple[bytes, bytes]:
    """Every legal Dou Dizhu move of every hand, as two buffers ``(plays, ends)``.

    Each hand (rank text) plays against its table (``None``: leading); the buffers
    are built without the GIL on ``threads`` threads (default: every core).

    Args:
        hands: A list (or other sequence) of rank texts.
        tables: The table each hand answers (``None``: it leads), one to one with
            ``hands``; ``None`` for every hand leading.
        threads: Worker threads (``None`` or 0: every core; at most 256).

    Returns:
        ``(plays, ends)``: ``plays`` holds each move as a little-endian ``u64``
        rank-count key (four bits per rank, the 3 in the lowest bits, then 4 ... A,
        2, B, R; pass is 0 and is listed when following); ``ends`` holds
        ``len(hands) + 1`` little-endian ``u64``s: hand ``i``'s moves are keys
        ``ends[i]..ends[i + 1]``.

    Raises:
        InvalidCardError: If ``hands`` is not a list of rank strings or a hand does
            not read as ranks.
        IllegalActionError: If ``tables`` is not a list of combinations and ``None``
            matching ``hands`` one to one.
        RuleOptionError: If the hands have more legal moves in all than one call may
            list (1 GiB of output): split the batch.
        KeyboardInterrupt: On Ctrl-C while a long batch is read or listed.
    """

def doudizhu_play_id(cards: _Ranks) -> int | None:
    """The action-index id of the Dou Dizhu play with these ranks, or None.

    Args:
        cards: Rank text or an iterable of cards and card strings.

    Returns:
        The play's id, or ``None`` when the ranks are no Dou Dizhu play.

    Raises:
        InvalidCardError: If ``cards`` does not read as ranks.
    """

def doudizhu_play_of_id(id: int) -> Combination | None:
    """The Dou Dizhu play with action-index id ``id`` (None for pass, bids, out of range).

    Args:
        id: An action-index id.

    Returns:
        The play, or ``None`` when ``id`` is the pass, a bid or no id.
    """

def zhengshangyou_action_space_size() -> int:
    """Size of the Zheng Shangyou action space: pass and every play.

    Returns:
        The number of action-index ids (141).
    """

def zhengshangyou_play_id(cards: _Ranks) -> int | None:
    """The action-index id of the Zheng Shangyou play with these ranks, or None.

    Args:
        cards: Rank text or an iterable of cards and card strings.

    Returns:
        The play's id, or ``None`` when the ranks are no Zheng Shangyou play of at
        most 16 cards.

    Raises:
        InvalidCardError: If ``cards`` does not read as ranks.
    """

def zhengshangyou_play_of_id(id: int) -> Combination | None:
    """The Zheng Shangyou play with action-index id ``id`` (None for pass, out of range).

    Args:
        id: An action-index id.

    Returns:
        The play, or ``None`` when ``id`` is the pass or no id.
    """

def climbing_card_play_size(game: str) -> int:
    """Length of the card-play part of a climbing game's observation tensor.

    ``ClimbingDeal.write_observation`` writes this many floats; the layout is in the
    game's docs page ("Learning interface").

    Args:
        game: ``"doudizhu"`` or ``"zhengshangyou"``.

    Returns:
        443 for Dou Dizhu, 431 for Zheng Shangyou.

    Raises:
        RuleOptionError: If ``game`` is unknown.
    """

def doudizhu_landlord_playouts(hand: _Ranks, samples: int, seed: int) -> tuple[int, int]:
    """Dou Dizhu landlord playouts of a 17-card hand: (wins, total score at bid 1).

    Each of ``samples`` seeded deals gives the 37 cards ``hand`` cannot see at
    random to the two other seats (17 each) and the three bottom cards, which
    ``hand`` takes as landlord and leads; every seat plays the rule policy to the
    end. The score is the landlord's at bid 1 (x2 per bomb or rocket and for
    spring or reverse spring, the landlord twice a farmer's stake), summed. Runs
    without the GIL, stops on Ctrl-C, and uses the same memory for any ``samples``.

    Args:
        hand: 17 cards of one Dou Dizhu pack: rank text or cards.
        samples: Deals to play out, an int in 0..2**32-1.
        seed: The sampling seed, an int in 0..2**64-1.

    Returns:
        The deals the landlord won and its summed score.

    Raises:
        InvalidCardError: If ``hand`` is not 17 cards of one Dou Dizhu pack.
        KeyboardInterrupt: On Ctrl-C during a long run.
    """

# -- Guandan (rust/python/src/guandan.rs) -------------------------------------------

__all__ += [
    "GuandanActions",
    "GuandanDeal",
    "GuandanPlay",
    "guandan_action_space_size",
    "guandan_beats",
    "guandan_lead_ids_batch",
    "guandan_leads",
    "guandan_parse",
    "guandan_parse_copies",
    "guandan_play_id",
    "guandan_play_of_id",
    "guandan_responses",
    "guandan_strength",
    "guandan_take",
]

@final
class GuandanActions:
    """The shared action objects of Guandan's card play: pass and one per play id.

    ``make(text)`` makes the action of a play from its canonical text (without
    ``play ``) the first time a deal lists or plays it; every deal given the table
    then hands out that object, so listing a turn builds no strings and no objects.
    The table holds at most one entry per id of the finite play index.
    """

    def __new__(cls, make: Callable[[str], Action], pass_action: Action) -> GuandanActions: ...
    def action(self, id: int) -> Action:
        """The shared action of play-index id `id` (0: pass).

        Raises IllegalActionError when `id` is no id of the play index.
        """
    def __len__(self) -> int:
        """How many play actions have been made so far."""

@final
class GuandanPlay:
    """One reading of a Guandan play: shape, main rank, natural cards and wild stand-ins.

    Plays compare and hash by value. Action text (docs/guandan.md) writes the
    natural cards as ranks in reading order (cards in a straight flush), then one
    ``W=`` token per wild: ``"3456 W=7"``, ``"3s4s5s6s W=7s"``, ``"5555 W=5"``.
    """

    @property
    def text(self) -> str:
        """The canonical action text without the verb: `"3456 W=7"`, `"3s4s5s6s7s"`."""
    @property
    def type(self) -> str:
        """The shape, one of the ten in docs/guandan.md.

        ``single``, ``pair``, ``triple``, ``full_house``, ``straight``, ``pair_run``,
        ``plate``, ``bomb``, ``straight_flush`` or ``joker_bomb``.
        """
    @property
    def main_rank(self) -> str:
        """The rank that decides it among plays of its shape (the top rank of a run)."""
    @property
    def suit(self) -> str | None:
        """A straight flush's suit letter (`"s"`), else None."""
    @property
    def size(self) -> int:
        """Number of cards."""
    @property
    def wilds(self) -> int:
        """Wilds used (0, 1 or 2)."""
    @property
    def stand_ins(self) -> str:
        """The ranks each wild stands for, in reading order: `"7"`, `"A2"`, `""`."""
    @property
    def naturals(self) -> str:
        """The natural (non-wild) cards as rank text in reading order: `"3456"`."""
    @property
    def is_bomb(self) -> bool:
        """True for bombs, straight flushes and the joker bomb (they beat ordinary plays)."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

_Hand = str | Iterable[Card | str]
_GuandanTable = GuandanPlay | str

@final
class GuandanDeal:
    """The card play of one Guandan deal: turns, table, passes, jiefeng and places.

    Seats 0-3 act in seat order, partners opposite; ``None`` is a pass. The Python
    game keeps tribute, levels and the match (docs/guandan.md).

    Args:
        hands: Four hands (cards), at most two of a card in all.
        level: The level rank (``"2"``..``"A"``).
        leader: The seat that leads the first round.
        double_win_ends: End the deal once one team has finished first and second.
        actions: The shared action table of ``legal_actions`` and ``apply_action``.

    Raises:
        InvalidCardError: If a card does not parse or is dealt more than twice.
        IllegalActionError: If ``leader`` is not a seat or a hand is empty.
        RuleOptionError: If ``level`` is not a rank.
    """

    #: ``(name, length)`` of each slice of the observation tensor, in order
    #: (docs/guandan.md): the layout ``write_observation`` writes into.
    OBSERVATION_LAYOUT: ClassVar[list[tuple[str, int]]]
    def __new__(
        cls,
        hands: Sequence[_Hand],
        level: str,
        leader: int,
        double_win_ends: bool = False,
        actions: GuandanActions | None = None,
    ) -> GuandanDeal: ...
    def write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """Write the card-play part of ``seat``'s observation tensor into ``out``.

        The own hand, the cards each seat played, card counts, the table, the level,
        the turn and the places are written; the match slices are left to the
        caller. A deal made by ``resume`` knows only the plays made since.

        Args:
            seat: The observing seat, 0..=3 (seats are relative to it).
            out: A writable, contiguous float32 array of zeros, the whole tensor
                (535 floats).

        Raises:
            IllegalActionError: If ``seat`` is not a seat.
            RuleOptionError: If ``out`` is not such an array.
        """
    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the deal is over."""
    @property
    def table(self) -> GuandanPlay | None:
        """The play to beat, or None when the seat to act leads."""
    @property
    def table_owner(self) -> int:
        """The seat that played the table (the last player)."""
    @property
    def passes(self) -> int:
        """Passes since the table was played."""
    @property
    def places(self) -> list[int]:
        """Seats in finishing order (all four once the deal is over)."""
    @property
    def over(self) -> bool:
        """True once the places are settled."""
    @property
    def card_counts(self) -> list[int]:
        """Every seat's card count."""
    def hand(self, seat: int) -> list[Card]:
        """The cards of `seat`'s hand, in card order."""
    def legal(self) -> list[GuandanPlay | None]:
        """The legal moves of the seat to act: None (pass, first when following), then plays."""
    def legal_ids(self) -> list[int]:
        """The legal moves of the seat to act as action-index ids: 0 (pass) first when following."""
    def legal_actions(self) -> list[Action]:
        """The legal moves of the seat to act as the table's shared actions, in `legal_ids` order.

        Listed once per turn. Raises RuleOptionError when the deal has no action table.
        """
    def apply_action(
        self, action: object
    ) -> tuple[Any, int, list[Card], str | None, str | None, tuple[int, int] | None] | None:
        """Apply a listed move named by its shared action or its exact text.

        Returns `(action, seat, cards, type, main_rank, jiefeng)`: the listed action,
        the seat that moved, the cards taken, the play's type and main rank (None for
        a pass) and, for a pass that ended the round of a finished player,
        `(leader, owner)`: the seat that leads by jiefeng and that player. Returns None,
        changing nothing, when `action` names no listed move (other texts are the
        caller's to parse). Raises RuleOptionError when the deal has no action table.
        """
    def attach_log(
        self, history: list[Any], plays: list[tuple[Any, ...]], played: Sequence[list[Card]]
    ) -> None:
        """Keep the move log in `history`, `plays` and `played` (four lists, one a seat).

        `apply_logged` appends each move's action to `history`, `(seat, "pass")` or
        `(seat, "play", type, main_rank, cards)` to `plays`, and the cards to
        `played[seat]`. A copy of the deal keeps no log until given its own.

        Raises:
            InvalidArgumentError: If ``history`` or ``plays`` is not a list, or
                ``played`` is not four lists.
        """
    def apply_logged(self, action: object) -> bool | None:
        """Apply a move and log it in the attached lists; returns whether the deal is over.

        `action` is a listed action, its exact text, or the canonical text naming the
        copies of a listed play (`play 5s5d`). Returns None, changing nothing, when
        `action` names no legal move so (other texts are the caller's to parse).
        Raises RuleOptionError when the deal has no action table or no log.
        """
    @property
    def jiefeng(self) -> tuple[int, int] | None:
        """The last move's jiefeng: `(leader, finished player)`, else None.

        Set when the last move was a pass that ended the round of a player who has
        finished, so that `leader` leads for it.
        """
    def apply_id(self, id: int) -> list[Card]:
        """Apply the move of action-index id `id` (0: pass); returns the cards taken.

        Raises IllegalActionError (nothing changes) when the move is illegal.
        """
    def apply_copies(self, play: _GuandanTable, cards: str | Iterable[Card | str]) -> list[Card]:
        """Apply `play` taking the named copies `cards`; returns the cards taken.

        `cards` are the play's natural cards (see guandan_parse_copies); its wilds
        are added. Raises IllegalActionError (nothing changes) when the play is illegal
        or the cards are not its naturals or not held.
        """
    def apply(self, action: _GuandanTable | None) -> list[Card]:
        """Apply a play (a GuandanPlay or its text) or None (pass); returns the cards taken.

        Raises IllegalActionError (nothing changes) when the move is illegal.
        """
    @staticmethod
    def resume(
        hands: Sequence[_Hand],
        level: str,
        to_move: int,
        table: _GuandanTable | None,
        owner: int,
        passes: int,
        places: list[int],
        double_win_ends: bool = False,
    ) -> GuandanDeal:
        """A position in the middle of a deal, for agents and states set up mid-deal.

        ``to_move`` acts; ``table`` (a play or its text, played by ``owner`` and
        followed by ``passes`` passes) is the play to beat; ``places`` are the seats
        out so far.

        Raises:
            IllegalActionError: If the seats, places and hands do not fit together.
        """
    def rule_move(self, jiefeng: bool = True) -> GuandanPlay | None:
        """The rule policy's move for the seat to act (None: pass).

        ``jiefeng=False`` plays without its jiefeng awareness (docs/guandan.md), to
        measure it against.
        """
    def search_move(
        self, samples: int, seed: int, endgame_cards: int = 0, endgame_nodes: int = 20_000
    ) -> GuandanPlay | None:
        """Determinized search for the seat to act over `samples` deals of hidden cards.

        The other seats' hands here only give the pool of hidden cards and the counts.
        `endgame_cards` > 0 (at most 108) solves each sampled deal exactly once at
        most that many cards are left in the four hands after a candidate move, each
        solve visiting at most `endgame_nodes` nodes (past that, the deal is played
        out as without the solver).
        """
    def copy(self) -> GuandanDeal:
        """An independent copy (the action table is shared; the log is not kept)."""
    def random_playout(self, seed: int) -> list[int]:
        """Play to the end with uniformly random legal moves from `seed`; returns the places."""

def guandan_leads(hand: _Hand, level: str) -> list[GuandanPlay]:
    """Every legal Guandan lead of `hand` at `level` (`"2"`..`"A"`).

    Args:
        hand: Cards (a string or an iterable of cards), at most two of each.
        level: The level rank, whose two hearts are the wilds.

    Raises:
        InvalidCardError: If a card does not parse or appears more than twice.
        RuleOptionError: If ``level`` is not a rank.
    """

def guandan_responses(hand: _Hand, level: str, table: _GuandanTable) -> list[GuandanPlay]:
    """Every play of `hand` at `level` that beats `table` (pass not included).

    Args:
        hand: Cards, at most two of each.
        level: The level rank.
        table: The play to beat, a ``GuandanPlay`` or its action text.

    Raises:
        InvalidCardError: If a card does not parse or appears more than twice.
        IllegalActionError: If ``table`` names no Guandan play.
        RuleOptionError: If ``level`` is not a rank.
    """

def guandan_parse(text: str, level: str) -> GuandanPlay:
    """The play an action text names at `level` (without `play `): `"3456 W=7"`.

    Raises IllegalActionError when the text names no Guandan play.
    """

def guandan_parse_copies(text: str, level: str) -> tuple[GuandanPlay, list[Card], str] | None:
    """The play and cards of text naming its copies (`"5s5d"`, `"3c4d5h6s W=7"`) at `level`.

    Returns `(play, cards, text)`: the rank-level play, the named natural cards and
    the canonical text (each rank's cards in suit order, then the wild tokens); None
    when the text names ranks or a straight flush. Raises IllegalActionError when the
    text is neither a play nor named copies of one.
    """

def guandan_beats(play: _GuandanTable, table: _GuandanTable, level: str) -> bool:
    """Whether `play` beats `table` at `level`.

    Raises:
        IllegalActionError: If either names no Guandan play.
        RuleOptionError: If ``level`` is not a rank.
    """

def guandan_take(hand: _Hand, level: str, play: _GuandanTable) -> list[Card]:
    """The cards `play` removes from `hand` at `level`.

    Those are the wilds it uses and, for ranks, the copies whose suits keep the most
    straight-flush chances (docs/guandan.md).

    Raises:
        IllegalActionError: If the hand lacks them or ``play`` names no play.
    """

def guandan_strength(card: Card | str, level: str) -> int:
    """Strength of a card in singles at `level`, from 0 (the 2) to 15 (the red joker).

    The 2 is 0 up to the ace 12, the level rank 13, the black joker 14, the red
    joker 15.
    """

def guandan_action_space_size() -> int:
    """Size of the Guandan play index: `pass` (id 0) and every play at any level."""

def guandan_play_id(text: object) -> int | None:
    """The index id of a play's text (any level), or None if it names no play."""

def guandan_play_of_id(id: int) -> GuandanPlay | None:
    """The play of index id `id` (None for pass and out of range)."""

def guandan_lead_ids_batch(hands: list[_Hand], level: str) -> tuple[bytes, bytes]:
    """Every legal lead of each hand at `level`, as index ids in two byte buffers.

    ``(ids, ends)`` hold little-endian ``u16`` ids and ``u64`` ends (hand ``i``'s ids
    are ``ids[ends[i]..ends[i + 1]]``), built without the GIL; stops on Ctrl-C.
    """

# -- trick-taking core (trick.rs) -------------------------------------------------
# Card sets cross as ints: bit i set = the card with ``Card.index`` i (0..=51).

def trick_winner(cards: list[Card | str], trump: str | None = None) -> int:
    """The position (0-based, in play order) of the card that wins ``cards``.

    The highest trump wins, else the highest card of the suit led.

    Args:
        cards: The trick's cards in play order (``Card`` objects or card strings).
        trump: The trump suit, ``"c"``, ``"d"``, ``"h"`` or ``"s"``, or ``None``.

    Returns:
        The index into ``cards`` of the winning card.

    Raises:
        InvalidCardError: If a card does not parse.
        RuleOptionError: If ``trump`` is not a suit letter or ``None``, or ``cards`` is
            empty or holds a joker.
    """

# -- Bridge double dummy (bridge_dd.rs) --------------------------------------------
# Hands cross as four card-set ints, N, E, S, W; seats N, E, S, W = 0..3 and
# strains C, D, H, S, NT = 0..4. ``cardkit.bridge`` wraps these.

def dd_table(hands: Sequence[int], threads: int | None = None) -> list[int]:
    """The 20 double-dummy results of a deal, declarer-major (`declarer * 5 + strain`).

    Args:
        hands: Four card-set ints (N, E, S, W), 13 disjoint cards each.
        threads: Threads to spread the five strains over; None uses every core.

    Returns:
        The tricks declarer's side takes for each declarer and strain.

    Raises:
        RuleOptionError: If the hands are not a full deal or ``threads`` is 0.
    """

def dd_tables(deals: Sequence[Sequence[int]], threads: int | None = None) -> list[list[int]]:
    """The double-dummy tables of many deals, each as `dd_table` gives it.

    Args:
        deals: Deals as in ``dd_table``.
        threads: Solver threads (None: every core); results do not depend on it.

    Returns:
        One 20-result list per deal, in order.

    Raises:
        RuleOptionError: If a deal is not a full deal (named by its position) or
            ``threads`` is 0.
    """

def dd_solve(
    hands: Sequence[int], trump: int, leader: int, trick: Sequence[int]
) -> list[tuple[int, int]]:
    """`(card index, tricks)` for each legal card of the seat to act in a position.

    Args:
        hands: The four remaining hands as card-set ints (N, E, S, W).
        trump: The strain 0..4.
        leader: The seat 0..3 that led the current trick.
        trick: Card indices played to the current trick, in play order (0..3).

    Returns:
        Each legal card's index, lowest first, with the tricks the side to act
        takes from the current trick on.

    Raises:
        RuleOptionError: If the position is inconsistent.
    """

def dd_solve_many(
    hands: Sequence[Sequence[int]],
    trumps: Sequence[int],
    leaders: Sequence[int],
    tricks: Sequence[Sequence[int]],
    threads: int | None = None,
) -> list[list[tuple[int, int]]]:
    """Each position's `dd_solve` answer, the positions spread over `threads`.

    Args:
        hands: Each position's four hands, as in ``dd_solve``.
        trumps: Each position's strain.
        leaders: Each position's leader of the current trick.
        tricks: Each position's cards in the current trick.
        threads: Solver threads (None: every core); results do not depend on it.

    Returns:
        One ``dd_solve`` list per position, in order.

    Raises:
        RuleOptionError: If the lists differ in length, a position is
            inconsistent (named by its index) or ``threads`` is 0.
    """

def bridge_sample_deals(
    unseen: int,
    played: Sequence[int],
    voids: Sequence[int],
    hcp: Sequence[tuple[int, int]],
    lengths: Sequence[Sequence[tuple[int, int]]],
    balanced: Sequence[bool],
    samples: int,
    seed: int,
    budget: int = 20_000,
) -> tuple[list[list[int]], int]:
    """Deals of the unseen cards to a position's hidden seats, uniform over those that fit.

    Each hidden seat gets 13 cards less those it has played, none of a suit it
    has shown out of; a deal is drawn suit split by suit split in proportion to
    the number of deals with each, its cards dealt at random, and redrawn while a
    seat's points or balance miss what the auction showed, so every deal that fits
    is equally likely. After ``budget`` tries per deal the point ranges are
    dropped, then the shapes, and the call starts over (all its deals come from
    one level). Runs without the GIL; stops on Ctrl-C.

    Args:
        unseen: The cards to deal, a card-set int.
        played: Each hidden seat's played cards (the current trick's included).
        voids: Each hidden seat's suits shown out of: bit 0 clubs .. bit 3 spades.
        hcp: Each hidden seat's high-card point range, inclusive, of its hand as dealt.
        lengths: Each hidden seat's four suit-length ranges (clubs .. spades).
        balanced: Whether the auction showed each hidden seat balanced.
        samples: Deals to draw, 1..100,000.
        seed: The sampling seed, an int in 0..2**64-1.
        budget: Tries per deal before the next relaxation; at least 1.

    Returns:
        The deals (each hidden seat's card-set int, in the order given) and how
        far the evidence was relaxed: 0 none, 1 the points, 2 the shapes too.

    Raises:
        RuleOptionError: If the lists differ in length, the cards overlap, the
            unseen cards do not fill the hidden hands with their voids, or
            ``samples`` or ``budget`` is out of range.
    """

def dd_par(
    tricks: Sequence[int], vulnerable: int, dealer: int
) -> tuple[int, list[tuple[int, int, int, int, int]]]:
    """The par score and contracts of a deal from its 20 double-dummy results.

    Args:
        tricks: The 20 results as ``dd_table`` gives them.
        vulnerable: Bit 0 North-South, bit 1 East-West.
        dealer: The seat 0..3 that calls first.

    Returns:
        The score (North-South's side) and the contracts reaching it.

    Raises:
        RuleOptionError: If an argument is out of range.
    """

@final
class ActionTable:
    """One action per card index of the 52-card pack, listed by bitset.

    Listing a bitset of cards builds no new object: the legal-move lists of the
    per-move path. ``len()`` is 52.

    Args:
        actions: The 52 action objects, by card index.

    Raises:
        RuleOptionError: If ``actions`` does not hold exactly 52 items.
    """

    def __new__(cls, actions: Sequence[Action]) -> ActionTable: ...
    def of(self, cards: int) -> list[Action]:
        """The objects of the cards in bitset ``cards``, in index order.

        Args:
            cards: A bitset of the 52-card pack.

        Returns:
            The action of each card in ``cards``, lowest index first.

        Raises:
            RuleOptionError: If ``cards`` has a bit above 51.
        """
    def __len__(self) -> int: ...

@final
class TrickDeal:
    """The play phase of a Hearts, Spades or Bridge deal, stepped one card at a time.

    The Python State API steps it: hands, the trick in progress, legal plays,
    completed tricks. ``legal_actions`` lists entries of ``actions``, so the
    per-move path builds no Python objects. Made by ``TrickDeal.hearts``,
    ``TrickDeal.spades`` or ``TrickDeal.bridge``; seats are 0..=3.
    """

    @staticmethod
    def hearts(hands: Sequence[int], actions: ActionTable) -> TrickDeal:
        """A Hearts deal after the pass: the holder of 2♣ leads it.

        Args:
            hands: The four seats' hands as bitsets, disjoint and of one size.
            actions: The game's action per card.

        Returns:
            The deal before its first card.

        Raises:
            RuleOptionError: If a hand has bits above 51, hands share cards or their
                sizes differ.
        """
    @staticmethod
    def spades(
        hands: Sequence[int],
        bids: Sequence[int],
        leader: int,
        actions: ActionTable,
        two_of_clubs_leads: bool = False,
    ) -> TrickDeal:
        """A Spades deal after the bidding, with ``leader`` to lead.

        With ``two_of_clubs_leads``, a leader holding 2♣ must lead it.

        Args:
            hands: The four seats' hands as bitsets, disjoint and of one size.
            bids: Each seat's bid, 0..=13 (0 is nil).
            leader: The seat that leads the first trick, 0..=3.
            actions: The game's action per card.
            two_of_clubs_leads: The house rule that 2♣ opens the deal.

        Returns:
            The deal before its first card.

        Raises:
            RuleOptionError: If ``leader`` is not 0..=3, a bid is above 13, a hand has
                bits above 51, hands share cards or their sizes differ.
        """
    @staticmethod
    def bridge(
        hands: Sequence[int],
        level: int,
        strain: int,
        doubling: int,
        declarer: int,
        actions: ActionTable,
    ) -> TrickDeal:
        """A Bridge deal after the auction; declarer's left-hand opponent leads.

        The contract is ``level`` 1..=7 in ``strain`` (0..=3 a trump suit, 4 no
        trump), ``doubling`` 0..=2, played by ``declarer``. The seat to act is the
        hand to play, dummy's included.

        Args:
            hands: The four seats' hands as bitsets, disjoint and of one size.
            level: The contract level, 1..=7.
            strain: 0..=3 clubs to spades (the trump suit), 4 no trump.
            doubling: 0 undoubled, 1 doubled, 2 redoubled.
            declarer: The declarer's seat, 0..=3.
            actions: The game's action per card.

        Returns:
            The deal before the opening lead.

        Raises:
            RuleOptionError: If a contract part is out of range, a hand has bits above
                51, hands share cards or their sizes differ.
        """
    def legal(self) -> int:
        """Bitset of the cards the seat to act may play (0 once the deal is over).

        Returns:
            The legal cards as a bitset.
        """
    def legal_actions(self) -> list[Action]:
        """The ``actions`` entries of the cards the seat to act may play, in index order.

        Returns:
            The shared action objects of the legal cards (empty once over).
        """
    def play(self, card: int) -> bool | None:
        """Play the card of index ``card`` for the seat to act.

        Returns ``None`` (and changes nothing) when the rules do not allow it now,
        else whether it ended the deal.

        Args:
            card: A card index (``Card.index``).

        Returns:
            ``None`` if the card may not be played now (or is no card of the pack),
            else True when it was the deal's last card.

        Raises:
            IllegalActionError: If ``card`` is not an int.
        """
    def play_listed(self, action: object, history: list[Any]) -> bool | None:
        """Play ``action`` if it is one of the table's objects for a legal card.

        ``action`` must be the very object :meth:`legal_actions` lists (compared by
        identity); it is appended to ``history``.

        Returns:
            ``None`` (and no change) for any other object, else True when it was
            the deal's last card.
        """
    @property
    def to_act(self) -> int:
        """The seat whose turn it is."""
    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
    @property
    def hands(self) -> list[int]:
        """Each seat's remaining cards as bitsets."""
    @property
    def trick(self) -> list[int]:
        """Card indices of the current trick, in play order."""
    @property
    def broken(self) -> bool:
        """Whether the suit that may not be led early (hearts, spades) is broken."""
    @property
    def tricks_played(self) -> int:
        """Completed tricks."""
    @property
    def taken(self) -> list[int]:
        """The cards each seat has won, as bitsets."""
    @property
    def won(self) -> list[int]:
        """Tricks each seat has won."""
    def tricks(self) -> list[tuple[int, list[int], int]]:
        """Completed tricks in order: ``(leader, card indices in play order, winner)``.

        Returns:
            One ``(leader, cards, winner)`` per completed trick.
        """
    def copy(self) -> TrickDeal:
        """An independent copy (the action table is shared).

        Returns:
            A deal that can be stepped without changing this one.
        """

def bit_ids(bits: int, offset: int) -> list[int]:
    """The ids ``offset + i`` of the bits ``i`` set in ``bits``, ascending.

    The legal action ids of a trick-taking game from a bitset of cards (play ids
    are card indices) or of bids.

    Args:
        bits: A bitset of bits 0..=51.
        offset: The id of bit 0.

    Returns:
        The ids, ascending.

    Raises:
        RuleOptionError: If ``bits`` has a bit above 51.
    """

def bit_mask(bits: int, offset: int, size: int) -> npt.NDArray[np.bool_]:
    """A ``size``-long numpy bool array, true at ``offset + i`` for each bit ``i`` of ``bits``.

    Args:
        bits: A bitset of bits 0..=51.
        offset: The index of bit 0 in the mask.
        size: The mask's length (a game's ``num_actions``).

    Returns:
        A new bool array.

    Raises:
        RuleOptionError: If ``bits`` has a bit above 51 or a set bit falls outside
            the mask.
    """

def hearts_observation(
    out: npt.NDArray[np.float32],
    seat: int,
    hand: int,
    deal: TrickDeal | None,
    to_act: int | None,
    direction: int,
    passed: int,
    received: int,
    scores: Sequence[int],
    target: int,
) -> None:
    """Write ``seat``'s Hearts observation tensor into the float32 array ``out``.

    ``hand`` is the seat's hand before play (the hand is read from ``deal`` once play
    has begun); ``to_act`` is ``None`` once the game is over; ``direction`` is 0 left,
    1 right, 2 across, 3 hold. The layout is in docs/hearts.md.

    Args:
        out: A contiguous, writable float32 array of 595 values (every one written).
        seat: The observing seat, 0..=3.
        hand: A bitset of the seat's hand (read only while ``deal`` is ``None``).
        deal: The Hearts deal in play, or ``None`` while passing.
        to_act: The seat to act, or ``None`` once the game is over.
        direction: The deal's pass direction, 0..=3.
        passed: A bitset of the cards the seat chose to pass.
        received: A bitset of the cards passed to it.
        scores: Each seat's match total.
        target: The total that ends the match, at least 1.

    Raises:
        RuleOptionError: If ``out`` is not a writable contiguous array of 595 values,
            ``deal`` is a Spades deal, a seat or ``direction`` is outside 0..=3, a
            bitset has a bit above 51, or ``target`` is 0.
    """

def hearts_moon_card(
    seat: int,
    hand: int,
    leader: int,
    trick: list[int],
    taken: list[int],
    broken: bool,
    tricks_played: int,
) -> int | None:
    """The Hearts playout policy's moon play for ``seat``, or ``None`` when no moon is on.

    The policy shoots when no other seat has taken a point and ``seat`` holds (or
    took) Q♠, the top hearts still out and jacks or better in half its hand; and it
    stops a seat that holds every point taken so far (at least 10) while points
    remain. The rule agent and the search's playouts share it.

    Args:
        seat: The seat to act, 0..=3.
        hand: A bitset of ``seat``'s cards.
        leader: The seat that led the current trick, 0..=3.
        trick: Card indices of the current trick in play order (0 to 3 cards).
        taken: Per seat, a bitset of the cards it has won.
        broken: Whether hearts are broken.
        tricks_played: Completed tricks, 0..=12.

    Returns:
        The card index to play, or ``None``.

    Raises:
        RuleOptionError: If a bitset or index is outside the 52-card pack, cards
            are in two places, ``seat``/``leader`` are outside 0..=3 or ``seat`` is
            not the seat to act, the trick has 4 cards, or ``tricks_played`` is above 12.
    """

def hearts_pass_search(
    seat: int,
    hand: int,
    passes: list[int],
    offset: int,
    worlds: int,
    seed: int,
    epsilon: float = 0.1,
    objective: str = "deal",
    scores: list[int] = ...,
    target: int = 100,
    policy: str = "counting",
) -> list[float]:
    """Average value for ``seat`` of each candidate Hearts pass over sampled deals.

    Each world deals the 39 unseen cards at random, gives ``seat`` three random
    cards of the hand of the seat that passes to it (the other seats' passes are
    not modelled), makes the candidate pass and plays the deal out from the first
    lead with moon play; every candidate meets the same worlds. Runs without the GIL.

    Args:
        seat: The passing seat, 0..=3.
        hand: A bitset of its 13 dealt cards.
        passes: Bitsets of three cards of ``hand`` each, the candidates, distinct.
        offset: Where the pass goes: 1 left, 2 across, 3 right.
        worlds: Sampled deals, an int in 0..2**32-1.
        seed: The sampling seed, an int in 0..2**64-1.
        epsilon: The playouts' chance of a random move, 0..=1.
        objective: ``"zero_sum"``, ``"deal"``, ``"own"`` or ``"match"``, as in
            :func:`hearts_search`.
        scores: Match totals before this deal (``"match"`` only); default all 0.
        target: The total that ends the match (``"match"`` only), 1..=1,000,000.
        policy: ``"plain"``, ``"counting"`` (default) or ``"unloading"``, as in
            :func:`hearts_search`.

    Returns:
        Each pass's average value, in ``passes`` order (higher is better).

    Raises:
        RuleOptionError: If ``seat`` is outside 0..=3, ``offset`` outside 1..=3,
            ``hand`` is not 13 cards of the pack, no pass is given, one is not
            three cards of ``hand`` or one is repeated, or ``epsilon``, ``objective``, ``scores``,
            ``target`` or ``policy`` is out of range.
        KeyboardInterrupt: On Ctrl-C during a long search.
    """

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
    objective: str = "zero_sum",
    scores: list[int] = ...,
    target: int = 100,
    moon: bool = False,
    endgame_cards: int = 0,
    endgame_nodes: int = 20_000,
    policy: str = "plain",
    avoid: list[int] = ...,
    history: list[int] = ...,
    reading: float = 0.0,
) -> list[float]:
    """Average value for ``seat`` of each Hearts candidate over sampled deals.

    Each world deals the unseen cards consistently with what ``seat`` knows, then
    plays each candidate and finishes the deal with the playout policy; every
    candidate meets the same worlds. Runs without the GIL. The objectives are
    described in docs/hearts.md (Agents).

    Args:
        seat: The searching seat, the seat to act (0..=3).
        known: Per seat, a bitset of the cards known to be in its hand.
        unknown: A bitset of the unseen cards whose holder is unknown.
        sizes: How many cards each seat holds, at most 13.
        voids: Per seat, a 4-bit mask of the suits it has shown out of (bit s for
            suit s in c, d, h, s order).
        leader: The seat that led the current trick, 0..=3.
        trick: Card indices of the current trick in play order (0 to 3 cards).
        taken: Per seat, a bitset of the cards it has won.
        broken: Whether hearts are broken.
        tricks_played: Completed tricks, 0..=12.
        candidates: Card indices of ``seat``'s hand to evaluate, without repeats.
        worlds: Sampled deals, an int in 0..2**32-1.
        seed: The sampling seed, an int in 0..2**64-1.
        epsilon: The playouts' chance of a random move, 0..=1 (1: random playouts).
        objective: ``"zero_sum"`` (``mean(points) - own``, the single deal's return),
            ``"deal"`` (``mean(points) / 2 - own``: an opponent's moon costs more
            than stopping it), ``"own"`` (``-own``: own points alone, the measure of
            a duplicate comparison) or ``"match"`` (the standing after the deal, from
            ``scores`` toward ``target``).
        scores: Match totals before this deal (``"match"`` only), each 0..=1,000,000;
            default all 0.
        target: The total that ends the match (``"match"`` only), 1..=1,000,000.
        moon: Whether the playout policy shoots and defends against moons.
        endgame_cards: Cards left in the hands (once the candidate is played) at
            which a world is solved exactly instead, the other seats playing
            against ``seat``'s objective; an int in 0..=52, 0 (default) is off.
        endgame_nodes: Nodes one solve may visit before the world is played out
            instead, an int in 0..2**32-1.
        policy: The playouts' heuristic: ``"plain"`` (default: ducks and dumps
            without reading the cards out), ``"counting"`` (every seat reads the
            unplayed cards as a whole: leads that cannot win, Q♠ still out, tricks
            won anyway; docs/hearts.md) or ``"unloading"`` (counting, and the last
            seat takes a clean trick with its highest card; void, a seat sheds
            singletons and hearts sooner and keeps A♠/K♠ behind four spades).
        avoid: Per seat, a bitset of cards its play shows it almost surely does not
            hold: worlds keep them out of its hand while the sizes and voids allow;
            default all 0 (the worlds drawn before the option existed).
        history: Card indices of every card played this deal in play order, from
            the 2♣ lead, the current trick's cards last; default empty (right only
            before the first card, and needed only with ``reading``).
        reading: How strongly the opponents' plays so far weigh the worlds, 0..=10
            (default 0: every world alike). Each world is replayed from the first
            lead with the playout policy, and each opponent card the policy would
            not have played there (with that seat's hand in the world, more than
            one card legal) multiplies the world's weight by ``exp(-reading)``; the
            values are the weighted averages.

    Returns:
        Each candidate's average value, in ``candidates`` order (higher is better).

    Raises:
        RuleOptionError: If the position is inconsistent: a bitset or index outside
            the 52-card pack, ``seat``/``leader`` outside 0..=3, a trick of 4 cards,
            voids above 15, sizes above 13 or not adding up to the unplayed cards,
            cards in two places, ``seat`` not the seat to act, candidates that are not
            distinct cards of its hand, ``tricks_played`` above 12, ``epsilon``
            outside 0..=1, an unknown ``objective`` or ``policy``, ``scores``/``target``
            out of range, ``endgame_cards`` above 52, ``avoid`` bits outside the pack,
            a ``history`` that repeats a card, does not start with 2♣, does not end
            with ``trick`` or whose tricks disagree with ``tricks_played``,
            ``leader`` or ``taken``, or ``reading`` outside 0..=10.
        KeyboardInterrupt: On Ctrl-C during a long search.
    """

def spades_observation(
    out: npt.NDArray[np.float32],
    seat: int,
    hand: int,
    deal: TrickDeal | None,
    to_act: int | None,
    dealer: int,
    bids: Sequence[int | None],
    scores: Sequence[int],
    bags: Sequence[int],
    target: int,
) -> None:
    """Write ``seat``'s Spades observation tensor into the float32 array ``out``.

    ``hand`` is the seat's hand while bidding (the hand is read from ``deal`` once
    play has begun); ``to_act`` is ``None`` once the game is over; ``bids`` holds
    ``None`` for seats yet to bid. The layout is in docs/spades.md.

    Args:
        out: A contiguous, writable float32 array of 547 values (every one written).
        seat: The observing seat, 0..=3.
        hand: A bitset of the seat's hand (read only while ``deal`` is ``None``).
        deal: The Spades deal in play, or ``None`` while bidding.
        to_act: The seat to act, or ``None`` once the game is over.
        dealer: The deal's dealer, 0..=3.
        bids: Each seat's bid 0..=13, or ``None``.
        scores: The partnerships' match scores (seats 0 and 2, seats 1 and 3).
        bags: The bags each partnership carries, 0..=9.
        target: The score that ends the match, at least 1.

    Raises:
        RuleOptionError: If ``out`` is not a writable contiguous array of 547 values,
            ``deal`` is a Hearts deal, a seat is outside 0..=3, ``hand`` has a bit
            above 51, a bid is above 13, bags above 9, or ``target`` is 0.
    """

def bridge_observation(
    out: npt.NDArray[np.float32],
    seat: int,
    hand: int,
    deal: TrickDeal | None,
    to_act: int | None,
    calls: Sequence[int],
    vulnerable: Sequence[bool],
) -> None:
    """Write ``seat``'s Bridge observation tensor into the float32 array ``out``.

    ``hand`` is the seat's hand during the auction (read from ``deal`` once play has
    begun); ``to_act`` is the seat to call or the hand to play (dummy's too),
    ``None`` once over; ``calls`` are the call ids so far from South (0 pass,
    1..=35 the bids 1C..7NT, 36 double, 37 redouble); ``vulnerable`` is
    North-South's, then East-West's. The layout is in docs/bridge.md.

    Args:
        out: A contiguous, writable float32 array of 982 values (every one written).
        seat: The observing seat, 0..=3.
        hand: A bitset of the seat's hand (read only while ``deal`` is ``None``).
        deal: The Bridge deal in play, or ``None`` during the auction.
        to_act: The seat to call or whose hand is to play, or ``None`` once over.
        calls: The call ids of the auction so far.
        vulnerable: North-South's and East-West's vulnerability.

    Raises:
        RuleOptionError: If ``out`` is not a writable contiguous array of 982 values,
            ``deal`` is not a Bridge deal, the calls are not a legal auction from
            South or do not end in the deal's contract, a seat is outside 0..=3 or
            ``hand`` has a bit above 51.
    """

def bridge_score(
    level: int, strain: int, doubling: int, vulnerable: bool, tricks: int
) -> list[int]:
    """The duplicate score of a Bridge contract for declarer's side.

    ``level`` 1..=7 in ``strain`` (0..=3 clubs to spades, 4 no trump), ``doubling``
    0 undoubled, 1 doubled, 2 redoubled; ``tricks`` 0..=13 taken by declarer's side.

    Args:
        level: The contract level, 1..=7.
        strain: 0..=4.
        doubling: 0..=2.
        vulnerable: Whether declarer's side is vulnerable.
        tricks: Tricks taken by declarer's side, 0..=13.

    Returns:
        ``[contract_points, overtricks, game_bonus, partscore_bonus, slam_bonus,
        insult, undertricks, total]``; undertricks and a defeated total are negative.

    Raises:
        RuleOptionError: If an argument is out of range.
    """

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
    endgame_cards: int = 0,
    endgame_nodes: int = 20_000,
    objective: str = "deal",
    scores: list[int] = ...,
    target: int = 500,
    nil_play: bool = False,
    lose_at: int | None = None,
) -> list[float]:
    """Average (own team's deal points - the other team's) of each Spades candidate.

    Each world deals the unseen cards consistently with what ``seat`` knows, then
    plays each candidate and finishes the deal with the playout policy; every
    candidate meets the same worlds. Runs without the GIL. With ``objective="match"``
    a deal that ends the match also counts the match won (+200) or lost (-200).

    Args:
        seat: The searching seat, the seat to act (0..=3); its team is ``seat % 2``.
        known: Per seat, a bitset of the cards known to be in its hand.
        unknown: A bitset of the unseen cards whose holder is unknown.
        sizes: How many cards each seat holds, at most 13.
        voids: Per seat, a 4-bit mask of the suits it has shown out of (bit s for
            suit s in c, d, h, s order).
        leader: The seat that led the current trick, 0..=3.
        trick: Card indices of the current trick in play order (0 to 3 cards).
        played: A bitset of the cards of the completed tricks.
        bids: Each seat's bid, 0..=13 (0 is nil).
        tricks: Tricks each seat has won (at most 12 in all).
        bags: Each team's bags carried into the deal, 0..=9.
        broken: Whether spades are broken.
        candidates: Card indices of ``seat``'s hand to evaluate, without repeats.
        worlds: Sampled deals, an int in 0..2**32-1.
        seed: The sampling seed, an int in 0..2**64-1.
        epsilon: The playouts' chance of a random move, 0..=1 (1: random playouts).
        endgame_cards: Cards left in the hands (once the candidate is played) at
            which a world is solved exactly instead (partnership against
            partnership); an int in 0..=52, 0 (default) is off.
        endgame_nodes: Nodes one solve may visit before the world is played out
            instead, an int in 0..2**32-1.
        objective: ``"deal"`` (the deal's points difference) or ``"match"`` (plus
            200 when the deal ends the match with ``seat``'s team ahead, minus 200
            when behind: some total reaches ``target``, or falls to ``lose_at``,
            and the totals differ).
        scores: Each team's match total before this deal (``"match"`` only; seats
            0 and 2, then 1 and 3), each within -10,000,000..=10,000,000; default
            ``[0, 0]``.
        target: The total that ends the match (``"match"`` only), 1..=10,000,000.
        nil_play: Whether the playouts play around nils: each seat tries to set an
            opponent's nil that has taken no trick (leads low, stays under the nil
            when it is winning the trick, plays low ahead of it) and covers a nil
            partner (takes a trick the partner is winning).
        lose_at: The ``lose_at`` house rule's floor (``"match"`` only): a total at
            or below it also ends the match; ``None`` (default) for no floor, else
            -10,000,000..=-1.

    Returns:
        Each candidate's average value, in ``candidates`` order (higher is better).

    Raises:
        RuleOptionError: If the position is inconsistent: a bitset or index outside
            the 52-card pack, ``seat``/``leader`` outside 0..=3, a trick of 4 cards,
            voids above 15, sizes above 13 or not adding up to the unplayed cards,
            cards in two places, ``seat`` not the seat to act, candidates that are not
            distinct cards of its hand, a bid above 13, more than 12 tricks won,
            bags above 9, ``epsilon`` outside 0..=1, ``endgame_cards`` above 52, an
            unknown ``objective``, or ``scores``, ``target`` or ``lose_at`` out of
            range.
        KeyboardInterrupt: On Ctrl-C during a long search.
    """

def spades_bid_playouts(
    seat: int,
    hand: int,
    bids: list[int],
    leader: int | None,
    worlds: int,
    seed: int,
    epsilon: float = 0.1,
) -> list[int]:
    """Spades bidding playouts: in how many sampled deals the seat took each number of tricks.

    Each world deals the 39 cards ``hand`` (a bitset of 13 cards) cannot see at
    random to the other seats and plays the deal out with the playout policy
    (``epsilon`` random moves) under ``bids``, the seat's own bid included (0 plays
    as a nil). ``leader`` leads the first trick; None: the holder of 2♣ leads it.
    Runs without the GIL, stops on Ctrl-C, and uses the same memory for any
    ``worlds``.

    Args:
        seat: The bidding seat, 0..=3.
        hand: A bitset of its 13 cards.
        bids: The bids the deals are played under, each 0..=13.
        leader: The seat leading the first trick (0..=3), or None for the 2♣.
        worlds: Sampled deals, an int in 0..2**32-1.
        seed: The sampling seed, an int in 0..2**64-1.
        epsilon: The playouts' chance of a random move, 0..=1 (1: random playouts).

    Returns:
        14 counts: the deals in which ``seat`` took 0, 1, ..., 13 tricks.

    Raises:
        InvalidCardError: If ``hand`` is not 13 cards.
        RuleOptionError: If ``hand`` has bits outside the 52-card pack, ``seat`` or
            ``leader`` is outside 0..=3, a bid is above 13, or ``epsilon`` is
            outside 0..=1.
        KeyboardInterrupt: On Ctrl-C during a long run.
    """

# -- No-limit betting core (rust/python/src/betting.rs) ---------------------------

@final
class BettingCore:
    """The chips and turn order of one no-limit hand, for Hold'em and One Poker.

    ``cardkit.games._betting`` holds the action words and codes the games send it.

    Listed actions are integer codes: -1 fold, -2 check, -3 call, ``2*N`` for
    ``bet N`` and ``2*N + 1`` for ``raise N`` (N is the seat's total for the round).
    Texas Hold'em's fast path; every method that takes a seat raises
    ``RuleOptionError`` unless it is an int below ``n``.

    Args:
        stacks: Each seat's chips, 2 to 12 seats of 0..=2**50 chips.
        in_hand: Per seat, whether it plays this hand (false: it sits out).
        min_bet: The minimum opening bet (the big blind in Hold'em), 1..=2**50.

    Raises:
        RuleOptionError: If ``stacks`` is not a list of ints in 0..=2**50, there are
            not 2 to 12 seats, ``in_hand`` is not a list of bools of the same length,
            or ``min_bet`` is not in 1..=2**50.
    """

    def __new__(
        cls, stacks: Sequence[int], in_hand: Sequence[bool], min_bet: int
    ) -> BettingCore: ...
    def write_observation(
        self,
        out: npt.NDArray[np.float32],
        seat: int,
        total: int,
        holes: Sequence[tuple[int, int] | None],
        board: Sequence[int],
        button: int,
        small_blind: int,
        big_blind: int,
        to_act: int | None,
        street_actions: Sequence[tuple[int, int]],
    ) -> None:
        """Write ``seat``'s Hold'em observation tensor into the float32 array ``out``.

        One writer for the State API and ``VectorEnv``; the layout is in docs/holdem.md.

        Args:
            out: A writable, contiguous one-dimensional float32 array of exactly
                ``112 + 13 * n`` values (``n`` seats); every value is written.
            seat: The observing seat.
            total: Every chip at the table, the scale of all chip counts (at least 1).
            holes: Per seat, its two hole cards as indices of the 52-card pack, or
                ``None`` for a seat dealt out; only ``seat``'s own cards are read.
            board: The board's card indices in deal order (at most 5).
            button: The button seat.
            small_blind: The small blind's seat.
            big_blind: The big blind's seat.
            to_act: The seat to act, or ``None``.
            street_actions: ``(seat, row)`` of this street's checks (row 10), calls
                (11), bets and raises (12), in order.

        Raises:
            RuleOptionError: If ``out`` is not such an array, a seat or row is out of
                range, a card index is outside the 52-card pack, or the lengths do
                not match the table.
        """

    def copy(self) -> BettingCore:
        """An independent copy.

        Returns:
            A hand that can be played on without changing this one.
        """
    def __copy__(self) -> BettingCore: ...
    def __deepcopy__(self, memo: object, /) -> BettingCore: ...
    @property
    def n(self) -> int:
        """The number of seats."""
    @property
    def stacks(self) -> list[int]:
        """Each seat's chips behind."""
    @property
    def bets(self) -> list[int]:
        """Each seat's bet in the current round."""
    @property
    def committed(self) -> list[int]:
        """Everything each seat put in this hand."""
    @property
    def folded(self) -> list[bool]:
        """Whether each seat folded (or sits out)."""
    @property
    def returned(self) -> list[int]:
        """Uncalled chips handed back to each seat this hand."""
    @property
    def min_bet(self) -> int:
        """The minimum opening bet."""
    @property
    def current_bet(self) -> int:
        """The round's highest bet."""
    @property
    def full_raise(self) -> int:
        """The increment a raise must at least add."""
    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the round is closed."""
    @property
    def pot(self) -> int:
        """Every chip put in this hand so far, current bets included."""
    @property
    def idle_turns(self) -> list[tuple[int, int]]:
        """``(move number, seat)`` for every seat passed over this hand after that move.

        A seat is passed over when it owes nothing and cannot raise; moves count from 1.
        """
    @property
    def moves(self) -> int:
        """Moves applied so far this hand."""
    def live(self) -> list[int]:
        """Seats still contesting the hand.

        Returns:
            The seats that have not folded (or sat out), ascending.
        """
    def live_count(self) -> int:
        """How many seats are still contesting the hand.

        Returns:
            ``len(live())``.
        """
    def can_bet(self, seat: int) -> bool:
        """Whether ``seat`` is in the hand with chips behind.

        Args:
            seat: A seat of the table.

        Returns:
            True unless the seat folded or is all-in.

        Raises:
            RuleOptionError: If ``seat`` is not a seat of the table.
        """
    def betting_possible(self) -> bool:
        """Whether a further round could see any betting.

        Returns:
            True while two live seats have chips behind.
        """
    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (capped at its stack).

        Args:
            seat: A seat of the table.

        Returns:
            The chips to call; a short stack calls all-in.

        Raises:
            RuleOptionError: If ``seat`` is not a seat of the table.
        """
    def raise_range(self, seat: int) -> tuple[int, int] | None:
        """The legal (min, max) total of a bet or raise by ``seat``, or ``None``.

        Args:
            seat: A seat of the table.

        Returns:
            ``(min, max)`` round totals, or ``None`` when the seat may not bet or raise.

        Raises:
            RuleOptionError: If ``seat`` is not a seat of the table.
        """
    def can_raise(self, seat: int) -> bool:
        """Whether ``seat`` may bet or raise now.

        Args:
            seat: A seat of the table.

        Returns:
            ``raise_range(seat) is not None``.

        Raises:
            RuleOptionError: If ``seat`` is not a seat of the table.
        """
    def post_blind(self, seat: int, amount: int) -> int:
        """Post a blind (a live bet, the whole stack if shorter); returns the chips paid.

        Args:
            seat: The seat that posts.
            amount: The blind, 0..=2**50 chips.

        Returns:
            The chips paid.

        Raises:
            RuleOptionError: If ``seat`` is not a seat of the table or ``amount`` is not
                an int in 0..=2**50.
            IllegalActionError: If a betting round is open.
        """
    def post_ante(self, seat: int, amount: int) -> int:
        """Post an ante (dead chips); returns the chips paid.

        The ante goes to the pot, not toward the round's bet; a short stack pays all.

        Args:
            seat: The seat that posts.
            amount: The ante, 0..=2**50 chips.

        Returns:
            The chips paid.

        Raises:
            RuleOptionError: If ``seat`` is not a seat of the table or ``amount`` is not
                an int in 0..=2**50.
            IllegalActionError: If a betting round is open.
        """
    def start_round(self, first: int) -> int | None:
        """Open a betting round from ``first`` clockwise; returns the seat to act.

        ``None`` when nobody has a decision to make.

        Args:
            first: The first seat asked to act (the first able to act from it acts).

        Returns:
            The seat to act, or ``None``.

        Raises:
            RuleOptionError: If ``first`` is not a seat of the table.
        """
    def end_round(self) -> int:
        """Close the round; returns the uncalled chips handed back.

        Returns:
            The uncalled chips returned to the seat that bet them.
        """
    def close_round(self) -> int:
        """Close the round and return how many seats still contest the hand.

        Uncalled chips go back and the bets clear.

        Returns:
            ``live_count()`` after the round.
        """
    def next_round(self, first: int) -> int | None:
        """Open the next round from ``first`` if betting is possible; returns the seat to act.

        ``None`` when the board should run out.

        Args:
            first: The first seat asked to act.

        Returns:
            The seat to act, or ``None`` when no further betting can happen.

        Raises:
            RuleOptionError: If ``first`` is not a seat of the table.
        """
    def illegal_reason(self, text: str) -> str | None:
        """Why the canonical betting action ``text`` is illegal for the seat to act, or ``None``.

        Args:
            text: ``"fold"``, ``"check"``, ``"call"``, ``"bet N"`` or ``"raise N"``.

        Returns:
            A human-readable reason, or ``None`` when the action is legal.
        """
    def apply(self, text: str) -> int | None:
        """Play the canonical betting action ``text``; returns the next seat to act.

        An illegal action raises ``IllegalActionError`` and changes nothing.

        Args:
            text: ``"fold"``, ``"check"``, ``"call"``, ``"bet N"`` or ``"raise N"``.

        Returns:
            The next seat to act, or ``None`` when the round is closed.

        Raises:
            IllegalActionError: If ``text`` is no betting action or is illegal now.
        """
    def act(self, code: int) -> int | None:
        """Play the action with listed code ``code``; returns the next seat to act.

        An illegal code raises ``IllegalActionError`` and changes nothing.

        Args:
            code: A listed-action code (see the class docstring).

        Returns:
            The next seat to act, or ``None`` when the round is closed.

        Raises:
            IllegalActionError: If ``code`` is no action code or its action is illegal
                now.
        """
    def listed(self, pot_fractions: Sequence[float]) -> tuple[int, ...]:
        """The codes of the seat to act's listed actions.

        Fold/check/call, the minimum bet or raise, the given fractions of the pot and
        all-in.

        Args:
            pot_fractions: Bet sizes as fractions of the pot after calling: ``f`` bets
                or raises to the round's current bet plus ``f`` times that pot. Sizes
                not between the minimum and all-in, or not above the size before,
                are left out.

        Returns:
            The codes, or ``()`` when no seat is to act.
        """
    def pots(self) -> list[tuple[int, list[int]]]:
        """The main pot then the side pots: ``(amount, eligible seats)``.

        Returns:
            ``(amount, eligible seats)`` per pot, main pot first.
        """
    def award(
        self, strength: Sequence[int], first: int
    ) -> list[tuple[int, list[int], list[int], list[tuple[int, int]]]]:
        """Settle every pot; returns per pot ``(amount, eligible, winners, [(seat, chips)])``.

        The eligible seats with the highest ``strength`` (one per seat) win, odd chips
        clockwise from ``first``.

        Args:
            strength: One hand strength per seat, ints in 0..2**32-1 (higher wins).
            first: The seat from which odd chips go clockwise.

        Returns:
            Per pot ``(amount, eligible seats, winners, [(seat, chips won), ...])``;
            the winnings are added to ``stacks``.

        Raises:
            RuleOptionError: If ``strength`` is not one int in 0..2**32-1 per seat or
                ``first`` is not a seat of the table.
            IllegalActionError: If a pot has no live seat to win it (nothing is paid).
        """

# -- Tractor (rust/python/src/tractor.rs) -------------------------------------------

__all__ += [
    "TractorActions",
    "TractorDeal",
    "TractorRound",
    "tractor_action_index",
    "tractor_action_text",
    "tractor_card_points",
    "tractor_declare_values",
    "tractor_follow_cards",
    "tractor_is_legal_follow",
    "tractor_lead_id",
    "tractor_level_change",
    "tractor_rule_burial",
    "tractor_rule_declare",
    "tractor_shape",
    "tractor_trick_winner",
]

_TractorTrick = tuple[int, list[str], int, int, int]

@final
class TractorDeal:
    """The card play of one Tractor deal, after trumps and the kitty (docs/tractor.md).

    Seats 0-3 act in seat order, partners opposite. A lead is one action id (a
    single, a pair or a tractor); a follow is chosen one card id at a time.

    Args:
        hands: Four hands (cards), at most two of a card in all.
        level: The level rank (``"2"``..``"A"``).
        trump: The trump suit letter, or ``None`` / ``"nt"`` for no-trump.
        leader: The seat that leads the first trick.

    Raises:
        InvalidCardError: If a card does not parse or is dealt more than twice.
        IllegalActionError: If ``leader`` is not a seat.
        RuleOptionError: If ``level`` or ``trump`` does not parse.
    """

    #: ``(name, length)`` of each slice of the observation tensor, in order.
    OBSERVATION_LAYOUT: ClassVar[list[tuple[str, int]]]
    def __new__(
        cls, hands: Sequence[_Hand], level: str, trump: str | None, leader: int
    ) -> TractorDeal: ...
    def copy(self) -> TractorDeal:
        """An independent copy."""
    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to move, ascending."""
    def apply_id(self, id: int) -> _TractorTrick | None:
        """Play action ``id`` (a lead, or one card of a follow).

        Returns:
            The trick it completed, as ``(leader, cards text by seat, winner,
            points, cards per play)``, or None; a cards text is the cards in
            card-index order, no spaces (``5h5h6h6h``).

        Raises:
            IllegalActionError: If the id is not legal now (nothing changes).
        """
    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards in card-index order (a follow being chosen included)."""
    def played(self, seat: int) -> list[Card]:
        """The cards ``seat`` has played this deal."""
    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once every card is played."""
    @property
    def leader(self) -> int:
        """The leader of the trick in progress (or of the next one)."""
    @property
    def over(self) -> bool:
        """True once every card is played."""
    @property
    def points(self) -> list[int]:
        """Card points each seat has won."""
    @property
    def tricks(self) -> int:
        """Completed tricks."""
    @property
    def chosen(self) -> list[Card]:
        """The cards the seat to move has chosen so far for its follow."""
    @property
    def lead(self) -> tuple[str, int] | None:
        """The lead of the trick in progress as ``(kind, pairs)``, or None."""
    @property
    def trick(self) -> list[tuple[int, list[Card]]]:
        """This trick's plays so far, in play order: ``(seat, cards)``."""
    def action_text(self, id: int) -> str | None:
        """The text of action ``id`` under this deal's trumps, or None."""
    def lead_id(self, cards: _Hand) -> int | None:
        """The lead id of ``cards`` under this deal's trumps, or None for no shape."""
    def attacker_points(self, dealer: int, kitty: _Hand) -> int:
        """The attackers' points with ``kitty`` buried by ``dealer`` (kitty bonus included)."""
    def random_playout(self, seed: int) -> list[int]:
        """Play the rest of the deal with random legal moves; the points each seat won."""
    def heuristic_playout(self, seed: int) -> list[int]:
        """Play the rest of the deal with the heuristic rollout policy; the points each seat won.

        Followers feed points to a winning partner, win a single as cheaply as they
        can, else play their cheapest card; leads are random (pairs and tractors
        preferred half the time).
        """
    def action_points(
        self,
        ids: list[int],
        seeds: list[int],
        dealer: int,
        kitty: _Hand,
        endgame_cards: int = 0,
        endgame_nodes: int = 20_000,
    ) -> list[int]:
        """The attackers' points after each action of ``ids``, exact or from a heuristic playout.

        Each action is played on a copy of the deal (the deal is not changed);
        ``kitty`` is buried by ``dealer`` (kitty bonus included, TRC-42, TRC-43).
        With at most ``endgame_cards`` cards left in the hands after it (0 = never)
        the copy is solved with every hand known, both teams playing their best,
        within ``endgame_nodes`` nodes, by one solver for all the actions (positions
        one action's solve reaches are not searched again for another); otherwise,
        or when the solve needs more, it is the result of ``heuristic_playout`` on
        the copy with the action's seed in ``seeds``. At most 3,693 actions (the
        size of the action space) a call.

        Raises:
            InvalidArgumentError: If ``ids`` or ``seeds`` has more than 3,693 items.
            IllegalActionError: If an id is not a legal action of the deal, or
                ``dealer`` is not a seat.
            InvalidCardError: If ``kitty`` is not cards of the two packs.
            RuleOptionError: If ``seeds`` is not as long as ``ids``, or
                ``endgame_cards`` is above 100.
        """
    def write_observation(
        self, seat: int, out: npt.NDArray[np.float32], playing: bool = True
    ) -> None:
        """Write what ``seat`` knows of the card play into ``out``.

        ``out`` is a zeroed float32 array of the tensor's length; ``playing`` False
        writes only the hand and the turn.

        Raises:
            RuleOptionError: If ``out`` is not a float32 vector of the tensor's length.
        """

@final
class TractorActions:
    """The shared action objects of Tractor: one per action id, level rank and trumps.

    ``make(text)`` makes the action of an id's canonical text (``pass``,
    ``declare 2s``, ``bury As``, ``play 7h7h8h8h``) the first time a round lists it;
    every round given the table then hands out that object, so listing a turn builds
    no strings and no objects. The table holds at most one entry per id and level
    (per trumps too for tractor leads), made on first use.
    """

    def __new__(cls, make: Callable[[str], Action]) -> TractorActions: ...

@final
class TractorRound:
    """One whole Tractor deal, from declaring to the level change (docs/tractor.md).

    Declaring, burying and the card play by action id, then the attackers' points,
    the level change and the next dealer: the rules of a deal, which
    ``TractorState`` steps deal by deal.

    Args:
        order: The 108 cards as dealt (seat 0 gets cards 0-24, seat 1 25-49, ...,
            the kitty 100-107).
        levels: Each team's level rank (seats 0 and 2, then 1 and 3), ``"2"``..``"A"``.
        first_speaker: Who speaks first in a first deal, and deals if nobody
            declares there.
        dealer: The deal's dealer, who speaks first; None in a first deal, where
            both teams are at one level and the first declarer deals.
        actions: The shared action table of ``legal_actions`` and ``apply_action``.

    Raises:
        InvalidCardError: If ``order`` is not 108 cards with none more than twice.
        RuleOptionError: If a level is not a rank, a seat is not 0-3, or a first
            deal has teams at two levels.
        InvalidArgumentError: If ``actions`` is not a ``TractorActions``.
    """

    def __new__(
        cls,
        order: _Hand,
        levels: Sequence[str],
        first_speaker: int,
        dealer: int | None = None,
        actions: TractorActions | None = None,
    ) -> TractorRound: ...
    def copy(self) -> TractorRound:
        """An independent copy."""
    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to act, ascending."""
    def legal_actions(self) -> list[Action]:
        """The legal actions as the table's shared objects, in ``legal_ids`` order.

        Listed once per turn. Raises RuleOptionError when the round has no action table.
        """
    def apply_action(
        self, action: object, history: list[Action]
    ) -> _TractorTrick | tuple[()] | None:
        """Play a listed action named by its shared action or its exact text.

        Appends the listed action to ``history`` and returns the trick it completed, or
        ``()`` when it completed none. Returns None, changing nothing, when ``action``
        names no action of the turn's listing (other texts are the caller's to
        parse). Raises RuleOptionError when the round has no action table.
        """
    def apply_id(self, id: int) -> _TractorTrick | None:
        """Play action ``id`` for the seat to act; the trick it completed, if any.

        Illegal -> an ``IllegalActionError``, nothing changed. A trick is ``(leader,
        cards text by seat, winner, points, cards per play)``.
        """
    def apply_ids(self, ids: Sequence[int]) -> _TractorTrick | None:
        """Play ``ids`` as one action of the seat to act, all or nothing; the trick it completed.

        The ids are cards to bury (at most those still to bury) or the cards of a
        follow (ending at or before its last card). Illegal -> an
        ``IllegalActionError``, nothing changed.
        """
    def why_illegal(self, ids: Sequence[int]) -> str | None:
        """Why ``apply_ids(ids)`` would be illegal now, or None when it is legal."""
    @property
    def phase(self) -> str:
        """``declare``, ``bury``, ``play``, or ``over`` once scored."""
    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once scored."""
    @property
    def dealer(self) -> int | None:
        """The dealer, or None until declaring fixes it in a first deal."""
    @property
    def level(self) -> str:
        """The deal's level rank (``"2"``..``"A"``): the dealer's team's level."""
    @property
    def trump(self) -> str | None:
        """The trump suit letter, ``"nt"`` for no-trump, None until fixed."""
    @property
    def exposed(self) -> bool:
        """True once nobody declared and the kitty was exposed (TRC-19)."""
    @property
    def declarations(self) -> list[tuple[int, int]]:
        """The declarations so far as ``(seat, action id)``, the standing one last."""
    @property
    def buried(self) -> list[Card]:
        """The cards buried so far, in card-index order."""
    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards in card-index order (a follow being chosen included)."""
    def played(self, seat: int) -> list[Card]:
        """The cards ``seat`` has played this deal."""
    @property
    def following(self) -> bool:
        """True while a trick is led and not complete."""
    @property
    def chosen(self) -> list[Card]:
        """The cards the seat to act has chosen so far for its follow."""
    @property
    def trick(self) -> list[tuple[int, str]]:
        """This trick's plays so far, in play order: ``(seat, cards text)``."""
    @property
    def points(self) -> list[int]:
        """Card points each seat has won in tricks so far."""
    @property
    def outcome(self) -> dict[str, int] | None:
        """The scored deal as a dict, or None until every card is played.

        Keys: ``trick_points``, ``kitty_points``, ``kitty_multiplier``,
        ``kitty_bonus``, ``attacker_points``, ``rising_team``, ``rise``,
        ``next_dealer``.
        """
    def returns(self) -> list[float]:
        """Each seat's return: the levels the deal gave its team minus the other's.

        Zeros until scored.
        """
    def write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """Write ``seat``'s whole observation tensor into ``out`` (docs/tractor.md).

        ``out`` is a float32 array of the tensor's length, overwritten whole.

        Raises:
            RuleOptionError: If ``out`` is not a float32 vector of the tensor's length.
        """

def tractor_level_change(points: int) -> tuple[str, int]:
    """Which team rises and by how much for the attackers' `points` (TRC-44..TRC-49).

    ``("defenders", 3 | 2 | 1)`` below 80, else ``("attackers", n)`` with
    ``n = (points - 80) // 40`` (0 at 80-115: a take-over without rising).
    """

def tractor_card_points(cards: _Hand) -> int:
    """The card points of `cards`: each 5 counts 5, each 10 and king 10 (TRC-40, TRC-41)."""

def tractor_declare_values(
    seat: int,
    hand: _Hand,
    team_levels: list[str],
    dealer: int | None,
    first_speaker: int,
    declarations: list[tuple[int, int]],
    candidates: list[int],
    worlds: int,
    seed: int,
) -> list[float]:
    """The seat's team's mean level result after each candidate speech, over sampled deals.

    ``worlds`` deals of the cards ``hand`` (the seat's 25) cannot see, a declarer
    keeping the cards it showed, replay the ``declarations`` (``(seat, action id)``
    in order, passes between them from ``first_speaker``) up to ``seat``'s turn;
    each candidate (0 ``pass``, 1-10 declarations) is then played out by the playout
    policy (the rule agent's speeches and burial, the heuristic card play). The
    result is the deal's return for ``seat``: the levels it gives the seat's team
    minus those it gives the other. ``team_levels`` are the two teams' level ranks
    (seats 0 and 2 first); ``dealer`` None in a match's first deal (then
    ``first_speaker`` deals if all pass). Deterministic given ``seed``.

    Raises:
        InvalidCardError: If ``hand`` is not 25 cards of the double pack.
        RuleOptionError: If a seat is not 0-3, the dealer is not the first speaker,
            a level is not a rank, the levels of a first deal differ, or ``worlds``
            is 0.
        IllegalActionError: If the declarations cannot have been made in turn
            with ``seat`` to speak now (or show cards ``hand`` holds), or a candidate
            is not a speech the seat may make.
    """

def tractor_rule_declare(hand: _Hand, level: str, legal: list[int]) -> int:
    """The rule agent's speech for `hand` at level rank `level`: one of the `legal` ids.

    Among the listed declarations (ids 1-10), the one whose suit gives ``hand`` the
    most trumps when that is at least ten (level cards and jokers count for every
    suit; the first listed of equals), or a joker pair (no-trump) scored as four
    more than the hand's level cards and jokers when it holds six or more; else
    ``pass`` (id 0). The declaring search's playouts speak by the same rule.

    Raises:
        InvalidCardError: If ``hand`` holds a card more than twice.
        RuleOptionError: If ``level`` is not a rank.
        IllegalActionError: If an id in ``legal`` is not a speech.
    """

def tractor_rule_burial(hand: _Hand, level: str, trump: str | None) -> list[Card]:
    """The rule agent's burial of the dealer's `hand`, in the order it buries.

    Up to eight cards, one at a time, each the card that costs least to lose under
    ``level`` and ``trump`` (None: no-trump): the shortest side suit first, its point
    cards before its low cards; trumps, aces and pairs stay while other cards
    remain. The dealer buries the first card; the declaring search's playouts bury
    all eight.

    Raises:
        InvalidCardError: If ``hand`` holds a card more than twice.
        RuleOptionError: If ``level`` is not a rank or ``trump`` not a suit.
    """

def tractor_shape(cards: _Hand, level: str, trump: str | None = None) -> tuple[str, int] | None:
    """``("single" | "pair" | "tractor", pairs)`` of ``cards``, or None for no shape."""

def tractor_follow_cards(
    hand: _Hand, lead: _Hand, chosen: _Hand, level: str, trump: str | None = None
) -> list[Card]:
    """The cards a follower may add to ``chosen`` (cards of ``hand``) following ``lead``.

    Raises:
        IllegalActionError: If ``lead`` has no shape or ``chosen`` is not in ``hand``.
    """

def tractor_is_legal_follow(
    hand: _Hand, lead: _Hand, follow: _Hand, level: str, trump: str | None = None
) -> bool:
    """Whether ``follow`` (cards of ``hand``) is a legal follow of ``lead``."""

def tractor_trick_winner(plays: Sequence[_Hand], level: str, trump: str | None = None) -> int:
    """The index, in play order, of the play that wins the trick (the lead first).

    ``plays`` holds at most four plays, one a seat; a longer list is an
    ``InvalidArgumentError``, refused by its length before any play is read.
    """

def tractor_action_index() -> list[int]:
    """Where each block of the action index begins (docs/tractor.md), then its size."""

def tractor_action_text(id: int, level: str, trump: str | None = None) -> str | None:
    """The action text of ``id`` at ``level`` with ``trump``, or None."""

def tractor_lead_id(cards: _Hand, level: str, trump: str | None = None) -> int | None:
    """The lead id of ``cards`` at ``level`` with ``trump``, or None for no shape."""

# -- one episode stepped by id (cardkit.envs.pettingzoo) ------------------------

__all__ += ["AecCore"]

@final
class AecCore:
    """One episode of a single-deal game stepped by id (see cardkit.envs.pettingzoo).

    The engine episodes of the vector env, one at a time, for the PettingZoo AEC
    environments.

    Made by ``AecCore.hearts``, ``AecCore.spades``, ``AecCore.bridge``,
    ``AecCore.doudizhu``, ``AecCore.zhengshangyou``, ``AecCore.guandan`` or
    ``AecCore.holdem`` (the arguments of ``VectorEnv``'s makers without the
    slots, seed and threads); call ``attach`` and ``reset`` before anything else.
    """

    @staticmethod
    def hearts(passing: bool, target: int) -> AecCore:
        """A Hearts deal, with the pass to the left or (`passing=False`) none.

        Raises:
            RuleOptionError: If ``target`` is 0.
        """
    @staticmethod
    def spades(dealer: int, two_of_clubs_leads: bool, target: int) -> AecCore:
        """A Spades deal: the seat left of `dealer` bids first.

        Raises:
            RuleOptionError: If ``dealer`` is not 0..3 or ``target`` is 0.
        """
    @staticmethod
    def bridge(vulnerable: Sequence[bool]) -> AecCore:
        """A Bridge deal: the auction from South, then the play.

        ``vulnerable`` is North-South's, then East-West's.
        """
    @staticmethod
    def doudizhu(single_round: bool) -> AecCore:
        """A Dou Dizhu game: the bidding, then the card play.

        ``single_round``: each seat speaks once in the bidding.
        """
    @staticmethod
    def zhengshangyou() -> AecCore:
        """A Zheng Shangyou deal (the game has no rule options)."""
    @staticmethod
    def guandan(level: str, double_win_ends: bool) -> AecCore:
        """A Guandan deal at `level` (`"2"`..`"A"`), without tribute.

        Raises:
            RuleOptionError: If ``level`` is not a rank.
        """
    @staticmethod
    def tractor(level: str, first_speaker: int) -> AecCore:
        """A single Tractor deal at `level` (`"2"`..`"A"`), declared from `first_speaker`.

        Dealing, declaring, burying, the card play and the level change.

        Raises:
            RuleOptionError: If ``level`` is not a rank or ``first_speaker`` not a seat.
        """
    @staticmethod
    def holdem(stacks: Sequence[int], blinds: tuple[int, int], button: int) -> AecCore:
        """A Texas Hold'em hand from these starting `stacks`, `blinds` and `button`.

        Raises:
            RuleOptionError: If the table is not a valid one.
        """
    def attach(self, env: object, agents: list[str], copy_observations: bool) -> None:
        """Serve the AEC environment `env`, whose agents by seat are `agents`.

        ``step`` sets ``env.agent_selection`` and calls ``env._engine_event(code,
        action)`` when no seat is to act next; ``env`` is held weakly. With
        ``copy_observations``, every observation is a new dict of new arrays; else
        one handed out before is rewritten once nothing else refers to it (not
        even a view).

        Raises:
            InvalidArgumentError: If ``env`` takes no weak references or
                ``agents`` is not a list of str.
            RuleOptionError: If ``agents`` does not name every seat.
        """
    def reset(
        self,
        seed: int,
        infos: dict[str, dict[str, Any]],
        cumulative_rewards: dict[str, float],
        terminations: dict[str, bool],
        truncations: dict[str, bool],
    ) -> int:
        """Deal the episode of `seed` (the game of `new_state(seed=seed)`).

        Returns the seat to act, or -1 when the deal is over before any move. The
        dicts, keyed by the attached agents, are the environment's for this
        episode: ``step`` keeps each agent's ``infos`` entry ``"legal_actions"`` (its
        legal ids while it is to act, else an empty read-only array) and ``last``
        reads all four.

        Raises:
            RuleOptionError: Before ``attach``.
            KeyError: If ``infos`` lacks an agent.
        """
    def step(self, action: object) -> None:
        """The environment's `step`: play action id `action` for the agent to act.

        Sets the environment's ``agent_selection`` to the agent to act next, or
        calls its ``_engine_event(code, action)`` with -1 once the episode is over,
        -2 (nothing changed) when ``action`` is not an int (numpy integers count;
        bools do not) naming a legal id, or -3 (nothing changed) when the episode
        was already over. Keeps the ``"legal_actions"`` infos of the dicts given to
        ``reset``.

        Raises:
            AttributeError: Before the first ``reset``.
        """
    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """The environment's `last()`: the agent to act's observation and the rest.

        Its observation (``None`` unless ``observe``), cumulative reward,
        termination, truncation and info, read from the dicts given to ``reset``.

        Raises:
            AttributeError: Before the first ``reset``.
        """
    def observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        """`seat`'s observation as the AEC environments give it, in a dict.

        ``"observation"`` is the float32 tensor, ``"action_mask"`` the int8 mask (all
        zeros unless ``seat`` is to act). The dict and arrays are new, or ones handed
        out before that nothing else refers to any more (never with
        ``copy_observations``).

        Raises:
            RuleOptionError: Before the first ``reset``, or for a seat not at the table.
        """
    def played(self, start: int = 0) -> list[int]:
        """The ids played since the deal from the `start`-th on (all of them by default)."""
    def returns(self) -> list[float]:
        """Each seat's return of the episode, once it is over.

        Raises:
            RuleOptionError: Before the first ``reset``.
        """

# -- batched episodes (cardkit.envs.VectorEnv) -----------------------------------

__all__ += ["VectorEnv"]

_Views = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
]

@final
class VectorEnv:
    """A batch of single-deal episodes stepped in Rust (see cardkit.envs.VectorEnv).

    Made by ``VectorEnv.hearts``, ``VectorEnv.spades``, ``VectorEnv.bridge``,
    ``VectorEnv.doudizhu``, ``VectorEnv.zhengshangyou``, ``VectorEnv.guandan`` or
    ``VectorEnv.holdem``.
    Its five output arrays (observations, masks, rewards, players, done) are
    created once and rewritten in place by every call, which returns them.
    """

    #: Most slots in one env (the arrays' bytes are bounded too).
    MAX_ENVS: ClassVar[int]
    #: Most threads one env steps its slots on.
    MAX_THREADS: ClassVar[int]

    @staticmethod
    def hearts(num_envs: int, seed: int, threads: int, passing: bool, target: int) -> VectorEnv:
        """Hearts single deals, with the pass to the left or (`passing=False`) none.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            passing: Whether the deal passes three cards left.
            target: The match target that scales the score entries (at least 1).

        Raises:
            RuleOptionError: If an argument is out of range.
        """
    @staticmethod
    def spades(
        num_envs: int,
        seed: int,
        threads: int,
        dealer: int,
        two_of_clubs_leads: bool,
        target: int,
    ) -> VectorEnv:
        """Spades single deals: the seat left of `dealer` bids first.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            dealer: The dealer seat, 0..3.
            two_of_clubs_leads: Whether the holder of 2♣ leads it.
            target: The match target that scales the score entries (at least 1).

        Raises:
            RuleOptionError: If an argument is out of range.
        """
    @staticmethod
    def bridge(num_envs: int, seed: int, threads: int, vulnerable: Sequence[bool]) -> VectorEnv:
        """Bridge single deals: the auction from South, then the play.

        ``vulnerable`` is North-South's, then East-West's.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            vulnerable: North-South's and East-West's vulnerability.

        Raises:
            RuleOptionError: If an argument is out of range.
        """
    @staticmethod
    def doudizhu(num_envs: int, seed: int, threads: int, single_round: bool) -> VectorEnv:
        """Dou Dizhu games: the bidding (`single_round`: each seat speaks once), then the card play.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            single_round: The ``single_round`` bidding style, else ``open``.

        Raises:
            RuleOptionError: If an argument is out of range.
        """
    @staticmethod
    def holdem(
        num_envs: int,
        seed: int,
        threads: int,
        stacks: list[int],
        blinds: tuple[int, int],
        button: int,
    ) -> VectorEnv:
        """Texas Hold'em single hands from these starting `stacks`, `blinds` and `button`.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            stacks: Each seat's chips (2-12 seats, at least two with chips).
            blinds: The small and big blind (``small <= big``, ``big >= 1``).
            button: The button seat (moved on to the next seat with chips).

        Raises:
            RuleOptionError: If an argument is out of range.
        """
    @staticmethod
    def zhengshangyou(num_envs: int, seed: int, threads: int) -> VectorEnv:
        """Zheng Shangyou deals (the game has no rule options).

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.

        Raises:
            RuleOptionError: If an argument is out of range.
        """
    @staticmethod
    def guandan(
        num_envs: int, seed: int, threads: int, level: str, double_win_ends: bool
    ) -> VectorEnv:
        """Guandan single deals at `level` (`"2"`..`"A"`), without tribute.

        `double_win_ends` ends a deal once one team has finished first and second.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            level: The deal's level rank, both teams' level.
            double_win_ends: End a deal once one team has finished first and second.

        Raises:
            RuleOptionError: If an argument is out of range or ``level`` is not a rank.
        """
    @staticmethod
    def tractor(
        num_envs: int, seed: int, threads: int, level: str, first_speaker: int
    ) -> VectorEnv:
        """Tractor single deals at `level` (`"2"`..`"A"`).

        Dealing, declaring from `first_speaker`, burying and the card play.

        Args:
            num_envs: Slots, 1..2**20 (and at most 1 GiB of arrays).
            seed: The seed episodes derive from, 0..2**64-1.
            threads: Threads per call, 1..64.
            level: The deal's level rank, both teams' level.
            first_speaker: The seat that speaks first, and deals if nobody declares.

        Raises:
            RuleOptionError: If an argument is out of range or ``level`` is not a rank.
        """
    def reset(self, seed: int | None = None) -> _Views:
        """Start a new episode in every slot (from episode 0 when `seed` is given).

        Args:
            seed: A new seed, 0..2**64-1, or ``None`` to keep counting episodes.

        Returns:
            The output arrays, rewritten.

        Raises:
            RuleOptionError: If ``seed`` is not an int in range.
        """
    def step(self, actions: npt.NDArray[np.int64]) -> _Views:
        """Apply one int64 action id per slot and write the results in place.

        Args:
            actions: A ``(num_envs,)`` int64 array of action ids.

        Returns:
            The output arrays, rewritten.

        Raises:
            IllegalActionError: If ``actions`` is not such an array or an id is not
                legal in its slot (nothing moves).
            RuleOptionError: If ``reset`` was never called.
        """
    def legal_ids(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The legal ids of every slot, compactly: `(ids, offsets)`, int64 arrays.

        Slot ``i``'s ids, ascending, are ``ids[offsets[i]:offsets[i + 1]]`` (none
        once its episode is over): the rows of ``masks``, without reading their zeros.

        Returns:
            ``(ids, offsets)``; ``offsets`` has ``num_envs + 1`` entries.
        """

# -- the per-state lock (cardkit.games._base) --------------------------------------

__all__ += ["StateLock"]

@final
class StateLock:
    """A reentrant lock for a state: `acquire` and `release` it, or use it in `with`.

    Every state's ``apply`` and readers hold it; its uncontended ``acquire`` and
    ``release`` parse no arguments, unlike ``threading.RLock``'s.
    """

    def __new__(cls) -> StateLock: ...
    def acquire(self) -> bool:
        """Take the lock, waiting while another thread holds it; the holder may take it again.

        Returns True. A signal handler that raises while waiting ends the wait with
        its exception, the lock not taken.
        """
    def release(self) -> None:
        """Give back one hold of the lock; the last frees it for a waiting thread.

        Raises:
            InvalidArgumentError: If the calling thread does not hold it.
        """
    def __enter__(self) -> bool: ...
    def __exit__(self, *exc: object) -> None: ...
