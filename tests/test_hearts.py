"""Hearts rules, clause by clause (HRT in the seeds' clauses.md), and its game flow."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import IllegalActionError, RuleOptionError, games
from cardkit._core import (  # _test.hearts_deal_points: the search's scoring, test-only
    _test,  # the engine side of scoring twins, for tests only
    bit_ids,
    bit_mask,
    hearts_observation,
    trick_winner,
)
from cardkit.agents import RandomAgent
from cardkit.api import Action
from cardkit.games.hearts import (
    PASS_DIRECTIONS,
    Hearts,
    HeartsState,
    deal_points,
    penalty_points,
)

# Worked example deal (seat 0's 13 cards, then seats 1, 2, 3): trick 1 is
# 2c Kc 5c Kd, won by seat 1, who leads the seed's trick Ac 3c 2h Qs.
EXAMPLE = [
    "2c Qs 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd",
    "Ac Kc 4c 6c 7c 8c 9s Ts Js Ks As 6h 7h",
    "5c 3c 9c Tc Jc Qc 8h 9h Th Jh Qh Kh Ah",
    "2h 2s 3s 4s 5s 6s 7s 8s Kd Ad 3h 4h 5h",
]
# Seat 0 holds every club, so it wins all thirteen tricks.
MOON = [
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
    "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad",
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
    "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
]


def one_deal(hands: list[str]) -> HeartsState:
    return Hearts(match=False, passing=False).new_state(seed=1, deal=" ".join(hands))


def random_match(game: Hearts, seed: int) -> HeartsState:
    state = cardkit.play(game, [RandomAgent(seed * 4 + i) for i in range(4)], seed=seed)
    assert isinstance(state, HeartsState)
    return state


@pytest.mark.rule("HRT-02", "HRT-03", "HRT-04")
def test_four_players_thirteen_cards_aces_high() -> None:
    game = games.make("hearts")
    assert game.num_players == 4
    state = game.new_state(seed=3)
    hands = [state.observation(s)["hand"] for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4
    assert len({c for h in hands for c in h}) == 52
    assert trick_winner(["Kc", "Ac", "2c", "Qc"]) == 1


@pytest.mark.rule("HRT-05")
def test_pass_cycle_left_right_across_hold() -> None:
    state = games.make("hearts", target=10_000).new_state(seed=4)
    agents = [RandomAgent(i) for i in range(4)]
    seen = []
    while len(seen) < 5:
        obs = state.observation(0)
        if obs["deal"] == len(seen):
            seen.append(obs["pass_direction"])
            hands = [state.observation(s)["hand"] for s in range(4)]
            _name, offset = PASS_DIRECTIONS[obs["deal"] % 4]
            if offset:
                for _ in range(12):
                    seat = state.current_player
                    assert seat is not None
                    state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
                for seat in range(4):
                    passed = state.observation(seat)["passed"]
                    assert len(passed) == 3
                    receiver = (seat + offset) % 4
                    assert state.observation(receiver)["received"] == passed
                    assert set(passed) <= set(hands[seat])
                    assert set(passed) <= set(state.observation(receiver)["hand"])
            else:
                assert state.legal_actions()[0].kind == "play"
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    assert seen == ["left", "right", "across", "hold", "left"]


@pytest.mark.rule("HRT-05")
@pytest.mark.parametrize(("name", "offset"), PASS_DIRECTIONS)
def test_single_deal_passes_the_chosen_direction(name: str, offset: int) -> None:
    game = games.make("hearts", match=False, pass_direction=name)
    assert game.options["pass_direction"] == name
    state = game.new_state(seed=11)
    hands = [state.observation(s)["hand"] for s in range(4)]
    assert state.observation(2)["pass_direction"] == name
    if offset == 0:
        # A held deal starts with the 2♣ lead.
        assert state.legal_actions()[0].kind == "play"
        assert [state.observation(s)["hand"] for s in range(4)] == hands
    else:
        for _ in range(12):
            state.apply(state.legal_actions()[0])
        for seat in range(4):
            passed = state.observation(seat)["passed"]
            assert set(passed) <= set(hands[seat])
            assert state.observation((seat + offset) % 4)["received"] == passed
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert state.score_breakdown()["deals"][0]["pass"] == name
    # The save names the direction and replays to the same state.
    text = state.to_json()
    assert json.loads(text)["options"]["pass_direction"] == name
    assert game.state_from_json(text) == state
    assert cardkit.games.make("hearts", **json.loads(text)["options"]) == game


@pytest.mark.rule("HRT-05")
def test_pass_direction_default_and_bad_values() -> None:
    # A single deal passes left unless told; saves made before the option load.
    plain = games.make("hearts", match=False)
    assert "pass_direction" not in plain.options
    assert plain.new_state(seed=1).observation(0)["pass_direction"] == "left"
    old_save = json.dumps(
        {
            "game": "hearts",
            "options": {"match": False, "target": 100, "passing": True},
            "seed": 1,
            "deal": None,
            "history": [],
        }
    )
    assert plain.state_from_json(old_save).observation(0)["pass_direction"] == "left"
    assert games.make("hearts", match=False, passing=False, pass_direction="hold")
    for bad in ("up", "LEFT", 1, ""):
        with pytest.raises(RuleOptionError, match="pass_direction"):
            games.make("hearts", match=False, pass_direction=bad)
    with pytest.raises(RuleOptionError, match="match=False"):
        games.make("hearts", pass_direction="right")
    with pytest.raises(RuleOptionError, match="passing=False"):
        games.make("hearts", match=False, passing=False, pass_direction="across")


def test_passes_are_hidden_until_exchanged() -> None:
    # Not a clause of the seed: a chosen pass is private until the exchange.
    state = games.make("hearts").new_state(seed=8)
    hand = state.observation(0)["hand"]
    assert state.legal_actions() == [f"pass {c}" for c in hand]
    state.apply(f"pass {hand[5]}")
    assert state.current_player == 0
    assert state.observation(0)["my_pass"] == [hand[5]]
    with pytest.raises(IllegalActionError, match="one card at a time"):
        state.apply(f"pass {hand[0]} {hand[1]} {hand[2]}")
    state.apply(f"pass {hand[0]}")
    state.apply(f"pass {hand[1]}")
    assert state.current_player == 1
    mine = {hand[0], hand[1], hand[5]}
    for other in (1, 2, 3):
        obs = state.observation(other)
        assert obs["my_pass"] == []
        assert not mine & set(json.dumps(obs).replace('"', " ").split())
    assert state.observation(1)["passes_chosen"] == [True, False, False, False]
    # The three-card form passes a whole hand's worth at once.
    other_hand = state.observation(1)["hand"]
    state.apply(f"pass {other_hand[2]} {other_hand[0]} {other_hand[1]}")
    assert state.current_player == 2
    assert state.history[-1] == f"pass {other_hand[0]} {other_hand[1]} {other_hand[2]}"


def test_pass_actions_parse_and_reject() -> None:
    game = games.make("hearts")
    assert game.parse_action("pass 4h 2c 3d") == "pass 2c 3d 4h"
    assert game.parse_action("Qs") == "play Qs"
    state = game.new_state(seed=2)
    before = state.to_json()
    hand = state.observation(0)["hand"]
    other = next(c for c in state.observation(1)["hand"])
    bad_actions = (f"pass {hand[0]} {hand[1]} {other}", f"pass {hand[0]} {hand[1]}", "play 2c")
    for bad in (*bad_actions, f"pass {other}"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    with pytest.raises(IllegalActionError):
        state.apply(Action(f"pass {hand[0]} {hand[0]} {hand[1]}"))
    assert state.to_json() == before
    with pytest.raises(RuleOptionError):
        games.make("hearts", target=0)
    with pytest.raises(RuleOptionError):
        games.make("hearts", passing="yes")


@pytest.mark.rule("HRT-06")
def test_two_of_clubs_holder_leads_it() -> None:
    for seed in range(10):
        state = games.make("hearts", passing=False).new_state(seed=seed)
        seat = state.current_player
        assert seat is not None and "2c" in state.observation(seat)["hand"]
        assert state.legal_actions() == ["play 2c"]


@pytest.mark.rule("HRT-07", "HRT-08", "HRT-09", "HRT-11", "HRT-14", "HRT-15", "HRT-16")
def test_worked_example_ace_of_clubs_collects_14() -> None:
    state = one_deal(EXAMPLE)
    state.apply("play 2c")
    # Seat 1 must follow clubs.
    assert all(a.args[0].endswith("c") for a in state.legal_actions())
    state.apply("play Kc")
    state.apply("play 5c")
    # Seat 3 is void in clubs: no heart on the first trick while a safe card remains.
    assert set(state.legal_actions()) == {
        "play 2s",
        "play 3s",
        "play 4s",
        "play 5s",
        "play 6s",
        "play 7s",
        "play 8s",
        "play Kd",
        "play Ad",
    }
    with pytest.raises(IllegalActionError, match="first trick"):
        state.apply("play 2h")
    state.apply("play Kd")
    # The highest club won and its player leads the second trick.
    assert state.current_player == 1
    for card in ("Ac", "3c", "2h", "Qs"):
        state.apply(card)
    obs = state.observation(0)
    assert obs["trick_winners"][-1] == 1
    assert obs["taken_points"] == [0, 14, 0, 0]
    assert state.current_player == 1


@pytest.mark.rule("HRT-09")
def test_first_trick_penalty_discard_when_nothing_safe() -> None:
    # Seat 3 holds only hearts: with no safe card it may discard one.
    state = one_deal(MOON)
    state.apply("2c")
    state.apply("2d")
    state.apply("2s")
    assert state.legal_actions() == [f"play {r}h" for r in "23456789TJQKA"]
    # Seat 2 holds Q♠ but also safe spades, so Q♠ was not playable.
    state2 = one_deal(MOON)
    state2.apply("2c")
    state2.apply("2d")
    assert "play Qs" not in state2.legal_actions()


@pytest.mark.rule("HRT-10", "HRT-17", "HRT-18", "HRT-19")
def test_hearts_not_led_until_broken_and_queen_does_not_break() -> None:
    state = one_deal(EXAMPLE)
    for card in ("2c", "Kc", "5c", "Kd", "Ac", "3c", "8s", "Qs"):
        state.apply(card)
    # Seat 1 won with no heart played: Q♠ fell but hearts stay unbroken.
    assert state.observation(0)["hearts_broken"] is False
    assert state.current_player == 1
    legal = state.legal_actions()
    assert legal and not any(a.args[0].endswith("h") for a in legal)
    with pytest.raises(IllegalActionError, match="hearts are not broken"):
        state.apply("play 6h")


# Seat 3 wins the first trick with Ac and is left holding only hearts.
ONLY_HEARTS = [
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 2d",
    "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad Ah",
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
    "Ac 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
]


@pytest.mark.rule("HRT-10")
def test_only_hearts_may_lead_hearts() -> None:
    state = one_deal(ONLY_HEARTS)
    for card in ("2c", "3d", "2s", "Ac"):
        state.apply(card)
    assert state.current_player == 3
    assert state.observation(3)["hearts_broken"] is False
    assert state.legal_actions() == [f"play {r}h" for r in "23456789TJQK"]


@pytest.mark.rule("HRT-11", "HRT-12")
def test_shooting_the_moon() -> None:
    state = one_deal(MOON)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    breakdown = state.score_breakdown()
    deal = breakdown["deals"][0]
    assert deal["taken"] == [26, 0, 0, 0]
    assert deal["shot_the_moon"] == 0
    assert deal["points"] == [0, 26, 26, 26]
    assert state.returns() == [19.5, -6.5, -6.5, -6.5]
    assert penalty_points(1 << 43) == 13


@pytest.mark.rule("HRT-01", "HRT-13")
def test_match_ends_when_anyone_reaches_target_lowest_wins() -> None:
    game = Hearts()
    for seed in range(5):
        state = random_match(game, seed)
        deals = state.score_breakdown()["deals"]
        assert max(deals[-1]["totals"]) >= 100
        assert all(max(d["totals"]) < 100 for d in deals[:-1])
        low = min(state.scores)
        assert state.winners() == [s for s in range(4) if state.scores[s] == low]
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        assert returns.index(max(returns)) in state.winners()


@pytest.mark.rule("HRT-20", "HRT-21", "HRT-22")
def test_equal_lowest_totals_share_the_win() -> None:
    game = Hearts(target=1)
    for seed in range(200):
        state = random_match(game, seed)
        if len(state.winners()) > 1:
            break
    else:
        pytest.fail("no tied match in 200 seeds")
    winners = state.winners()
    returns = state.returns()
    assert len({state.scores[s] for s in winners}) == 1
    assert len({returns[s] for s in winners}) == 1
    assert state.score_breakdown()["winners"] == winners


def test_single_deal_and_breakdown() -> None:
    state = random_match(Hearts(match=False), 3)
    breakdown = state.score_breakdown()
    assert len(breakdown["deals"]) == 1
    assert sum(breakdown["deals"][0]["points"]) in (26, 78)
    json.dumps(breakdown)
    assert state.returns() == [sum(state.scores) / 4 - s for s in state.scores]


def test_private_cards_exclude_cards_known_to_the_passer() -> None:
    state = games.make("hearts").new_state(seed=11)
    agents = [RandomAgent(i) for i in range(4)]
    for _ in range(12):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    received = state.observation(1)["received"]
    private = {str(c) for c in state.private_cards(1)}
    assert len(received) == 3 and not private & set(received)
    assert len(private) == 10


def test_clone_is_independent() -> None:
    state = games.make("hearts").new_state(seed=6)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.history == [] and len(copy.history) == 1
    assert state.observation(0)["my_pass"] == []


# A guard of the deal-scoring twins (the Python flow and the Rust search), not a clause
# test: random splits of the pack, and splits where one seat took every penalty card.
@given(st.randoms(use_true_random=False), st.booleans())
@settings(max_examples=300, deadline=None)
def test_python_and_rust_deal_points_agree(rng: random.Random, moon: bool) -> None:
    cards = list(range(52))
    rng.shuffle(cards)
    owners = [rng.randrange(4) for _ in cards]
    if moon:
        shooter = rng.randrange(4)
        for i, card in enumerate(cards):
            if card % 4 == 2 or card == 10 * 4 + 3:  # every heart and Q♠
                owners[i] = shooter
    taken = [0, 0, 0, 0]
    for card, owner in zip(cards, owners, strict=True):
        taken[owner] |= 1 << card
    python = deal_points([penalty_points(t) for t in taken])
    assert _test.hearts_deal_points(taken) == python
    assert (26 in [penalty_points(t) for t in taken]) == (sorted(python) == [0, 26, 26, 26])


# -- the learning interface (docs/hearts.md, "Learning interface") -----------------


def test_action_index_names_every_play_and_single_card_pass() -> None:
    game = games.make("hearts")
    assert game.num_actions == 104
    for card in range(52):
        name = str(cardkit.Card.from_index(card))
        assert game.action_to_id(name) == game.action_to_id(f"play {name}") == card
        assert game.action_to_id(f"pass {name}") == 52 + card
    for i in range(104):
        assert game.action_to_id(game.id_to_action(i)) == i
    state = game.new_state(seed=2)
    before = state.to_json()
    for text in ("pass 2c 3d 4h", "pass"):
        with pytest.raises(IllegalActionError, match="no action id"):
            state.action_to_id(text)
        with pytest.raises(IllegalActionError, match="no fixed id"):
            game.action_to_id(text)
    assert state.to_json() == before


def _expected_tensor(obs: dict[str, Any]) -> np.ndarray:
    """The documented layout, built in Python from ``observation(seat)``."""
    seat, out = obs["seat"], np.zeros(595, np.float32)

    def rel(p: int) -> int:
        return (p - seat) % 4

    def put(at: int, names: list[str]) -> None:
        for name in names:
            out[at + cardkit.Card(name).index] = 1

    leader, trick, to_act = obs["leader"], obs["trick"], obs["to_act"]
    put(0, obs["hand"])
    done = zip(obs["trick_leaders"], obs["tricks"], strict=True)
    for first, cards in [*done, (leader, trick)]:
        for k, name in enumerate(cards):
            put(52 + rel(first + k) * 52, [name])
            if cards is trick:
                put(260 + rel(first + k) * 52, [name])
    if to_act is not None:
        if leader is not None:
            out[468 + rel(leader)] = 1
        out[472 + rel(to_act)] = 1
        out[477 + (obs["phase"] == "play")] = 1
    out[476] = obs["hearts_broken"]
    out[479 + [name for name, _ in PASS_DIRECTIONS].index(obs["pass_direction"])] = 1
    put(483, obs["my_pass"] + obs["passed"])
    put(535, obs["received"])
    for p in range(4):
        out[587 + rel(p)] = obs["taken_points"][p] / 26
        out[591 + rel(p)] = obs["scores"][p] / obs["target"]
    return out


@pytest.mark.parametrize("seed", range(3))
def test_observation_tensor_follows_the_documented_layout(seed: int) -> None:
    # A short match: passes, exchanges, every trick, several deals and the end.
    state = games.make("hearts", target=30).new_state(seed=seed)
    agent = RandomAgent(seed)
    while True:
        for seat in range(4):
            tensor = state.observation_tensor(seat)
            expected = _expected_tensor(state.observation(seat))
            np.testing.assert_allclose(tensor, expected, rtol=1e-6, err_msg=str(seat))
        if state.is_terminal:
            break
        state.apply(agent.act({}, state.legal_actions()))


def test_a_pending_pass_shows_only_to_its_passer() -> None:
    game = games.make("hearts")
    first, second = game.new_state(seed=9), game.new_state(seed=9)
    first.apply(first.legal_actions()[0])
    second.apply(second.legal_actions()[1])
    for seat in (1, 2, 3):
        np.testing.assert_array_equal(
            first.observation_tensor(seat), second.observation_tensor(seat)
        )
    assert not np.array_equal(first.observation_tensor(0), second.observation_tensor(0))


def _moon_and_penalty_splits() -> list[list[float]]:
    """The returns of one deal for every way the 26 penalty points can fall: each
    seat's hearts (13 in all) and the seat that took Q♠."""
    out = []
    for split in itertools.product(range(14), repeat=3):
        if sum(split) <= 13:
            hearts = [*split, 13 - sum(split)]
            for queen in range(4):
                taken = [h + 13 * (s == queen) for s, h in enumerate(hearts)]
                points = deal_points(taken)
                out.append([sum(points) / 4 - p for p in points])
    return out


