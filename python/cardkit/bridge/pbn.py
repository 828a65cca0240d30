"""Portable Bridge Notation: deals and played boards, read and written.

A deal is written ``"N:AKQ.JT9.87.6543 ..."``: the seat of the first hand, then
four hands clockwise, each its spades, hearts, diamonds and clubs separated by
dots (``-`` for an unknown hand). :func:`parse_deal` reads one into four hands in
N, E, S, W order and :func:`format_deal` writes one.

:func:`loads` reads a PBN file's boards into :class:`Board` values (the tags
Board, Dealer, Vulnerable, Deal, Declarer, Contract, Result, the Auction and Play
sections; any other tag is kept in ``Board.tags`` and the data lines of tables
such as ``OptimumResultTable`` in ``Board.tables``) and :func:`dumps` writes them
back. Calls use the Bridge game's action names (``pass``, ``1C`` .. ``7NT``,
``X``, ``XX``), cards cardkit's notation, and the play is listed in play order
(PBN's Play section lists each trick by seat; both directions convert).
Comments, notes and suffix annotations (``!``, ``?``, ``=1=``, ``$3``) are read
and dropped, and so is a tag group that gives nothing a board holds. Text that does
not read raises :class:`InvalidNotationError` naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO

from cardkit._core import trick_winner
from cardkit.cards import Card
from cardkit.errors import InvalidCardError, InvalidNotationError, shown

__all__ = [
    "SEATS",
    "Board",
    "dump",
    "dumps",
    "format_deal",
    "load",
    "loads",
    "parse_deal",
    "winner",
]

#: Seat letters by index: N, E, S, W = 0..3.
SEATS = ("N", "E", "S", "W")
#: Strain names by index: C, D, H, S, NT = 0..4.
STRAINS = ("C", "D", "H", "S", "NT")
#: The game's vulnerability names and their PBN forms.
_VUL_TO_PBN = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}
_VUL_FROM_PBN = {"none": "none", "love": "none", "-": "none", "ns": "ns", "ew": "ew"}
_VUL_FROM_PBN.update({"all": "both", "both": "both"})

_SUITS_PBN = "shdc"  # the order of holdings within a PBN hand
_RANKS = "23456789TJQKA"
_TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
_CALL = re.compile(r"(?:(PASS|P)|(XX|RDBL|R)|(X|DBL|D)|([1-7])(C|D|H|S|NT|N))$")
_CONTRACT = re.compile(r"([1-7])(C|D|H|S|NT|N)(XX|X)?$")


def _seat(value: str, what: str) -> int:
    letter = value.strip().upper()[:1]
    if letter not in SEATS or value.strip().upper() not in (letter, _seat_word(letter)):
        raise InvalidNotationError(f"{what} {shown(value)} is not a seat N, E, S or W")
    return SEATS.index(letter)


def _seat_word(letter: str) -> str:
    return {"N": "NORTH", "E": "EAST", "S": "SOUTH", "W": "WEST"}[letter]


def _pbn_hand(text: str, what: str) -> tuple[Card, ...]:
    """The cards of one PBN hand (``AKQ.JT9.87.6543``, ``-`` unknown)."""
    if text == "-":
        return ()
    holdings = text.split(".")
    if len(holdings) != 4:
        raise InvalidNotationError(
            f"{what} {shown(text)} must hold four suits separated by dots (S.H.D.C)"
        )
    cards = []
    for suit, holding in zip(_SUITS_PBN, holdings, strict=True):
        for rank in holding.upper().replace("10", "T"):
            if rank not in _RANKS:
                raise InvalidNotationError(f"{what} {shown(text)} has no rank {rank!r}")
            cards.append(Card(rank + suit))
    if len(set(cards)) != len(cards):
        raise InvalidNotationError(f"{what} {shown(text)} repeats a card")
    return tuple(sorted(cards, key=lambda c: c.index, reverse=True))


def parse_deal(text: str) -> tuple[tuple[Card, ...], ...]:
    """Read a PBN deal (``"N:AKQ.JT9.87.6543 ..."``) into four hands, N, E, S, W.

    The first letter names the seat of the first hand (``N:``, ``E:``, ...); the
    hands follow clockwise. Each hand lists its cards from the highest.

    Raises:
        InvalidNotationError: If ``text`` is not a PBN deal (the message quotes it).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a PBN deal must be a str, got {shown(text)}")
    first, sep, rest = text.strip().partition(":")
    parts = rest.split()
    if not sep or len(parts) != 4:
        raise InvalidNotationError(f"PBN deal {shown(text)} must be a seat, a colon and four hands")
    start = _seat(first, f"PBN deal {shown(text)}: first seat")
    hands: list[tuple[Card, ...]] = [()] * 4
    seen: set[Card] = set()
    for k, part in enumerate(parts):
        seat = (start + k) % 4
        hand = _pbn_hand(part, f"PBN deal {shown(text)}: {SEATS[seat]}'s hand")
        if seen.intersection(hand):
            raise InvalidNotationError(f"PBN deal {shown(text)} deals a card twice")
        seen.update(hand)
        hands[seat] = hand
    return tuple(hands)


