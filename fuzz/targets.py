"""Fuzz targets: one function per public parsing surface and one apply-sequence target
per game, each taking the fuzzer's raw bytes.

The contract every target checks: any input either succeeds or raises a
:class:`cardkit.CardkitError`. Anything else is a finding: another exception type, a
pyo3 ``PanicException`` (a ``BaseException``, so it is never caught here), a hang or
unbounded memory (libFuzzer's ``-timeout`` and ``-rss_limit_mb`` catch those), or a
failed ``AssertionError`` below. On top of that the targets check what a caller relies
on after success or rejection:

- a rejected action leaves the state exactly as it was (JSON, turn, legal actions and
  every seat's observation), and ``is_legal`` agrees with ``apply``;
- a state round-trips through ``to_json``/``state_from_json`` and ``clone`` exactly;
- cards print and parse back to themselves; ranges list distinct, weighted combos;
- a PHH hand written back by ``phh.dumps`` reads back to the same text, and so do
  PBN boards written back by ``pbn.dumps``.

The targets read their bytes through :class:`Provider`, a small pure-Python reader,
rather than atheris' ``FuzzedDataProvider``: the CI smoke test runs these same
functions without atheris, and a corpus file must mean the same input in both places.

Anything but a :class:`~cardkit.CardkitError` stops the run as a crash: the untyped
errors issue 13 listed are fixed, so the fuzzers now guard those fixes.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable
from typing import Any

import cardkit
from cardkit import CardkitError, phh
from cardkit.bridge import pbn
from cardkit.games import make
from cardkit.poker import Range

GAMES = (
    "doudizhu",
    "zhengshangyou",
    "hearts",
    "spades",
    "holdem",
    "onepoker",
    "chinese_poker",
    "guandan",
    "tractor",
    "bridge",
)

#: Rule options each apply target picks from: the defaults plus variants that reach
#: other code (single hands, short matches, other table sizes and bidding styles).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "doudizhu": [{}, {"bidding": "single_round"}],
    "zhengshangyou": [{}],
    "hearts": [{}, {"match": False}, {"target": 1}, {"passing": False}],
    "spades": [{}, {"match": False}, {"target": 1, "lose_at": -1}, {"first_lead": "two_of_clubs"}],
    "holdem": [
        {},
        {"players": 2, "stack": 40},
        {"players": 12, "stack": 30, "blinds": (1, 2)},
        {"match": False, "players": 3},
        {"players": 3, "stacks": [5, 100, 1]},
    ],
    "onepoker": [{}, {"match": False}, {"stack": 2}, {"ante": 0}],
    "chinese_poker": [
        {},
        {"players": 2, "variant": "eastern"},
        {"variant": "western", "western_bonus": True},
        {"players": 3, "variant": "mandarin", "shot": "add", "majority": "more_segments"},
    ],
    "guandan": [
        {},
        {"match": False},
        {"match": False, "level": "A"},
        {"level": "K", "double_win_ends": True},
    ],
    "tractor": [
        {},
        {"match": False},
        {"match": False, "level": "A"},
        {"level": "K", "first_speaker": 2},
    ],
    "bridge": [{}, {"vulnerability": "ns"}, {"vulnerability": "both"}],
}


class Provider:
    """Reads fuzzer bytes as a sequence of choices; past the end every read gives 0."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def remaining(self) -> int:
        """Bytes not read yet."""
        return len(self._data) - self._pos

    def byte(self) -> int:
        """The next byte, 0..255."""
        if self._pos >= len(self._data):
            return 0
        self._pos += 1
        return self._data[self._pos - 1]

    def below(self, n: int) -> int:
        """A choice in ``0..n-1`` (one byte, two when ``n`` exceeds 256)."""
        value = self.byte() if n <= 256 else self.byte() << 8 | self.byte()
        return value % n

    def text(self) -> str:
        """A string of up to 255 bytes; invalid UTF-8 becomes lone surrogates, which
        a str from Python code can hold and cardkit must reject cleanly."""
        size = self.byte()
        chunk = self._data[self._pos : self._pos + size]
        self._pos += len(chunk)
        return chunk.decode("utf-8", "surrogateescape")

    def rest(self) -> str:
        """Every byte not read yet, as a string (see :meth:`text`)."""
        chunk = self._data[self._pos :]
        self._pos = len(self._data)
        return chunk.decode("utf-8", "surrogateescape")


