"""One Poker's learning interface (issue 15): ``lock <card>`` ids after the betting
ids Hold'em shares (the grid itself is checked for both games in
``tests/test_holdem_learning.py``), the observation tensor's layout, and what it
hides: the opponent's cards and which of them it locked."""

from __future__ import annotations

import numpy as np
import pytest

from cardkit import Card, IllegalActionError, games
from cardkit.agents import RandomAgent
from cardkit.games.onepoker import OBSERVATION_FIELDS, OnePoker, OnePokerState

LOCKS = 7


def start(cards: str, **options: object) -> OnePokerState:
    """Deal ``cards`` one at a time, seat 0 first: seat 0 gets the 1st and 3rd."""
    return OnePoker(**options).new_state(seed=1, deal=cards)  # type: ignore[arg-type]


def parts(tensor: np.ndarray) -> dict[str, np.ndarray]:
    """The tensor cut along the documented layout."""
    out = {}
    at = 0
    for name, length in OBSERVATION_FIELDS:
        out[name] = tensor[at : at + length]
        at += length
    assert at == tensor.size
    return out


def test_sizes_and_fixed_lock_ids() -> None:
    game = games.make("onepoker")
    assert game.num_actions == LOCKS + 52 == 59
    assert game.observation_shape == (283,)
    assert game.utility_range == (-20.0, 20.0)
    assert games.make("onepoker", stack=7).utility_range == (-7.0, 7.0)
    for card in ("2c", "As", "Th"):
        i = game.action_to_id(f"lock {card}")
        assert i == LOCKS + Card(card).index
        assert game.id_to_action(i) == f"lock {Card(card)}"
    assert [game.id_to_action(i) for i in range(3)] == ["fold", "check", "call"]
    with pytest.raises(IllegalActionError):
        game.action_to_id("lock RJ")  # not a card of the pack
    with pytest.raises(IllegalActionError, match="position"):
        game.id_to_action(3)


def test_lock_ids_in_play_and_a_pair_is_one_id() -> None:
    state = start("Ah 2c Kd 7s")
    assert state.legal_action_ids() == sorted(LOCKS + Card(c).index for c in ("Ah", "Kd"))
    assert state.id_to_action(LOCKS + Card("Kd").index) == "lock Kd"
    with pytest.raises(IllegalActionError, match="no action id now"):
        state.action_to_id("bet 1")
    pair = start("Ah 2c Ah 7s")
    assert pair.legal_actions() == ["lock Ah"]
    assert pair.legal_action_ids() == [LOCKS + Card("Ah").index]
    state.apply("lock Kd")
    state.apply("lock 7s")
    # Antes of 1 each: min bet 1, half the pot (1) coincides with it, the pot is 2.
    assert state.legal_actions() == ["check", "bet 1", "bet 2", "bet 19"]
    assert state.legal_action_ids() == [1, 3, 5, 6]
    assert state.action_to_id("bet 10") == 5 and state.action_to_id("bet 11") == 6


def test_tensor_layout_matches_the_observation() -> None:
    game = games.make("onepoker")
    for seed in range(5):
        state = game.new_state(seed=seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        for _ in range(120):
            for seat in (0, 1):
                obs = state.observation(seat)
                got = parts(state.observation_tensor(seat))
                other = 1 - seat

                def plane(cards: list[str]) -> list[float]:
                    counts = [0.0] * 52
                    for c in cards:
                        counts[Card(c).index] += 0.5
                    return counts

                assert got["hand"].tolist() == plane(obs["hand"])
                assert got["locked"].tolist() == plane([obs["locked"]] * 2 if obs["locked"] else [])
                assert got["discards"].tolist() == plane([str(c) for c in state.discards])
                last = state.deals[-1]["locked"] if state.deals else None
                assert got["last_own"].tolist() == plane([last[seat]] * 2 if last else [])
                assert got["last_other"].tolist() == plane([last[other]] * 2 if last else [])
                signals = obs["signals"]
                assert got["up"].tolist() == [signals[seat]["up"] / 2, signals[other]["up"] / 2]
                assert got["down"].tolist() == [
                    signals[seat]["down"] / 2,
                    signals[other]["down"] / 2,
                ]
                assert got["locked_by"].tolist() == [
                    float(obs["locked_by"][seat]),
                    float(obs["locked_by"][other]),
                ]
                for key in ("stacks", "bets"):
                    expected = [np.float32(obs[key][s] / 40) for s in (seat, other)]
                    assert got[key].tolist() == expected
                assert got["pot"][0] == np.float32(obs["pot"] / 40)
                assert got["to_call"][0] == np.float32(obs["to_call"] / 40)
                to_act = obs["to_act"]
                assert got["to_act"].tolist() == [float(to_act == seat), float(to_act == other)]
                bounds = (
                    state.betting.raise_range(seat)
                    if to_act == seat and obs["phase"] == "bet"
                    else None
                )
                low, high = bounds or (0, 0)
                assert (got["raise_min"][0], got["raise_max"][0]) == (
                    np.float32(low / 40),
                    np.float32(high / 40),
                )
                assert got["first"].tolist() == [
                    float(obs["first"] == seat),
                    float(obs["first"] != seat),
                ]
                assert got["phase"].tolist() == [
                    float(obs["phase"] == p) for p in ("lock", "bet", "over")
                ]
                assert got["stock"][0] == np.float32(obs["stock_size"] / 104)
                assert got["discard_count"][0] == np.float32(obs["discard_size"] / 104)
            if state.is_terminal:
                break
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))


def test_which_card_the_opponent_locked_stays_hidden() -> None:
    # Seat 1 holds 9c and Kd (both UP): locking either leaves seat 0's tensor alone
    # until the deal is settled.
    for bet in ("check", "bet 5"):
        tensors = []
        for lock in ("lock 9c", "lock Kd"):
            state = start("Ah 9c 3d Kd")
            state.apply("lock Ah")
            state.apply(lock)
            state.apply(bet)
            tensors.append(state.observation_tensor(0))
        np.testing.assert_array_equal(tensors[0], tensors[1])


def test_own_hand_changes_the_tensor() -> None:
    a = start("Ah 9c 3d Kd").observation_tensor(0)
    b = start("Qh 9c 3d Kd").observation_tensor(0)
    assert not np.array_equal(a, b)
    # The opponent's cards of the same groups leave it alone.
    c = start("Ah Tc 3d Kh").observation_tensor(0)
    np.testing.assert_array_equal(a, c)
