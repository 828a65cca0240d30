"""The conformance suite: invariants every registered game must satisfy.

Runs seeded random playouts of each game in ``cardkit.games.available()``. Cheap
checks run at every step; costly ones (cloning every legal action, JSON round
trips, observation leaks) at a sampled subset of steps so the whole suite stays
fast. ``--exhaustive`` runs ten times as many playouts with every check at every step.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import Card, IllegalActionError, api, games
from cardkit.agents import RandomAgent

PLAYOUTS = 200
MAX_STEPS = 200_000
GAMES = games.available()


def _agents(game: api.Game, seed: int) -> list[RandomAgent]:
    return [RandomAgent(seed * 31 + seat) for seat in range(game.num_players)]


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


@functools.lru_cache(maxsize=65536)
def _cards_in_token(token: str) -> tuple[Card, ...]:
    try:
        return tuple(cardkit.parse_cards(token))
    except cardkit.InvalidCardError:
        return ()


def _card_mentions(obs: dict[str, Any]) -> Counter[Card]:
    """How many times each card is named in an observation (as a whole token)."""
    seen: Counter[Card] = Counter()
    for text in _strings(obs):
        for token in text.replace(",", " ").replace("/", " ").split():
            seen.update(_cards_in_token(token))
    return seen


def _check_observations(game: api.Game, state: api.State) -> None:
    deck_count = Counter(cardkit.deck(game.deck_name))
    private = [Counter(state.private_cards(s)) for s in range(game.num_players)]
    for seat in range(game.num_players):
        obs = state.observation(seat)
        text = json.dumps(obs)
        assert json.loads(text) == obs, "observation must be plain JSON data"
        mentions = _card_mentions(obs)
        hidden: Counter[Card] = Counter()
        for other in range(game.num_players):
            if other != seat:
                hidden += private[other]
        for card, n in hidden.items():
            # A seat may name at most the copies of a card that no other seat hides.
            allowed = deck_count[card] - n
            assert mentions[card] <= allowed, (
                f"observation of seat {seat} leaks {card} held privately by another seat"
            )


def _check_conservation(game: api.Game, state: api.State) -> None:
    total: Counter[Card] = Counter()
    for cards in state.zones().values():
        total.update(cards)
    assert total == Counter(cardkit.deck(game.deck_name)), "cards are not conserved"


def _check_illegal(state: api.State, pool: set[api.Action]) -> None:
    legal = set(state.legal_actions())
    before = state.to_json()
    candidates = [*[a for a in pool if a not in legal][:8], api.Action("no-such-action 99")]
    for action in candidates:
        if state.is_legal(action):
            continue  # a free amount (a bet size) that is legal without being listed
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before, f"rejected {action} changed the state"


def _check_round_trip(game: api.Game, state: api.State) -> None:
    text = state.to_json()
    back = game.state_from_json(text)
    assert back.to_json() == text
    assert back.legal_actions() == state.legal_actions()
    assert back.current_player == state.current_player
    for seat in range(game.num_players):
        assert back.observation(seat) == state.observation(seat)


def _playout(game: api.Game, seed: int, thorough: bool) -> tuple[api.State, set[api.Action]]:
    state = game.new_state(seed=seed)
    agents = _agents(game, seed)
    rng = random.Random(seed)
    pool: set[api.Action] = set()
    steps = 0
    while not state.is_terminal:
        steps += 1
        assert steps < MAX_STEPS, "game did not terminate"
        seat = state.current_player
        assert seat is not None and 0 <= seat < game.num_players
        legal = state.legal_actions()
        assert legal, "a live state must have a legal action"
        assert len(set(legal)) == len(legal), "legal actions must be distinct"
        for a in legal:
            assert game.parse_action(str(a)) == a, f"{a} is not in canonical form"
        pool.update(legal)
        if thorough or rng.random() < 0.05:
            _check_conservation(game, state)
            _check_observations(game, state)
            _check_illegal(state, pool)
            for a in legal if thorough else rng.sample(legal, min(5, len(legal))):
                trial = state.clone()
                trial.apply(a)
        if thorough or rng.random() < 0.02:
            _check_round_trip(game, state)
        state.apply(agents[seat].act(state.observation(seat), legal))
    assert state.current_player is None
    assert state.legal_actions() == []
    _check_conservation(game, state)
    _check_observations(game, state)
    with pytest.raises(IllegalActionError):
        state.apply(pool.pop() if pool else "pass")
    return state, pool


def _variants(name: str, playouts: int) -> list[tuple[api.Game, int]]:
    """The game with default options, and, for games that play a whole match by
    default, its single-deal form: most playouts go to single deals so that every
    rule is hit often while the suite stays fast; a tenth play whole matches."""
    game = games.make(name)
    if game.options.get("match") is True:
        return [(games.make(name, match=False), playouts), (game, max(10, playouts // 10))]
    return [(game, playouts)]


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts(name: str, exhaustive: bool) -> None:
    for game, n in _variants(name, PLAYOUTS * (10 if exhaustive else 1)):
        for seed in range(n):
            state, _ = _playout(game, seed, thorough=exhaustive or seed < 2)
            returns = state.returns()
            assert len(returns) == game.num_players
            if game.zero_sum:
                assert abs(sum(returns)) < 1e-9, f"seed {seed}: returns {returns} not zero-sum"
            json.dumps(state.score_breakdown())


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_replays_identically(name: str) -> None:
    game = games.make(name)
    for seed in (0, 1, 2**64 - 1):
        a = cardkit.play(game, _agents(game, seed % 1000), seed=seed)
        b = cardkit.play(game, _agents(game, seed % 1000), seed=seed)
        assert a.history == b.history
        assert a.returns() == b.returns()
        assert a.to_json() == b.to_json()
        replay = game.new_state(seed=seed)
        for action in a.history:
            replay.apply(str(action))
        assert replay.to_json() == a.to_json()
        assert replay.returns() == a.returns()


@pytest.mark.parametrize("name", GAMES)
def test_protocols_and_errors(name: str) -> None:
    game = games.make(name)
    assert isinstance(game, api.Game)
    state = game.new_state(seed=5)
    assert isinstance(state, api.State)
    assert state.seed == 5
    for bad in (-1, game.num_players, "0", None, 1.5):
        with pytest.raises(cardkit.InvalidSeatError):
            state.observation(bad)  # type: ignore[arg-type]
    for bad_seed in (-1, 2**64, "7", 1.0):
        with pytest.raises(cardkit.RuleOptionError):
            game.new_state(seed=bad_seed)  # type: ignore[arg-type]
    with pytest.raises(cardkit.RuleOptionError):
        games.make(name, no_such_option=1)
    with pytest.raises(cardkit.RuleOptionError):
        game.state_from_json("{not json")
    before = state.to_json()
    for junk in ("", "   ", "\x00", 42, None):
        with pytest.raises(IllegalActionError):
            state.apply(junk)  # type: ignore[arg-type]
    assert state.to_json() == before
    seeded = game.new_state(seed=None)
    assert 0 <= seeded.seed < 2**64


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_any_seed_plays_out(name: str, seed: int) -> None:
    game, _ = _variants(name, 1)[0]
    state, _ = _playout(game, seed, thorough=False)
    if game.zero_sum:
        assert abs(sum(state.returns())) < 1e-9
