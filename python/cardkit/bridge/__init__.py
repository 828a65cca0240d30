"""Contract Bridge analysis: double-dummy tables and solving, par, PBN.

Conventions (shared with the Bridge game): seats N, E, S, W are 0..3 and strains
C, D, H, S, NT are 0..4; both may also be given by letter (``"N"``, ``"NT"``).

A *deal* is a PBN deal string (``"N:AKQ.JT9.87.6543 ..."``, see
:func:`cardkit.bridge.pbn.parse_deal`) or four hands in N, E, S, W order, each a
card string (``"As Kd Th ..."`` or a PBN hand ``"AKQ.JT9.87.6543"``) or a list of
cards.

- :func:`dd_table` gives a deal's 20 double-dummy results (a :class:`DdTable`);
  :func:`dd_tables` solves many deals on every core with the GIL released.
- :func:`dd_solve` gives the tricks each legal card takes from any
  :class:`Position` (cards already played, a trick in progress);
  :func:`dd_solve_many` solves many positions on every core.
- :func:`par` gives the par score and contracts.
- :mod:`cardkit.bridge.pbn` reads and writes deals and played boards.

The solver is a pure-Rust port of DDS (``pons-dds``); long calls stop on Ctrl-C
between strains.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardkit import _core
from cardkit.bridge import pbn
from cardkit.bridge.pbn import SEATS, STRAINS, parse_deal, winner
from cardkit.cards import Card, parse_cards
from cardkit.errors import (
    CardkitError,
    IllegalActionError,
    InvalidNotationError,
    RuleOptionError,
    shown,
)

if TYPE_CHECKING:
    from cardkit.games.bridge import BridgeState

__all__ = [
    "SEATS",
    "STRAINS",
    "VULNERABILITIES",
    "DdTable",
    "Par",
    "ParContract",
    "Position",
    "dd_solve",
    "dd_solve_many",
    "dd_table",
    "dd_tables",
    "deal_hands",
    "par",
    "pbn",
    "seat_index",
    "strain_index",
]

#: Vulnerability names: neither side, North-South, East-West, both sides.
VULNERABILITIES = ("none", "ns", "ew", "both")

#: A hand: a card string (``"As Kd"``), a PBN hand (``"AK.Q.J.T"``) or cards.
Hand = str | Iterable[Card | str]
#: A deal: a PBN deal string or four hands, N, E, S, W.
Deal = str | Sequence[Hand]


def seat_index(seat: int | str, what: str = "seat") -> int:
    """Seat ``0..3`` or ``"N"``/``"E"``/``"S"``/``"W"`` (any case) as an index.

    Raises:
        RuleOptionError: If ``seat`` names no seat.
    """
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 4:
        return seat
    if isinstance(seat, str) and seat.strip().upper() in SEATS:
        return SEATS.index(seat.strip().upper())
    raise RuleOptionError(f"{what} {shown(seat)} is not a seat 0..3 or N, E, S, W")


def strain_index(strain: int | str, what: str = "strain") -> int:
    """Strain ``0..4`` or ``"C"``/``"D"``/``"H"``/``"S"``/``"NT"`` (any case) as an index.

    Raises:
        RuleOptionError: If ``strain`` names no strain.
    """
    if isinstance(strain, int) and not isinstance(strain, bool) and 0 <= strain < 5:
        return strain
    if isinstance(strain, str) and strain.strip().upper() in STRAINS:
        return STRAINS.index(strain.strip().upper())
    raise RuleOptionError(f"{what} {shown(strain)} is not a strain 0..4 or C, D, H, S, NT")


def _hand(hand: Hand, what: str) -> tuple[Card, ...]:
    if isinstance(hand, str) and "." in hand:
        return pbn._pbn_hand(hand.strip(), what)
    try:
        cards = parse_cards(hand)
    except CardkitError as e:
        raise type(e)(f"{what}: {e}") from None
    if any(c.is_joker for c in cards):
        raise RuleOptionError(f"{what} {shown(hand)} holds a joker")
    if len(set(cards)) != len(cards):
        raise RuleOptionError(f"{what} {shown(hand)} repeats a card")
    return tuple(cards)


def deal_hands(deal: Deal, what: str = "deal") -> tuple[tuple[Card, ...], ...]:
    """A deal (PBN string or four hands N, E, S, W) as four tuples of cards.

    Raises:
        InvalidNotationError: If a PBN deal or hand does not read.
        InvalidCardError: If a card does not parse.
        RuleOptionError: If ``deal`` is not four hands.
    """
    if isinstance(deal, str):
        try:
            return parse_deal(deal)
        except InvalidNotationError as e:
            raise InvalidNotationError(f"{what}: {e}") from None
    if not isinstance(deal, Sequence) or len(deal) != 4:
        raise RuleOptionError(
            f"{what} {shown(deal)} must be a PBN deal string or four hands N, E, S, W"
        )
    return tuple(_hand(h, f"{what}: {SEATS[k]}'s hand") for k, h in enumerate(deal))


def _masks(hands: Sequence[Iterable[Card]]) -> tuple[int, int, int, int]:
    m = [0, 0, 0, 0]
    for k, hand in enumerate(hands):
        for c in hand:
            m[k] |= 1 << c.index
    return (m[0], m[1], m[2], m[3])


def _engine(call: str, what: str, *args: object) -> Any:
    """Call the engine, prefixing its refusal with what was refused."""
    try:
        return getattr(_core, call)(*args)
    except RuleOptionError as e:
        raise RuleOptionError(f"{what}: {e}") from None


@dataclass(frozen=True)
class DdTable:
    """The 20 double-dummy results of a deal.

    ``rows[declarer][strain]`` is the number of tricks declarer's side takes
    with ``declarer`` (N, E, S, W = 0..3) playing in ``strain`` (C, D, H, S, NT =
    0..4), declarer's left-hand opponent leading and every card played perfectly.
    ``str(table)`` is a grid with a row per declarer.
    """

    rows: tuple[tuple[int, ...], ...]

    def tricks(self, declarer: int | str, strain: int | str) -> int:
        """Tricks for ``declarer`` (0..3 or N/E/S/W) in ``strain`` (0..4 or C/D/H/S/NT).

        Raises:
            RuleOptionError: If ``declarer`` or ``strain`` names no seat or strain.
        """
        return self.rows[seat_index(declarer, "declarer")][strain_index(strain)]

    def to_list(self) -> list[int]:
        """The 20 results declarer-major: index ``declarer * 5 + strain``."""
        return [t for row in self.rows for t in row]

    def __str__(self) -> str:
        head = "    " + " ".join(f"{s:>2}" for s in STRAINS)
        lines = [head] + [
            f"{SEATS[d]:>3} " + " ".join(f"{t:>2}" for t in row) for d, row in enumerate(self.rows)
        ]
        return "\n".join(lines)


def _table(flat: Sequence[int]) -> DdTable:
    return DdTable(tuple(tuple(flat[5 * d : 5 * d + 5]) for d in range(4)))


def _threads(threads: int | None) -> int | None:
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise RuleOptionError(f"threads {shown(threads)} must be an int of at least 1 or None")
    return threads


def dd_table(deal: Deal, threads: int | None = None) -> DdTable:
    """The double-dummy table of a full deal (four 13-card hands).

    Args:
        deal: A PBN deal string or four hands in N, E, S, W order.
        threads: Threads to spread the five strains over; None uses every core.

    Raises:
        InvalidNotationError: If a PBN deal or hand does not read.
        InvalidCardError: If a card does not parse.
        RuleOptionError: If the hands are not four disjoint 13-card hands.
    """
    masks = _masks(deal_hands(deal))
    flat = _engine("dd_table", f"deal {shown(deal)}", masks, _threads(threads))
    return _table(flat)


def dd_tables(deals: Iterable[Deal], threads: int | None = None) -> list[DdTable]:
    """The double-dummy tables of many deals, in order, solved in parallel.

    The work (one strain of one deal at a time) runs on ``threads`` threads
    (None: every core) with the GIL released; results do not depend on the
    thread count.

    Raises:
        InvalidNotationError, InvalidCardError, RuleOptionError: As
            :func:`dd_table`, naming the deal's position in ``deals``.
    """
    if isinstance(deals, str):
        raise RuleOptionError("deals must be an iterable of deals, not one str")
    masks = [_masks(deal_hands(d, f"deals[{i}]")) for i, d in enumerate(deals)]
    flats = _engine("dd_tables", "deals", masks, _threads(threads))
    return [_table(f) for f in flats]


@dataclass(frozen=True)
class Position:
    """A position of the play to solve double dummy.

    Attributes:
        hands: The cards each seat still holds, N, E, S, W (the current trick's
            cards are no longer in hand).
        trump: The strain 0..4 (C, D, H, S, NT).
        leader: The seat 0..3 that led the current trick.
        trick: The cards already played to the current trick, in play order
            (0..3 cards).

    Build one directly (``Position.of``, which parses hands and names) or replay
    a deal's play with :meth:`from_play`.
    """

    hands: tuple[tuple[Card, ...], ...]
    trump: int
    leader: int
    trick: tuple[Card, ...] = ()

    @classmethod
    def of(
        cls,
        hands: Deal,
        trump: int | str,
        leader: int | str,
        trick: str | Iterable[Card | str] = (),
    ) -> Position:
        """A position from hands (as a deal: any sizes), names or indices and cards.

        Raises:
            InvalidNotationError, InvalidCardError, RuleOptionError: If an
                argument does not read (the message names it).
        """
        try:
            cards = tuple(parse_cards(trick))
        except CardkitError as e:
            raise type(e)(f"trick: {e}") from None
        return cls(
            deal_hands(hands, "hands"),
            strain_index(trump, "trump"),
            seat_index(leader, "leader"),
            cards,
        )

    @classmethod
    def from_play(
        cls,
        deal: Deal,
        trump: int | str,
        leader: int | str,
        play: str | Iterable[Card | str] = (),
    ) -> Position:
        """The position after ``play`` (cards in play order) from a whole deal.

        ``leader`` is the opening leader (declarer's left-hand opponent); each
        completed trick's winner leads the next. A game's state converts with its
        deal, contract strain, opening leader and card history.

        Raises:
            IllegalActionError: If a card is not in the hand of the seat to play
                or does not follow suit (the position is not built).
            InvalidNotationError, InvalidCardError, RuleOptionError: As :meth:`of`.
        """
        pos = cls.of(deal, trump, leader)
        try:
            cards = parse_cards(play)
        except CardkitError as e:
            raise type(e)(f"play: {e}") from None
        hands = [list(h) for h in pos.hands]
        lead, trick = pos.leader, list[Card]()
        for n, card in enumerate(cards):
            seat = (lead + len(trick)) % 4
            hand = hands[seat]
            if card not in hand:
                raise IllegalActionError(f"play card {n} ({card}): {SEATS[seat]} does not hold it")
            if trick and card.suit != trick[0].suit and any(c.suit == trick[0].suit for c in hand):
                raise IllegalActionError(
                    f"play card {n} ({card}): {SEATS[seat]} must follow {trick[0].suit}"
                )
            hand.remove(card)
            trick.append(card)
            if len(trick) == 4:
                lead = (lead + winner(trick, pos.trump)) % 4
                trick = []
        return cls(tuple(tuple(h) for h in hands), pos.trump, lead, tuple(trick))

    @property
    def to_act(self) -> int:
        """The seat 0..3 to play next."""
        return (self.leader + len(self.trick)) % 4


def _check_position(position: object, what: str) -> Position:
    if isinstance(position, Position):
        return position
    # A Bridge game state in its card play converts to the position it stands at.
    play_position = getattr(position, "play_position", None)
    found = play_position() if callable(play_position) else None
    if found is None:
        raise RuleOptionError(
            f"{what} must be a cardkit.bridge.Position or a Bridge state in its card play, "
            f"got {shown(position)}"
        )
    masks, trump, leader, trick = found
    hands = tuple(tuple(Card.from_index(i) for i in range(52) if m >> i & 1) for m in masks)
    return Position(hands, trump, leader, tuple(Card.from_index(i) for i in trick))


def _plays(found: Sequence[tuple[int, int]]) -> dict[Card, int]:
    return {Card.from_index(i): t for i, t in found}


def dd_solve(position: Position | BridgeState) -> dict[Card, int]:
    """The tricks each legal card of the seat to act takes, double dummy.

    ``position`` is a :class:`Position` or a Bridge game state in its card play
    (``make("bridge").new_state(...)`` after the auction), solved where it stands.

    Returns:
        ``{card: tricks}`` for every legal card (lowest card first), where
        ``tricks`` counts the tricks the side to act wins from the current trick
        (included) to the end if it plays ``card`` and both sides then play
        perfectly.

    Raises:
        RuleOptionError: If the position is inconsistent (a card held twice or
            both held and played, hand sizes that do not fit the trick, a player
            who did not follow suit, no card left to play).
    """
    pos = _check_position(position, "position")
    trick = [c.index for c in pos.trick]
    return _plays(_engine("dd_solve", "position", _masks(pos.hands), pos.trump, pos.leader, trick))


def dd_solve_many(
    positions: Iterable[Position], threads: int | None = None
) -> list[dict[Card, int]]:
    """:func:`dd_solve` for many positions (the sampled deals of one decision, say),
    spread over ``threads`` threads (None: every core) with the GIL released.

    Raises:
        RuleOptionError: As :func:`dd_solve`, naming the position's index.
    """
    items = [_check_position(p, f"positions[{i}]") for i, p in enumerate(positions)]
    found = _engine(
        "dd_solve_many",
        "positions",
        [_masks(p.hands) for p in items],
        [p.trump for p in items],
        [p.leader for p in items],
        [[c.index for c in p.trick] for p in items],
        _threads(threads),
    )
    return [_plays(f) for f in found]


@dataclass(frozen=True)
class ParContract:
    """A par contract: ``level`` 1..7, ``strain`` 0..4, ``doubling`` (0 none, 1
    doubled, 2 redoubled), ``declarer`` 0..3 and the tricks over the contract it
    makes double dummy (negative when it goes down, as a doubled sacrifice)."""

    level: int
    strain: int
    doubling: int
    declarer: int
    overtricks: int

    def __str__(self) -> str:
        name = f"{self.level}{STRAINS[self.strain]}{'X' * self.doubling} by {SEATS[self.declarer]}"
        return name if self.overtricks == 0 else f"{name} {self.overtricks:+d}"


@dataclass(frozen=True)
class Par:
    """The par result: ``score`` from North-South's side (positive: N-S gain) and
    the ``contracts`` that reach it (empty when par is a pass-out)."""

    score: int
    contracts: tuple[ParContract, ...]


def _vulnerability(vulnerability: str) -> int:
    if isinstance(vulnerability, str) and vulnerability.strip().lower() in VULNERABILITIES:
        return VULNERABILITIES.index(vulnerability.strip().lower())
    raise RuleOptionError(f"vulnerability {shown(vulnerability)} is not one of none, ns, ew, both")


def par(deal: Deal | DdTable, vulnerability: str = "none", dealer: int | str = "N") -> Par:
    """The par score and contracts of a deal (or of its :class:`DdTable`).

    DDS's dealer-aware par: the best contract for each side double dummy, with
    sacrifices doubled, where the side that can bid first takes a score both
    sides could reach.

    Args:
        deal: A full deal, or its double-dummy table (saves solving it again).
        vulnerability: ``"none"``, ``"ns"``, ``"ew"`` or ``"both"``.
        dealer: The seat (0..3 or N/E/S/W) that calls first.

    Raises:
        RuleOptionError: If an argument names no vulnerability or seat, or the
            deal is not a full deal (see :func:`dd_table`).
    """
    vul = _vulnerability(vulnerability)
    seat = seat_index(dealer, "dealer")
    table = deal if isinstance(deal, DdTable) else dd_table(deal)
    # VULNERABILITIES's order makes each index the engine's bits (1 N-S, 2 E-W).
    score, contracts = _engine("dd_par", "table", table.to_list(), vul, seat)
    return Par(score, tuple(ParContract(*c) for c in contracts))