def format_deal(hands: Sequence[Iterable[Card | str]], first: int | str = "N") -> str:
    """Write four hands (N, E, S, W order) as a PBN deal starting at seat ``first``.

    An empty hand is written ``-`` (unknown), as PBN does for partial deals.

    Raises:
        InvalidNotationError: If ``hands`` are not four hands of cards or ``first``
            is not a seat.
        InvalidCardError: If a card does not parse.
    """
    if isinstance(hands, str) or len(hands) != 4:
        raise InvalidNotationError(f"a deal is four hands, N, E, S, W; got {shown(hands)}")
    start = first if isinstance(first, int) and 0 <= first < 4 else None
    if start is None:
        start = _seat(str(first), "first seat")
    parts = []
    for k in range(4):
        cards = [Card(c) for c in hands[(start + k) % 4]]
        if not cards:
            parts.append("-")
            continue
        holdings = []
        for suit in _SUITS_PBN:
            ranks = sorted((c.rank_index for c in cards if c.suit == suit), reverse=True)
            holdings.append("".join(_RANKS[r] for r in ranks))
        parts.append(".".join(holdings))
    return f"{SEATS[start]}:{' '.join(parts)}"


@dataclass
class Board:
    """One board of a PBN file: the deal and, when known, how it was bid and played.

    Attributes:
        deal: Four hands in N, E, S, W order (empty tuples when no Deal tag).
        board: The board number, or None.
        dealer: Seat 0..3 (N, E, S, W) that called first, or None.
        vulnerability: ``"none"``, ``"ns"``, ``"ew"`` or ``"both"``, or None.
        auction: The calls in order: ``"pass"``, ``"1C"`` .. ``"7NT"``, ``"X"``,
            ``"XX"``.
        contract: ``"4S"``, ``"3NTX"``, ``"2HXX"``, ``"pass"`` for a passed-out
            deal, or None when unknown.
        declarer: Seat 0..3 of declarer, or None.
        result: Tricks declarer took, or None.
        play: The cards played, in play order (the opening lead first).
        claimed: True when the play stopped at a claim (PBN's ``*``).
        tags: Every other tag, by name, in file order (Event, Site, Date, ...).
        tables: The data lines following any of those tags, by tag name (the
            rows of an ``OptimumResultTable`` or ``ScoreTable``), written back
            after their tag.
    """

    deal: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    board: int | None = None
    dealer: int | None = None
    vulnerability: str | None = None
    auction: list[str] = field(default_factory=list)
    contract: str | None = None
    declarer: int | None = None
    result: int | None = None
    play: list[Card] = field(default_factory=list)
    claimed: bool = False
    tags: dict[str, str] = field(default_factory=dict)
    tables: dict[str, list[str]] = field(default_factory=dict)

    @property
    def trump(self) -> int | None:
        """The contract's strain 0..4 (C, D, H, S, NT), or None without a contract."""
        m = _CONTRACT.match(self.contract or "")
        return None if m is None else _strain(m[2])


def _strain(name: str) -> int:
    return 4 if name in ("N", "NT") else STRAINS.index(name)


def _call(token: str, where: str) -> str:
    m = _CALL.match(token.upper())
    if m is None:
        raise InvalidNotationError(f"{where}: {shown(token)} is not a call")
    if m[1]:
        return "pass"
    if m[2]:
        return "XX"
    if m[3]:
        return "X"
    return m[4] + STRAINS[_strain(m[5])]


def _contract(value: str, where: str) -> str | None:
    text = value.strip().upper()
    if text in ("", "?"):
        return None
    if text in ("PASS", "P"):
        return "pass"
    m = _CONTRACT.match(text)
    if m is None:
        raise InvalidNotationError(f"{where}: contract {shown(value)} does not read")
    return m[1] + STRAINS[_strain(m[2])] + (m[3] or "")


