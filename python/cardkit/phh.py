"""Hand histories of Texas Hold'em in the PHH format (the poker hand history standard).

PHH is a small TOML document per hand; pokerkit reads and writes it
(``pokerkit.HandHistory.loads``). Players ``p1 .. pk`` are the seats dealt in,
clockwise from the button's left, the button last (heads-up: the big blind is
``p1``). Actions: ``d dh p1 AcKd`` (hole cards), ``d db 7h8h9c`` (board),
``p2 f`` (fold), ``p2 cc`` (check or call), ``p2 cbr 60`` (bet or raise to a
total of 60), ``p1 sm AcKd`` (show at showdown).

- :func:`dumps` writes one hand of a :class:`~cardkit.games.holdem.HoldemState`
  (every hole card, or only what ``viewer`` may see: others as ``????``).
- :func:`loads` reads a no-limit Hold'em PHH and replays it into a single-hand
  state with the same players, stacks, blinds, cards and actions.
"""

from __future__ import annotations

import ast
import re
import warnings
from typing import Any

from cardkit._core import Card, deck, parse_cards
from cardkit._validate import check_seed, check_text
from cardkit.errors import CardkitError, InvalidNotationError, RuleOptionError, shown
from cardkit.games._betting import MAX_AMOUNT_DIGITS
from cardkit.games.holdem import Holdem, HoldemState, arrange_deal

__all__ = ["MAX_PHH_CHARS", "dumps", "loads", "parse_phh"]

#: The longest PHH text read. A hand of 12 seats with deep stacks and hundreds of
#: raises is a few KB; longer text is refused before it is parsed.
MAX_PHH_CHARS = 200_000


def _cards(cards: list[str]) -> str:
    return "".join(cards)


def dumps(state: HoldemState, hand: int = -1, viewer: int | None = None) -> str:
    """The PHH text of hand ``hand`` (an index into ``state.hands``; the last settled
    hand by default). With ``viewer``, other seats' hole cards are written ``????``
    unless they were shown down."""
    if not state.hands:
        raise RuleOptionError("no hand has been completed yet")
    try:
        record = state.hands[hand]
    except IndexError:
        raise RuleOptionError(f"no hand {hand}: {len(state.hands)} hands played") from None
    game = state.game
    assert isinstance(game, Holdem)
    n = game.num_players
    button = record["button"]
    start = record["starting_stacks"]
    seats = [(button + k) % n for k in range(1, n + 1) if start[(button + k) % n] > 0]
    player = {seat: f"p{i + 1}" for i, seat in enumerate(seats)}
    small, big = game.blinds
    blinds = [small, big] + [0] * (len(seats) - 2)
    shown = record["shown"]
    lines = []
    for seat in seats:
        hole = record["holes"][seat]
        visible = viewer is None or viewer == seat or str(seat) in shown
        lines.append(f"d dh {player[seat]} {_cards(hole) if visible else '????'}")
    idle: dict[int, list[int]] = {}
    for index, seat in record["idle"]:
        idle.setdefault(index, []).append(seat)
    # Streets dealt after action i (a run-out deals several after the same action).
    board_at: dict[int, list[str]] = {}
    for index, cards in zip(record["board_at"], record["board"], strict=True):
        board_at.setdefault(index, []).append(cards)
    actions = record["actions"]
    for i in range(len(actions) + 1):
        for seat in idle.get(i, []):
            lines.append(f"{player[seat]} cc")
        for cards in board_at.get(i, []):
            lines.append(f"d db {cards}")
        if i == len(actions):
            break
        seat, text = actions[i]
        verb = text.split()[0]
        code = {"fold": "f", "check": "cc", "call": "cc"}.get(verb, f"cbr {text.split()[-1]}")
        lines.append(f"{player[seat]} {code}")
    for seat in seats:
        if str(seat) in shown:
            lines.append(f"{player[seat]} sm {_cards(shown[str(seat)])}")
    fields: list[tuple[str, Any]] = [
        ("variant", "NT"),
        ("ante_trimming_status", True),
        ("antes", [0] * len(seats)),
        ("blinds_or_straddles", blinds),
        ("min_bet", big),
        ("starting_stacks", [start[s] for s in seats]),
        ("actions", lines),
        ("hand", record["hand"] + 1),
        ("seats", [s + 1 for s in seats]),
        ("seat_count", n),
        ("finishing_stacks", [record["finishing_stacks"][s] for s in seats]),
    ]
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        if value and isinstance(value[0], str):
            return "[\n" + "".join(f"  {_toml(v)},\n" for v in value) + "]"
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def parse_phh(text: str) -> dict[str, Any]:
    """The fields of a PHH document (the TOML subset PHH uses: ints, bools, strings
    and arrays of them, comments, no tables).

    Text that does not read raises :class:`InvalidNotationError` naming the line.
    """
    return _parse_fields(text)[0]


