"""Poker hand evaluation, ranges and equity (implemented in Rust, re-exported here).

>>> from cardkit.poker import evaluate, compare, winners
>>> evaluate("Kh Kd Ks 5c 5d").describe()
'Full House, Kings full of Fives'
>>> evaluate("As2d3h4c5s").describe()
'Straight, Five high'
>>> compare("AsAdKhQc2c", "KsKdAhQd3c")
1
>>> winners(["AsKs", "AhKh", "7c2d"], board="Qs Js Td 3c 2h")
[0, 1]
>>> len(Range("QQ+, AKs"))
22
>>> round(equity(["AhAs", "KdKc"]).equity[0], 4)
0.8126

- :func:`evaluate` ranks 5, 6 or 7 cards (the best five count) and 3-card Chinese
  Poker front hands (trips, pair or high cards; straights and flushes do not count)
  on one scale, so a front hand compares directly with a five-card hand.
- :class:`HandRank` is totally ordered and hashable; suits never break ties.
- :func:`evaluate_batch` ranks a numpy array of card indices without the GIL.
- :class:`Range` parses ``"QQ+, AKs, A5s-A2s, KQo, T9s+, AhKh, 22-55, AKo:0.5, random"``.
- :func:`equity` computes exact or Monte Carlo equity of hands and ranges.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cardkit._core import Card, HandRank, Range, poker_compare, poker_winners
from cardkit._core import poker_evaluate as evaluate
from cardkit._validate import MAX_SEED, check_count
from cardkit.errors import InvalidCardError, InvalidRangeError, RuleOptionError
from cardkit.poker.equity import EquityResult, PlayerEquity, PlayerSpec, equity

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CardsLike",
    "EquityResult",
    "HandRank",
    "InvalidRangeError",
    "PlayerEquity",
    "PlayerSpec",
    "Range",
    "compare",
    "equity",
    "evaluate",
    "evaluate_batch",
    "winners",
]

CardsLike = str | Iterable[Card | str]
"""Cards as a string (``"AsKs"``, ``"As Ks"``) or an iterable of cards / card strings."""


def compare(a: CardsLike, b: CardsLike) -> int:
    """-1, 0 or 1 as hand ``a`` loses to, ties with or beats hand ``b``."""
    return poker_compare(a, b)


def winners(hands: Iterable[CardsLike], board: CardsLike = "") -> list[int]:
    """Indices of the best hands among ``hands``, each played with the shared ``board``.

    Ties list every winner. A card may appear only once among all hands and the board.
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
        raise InvalidCardError(f"hands must be a list of hands, got {hands!r}")
    return poker_winners(hands, board)


def evaluate_batch(
    cards: Any, threads: int | None = None, out: npt.NDArray[np.uint32] | None = None
) -> npt.NDArray[np.uint32]:
    """Rank every row of an ``(N, 5|6|7)`` array of card indices (``Card.index``, 0..51).

    Returns a uint32 array of :attr:`HandRank.value` (higher is better). The work runs
    in Rust without the GIL on ``threads`` threads (default: all cores; at most 256
    run). Any integer array is accepted; uint8 C-contiguous input is used without a copy. A row with
    an index outside 0..51 or a repeated card raises ``InvalidCardError``.

    ``out``: a writable C-contiguous uint32 array of shape ``(N,)`` to fill and return
    instead of a new array, for loops that rank batch after batch (a fresh result
    costs the page faults of new memory each call). Its contents are
    unspecified after an error. A wrong ``out`` raises ``RuleOptionError``.
    """
    import numpy as np

    from cardkit._core import poker_evaluate_batch

    if threads is not None:
        check_count("threads", threads, 0, MAX_SEED)
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] not in (5, 6, 7):
        raise InvalidCardError(
            f"evaluate_batch needs an (N, 5|6|7) array of card indices, got shape {array.shape}"
        )
    if out is not None and not (
        isinstance(out, np.ndarray)
        and out.dtype == np.uint32
        and out.shape == (array.shape[0],)
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise RuleOptionError(
            f"out must be a writable C-contiguous uint32 array of shape ({array.shape[0]},), "
            f"got {_describe_array(out)}"
        )
    if array.dtype != np.uint8:
        if not np.issubdtype(array.dtype, np.integer):
            raise InvalidCardError(f"card indices must be integers, got dtype {array.dtype}")
        if array.size and (array.min() < 0 or array.max() > 51):
            raise InvalidCardError("card indices must be in 0..51")
        array = array.astype(np.uint8)
    return poker_evaluate_batch(np.ascontiguousarray(array), threads, out)


def _describe_array(value: object) -> str:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    return f"{type(value).__name__} shape={shape} dtype={dtype}" if shape else repr(value)