def _annotation(token: str) -> bool:
    """Notes (``=1=``), NAGs (``$3``) and lone suffixes, which carry no call or card."""
    return (token.startswith("=") and token.endswith("=") and len(token) > 1) or (
        token.startswith("$") or token.strip("!?") == ""
    )


def winner(trick: Sequence[Card], trump: int) -> int:
    """The position (in play order) of the card winning a trick under strain ``trump``."""
    cards: list[Card | str] = list(trick)
    return trick_winner(cards, None if trump == 4 else "cdhs"[trump])


def _linear_play(rows: list[list[Card | None]], first: int, trump: int, where: str) -> list[Card]:
    """The play in play order from PBN's rows (each trick's cards by seat from
    ``first``); each trick's winner leads the next."""
    play: list[Card] = []
    leader = first
    for row in rows:
        ordered = [row[(leader - first + k) % 4] for k in range(4)]
        trick = [c for c in ordered if c is not None]
        if ordered[: len(trick)] != trick:
            raise InvalidNotationError(f"{where}: a trick has a gap before its last card")
        play.extend(trick)
        if len(trick) == 4:
            leader = (leader + winner(trick, trump)) % 4
    return play


def _play_rows(play: Sequence[Card], first: int, trump: int) -> list[list[Card | None]]:
    """The play in PBN's layout: one row a trick, each seat's card in its column."""
    rows: list[list[Card | None]] = []
    leader = first
    for start in range(0, len(play), 4):
        trick = list(play[start : start + 4])
        row: list[Card | None] = [None] * 4
        for k, card in enumerate(trick):
            row[(leader - first + k) % 4] = card
        rows.append(row)
        if len(trick) == 4:
            leader = (leader + winner(trick, trump)) % 4
    return rows


def _pbn_card(card: Card) -> str:
    return card.suit.upper() + card.rank if card.suit else str(card)


def _read_card(token: str, where: str) -> Card:
    text = token.rstrip("!?")
    try:
        if len(text) >= 2 and text[0].upper() in "SHDC":
            return Card(text[1:].upper() + text[0].lower())
        return Card(text)
    except InvalidCardError:
        raise InvalidNotationError(f"{where}: {shown(token)} is not a card") from None


