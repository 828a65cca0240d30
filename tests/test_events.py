"""The per-seat event log (``state.events(seat)``) of every game.

What an app may send to a seat's client: JSON-ready, in order, only growing; it
names no card another seat hides, no card still in the stock, and never the seed.
The card-swap checks replay one action sequence on two deals that differ only in
cards a seat cannot see (its observations stay equal throughout) and require the
seat's event logs to stay equal too. The spectator log (``seat=None``) is exactly
the events every seat's log holds. The docs' event examples run in test_docs_examples.py.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any

import pytest

import cardkit
from cardkit import Card, api, games

from .test_conformance import _card_mentions, random_match_game

GAMES = games.available()
# A seed whose digits cannot turn up in a log by chance.
SEED = 9_187_654_321_987_654_321
# Zones no seat sees: undealt cards, burns, the Dou Dizhu bottom before it is shown.
_HIDDEN_ZONES = ("stock", "burn", "bottom")


def _single(name: str) -> api.Game:
    """The game as one deal (hand), where every card is in one deal's story."""
    game = games.make(name)
    return games.make(name, match=False) if "match" in game.options else game


def _hidden_from(state: api.State, seat: int | None) -> Counter[Card]:
    """The cards ``seat`` (``None``: a spectator) may not know now."""
    game = state.game
    hidden: Counter[Card] = Counter()
    for other in range(game.num_players):
        if other != seat:
            hidden.update(state.private_cards(other))
    for name, cards in state.zones().items():
        vacant = name.startswith("position") and int(name[8:]) >= game.num_players
        if name in _HIDDEN_ZONES or vacant:
            hidden.update(cards)
    return hidden


def _viewers(game: api.Game) -> list[int | None]:
    return [*range(game.num_players), None]


def _since_last_deal(events: list[api.Event]) -> list[api.Event]:
    starts = [i for i, e in enumerate(events) if e["type"] == "deal"]
    return events[starts[-1] :] if starts else events


def _check_log(state: api.State, logs: dict[int | None, list[api.Event]], one_deal: bool) -> None:
    game = state.game
    deck = Counter(cardkit.deck(game.deck_name))
    for viewer, events in logs.items():
        text = json.dumps(events)
        assert json.loads(text) == events, "events must be plain JSON data"
        assert str(state.seed) not in text, f"the seed leaks into the log of {viewer}"
        assert all(isinstance(e.get("type"), str) for e in events)
        own = [e["seat"] for e in events if e["type"] in ("hand", "private_action")]
        assert set(own) <= {viewer}, f"the log of {viewer} holds another seat's private events"
        if one_deal:
            # Events repeat a card (dealt, then played): count the copies one names.
            mentions: Counter[Card] = Counter()
            for event in _since_last_deal(events):
                mentions |= _card_mentions(event)
            for card, n in _hidden_from(state, viewer).items():
                assert mentions[card] <= deck[card] - n, (
                    f"the log of seat {viewer} names {card}, which it cannot see"
                )
    public = Counter(json.dumps(e) for e in logs[None])
    shared = Counter(json.dumps(e) for e in logs[0])
    for seat in range(1, game.num_players):
        shared &= Counter(json.dumps(e) for e in logs[seat])
    assert shared == public, "the spectator log must be the events every seat sees"
    for seat in range(game.num_players):
        it = iter(logs[seat])
        assert all(e in it for e in logs[None]), "public events keep their order in each log"


def _deals_played(state: Any) -> int:
    """How many deals (hands) the finished ``state`` dealt, from its own records."""
    name = state.game.name
    if name in ("hearts", "spades", "guandan", "tractor"):
        return len(state.score_breakdown()["deals"])
    if name == "holdem":
        return len(state.hands)
    if name == "onepoker":
        return len(state.deals)
    if name == "doudizhu":
        return int(state.deal_number) + 1
    return 1


def _playout(game: api.Game, seed: int, one_deal: bool, every: int) -> None:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    before: dict[int | None, list[api.Event]] = {}
    step = 0
    while True:
        if step % every == 0 or state.is_terminal:
            logs = {v: state.events(v) for v in _viewers(game)}
            _check_log(state, logs, one_deal)
            for viewer, events in before.items():
                assert logs[viewer][: len(events)] == events, "a log only grows"
            before = logs
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    public = state.events(None)
    ends = [e for e in public if e["type"] == "end"]
    assert len(ends) == 1 and ends[0]["returns"] == state.returns()
    assert sum(e["type"] == "action" for e in public) == len(state.history)
    assert sum(e["type"] == "deal" for e in public) == _deals_played(state)
    back = game.state_from_json(state.to_json())
    for viewer in _viewers(game):
        assert back.events(viewer) == state.events(viewer)


# Every game as one deal, and the seat counts that leave cards undealt or vacant.
SINGLE_DEALS = [
    *(pytest.param(name, {}, id=name) for name in GAMES),
    pytest.param("holdem", {"players": 2}, id="holdem-heads-up"),
    pytest.param("chinese_poker", {"players": 2}, id="chinese_poker-2-players"),
]


