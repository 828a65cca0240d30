"""Hearts rules, clause by clause (HRT in the seeds' clauses.md), and its game flow."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import IllegalActionError, RuleOptionError, games
from cardkit._core import (  # _test.hearts_deal_points: the search's scoring, test-only
    _test,  # the engine side of scoring twins, for tests only
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