class _Reader:
    """Reads PBN text line by line into boards (one board per tag group)."""

    def __init__(self) -> None:
        self.boards: list[Board] = []
        self.tags: dict[str, str] = {}
        self.sections: dict[str, list[str]] = {}
        self.lines: dict[str, int] = {}
        self.section: str | None = None

    def feed(self, text: str) -> list[Board]:
        in_comment = False
        for lineno, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if in_comment:
                if "}" not in line:
                    continue
                in_comment = False
                line = line.split("}", 1)[1].strip()
            elif not line:
                self.flush()
                continue
            if line.startswith("%"):
                continue
            line, in_comment = _strip_comments(line)
            if not line:
                continue
            # Tags may share a line; what follows them reads as a line of its own
            # (so a "%" there starts a comment), as dumps writes each on its own line.
            while line.startswith("["):
                m = _TAG.match(line)
                if m is None:
                    raise InvalidNotationError(f"line {lineno}: {shown(line)} is not a tag")
                name, value = m[1], re.sub(r'\\(["\\])', r"\1", m[2])
                # A repeated tag's value and data are dropped (the first counts).
                self.section = "" if name in self.tags else name
                if self.section:
                    self.tags[name] = value
                    self.lines[name] = lineno
                    self.sections[name] = []
                line = line[m.end() :].strip()
            if not line or line.startswith("%"):
                continue
            if self.section is None:
                raise InvalidNotationError(f"line {lineno}: {shown(line)} is outside a section")
            if self.section:
                self.sections[self.section].append(line)
        self.flush()
        return self.boards

    def flush(self) -> None:
        # A tag group that gives nothing a board holds (only "?" values, empty
        # Auction or Play sections) is no board: dumps could not write it back.
        if self.tags and (board := self.board()) != Board():
            self.boards.append(board)
        self.tags, self.sections, self.lines, self.section = {}, {}, {}, None

    def where(self, name: str) -> str:
        return f"line {self.lines.get(name, '?')} ({name})"

    def board(self) -> Board:
        tags = dict(self.tags)
        b = Board()
        if "Deal" in tags:
            try:
                b.deal = parse_deal(tags.pop("Deal"))
            except InvalidNotationError as e:
                raise InvalidNotationError(f"{self.where('Deal')}: {e}") from None
        if (num := tags.pop("Board", "").strip()) not in ("", "?"):
            if not num.isdigit():
                raise InvalidNotationError(f"{self.where('Board')}: {shown(num)} is no number")
            b.board = int(num)
        if (dealer := tags.pop("Dealer", "").strip()) not in ("", "?"):
            b.dealer = _seat(dealer, f"{self.where('Dealer')}: dealer")
        if (vul := tags.pop("Vulnerable", "").strip()) not in ("", "?"):
            if vul.lower() not in _VUL_FROM_PBN:
                raise InvalidNotationError(f"{self.where('Vulnerable')}: {shown(vul)}")
            b.vulnerability = _VUL_FROM_PBN[vul.lower()]
        if (declarer := tags.pop("Declarer", "").strip()) not in ("", "?"):
            b.declarer = _seat(declarer.lstrip("^"), f"{self.where('Declarer')}: declarer")
        b.contract = _contract(tags.pop("Contract", ""), self.where("Contract"))
        if (result := tags.pop("Result", "").strip()) not in ("", "?"):
            if not result.isdigit() or int(result) > 13:
                raise InvalidNotationError(f"{self.where('Result')}: {shown(result)}")
            b.result = int(result)
        if "Auction" in tags:
            b.auction = self.auction(tags.pop("Auction"), b)
        if "Play" in tags:
            b.play, b.claimed = self.play(tags.pop("Play"), b)
        b.tags = tags
        b.tables = {name: self.sections[name] for name in tags if self.sections.get(name)}
        return b

    def auction(self, value: str, board: Board) -> list[str]:
        where = self.where("Auction")
        # The Auction tag names the dealer (who calls first): it stands in for a
        # missing Dealer tag and must not contradict a present one, or every call
        # would be read as another seat's.
        if value.strip() not in ("", "?"):
            first = _seat(value.strip(), f"{where}: first seat")
            if board.dealer is None:
                board.dealer = first
            elif first != board.dealer:
                raise InvalidNotationError(
                    f"{where}: the auction starts with {SEATS[first]}, "
                    f"but the dealer is {SEATS[board.dealer]}"
                )
        calls: list[str] = []
        for token in " ".join(self.sections.get("Auction", [])).split():
            if _annotation(token):
                continue
            if token in ("*", "-", "+"):
                break
            if token.upper() == "AP":
                calls.extend(["pass"] * 3)
                continue
            calls.append(_call(token.rstrip("!?"), where))
        return calls

    def play(self, value: str, board: Board) -> tuple[list[Card], bool]:
        where = self.where("Play")
        lines = self.sections.get("Play", [])
        tokens = [t for t in " ".join(lines).split() if not _annotation(t)]
        claimed = "*" in tokens
        tokens = tokens[: tokens.index("*")] if claimed else tokens
        named = value.strip() not in ("", "?")
        first = _seat(value.strip(), f"{where}: first seat") if named else None
        if not tokens and not claimed:
            return [], False
        # A claim before the first card is a play too (dumps writes it back).
        if board.trump is None:
            raise InvalidNotationError(f"{where}: a Play section needs a Contract")
        if first is None:
            raise InvalidNotationError(f"{where}: a Play section needs its first seat")
        # The Play tag names the opening leader, declarer's left-hand opponent: it
        # gives a missing Declarer and must agree with a present one.
        if board.declarer is None:
            board.declarer = (first + 3) % 4
        elif first != (board.declarer + 1) % 4:
            raise InvalidNotationError(
                f"{where}: the play starts with {SEATS[first]}, but declarer "
                f"{SEATS[board.declarer]}'s left-hand opponent is {SEATS[(board.declarer + 1) % 4]}"
            )
        if not tokens:
            return [], True
        cards = [None if t in ("-", "+") else _read_card(t, where) for t in tokens]
        rows = [cards[k : k + 4] for k in range(0, len(cards), 4)]
        rows[-1].extend([None] * (4 - len(rows[-1])))
        return _linear_play(rows, first, board.trump, where), claimed


def _escaped(line: str, at: int) -> bool:
    """Whether the quote at ``at`` is escaped: an odd run of backslashes before it
    (``\\\\"`` is an escaped backslash, then the closing quote)."""
    start = at
    while start > 0 and line[start - 1] == "\\":
        start -= 1
    return (at - start) % 2 == 1