def _guard(target: Callable[[bytes], None]) -> Callable[[bytes], None]:
    """``target`` with cardkit's typed errors accepted; anything else is a crash."""

    def run(data: bytes) -> None:
        with contextlib.suppress(CardkitError):
            target(data)

    run.__name__ = run.__qualname__ = target.__name__
    run.__doc__ = target.__doc__
    return run


# -- parsers -------------------------------------------------------------------------


def cards(data: bytes) -> None:
    """``parse_cards`` and ``Card`` on any text; parsed cards print and parse back."""
    text = data.decode("utf-8", "surrogateescape")
    try:
        card = cardkit.Card(text)
    except CardkitError:
        pass
    else:
        _check_card(card)
    parsed = cardkit.parse_cards(text)
    for card in parsed:
        _check_card(card)
    names = [str(c) for c in parsed]
    assert cardkit.parse_cards(" ".join(names)) == parsed, text
    assert cardkit.parse_cards("".join(names)) == parsed, text
    assert cardkit.parse_cards(names) == parsed, text


def _check_card(card: cardkit.Card) -> None:
    assert cardkit.Card(str(card)) == card, card
    assert cardkit.Card(card.pretty) == card, card
    assert cardkit.Card.from_index(card.index) == card, card


def ranges(data: bytes) -> None:
    """``Range`` on any text, then its combos with a fuzzed dead-card list."""
    p = Provider(data)
    dead = p.text()
    hands = Range(p.rest())
    combos = hands.combos()
    assert len(combos) == len(hands)
    _check_combos(combos)
    _check_combos(hands.combos(dead=dead))


def _check_combos(combos: list[tuple[cardkit.Card, cardkit.Card, float]]) -> None:
    seen = set()
    for first, second, weight in combos:
        pair = frozenset((first, second))
        assert len(pair) == 2 and pair not in seen, combos
        assert math.isfinite(weight) and weight >= 0, combos
        seen.add(pair)


def actions(data: bytes) -> None:
    """``parse_action``, ``is_legal`` and ``apply`` of any text, in every game, a few
    random legal moves into a game; a parsed action's canonical text parses back."""
    p = Provider(data)
    name = GAMES[p.below(len(GAMES))]
    state = make(name).new_state(seed=p.below(1 << 16))
    for _ in range(p.byte() % 64):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[p.below(len(legal))])
    text = p.rest()
    try:
        parsed = state.game.parse_action(text)
    except CardkitError:
        pass
    else:
        assert state.game.parse_action(str(parsed)) == parsed, text
    _step(state, text)


def saves(data: bytes) -> None:
    """``state_from_json`` of any text, in every game; a loaded state round-trips."""
    p = Provider(data)
    name = GAMES[p.below(len(GAMES))]
    state = make(name).state_from_json(p.rest())
    _check_round_trip(state)


#: PHH fields ``phh.loads`` does not read: where the players sat at the table. A hand
#: read back seats only the players dealt in, which renumbers them but changes nothing.
_PHH_SEATING = ("seats", "seat_count")


def phh_loads(data: bytes) -> None:
    """``phh.loads`` of any text; a finished hand written by ``phh.dumps`` reads back
    to the same hand (``dumps`` after one ``loads`` is a fixed point, seating aside)."""
    state = phh.loads(data.decode("utf-8", "surrogateescape"))
    if not state.hands:
        return
    fields = phh.parse_phh(phh.dumps(state))
    again = phh.parse_phh(phh.dumps(phh.loads(phh.dumps(state))))
    for key in _PHH_SEATING:
        fields.pop(key, None)
        again.pop(key, None)
    assert again == fields, fields


