"""cardkit.envs.VectorEnv: the Rust batch of every game it plays against the
Python State API (the passing and bidding flows and the climbing games' tensor
tails have Rust twins there; Tractor's env and state step the same engine deal,
``TractorRound``, and must agree on the same seeds), its determinism whatever the
thread count, auto-reset, and refusal of bad input."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import numpy as np
import pytest

from cardkit.envs import VectorEnv
from cardkit.envs.vector import Batch
from cardkit.errors import IllegalActionError, RuleOptionError

# Every rule option the vector env reads, in each game.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("hearts", {}),
    ("hearts", {"passing": False, "target": 50}),
    ("spades", {}),
    ("spades", {"dealer": 1, "first_lead": "two_of_clubs", "target": 300}),
    ("bridge", {}),
    ("bridge", {"vulnerability": "ew"}),
    ("doudizhu", {}),
    ("doudizhu", {"bidding": "single_round"}),
    ("zhengshangyou", {}),
    ("holdem", {}),
    ("holdem", {"players": 2, "stack": 300, "blinds": [5, 10], "button": 1}),
    ("holdem", {"players": 12, "stack": 150, "blinds": (0, 20), "button": 7}),
    # The button seat has no chips (it moves on) and short stacks go all-in on the blinds.
    ("holdem", {"players": 5, "stacks": [0, 15, 400, 5, 60], "blinds": [10, 20]}),
    ("holdem", {"players": 3, "stacks": [0, 7, 12], "blinds": [10, 20]}),
    ("guandan", {}),
    # Levels climb at most to the ace, and a double win may end the deal at once.
    ("guandan", {"level": "Q", "double_win_ends": True}),
    ("tractor", {}),
    # Level cards, declarations and the first speaker (the dealer if all pass) move.
    ("tractor", {"level": "7", "first_speaker": 2}),
]
#: Episodes the rollout test plays through: fewer of the long Guandan and Tractor deals.
EPISODES = {"guandan": 60, "tractor": 40}


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal id per row (0 for a row without legal ids)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1).astype(np.int64)


def copy(batch: Batch) -> list[np.ndarray]:
    return [a.copy() for a in batch]


def pick_random(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return random_actions(rng, masks)


def pick_pass_first(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """Id 0 (Tractor's pass) where legal, so nobody declares and the kitty is
    exposed; else a random legal id."""
    actions = random_actions(rng, masks)
    actions[masks[:, 0]] = 0
    return actions


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_random_rollout_matches_the_state_api(game: str, options: dict[str, Any]) -> None:
    rollout(game, options, EPISODES.get(game, 120), pick_random)


@pytest.mark.parametrize("options", [{}, {"level": "A", "first_speaker": 3}])
def test_tractor_deals_with_an_exposed_kitty_match_the_state_api(options: dict[str, Any]) -> None:
    rollout("tractor", options, 12, pick_pass_first)


def rollout(game: str, options: dict[str, Any], count: int, pick: Any) -> None:
    """Step the env and the Python states of its episodes side by side with ids
    drawn by ``pick(rng, masks)``, asserting identical players, masks, legal ids,
    observations, rewards and done flags at every step, over ``count``
    finished episodes."""
    n, seed = 6, 2024
    env = VectorEnv(game, n, seed, threads=2, **options)
    rules = env.game
    batch = env.reset()
    states = [rules.new_state(seed=env.episode_seed(i, 0)) for i in range(n)]
    episodes = [0] * n
    last_seat = [0] * n
    rng = np.random.default_rng(7)
    finished = 0
    while finished < count:
        ids, offsets = env.legal_ids()
        assert offsets.shape == (n + 1,) and offsets[-1] == ids.size
        for i, state in enumerate(states):
            if batch.done[i]:
                assert state.is_terminal
                assert offsets[i] == offsets[i + 1]
                assert batch.players[i] == -1
                assert not batch.masks[i].any()
                assert batch.rewards[i].tolist() == state.returns()
                obs = state.observation_tensor(last_seat[i])
                np.testing.assert_array_equal(batch.observations[i], obs)
                continue
            seat = state.current_player
            assert seat is not None and batch.players[i] == seat
            assert not batch.rewards[i].any()
            np.testing.assert_array_equal(batch.masks[i], state.legal_action_mask())
            assert ids[offsets[i] : offsets[i + 1]].tolist() == state.legal_action_ids()
            np.testing.assert_array_equal(batch.observations[i], state.observation_tensor(seat))
        actions = pick(rng, batch.masks)
        was_done = batch.done.copy()
        for i, state in enumerate(states):
            if was_done[i]:
                # Auto-reset: the slot starts its next episode and ignores its id.
                finished += 1
                episodes[i] += 1
                states[i] = rules.new_state(seed=env.episode_seed(i, episodes[i]))
                last_seat[i] = 0
            else:
                last_seat[i] = state.current_player
                # The state maps ids whose action depends on the position (bet sizes).
                state.apply(state.id_to_action(int(actions[i])))
        batch = env.step(actions)
        # Done twice running only for an episode over at its deal (Hold'em blinds
        # that put every seat all-in), observed from seat 0.
        for i in np.flatnonzero(batch.done & was_done):
            assert states[i].is_terminal and not states[i].history


@pytest.mark.parametrize(
    ("game", "options"),
    [*CONFIGS[:6:2], CONFIGS[6], CONFIGS[7], CONFIGS[9], CONFIGS[13], CONFIGS[16]],
)
def test_same_trajectories_whatever_the_thread_count(game: str, options: dict[str, Any]) -> None:
    runs = []
    for threads in (1, 2, 3):
        env = VectorEnv(game, 7, 99, threads=threads, **options)
        rng = np.random.default_rng(3)
        batch = env.reset()
        seen = [copy(batch)]
        for _ in range(150):
            batch = env.step(random_actions(rng, batch.masks))
            seen.append(copy(batch))
        runs.append(seen)
    for other in runs[1:]:
        for a, b in zip(runs[0], other, strict=True):
            for x, y in zip(a, b, strict=True):
                np.testing.assert_array_equal(x, y)


def test_arrays_are_rewritten_in_place_and_reset_reseeds() -> None:
    env = VectorEnv("spades", 3, 5)
    first = env.reset()
    start = copy(first)
    assert first.observations.shape == (3, 547) and first.observations.dtype == np.float32
    assert first.masks.shape == (3, 66) and first.masks.dtype == np.bool_
    assert first.rewards.shape == (3, 4) and first.players.dtype == np.int64
    later = env.step(np.full(3, 52 + 3, dtype=np.int64))
    for a, b in zip(first, later, strict=True):
        assert a is b
    # A plain reset deals each slot's next episode; a seeded one starts again.
    again = copy(env.reset())
    assert not np.array_equal(again[0], start[0])
    np.testing.assert_array_equal(env.reset(seed=5).observations, start[0])
    assert env.seed == 5
    env.reset(seed=6)
    assert env.seed == 6 and env.episode_seed(0, 0) != VectorEnv("spades", 3, 5).episode_seed(0, 0)


def test_every_slot_ends_its_deal_then_starts_the_next() -> None:
    env = VectorEnv("hearts", 4, 1)
    batch = env.reset()
    rng = np.random.default_rng(0)
    # 12 passes and 52 cards: every deal ends on the 64th step together.
    for _ in range(63):
        batch = env.step(random_actions(rng, batch.masks))
        assert not batch.done.any() and not batch.rewards.any()
    batch = env.step(random_actions(rng, batch.masks))
    assert batch.done.all() and (batch.players == -1).all()
    assert np.allclose(batch.rewards.sum(axis=1), 0.0)
    assert batch.rewards.any(axis=1).all()
    # Any ids (even illegal ones) are ignored for finished slots.
    batch = env.step(np.full(4, -5, dtype=np.int64))
    assert not batch.done.any() and (batch.players == 0).all()
    assert (batch.masks.sum(axis=1) == 13).all()


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = VectorEnv("hearts", 3, 8)
    arrays = env.reset()
    before = copy(arrays)
    good = random_actions(np.random.default_rng(1), arrays.masks)
    bad_inputs: list[Any] = [
        good.astype(np.int32),
        good.astype(np.float64),
        good[:2],
        np.append(good, 52),
        good.reshape(3, 1),
        good.tolist(),
        None,
    ]
    for actions in bad_inputs:
        with pytest.raises(IllegalActionError, match="actions must be"):
            env.step(actions)
    for wrong in (0, -1, 104, 2**62):
        actions = good.copy()
        actions[2] = wrong
        with pytest.raises(IllegalActionError, match="slot 2"):
            env.step(actions)
    for a, b in zip(before, arrays, strict=True):
        np.testing.assert_array_equal(a, b)
    # The refused steps moved no slot: the good step lands as on a fresh env.
    twin = VectorEnv("hearts", 3, 8)
    twin.reset()
    expected = copy(twin.step(good))
    for a, b in zip(expected, env.step(good), strict=True):
        np.testing.assert_array_equal(a, b)


def test_step_before_reset_is_refused() -> None:
    env = VectorEnv("spades", 2, 0)
    with pytest.raises(RuleOptionError, match="reset"):
        env.step(np.full(2, 52, dtype=np.int64))


@pytest.mark.parametrize(
    ("args", "options", "match"),
    [
        (("hearts", 0, 1), {}, "num_envs"),
        (("hearts", 2**21, 1), {}, "num_envs"),
        (("hearts", True, 1), {}, "num_envs"),
        (("hearts", 2, -1), {}, "seed"),
        (("hearts", 2, 2**64), {}, "seed"),
        (("hearts", 2, 1, 0), {}, "threads"),
        (("hearts", 2, 1, 65), {}, "threads"),
        (("hearts", 2, 1), {"match": True}, "match"),
        (("hearts", 2, 1), {"target": 0}, "target"),
        # the engine's deals pass left: another direction is refused, never ignored
        (("hearts", 2, 1), {"pass_direction": "right"}, "pass_direction"),
        (("hearts", 2, 1), {"pass_direction": "hold"}, "pass_direction"),
        (("spades", 2, 1), {"dealer": 4}, "dealer"),
        (("spades", 2, 1), {"colour": "red"}, "colour"),
        (("doudizhu", 2, 1), {"match": False}, "match"),
        (("doudizhu", 2, 1), {"bidding": "closed"}, "bidding"),
        (("zhengshangyou", 2, 1), {"match": False}, "match"),
        (("holdem", 2, 1), {"match": True}, "match"),
        (("guandan", 2, 1), {"match": True}, "match"),
        (("guandan", 2, 1), {"level": "Z"}, "level"),
        (("guandan", 2, 1), {"double_win_ends": 1}, "double_win_ends"),
        (("tractor", 2, 1), {"match": True}, "match"),
        (("tractor", 2, 1), {"level": "1"}, "level"),
        (("tractor", 2, 1), {"first_speaker": 4}, "first_speaker"),
        (("holdem", 2, 1), {"players": 13}, "players"),
        (("holdem", 2, 1), {"blinds": [30, 20]}, "blinds"),
        (("onepoker", 2, 1), {}, "onepoker"),
        (("x" * 500, 2, 1), {}, "VectorEnv plays"),
    ],
)
def test_bad_arguments_raise_typed_errors(
    args: tuple[Any, ...], options: dict[str, Any], match: str
) -> None:
    with pytest.raises(RuleOptionError, match=match):
        VectorEnv(*args, **options)


def test_buffers_are_bounded() -> None:
    # 2**20 Hearts slots would need over 2 GiB of arrays: refused before allocating.
    with pytest.raises(RuleOptionError, match="limit"):
        VectorEnv("hearts", 2**20, 1)


def test_reset_refuses_a_bad_seed() -> None:
    env = VectorEnv("hearts", 2, 1)
    for seed in (-1, 2**64, "1"):
        with pytest.raises(RuleOptionError, match="seed"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.seed == 1


def test_doudizhu_redeals_after_three_passes_until_abandoned() -> None:
    env = VectorEnv("doudizhu", 2, 31)
    rules = env.game
    states = [rules.new_state(seed=env.episode_seed(i, 0)) for i in range(2)]
    passes = np.zeros(2, dtype=np.int64)
    batch = env.reset()
    for step in range(30_000):
        if step < 12 or step % 3000 == 0:
            for i, state in enumerate(states):
                seat = state.current_player
                assert batch.players[i] == seat
                np.testing.assert_array_equal(batch.observations[i], state.observation_tensor(seat))
                np.testing.assert_array_equal(batch.masks[i], state.legal_action_mask())
        assert not batch.done.any()
        batch = env.step(passes)
        last = [state.current_player for state in states]
        for state in states:
            state.apply("pass")
    # MAX_DEALS deals of three passes: the game is abandoned, every return 0.
    assert batch.done.all() and (batch.players == -1).all() and not batch.rewards.any()
    for i, state in enumerate(states):
        assert state.is_terminal and state.phase == "abandoned" and state.deal_number == 9_999
        np.testing.assert_array_equal(batch.observations[i], state.observation_tensor(last[i]))


def test_calls_from_other_threads_take_turns_and_change_nothing() -> None:
    def run(env: VectorEnv) -> list[float]:
        rng = np.random.default_rng(5)
        batch = env.reset()
        totals = []
        for _ in range(200):
            ids, offsets = env.legal_ids()
            picks = [
                ids[a + rng.integers(b - a)] if b > a else 0 for a, b in itertools.pairwise(offsets)
            ]
            batch = env.step(np.array(picks, dtype=np.int64))
            totals.append(float(batch.rewards.sum()))
        return totals

    alone = run(VectorEnv("hearts", 64, 9, threads=2))
    shared = VectorEnv("hearts", 64, 9, threads=2)
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        # Reads under the env's lock between the stepping thread's calls.
        try:
            while not stop.is_set():
                shared.legal_ids()
        except BaseException as exc:  # any error fails the test below
            errors.append(exc)

    others = [threading.Thread(target=reader) for _ in range(2)]
    for t in others:
        t.start()
    try:
        assert run(shared) == alone
    finally:
        stop.set()
        for t in others:
            t.join()
    assert errors == []
