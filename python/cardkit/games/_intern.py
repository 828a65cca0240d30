"""The one bounded cache the games use to share action objects.

Listing and parsing actions is the inner loop of every random playout, so the games
hand out shared :class:`~cardkit.api.Action` objects (immutable, so safe to share)
and remember the work of turning a key (a text, a ``BettingCore`` code, a listing of
codes) into one. Callers can name unboundedly many keys (any bet amount, any rank
text), so every such cache is an :class:`Interner` holding at most
:data:`MAX_INTERNED` entries. When full it keeps what it holds and stops adding: a
new key's value is still built and returned, only not kept, so a flood of one-off
keys costs time but never memory, and the keys seen first (the common ones) stay
fast.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Generic, TypeVar

__all__ = ["MAX_INTERNED", "Interner"]

#: The most entries one :class:`Interner` keeps. The Rust table of climbing plays
#: (``ClimbingActions`` in rust/python/src/climbing.rs) is given the same bound.
MAX_INTERNED = 100_000

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Interner(Generic[K, V]):
    """A bounded cache of the shared value ``make(key)`` for each key.

    ``interner(key)`` returns the kept value, or builds it with ``make`` (whose
    errors pass through and cache nothing) and keeps it while there is room.
    ``interner.get(key)`` is the lookup alone (``None`` on a miss); it is the
    table's own ``dict.get``, so hot paths pay no Python frame on a hit.
    ``preset`` entries are kept from the start and count toward ``limit``.
    """

    __slots__ = ("_make", "_table", "get", "limit")

    get: Callable[[K], V | None]

    def __init__(
        self,
        make: Callable[[K], V],
        preset: Mapping[K, V] | None = None,
        limit: int = MAX_INTERNED,
    ) -> None:
        self._make = make
        self._table: dict[K, V] = dict(preset or {})
        self.limit = limit
        self.get = self._table.get

    def __call__(self, key: K) -> V:
        found = self._table.get(key)
        if found is None:
            found = self._make(key)
            if len(self._table) < self.limit:
                self._table[key] = found
        return found

    def __len__(self) -> int:
        """How many entries are kept (at most ``limit``)."""
        return len(self._table)
