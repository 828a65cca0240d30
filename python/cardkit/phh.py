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
from typing import Any

from cardkit._core import Card, deck, parse_cards
from cardkit._validate import check_seed, check_text
from cardkit.errors import CardkitError, RuleOptionError, shown
from cardkit.games.holdem import Holdem, HoldemState, arrange_deal

__all__ = ["dumps", "loads", "parse_phh"]


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
    and arrays of them, comments, no tables)."""
    fields: dict[str, Any] = {}
    pending = ""
    for raw in check_text("PHH text", text).splitlines():
        line = raw.split("#", 1)[0].strip() if '"' not in raw else raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if pending:
                pending += " " + line
            else:
                raise RuleOptionError(f"PHH tables are not supported: {shown(line)}")
        else:
            pending = f"{pending} {line}" if pending else line
        if pending.count("[") > pending.count("]"):
            continue
        key, sep, value = pending.partition("=")
        pending = ""
        if not sep:
            raise RuleOptionError(f"not a PHH line: {shown(raw)}")
        fields[key.strip()] = _value(value.strip())
    if pending:
        raise RuleOptionError("unterminated array in PHH text")
    return fields


def _value(text: str) -> Any:
    # TOML's ints, strings and arrays read as Python literals once booleans are mapped.
    mapped = text.replace("true", "True").replace("false", "False") if '"' not in text else text
    try:
        return ast.literal_eval(mapped)
    except (ValueError, SyntaxError) as exc:
        raise RuleOptionError(f"cannot read PHH value {shown(text)}") from exc


def loads(text: str, seed: int = 0) -> HoldemState:
    """Replay a no-limit Hold'em PHH hand into a single-hand :class:`HoldemState`.

    Seats are ``p1 .. pk`` in order (so the button is the last seat). Unknown hole
    cards (``????``) and burns are filled with cards no one else holds; board cards
    the hand never reached are dealt from ``seed``.
    """
    check_seed("seed", seed)
    fields = parse_phh(text)
    if fields.get("variant") != "NT":
        raise RuleOptionError(
            f"only no-limit Texas Hold'em (NT) is supported, got {shown(fields.get('variant'))}"
        )
    try:
        stacks = [int(s) for s in fields["starting_stacks"]]
        blinds = [int(b) for b in fields["blinds_or_straddles"]]
        actions = [str(a) for a in fields["actions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise RuleOptionError(f"PHH is missing a field: {exc}") from exc
    k = len(stacks)
    if any(int(a) for a in fields.get("antes", [0] * k)) or any(b for b in blinds[2:]):
        raise RuleOptionError("antes and straddles are not part of these rules")
    game = Holdem(
        players=k, stacks=stacks, blinds=(blinds[0], blinds[1]), match=False, button=k - 1
    )
    holes: dict[int, list[Card | None]] = {}
    board: list[Card] = []
    moves: list[tuple[int, str]] = []
    for line in actions:
        words = line.split()
        if words[:2] == ["d", "dh"]:
            holes[_player(words[2], k)] = [None if c == "??" else Card(c) for c in _split(words[3])]
        elif words[:2] == ["d", "db"]:
            board.extend(parse_cards(words[2]))
        elif words[0].startswith("p") and len(words) >= 2:
            if words[1] == "sm":
                holes[_player(words[0], k)] = list(parse_cards(words[2]))
            elif words[1] in ("f", "cc", "cbr"):
                moves.append((_player(words[0], k), " ".join(words[1:])))
            elif words[1] != "sd":
                raise RuleOptionError(f"unsupported PHH action {shown(line)}")
        else:
            raise RuleOptionError(f"unsupported PHH action {shown(line)}")
    used = {c for h in holes.values() for c in h if c is not None} | set(board)
    spare = [c for c in deck("standard52") if c not in used]
    dealt = {
        s: [c if c is not None else spare.pop() for c in holes.get(s, [None, None])]
        for s in range(k)
    }
    deal = arrange_deal(stacks, k - 1, {s: dealt[s] for s in range(k) if stacks[s] > 0}, board)
    state = game.new_state(seed=seed, deal=deal)
    for seat, move in moves:
        owed = state.betting.current_bet - state.betting.bets[seat]
        if state.current_player != seat:
            if move == "cc" and owed <= 0:
                continue  # a turn with nothing to decide, which cardkit skips
            if state.is_terminal:
                raise RuleOptionError(f"PHH action after the hand ended: p{seat + 1} {move}")
            raise RuleOptionError(f"p{seat + 1} acts out of turn: {move}")
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
            raise RuleOptionError(f"PHH action p{seat + 1} {move} is illegal here: {exc}") from exc
    return state


def _player(token: str, k: int) -> int:
    if not token.startswith("p") or not token[1:].isdigit() or not 1 <= int(token[1:]) <= k:
        raise RuleOptionError(f"unknown PHH player {shown(token)}")
    return int(token[1:]) - 1


def _split(cards: str) -> list[str]:
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]