class _Lines:
    """Where each field starts and where each string of an array field sits, so
    that errors about a value can name its line."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.start: dict[str, int] = {}
        self.strings: dict[str, list[int]] = {}

    def error(self, number: int, why: str) -> InvalidNotationError:
        """The error for line ``number`` (1-based), quoting it."""
        line = self.lines[number - 1].strip() if 0 < number <= len(self.lines) else ""
        return InvalidNotationError(f"PHH line {number}: {why}: {shown(line)}")

    def field_error(self, key: str, why: str) -> InvalidNotationError:
        """The error for field ``key`` (at its first line; line 0 if it is missing)."""
        if key not in self.start:
            return InvalidNotationError(f"PHH field {key} {why}")
        return self.error(self.start[key], f"{key} {why}")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _parse_fields(text: str) -> tuple[dict[str, Any], _Lines]:
    if len(check_text("PHH text", text)) > MAX_PHH_CHARS:
        raise InvalidNotationError(
            f"a PHH text of {len(text)} characters is longer than any hand (at most "
            f"{MAX_PHH_CHARS})"
        )
    lines = text.splitlines()
    where = _Lines(lines)
    fields: dict[str, Any] = {}
    # The lines of the field being read; open brackets counted as lines arrive, so
    # reading stays linear however many lines an array spans.
    pending: list[str] = []
    depth = 0
    first = 0
    strings: list[int] = []
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip() if '"' not in raw else raw.strip()
        if not line:
            continue
        if line.startswith("[") and not pending:
            raise where.error(number, "PHH tables are not supported")
        if not pending:
            first, strings, depth = number, [], 0
        pending.append(line)
        depth += line.count("[") - line.count("]")
        strings.extend(number for _ in _STRING.finditer(line))
        if depth > 0:
            continue
        key, sep, value = " ".join(pending).partition("=")
        pending = []
        if not sep or not key.strip():
            raise where.error(number, "not a PHH line (key = value)")
        key = key.strip()
        where.start[key] = first
        where.strings[key] = strings
        fields[key] = _value(value.strip(), where, first)
    if pending:
        raise where.error(first, "unterminated array")
    return fields, where


def _value(text: str, where: _Lines, number: int) -> Any:
    # TOML's ints, strings and arrays read as Python literals once booleans are mapped.
    mapped = text.replace("true", "True").replace("false", "False") if '"' not in text else text
    try:
        # The compile step warns (SyntaxWarning) on text such as "1in []" before it
        # fails; the typed error below is the whole answer.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.literal_eval(mapped)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        # RecursionError: deeply nested brackets; ValueError: ints past 4300 digits.
        raise where.error(number, "cannot read the value") from exc


def _int_list(fields: dict[str, Any], where: _Lines, key: str, size: int | None) -> list[int]:
    """Field ``key`` as a list of ints of ``size`` entries (any length if ``None``)."""
    value = fields.get(key)
    if (
        not isinstance(value, list)
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        or (size is not None and len(value) != size)
    ):
        count = "a list of ints" if size is None else f"a list of {size} ints"
        raise where.field_error(key, f"must be {count}, got {shown(value)}")
    return value


def loads(text: str, seed: int = 0) -> HoldemState:
    """Replay a no-limit Hold'em PHH hand into a single-hand :class:`HoldemState`.

    Seats are ``p1 .. pk`` in order (so the button is the last seat). Unknown hole
    cards (``????``) and burns are filled with cards no one else holds; board cards
    the hand never reached are dealt from ``seed``. Text that is not such a hand
    raises :class:`InvalidNotationError` naming the line (a
    :class:`~cardkit.errors.RuleOptionError`).
    """
    check_seed("seed", seed)
    fields, where = _parse_fields(text)
    if fields.get("variant") != "NT":
        raise where.field_error(
            "variant", f"must be NT (no-limit Texas Hold'em), got {shown(fields.get('variant'))}"
        )
    stacks = _int_list(fields, where, "starting_stacks", None)
    k = len(stacks)
    blinds = _int_list(fields, where, "blinds_or_straddles", None)
    if len(blinds) < 2:
        raise where.field_error("blinds_or_straddles", "needs the small and the big blind")
    antes = _int_list(fields, where, "antes", k) if "antes" in fields else [0] * k
    if any(antes) or any(blinds[2:]):
        raise where.field_error("antes", "and straddles are not part of these rules")
    actions = fields.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise where.field_error("actions", f"must be a list of strings, got {shown(actions)}")
    try:
        game = Holdem(
            players=k, stacks=stacks, blinds=(blinds[0], blinds[1]), match=False, button=k - 1
        )
    except RuleOptionError as exc:
        raise where.field_error("starting_stacks", f"do not make a table: {exc}") from exc
    lines = where.strings.get("actions", [])
    line_of = [lines[i] if i < len(lines) else where.start["actions"] for i in range(len(actions))]
    # Every seat's hole cards and show, three board deals, the betting, and the
    # turns without a decision that histories record as checks (fewer than moves).
    if len(actions) > 2 * k + 3 + 2 * game.max_game_length:
        raise where.field_error(
            "actions", f"has {len(actions)} entries, more than any hand of this table"
        )
    holes: dict[int, list[Card | None]] = {}
    board: list[Card] = []
    moves: list[tuple[int, str, int]] = []
    for line, number in zip(actions, line_of, strict=True):
        try:
            _read_action(line.split(), k, holes, board, moves, number)
        except CardkitError as exc:
            raise where.error(number, str(exc)) from exc
    used = {c for h in holes.values() for c in h if c is not None} | set(board)
    spare = [c for c in deck("standard52") if c not in used]
    dealt = {
        s: [c if c is not None else spare.pop() for c in holes.get(s, [None, None])]
        for s in range(k)
    }
    try:
        deal = arrange_deal(stacks, k - 1, {s: dealt[s] for s in range(k) if stacks[s] > 0}, board)
    except RuleOptionError as exc:
        raise where.field_error("actions", f"deal cards that cannot be dealt: {exc}") from exc
    state = game.new_state(seed=seed, deal=deal)
    for seat, move, number in moves:
        owed = state.betting.current_bet - state.betting.bets[seat]
        if state.current_player != seat:
            if move == "cc" and owed <= 0:
                continue  # a turn with nothing to decide, which cardkit skips
            if state.is_terminal:
                raise where.error(number, "action after the hand ended")
            raise where.error(number, f"p{seat + 1} acts out of turn")
        if move == "f":
            action = "fold"
        elif move == "cc":
            action = "call" if owed > 0 else "check"
        else:
            verb = "raise" if state.betting.current_bet > 0 else "bet"
            action = f"{verb} {move.split()[1]}"
        try:
            state.apply(action)
        except CardkitError as exc:
            raise where.error(number, f"illegal here: {exc}") from exc
    return state


def _read_action(
    words: list[str],
    k: int,
    holes: dict[int, list[Card | None]],
    board: list[Card],
    moves: list[tuple[int, str, int]],
    number: int,
) -> None:
    """Record one PHH action (its ``words``); malformed ones raise a CardkitError."""
    if not words:
        raise InvalidNotationError("an empty action")
    if words[:2] == ["d", "dh"]:
        if len(words) != 4:
            raise InvalidNotationError("a deal of hole cards is 'd dh pN cards'")
        holes[_player(words[2], k)] = _hole_cards(words[3])
    elif words[:2] == ["d", "db"]:
        if len(words) != 3:
            raise InvalidNotationError("a deal of board cards is 'd db cards'")
        board.extend(parse_cards(words[2]))
        if len(board) > 5:
            raise InvalidNotationError("the board has more than five cards")
    elif words[0].startswith("p") and len(words) >= 2:
        seat = _player(words[0], k)
        verb = words[1]
        if verb == "sm":
            if len(words) != 3:
                raise InvalidNotationError("a show is 'pN sm cards'")
            holes[seat] = list(_hole_cards(words[2]))
        elif verb in ("f", "cc", "sd"):
            if len(words) != 2:
                raise InvalidNotationError(f"'{verb}' takes no argument")
            if verb != "sd":
                moves.append((seat, verb, number))
        elif verb == "cbr":
            if len(words) != 3 or not (words[2].isascii() and words[2].isdigit()):
                raise InvalidNotationError("a bet or raise is 'pN cbr amount'")
            if len(words[2].lstrip("0")) > MAX_AMOUNT_DIGITS:
                raise InvalidNotationError("the amount is more chips than any table holds")
            moves.append((seat, f"cbr {words[2].lstrip('0') or '0'}", number))
        else:
            raise InvalidNotationError("unsupported PHH action")
    else:
        raise InvalidNotationError("unsupported PHH action")


def _hole_cards(text: str) -> list[Card | None]:
    """Two hole cards, each a card or ``??`` (unknown)."""
    cards: list[Card | None] = (
        [None if c == "??" else Card(c) for c in _split(text)]
        if "?" in text
        else list(parse_cards(text))
    )
    if len(cards) != 2:
        raise InvalidNotationError(f"hole cards are two cards, got {shown(text)}")
    return cards


def _player(token: str, k: int) -> int:
    digits = token[1:]
    if not (token.startswith("p") and digits.isascii() and digits.isdigit() and len(digits) <= 2):
        raise InvalidNotationError(f"unknown PHH player {shown(token)} (players are p1..p{k})")
    if not 1 <= int(digits) <= k:
        raise InvalidNotationError(f"unknown PHH player {shown(token)} (players are p1..p{k})")
    return int(digits) - 1


def _split(cards: str) -> list[str]:
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]