def pbn_loads(data: bytes) -> None:
    """``pbn.loads`` of any text; boards written back by ``pbn.dumps`` read back to
    the same boards, so ``dumps`` after one ``loads`` is a fixed point."""
    boards = pbn.loads(data.decode("utf-8", "surrogateescape"))
    text = pbn.dumps(boards)
    again = pbn.loads(text)
    assert again == boards, text
    assert pbn.dumps(again) == text, text


# -- apply sequences -------------------------------------------------------------------


def _snapshot(state: Any) -> tuple[Any, ...]:
    """Everything a caller can see of ``state``: equal snapshots, equal states."""
    seats = range(state.game.num_players)
    return (
        state.to_json(),
        state.current_player,
        state.is_terminal,
        [str(a) for a in state.legal_actions()],
        [state.observation(s) for s in seats],
        state.returns() if state.is_terminal else None,
    )


def _step(state: Any, action: Any) -> bool:
    """Apply ``action``; ``is_legal`` must predict the outcome, and a rejection must
    leave the state as it was. Returns whether the action was played."""
    legal = state.is_legal(action)
    assert isinstance(legal, bool), legal
    # A played action changes the state, so only a predicted rejection needs the
    # snapshot; a surprise rejection fails the is_legal check below anyway.
    before = None if legal else _snapshot(state)
    try:
        state.apply(action)
    except CardkitError:
        assert not legal, f"is_legal({action!r}) is True but apply rejected it"
        assert _snapshot(state) == before, f"rejected {action!r} changed the state"
        return False
    assert legal, f"is_legal({action!r}) is False but apply played it"
    return True


def _check_round_trip(state: Any) -> None:
    """``state`` rebuilt from its JSON, and its clone, equal it; results are sane."""
    snapshot = _snapshot(state)
    rebuilt = state.game.state_from_json(state.to_json())
    assert _snapshot(rebuilt) == snapshot, state.to_json()
    assert _snapshot(state.clone()) == snapshot, state.to_json()
    json.dumps(snapshot[4])  # observations are JSON-ready
    if state.is_terminal:
        json.dumps(state.score_breakdown())
        if state.game.zero_sum:
            assert math.isclose(sum(state.returns()), 0, abs_tol=1e-9), state.returns()


def _mutate(text: str, p: Provider) -> str:
    """``text`` with one fuzzed edit: a cut, an insertion, a repeat or a swap of words."""
    cut = p.below(len(text) + 1)
    edit = p.below(4)
    if edit == 0:
        return text[:cut] + text[cut + 1 + p.below(4) :]
    if edit == 1:
        return text[:cut] + p.text() + text[cut:]
    if edit == 2:
        return text[:cut] + text[cut:] * (1 + p.below(8))
    return " ".join(reversed(text.split()))


def _apply_sequence(name: str, data: bytes) -> None:
    """Play game ``name`` from the choices in ``data``: mostly legal actions by index,
    sometimes a legal action's text mutated, sometimes free text."""
    p = Provider(data)
    options = OPTIONS[name]
    game = make(name, **options[p.below(len(options))])
    state = game.new_state(seed=p.below(1 << 16))
    while p.remaining():
        legal = state.legal_actions()
        mode = p.byte()
        if legal and mode < 200:
            chosen = legal[p.below(len(legal))]
            assert _step(state, chosen if mode % 2 else str(chosen)), chosen
        elif legal and mode < 240:
            _step(state, _mutate(str(legal[p.below(len(legal))]), p))
        else:
            _step(state, p.text())
    _check_round_trip(state)


def _apply_target(name: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        _apply_sequence(name, data)

    target.__name__ = f"apply_{name}"
    target.__doc__ = f"A fuzzed sequence of actions in {name} (see ``_apply_sequence``)."
    return target


#: Every target by name, guarded (typed errors pass; anything else is a finding).
TARGETS: dict[str, Callable[[bytes], None]] = {
    target.__name__: _guard(target)
    for target in [cards, ranges, actions, saves, phh_loads, pbn_loads, *map(_apply_target, GAMES)]
}