def _strip_comments(line: str) -> tuple[str, bool]:
    """``line`` without ``;`` and ``{...}`` comments; True if a ``{`` stays open."""
    out = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == '"':
            end = line.find('"', i + 1)
            while end > 0 and _escaped(line, end):
                end = line.find('"', end + 1)
            end = len(line) - 1 if end < 0 else end
            out.append(line[i : end + 1])
            i = end + 1
            continue
        if ch == ";":
            break
        if ch == "{":
            end = line.find("}", i)
            if end < 0:
                return "".join(out).strip(), True
            i = end + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out).strip(), False


def loads(text: str) -> list[Board]:
    """Read every board of PBN ``text`` (boards are separated by blank lines).

    Raises:
        InvalidNotationError: If a tag, deal, call, card or section does not read
            (the message names the line).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"PBN text must be a str, got {shown(text)}")
    return _Reader().feed(text)


def load(fp: IO[str]) -> list[Board]:
    """Read every board of a PBN file opened for reading text (see :func:`loads`)."""
    return loads(fp.read())


def _tag(name: str, value: object) -> str:
    # A backslash is doubled only where the reader would take it as an escape
    # (before a backslash, a quote or the closing quote): table tags such as
    # OptimumResultTable write their column formats with lone backslashes
    # (``Result\\2R``), as readers expect, and those read back as they are.
    text = re.sub(r'\\(?=[\\"]|$)', r"\\\\", str(value)).replace('"', '\\"')
    return f'[{name} "{text}"]'


def _board_lines(b: Board) -> list[str]:
    lines = []
    if b.board is not None:
        lines.append(_tag("Board", b.board))
    if b.dealer is not None:
        lines.append(_tag("Dealer", SEATS[b.dealer]))
    if b.vulnerability is not None:
        if b.vulnerability not in _VUL_TO_PBN:
            raise InvalidNotationError(
                f"vulnerability {shown(b.vulnerability)} is not none/ns/ew/both"
            )
        lines.append(_tag("Vulnerable", _VUL_TO_PBN[b.vulnerability]))
    if any(b.deal):
        first = 0 if b.dealer is None else b.dealer
        lines.append(_tag("Deal", format_deal(b.deal, first)))
    if b.declarer is not None:
        lines.append(_tag("Declarer", SEATS[b.declarer]))
    if b.contract is not None:
        contract = _contract(b.contract, "contract")
        lines.append(_tag("Contract", "Pass" if contract == "pass" else contract))
    if b.result is not None:
        lines.append(_tag("Result", b.result))
    if b.auction:
        if b.dealer is None:
            raise InvalidNotationError("an Auction needs a dealer")
        calls = [_call(c, "auction") for c in b.auction]
        calls = ["Pass" if c == "pass" else c for c in calls]
        lines.append(_tag("Auction", SEATS[b.dealer]))
        lines.extend(" ".join(calls[k : k + 4]) for k in range(0, len(calls), 4))
    if b.play or b.claimed:
        if b.declarer is None or b.trump is None:
            raise InvalidNotationError("a Play section needs a declarer and a contract")
        first = (b.declarer + 1) % 4
        rows = _play_rows([Card(c) for c in b.play], first, b.trump)
        lines.append(_tag("Play", SEATS[first]))
        lines.extend(" ".join("-" if c is None else _pbn_card(c) for c in row) for row in rows)
        if b.claimed:
            lines.append("*")
    for name, value in b.tags.items():
        lines.append(_tag(name, value))
        lines.extend(b.tables.get(name, []))
    return lines


def dumps(boards: Iterable[Board]) -> str:
    """Write ``boards`` as PBN text (export format: one tag per line, a blank line
    after each board). The Deal starts at the dealer's hand when there is one.

    Raises:
        InvalidNotationError: If a board cannot be written (an auction without a
            dealer, a play without a declarer and contract, an unknown
            vulnerability).
    """
    out = ["% PBN 2.1", "% EXPORT", ""]
    for b in boards:
        out.extend(_board_lines(b))
        out.append("")
    return "\n".join(out)


def dump(boards: Iterable[Board], fp: IO[str]) -> None:
    """Write ``boards`` to a file opened for writing text (see :func:`dumps`)."""
    fp.write(dumps(boards))
