"""The learning interface every registered game must provide (issue 15): a fixed
action index that agrees with the legal actions, a legal-action mask, observation
tensors of a fixed shape that hide what the seat may not know, and GameInfo bounds.

Random playouts of each game check every invariant at sampled steps; the leak
check swaps two cards hidden from the observing seat in the first deal's deck
order, replays the same history and asserts an identical tensor.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cardkit import IllegalActionError, games
from cardkit.agents import RandomAgent
from cardkit.api import GameInfo
from cardkit.games._base import BaseGame, BaseState
from tests.test_conformance import random_match_game

GAMES = games.available()
PLAYOUTS = 6


def _game(name: str) -> BaseGame:
    # Random Spades matches need the house rule that ends them (see test_conformance).
    game = random_match_game(name)
    assert isinstance(game, BaseGame)
    return game


def _playout_states(game: BaseGame, seed: int) -> list[BaseState]:
    """Snapshots of one random playout (every step of short games, sampled in long ones)."""
    state = game.new_state(seed=seed)
    agents = [RandomAgent(seed * 7 + s) for s in range(game.num_players)]
    out = [state.clone()]
    step = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
        step += 1
        if step < 40 or step % 7 == 0:
            out.append(state.clone())
    out.append(state)
    return out


def _check_ids(game: BaseGame, state: BaseState) -> None:
    legal = state.legal_actions()
    ids = state.legal_action_ids()
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids) == len(legal), "one distinct id per legal action"
    assert all(0 <= i < game.num_actions for i in ids)
    by_id = {state.action_to_id(a): a for a in legal}
    assert sorted(by_id) == ids
    for i, act in by_id.items():
        back = state.id_to_action(i)
        assert back == act and back.text == act.text
        fixed = game._id_action(i)
        if fixed is not None:
            assert fixed == act, "the game's fixed id and the state's disagree"
            assert game.action_to_id(act) == i
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert np.flatnonzero(mask).tolist() == ids


def _check_tensor(game: BaseGame, state: BaseState) -> None:
    for seat in range(game.num_players):
        tensor = state.observation_tensor(seat)
        assert tensor.dtype == np.float32
        assert tensor.shape == game.observation_shape
        assert np.isfinite(tensor).all()


@pytest.mark.parametrize("name", GAMES)
def test_game_info_describes_the_game(name: str) -> None:
    game = _game(name)
    info = game.info
    assert isinstance(info, GameInfo)
    assert info.name == name and info.num_players == game.num_players
    assert info.num_actions == game.num_actions > 0
    assert info.observation_shape == game.observation_shape
    assert all(isinstance(d, int) and d > 0 for d in info.observation_shape)
    assert info.min_utility <= 0 <= info.max_utility
    assert info.max_game_length == game.max_game_length
    assert info.max_match_length == game.max_match_length
    assert info.zero_sum == game.zero_sum
    assert info.max_chance_outcomes > 0


@pytest.mark.parametrize("name", GAMES)
def test_ids_masks_and_tensors_agree_along_random_playouts(name: str) -> None:
    game = _game(name)
    low, high = game.utility_range
    for seed in range(PLAYOUTS):
        states = _playout_states(game, seed)
        for state in states:
            _check_ids(game, state)
            _check_tensor(game, state)
        returns = states[-1].returns()
        assert states[-1].standings() == returns
        assert all(low <= r <= high for r in returns), (returns, (low, high))
        if game.zero_sum:
            assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [True, 1.0, "0", None, -1, 10**30])
def test_bad_action_ids_are_refused_without_change(name: str, bad: Any) -> None:
    game = _game(name)
    state = game.new_state(seed=3)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.id_to_action(bad)
    with pytest.raises(IllegalActionError):
        game.id_to_action(bad)
    with pytest.raises(IllegalActionError):
        state.id_to_action(game.num_actions)
    assert state.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_numpy_integer_ids_are_accepted(name: str) -> None:
    state = _game(name).new_state(seed=5)
    first = state.legal_action_ids()[0]
    assert state.id_to_action(np.int64(first)) == state.id_to_action(first)


def _hidden_swaps(state: BaseState, seat: int, rng: random.Random) -> list[tuple[int, int]]:
    """Pairs of positions in the first deal's deck order whose cards are both hidden
    from ``seat``: held privately by other seats, and never named in ``seat``'s events."""
    order = state.deck_order(0)
    seen = " ".join(str(e) for e in state.events(seat))
    hidden = set()
    for other in range(state.game.num_players):
        if other != seat:
            hidden.update(c for c in state.private_cards(other) if str(c) not in seen)
    # Packs with two copies of a card (One Poker) swap copies too: a swap that reaches
    # the seat's view is skipped by the observation check below.
    positions = [i for i, c in enumerate(order) if c in hidden]
    rng.shuffle(positions)
    pairs = [(a, b) for a, b in zip(positions[::2], positions[1::2], strict=False)]
    return [(a, b) for a, b in pairs if order[a] != order[b]][:4]


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensors_hide_what_the_seat_may_not_know(name: str) -> None:
    game = _game(name)
    rng = random.Random(name)
    checked = 0
    for seed in range(PLAYOUTS):
        for state in _playout_states(game, seed)[:-1:3]:
            if state.is_terminal:
                continue
            seat = rng.randrange(game.num_players)
            own = state.observation_tensor(seat)
            for a, b in _hidden_swaps(state, seat, rng):
                order = state.deck_order(0)
                order[a], order[b] = order[b], order[a]
                twin = game.new_state(seed=state.seed, deal=[str(c) for c in order])
                try:
                    for act in state.history:
                        twin.apply(act)
                except IllegalActionError:
                    continue  # the history names a swapped card: not hidden from the rules
                if twin.observation(seat) != state.observation(seat):
                    continue  # the swap reached the seat's view some other way
                np.testing.assert_array_equal(twin.observation_tensor(seat), own)
                checked += 1
    assert checked > 0, "no swap of hidden cards was tried"


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensors_see_the_seats_own_cards(name: str) -> None:
    game = _game(name)
    tensors = {game.new_state(seed=s).observation_tensor(0).tobytes() for s in range(5)}
    assert len(tensors) > 1, "different deals give seat 0 the same tensor"
