"""Texas Hold'em equity of hands and ranges (the enumeration and sampling run in Rust)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cardkit._core import Card, Range, poker_equity
from cardkit._validate import MAX_SEED, check_count, check_flag, check_real, check_seed
from cardkit.errors import InvalidRangeError, RuleOptionError, shown

__all__ = ["EquityResult", "PlayerEquity", "PlayerSpec", "equity"]

PlayerSpec = Range | str | Iterable[Card | str]
"""A player: a :class:`Range`, a range string (``"QQ+, AKs"``; a hand such as ``"AhAs"``
is a one-combo range) or an iterable of two cards."""


@dataclass(frozen=True)
class PlayerEquity:
    """One player's expected share of the pot.

    ``equity = win + tie``: ``win`` is the share from outright wins, ``tie`` the share
    from split pots (``1/k`` of each ``k``-way split). ``stderr`` is the standard error
    of ``equity`` for Monte Carlo results and 0 for exact ones.
    """

    equity: float
    win: float
    tie: float
    stderr: float


@dataclass(frozen=True)
class EquityResult:
    """The equity of every player, in the order given.

    ``exact`` tells whether every board was enumerated (``boards`` of them) or the
    result was sampled (``samples`` trials, each player's ``stderr`` set).
    """

    players: tuple[PlayerEquity, ...]
    exact: bool
    samples: int
    boards: int

    def __getitem__(self, player: int) -> PlayerEquity:
        """The result of one player."""
        return self.players[player]

    def __len__(self) -> int:
        """The number of players."""
        return len(self.players)

    @property
    def equity(self) -> list[float]:
        """Each player's equity."""
        return [p.equity for p in self.players]

    @property
    def win(self) -> list[float]:
        """Each player's share from outright wins."""
        return [p.win for p in self.players]

    @property
    def tie(self) -> list[float]:
        """Each player's share from split pots."""
        return [p.tie for p in self.players]

    @property
    def stderr(self) -> list[float]:
        """Each player's standard error (all 0 when exact)."""
        return [p.stderr for p in self.players]


def equity(
    players: Sequence[PlayerSpec],
    board: str | Iterable[Card | str] = "",
    dead: str | Iterable[Card | str] = "",
    *,
    exact: bool | None = None,
    samples: int | None = None,
    stderr: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[float], object] | None = None,
) -> EquityResult:
    """Equity of 2 to 10 players, each holding a hand or a range, on ``board`` (0 to 5
    cards) with ``dead`` cards out of play.

    - ``exact=True`` enumerates every board (and every deal of the ranges);
      ``exact=False`` samples. ``exact=None`` (default) enumerates when that is cheap
      (about a second of work at most) and no ``samples``/``stderr`` is given, and
      samples otherwise.
    - Monte Carlo runs until every player's standard error is at most ``stderr`` or
      ``samples`` trials are done, whichever comes first (defaults: ``stderr=0.0005``
      and at most 10**8 trials; ``samples`` alone runs exactly that many trials).
    - ``seed`` (default 0) and ``threads`` (default: all cores; at most 256 run) fix
      the result: the work is cut into chunks seeded by chunk index and merged in
      order, so the same seed gives the same result for any thread count.
    - ``progress(fraction)`` is called about ten times a second during the run, on
      the calling thread; an exception it raises stops the run at once and is
      raised from ``equity``.
    - Ctrl-C (``KeyboardInterrupt``) stops a run within about a hundred
      milliseconds, its worker threads included.

    The problem is checked before any work starts. Range combos that use a board or
    dead card are dropped; the result's equities always sum to 1, and a problem with
    no answer is an error, never zeros. A ``CardkitError`` (all of them are
    ``ValueError``) names the cause:

    - ``InvalidRangeError``: a range that does not parse;
    - ``InvalidCardError``: a card given twice, more than 5 board cards, a player
      left without a hand (every combo weighted 0, or on the board or dead), too
      few live cards for every hand and the rest of the board, or ranges that
      cannot all be dealt at once (the players, or the shared card, are named);
    - ``RuleOptionError``: a player count outside 2..10, conflicting options, an
      exact problem too large to enumerate, or ranges that overlap so much that
      Monte Carlo cannot deal them (the players are named; see docs/poker.md).
    """
    if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
        raise InvalidRangeError(f"players must be a list of hands or ranges, got {shown(players)}")
    if exact is not None:
        check_flag("exact", exact)
    if samples is not None:
        check_count("samples", samples, 0, MAX_SEED)
    if stderr is not None:
        # the sign and size are checked in Rust; here only the type and finiteness.
        check_real("stderr", stderr, -math.inf, math.inf)
    check_seed("seed", seed, optional=True)
    if threads is not None:
        check_count("threads", threads, 0, MAX_SEED)
    if progress is not None and not callable(progress):
        raise RuleOptionError(f"progress must be callable, got {progress!r}")
    rows, is_exact, trials, boards = poker_equity(
        players,
        board,
        dead,
        exact=exact,
        samples=samples,
        stderr=stderr,
        seed=seed,
        threads=threads,
        progress=progress,
    )
    return EquityResult(
        players=tuple(PlayerEquity(*row) for row in rows),
        exact=is_exact,
        samples=trials,
        boards=boards,
    )