@pytest.mark.parametrize(("name", "options"), SINGLE_DEALS)
def test_single_deal_logs_hide_what_they_must(name: str, options: dict[str, Any]) -> None:
    game = games.make(name, **{**_single(name).options, **options})
    for seed in range(8):
        _playout(game, SEED - seed, one_deal=True, every=1)


@pytest.mark.parametrize("name", GAMES)
def test_match_logs_are_json_and_public_only_for_spectators(name: str) -> None:
    game = random_match_game(name)
    for seed in range(2):
        _playout(game, SEED - seed, one_deal=False, every=40)


@pytest.mark.parametrize("name", GAMES)
def test_own_hand_is_dealt_privately(name: str) -> None:
    state = games.make(name).new_state(seed=SEED)
    for seat in range(state.game.num_players):
        hands = [e for e in state.events(seat) if e["type"] == "hand"]
        assert [e["seat"] for e in hands] == [seat]
        assert Counter(hands[0]["cards"]) == Counter(str(c) for c in state.private_cards(seat))
    assert not [e for e in state.events(None) if e["type"] == "hand"]


@pytest.mark.parametrize("name", GAMES)
def test_clones_and_pickles_keep_their_own_logs(name: str) -> None:
    game = games.make(name)
    state = game.new_state(seed=SEED)
    rng = random.Random(3)
    for _ in range(2):
        state.apply(rng.choice(state.legal_actions()))
    logs = {v: state.events(v) for v in _viewers(game)}
    twin = state.clone()
    assert {v: twin.events(v) for v in _viewers(game)} == logs
    twin.apply(rng.choice(twin.legal_actions()))
    assert len(twin.events(None)) > len(logs[None])
    assert {v: state.events(v) for v in _viewers(game)} == logs
    for thawed in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert thawed.to_json() == state.to_json()
        assert {v: thawed.events(v) for v in _viewers(game)} == logs
        thawed.apply(rng.choice(thawed.legal_actions()))
        assert {v: state.events(v) for v in _viewers(game)} == logs


def test_events_reject_bad_seats() -> None:
    state = games.make("hearts").new_state(seed=1)
    for bad in (-1, 4, "0", 1.5, True):
        with pytest.raises(cardkit.InvalidSeatError):
            state.events(bad)  # type: ignore[arg-type]


# -- card swaps ----------------------------------------------------------------------


def _always_hidden(states: list[api.State], seat: int) -> list[Card]:
    """Cards every copy of which ``seat`` cannot see at any of these moments."""
    deck = Counter(cardkit.deck(states[0].game.deck_name))
    cards = set(deck)
    for state in states:
        hidden = _hidden_from(state, seat)
        cards = {c for c in cards if hidden[c] == deck[c]}
    return sorted(cards)


def _replay(
    game: api.Game, seed: int, order: list[str], actions: list[str], seat: int
) -> list[tuple[Any, list[api.Event]]] | None:
    """(observation, events) of ``seat`` after each action, or ``None`` when an
    action is illegal on this deal."""
    state = game.new_state(seed=seed, deal=order)
    views = [(state.observation(seat), state.events(seat))]
    for action in actions:
        if not state.is_legal(action):
            return None
        state.apply(action)
        views.append((state.observation(seat), state.events(seat)))
    views.append((state.returns(), []))
    return views


def _swap(order: list[str], a: str, b: str) -> list[str]:
    return [b if c == a else a if c == b else c for c in order]


def _swap_checks(game: api.Game, seed: int, rng: random.Random) -> int:
    """Swap cards a seat never sees along a random action prefix; returns how many
    swaps kept the seat's observations equal (each then compared event logs)."""
    order = [str(c) for c in game.new_state(seed=seed).deck_order(0)]  # type: ignore[attr-defined]
    state = game.new_state(seed=seed, deal=order)
    moments = [state.clone()]
    actions: list[str] = []
    length = rng.choice((1, 2, 3, 8, 20, 40, 80))
    while not state.is_terminal and len(actions) < length:
        action = str(rng.choice(state.legal_actions()))
        state.apply(action)
        actions.append(action)
        moments.append(state.clone())
    compared = 0
    for seat in range(game.num_players):
        candidates = _always_hidden(moments, seat)
        if len(candidates) < 2:
            continue
        base = _replay(game, seed, order, actions, seat)
        assert base is not None
        for _ in range(6):
            a, b = (str(c) for c in rng.sample(candidates, 2))
            other = _replay(game, seed, _swap(order, a, b), actions, seat)
            if other is None or [o for o, _ in other] != [o for o, _ in base]:
                continue  # the swap changed what the seat may see or may do
            assert [e for _, e in other] == [e for _, e in base], (
                f"seat {seat}'s events tell {a} from {b} (seed {seed}, {actions})"
            )
            compared += 1
    return compared


@pytest.mark.parametrize(("name", "options"), SINGLE_DEALS)
def test_swapping_unseen_cards_leaves_the_log_unchanged(name: str, options: dict[str, Any]) -> None:
    game = games.make(name, **{**_single(name).options, **options})
    rng = random.Random(name)
    compared = sum(_swap_checks(game, SEED - seed, rng) for seed in range(10))
    assert compared >= 10, f"only {compared} swaps kept the observations equal"