def test_utility_range_is_the_span_of_the_deal_returns() -> None:
    returns = [r for row in _moon_and_penalty_splits() for r in row]
    assert games.make("hearts", match=False).utility_range == (min(returns), max(returns))
    low, high = games.make("hearts", target=100).utility_range
    assert (low, high) == (-93.75, 93.75)
    # Moons until every other seat passes the target: each ends on 26 * 4 = 104.
    assert high >= 0.75 * 104


def test_observation_bindings_refuse_bad_buffers_and_inputs() -> None:
    state = games.make("hearts").new_state(seed=1)
    spades = games.make("spades").new_state(seed=1)
    for _ in range(4):
        spades.apply(spades.legal_actions()[0])
    good = np.zeros(595, np.float32)
    args: list[object] = [good, 0, 1, None, 0, 0, 0, 0, [0, 0, 0, 0], 100]
    hearts_observation(*args)  # type: ignore[arg-type]
    bad_calls = {
        0: [np.zeros(594, np.float32), np.zeros(1190, np.float32)[::2]],
        1: [4],
        3: [spades._play_deal],
        4: [4],
        5: [4],
        6: [1 << 52],
        9: [0],
    }
    for position, values in bad_calls.items():
        for value in values:
            call = list(args)
            call[position] = value
            with pytest.raises(RuleOptionError):
                hearts_observation(*call)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError):
        bit_mask(1 << 51, 52, 103)
    with pytest.raises(RuleOptionError):
        bit_ids(1 << 52, 0)
    assert bit_ids(0b101, 52) == [52, 54]
    assert np.flatnonzero(bit_mask(0b101, 52, 104)).tolist() == [52, 54]
    assert state.legal_action_ids() == bit_ids(
        sum(1 << c.index for c in state.private_cards(0)), 52
    )
