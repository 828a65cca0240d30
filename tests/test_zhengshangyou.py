"""Zheng Shangyou game flow, must-beat, bombs and scoring (clauses ZSY-*)."""

from __future__ import annotations

import numpy as np
import pytest

import cardkit
from cardkit._core import (
    ClimbingDeal,
    ClimbingView,
    climbing_card_play_size,
    zhengshangyou_action_space_size,
)
from cardkit.agents import RandomAgent
from cardkit.agents.zhengshangyou import ZhengShangyouRuleAgent, ZhengShangyouSearchAgent
from cardkit.games import zhengshangyou
from cardkit.games._climbing import _ACTIONS
from cardkit.games.zhengshangyou import ZhengShangyouState

from .test_climbing import assert_seeded_search

GAME = zhengshangyou.ZhengShangyou()

# Seat 0 holds the heart three; seat 1 the 4444 bomb; seat 2 no bomb.
SEAT0 = "3h 5c 6c 7c 8c 9c Tc Jc Qc Kc 5d 6d 7d 8d 9d Td"
SEAT1 = "4c 4d 4h 4s 3c 3d 3s Jd Qd Kd Ad 5h 6h 7h 8h 9h"
SEAT2 = "Th Jh Qh Kh 5s 6s 7s 8s 9s Ts Js Qs Ks Ac As 2s"


def _state(deal: str, seed: int = 0) -> ZhengShangyouState:
    return GAME.new_state(seed=seed, deal=deal)


@pytest.mark.rule("ZSY-03", "ZSY-06", "ZSY-07")
def test_pack_and_deal() -> None:
    state = GAME.new_state(seed=4)
    assert [len(h) for h in state.hands] == [16, 16, 16]
    cards = {str(c) for z in state.zones().values() for c in z}
    assert len(cards) == 48
    assert not cards & {"BJ", "RJ", "Ah", "2c", "2d", "2h"}
    assert "2s" in cards


@pytest.mark.rule("ZSY-05", "ZSY-08", "ZSY-09", "ZSY-16")
def test_heart_three_leads() -> None:
    for seed in range(10):
        state = GAME.new_state(seed=seed)
        leader = state.current_player
        assert leader is not None and cardkit.Card("3h") in state.hands[leader]
        legal = state.legal_actions()
        assert "pass" not in legal
        assert all("3" in a.args[0] for a in legal)
        state.apply(legal[-1])
        assert cardkit.Card("3h") in state.played[leader]
        assert state.current_player == (leader + 1) % 3
    state = _state(SEAT0 + SEAT1 + SEAT2)
    with pytest.raises(cardkit.IllegalActionError, match="heart three"):
        state.apply("play 56789")


@pytest.mark.rule("ZSY-11", "ZSY-12", "ZSY-13", "ZSY-14", "ZSY-15", "ZSY-28", "ZSY-29")
def test_must_beat_and_response_bomb_bonus() -> None:
    state = _state(SEAT0 + SEAT1 + SEAT2)
    assert state.current_player == 0
    state.apply("play 3")
    legal = state.legal_actions()
    assert "pass" not in legal  # seat 1 can beat the three, so it must
    assert "play 4444" in legal and "play 4" in legal
    with pytest.raises(cardkit.IllegalActionError, match="must beat"):
        state.apply("pass")
    state.apply("play 4444")
    assert state.legal_actions() == ["pass"]  # seat 2 holds no bomb
    state.apply("pass")
    assert state.legal_actions() == ["pass"]
    state.apply("pass")
    assert state.current_player == 1 and state.table is None
    assert state.bomb_bonus == [-10, 20, -10]


@pytest.mark.rule("ZSY-11")
def test_responses_need_the_same_shape_and_size_and_a_higher_rank() -> None:
    state = _state(SEAT0 + SEAT1 + SEAT2)
    state.apply("play 3")  # seat 0's heart three
    # Seat 1: an equal single, a pair and a triple of threes are all refused.
    for bad in ("play 3", "play 33", "play 333"):
        assert not state.is_legal(bad)
        with pytest.raises(cardkit.IllegalActionError):
            state.apply(bad)
    state.apply("play K")
    # Seat 2: a lower single, an equal one, a higher pair and a straight are refused.
    for bad in ("play Q", "play K", "play AA", "play 56789"):
        assert not state.is_legal(bad)
        with pytest.raises(cardkit.IllegalActionError):
            state.apply(bad)
    assert state.is_legal("play A") and state.is_legal("play 2")
    state.apply("play A")
    assert state.current_player == 0


@pytest.mark.rule("ZSY-13", "ZSY-21", "ZSY-28")
def test_must_beat_with_a_bomb_and_beaten_bomb_earns_nothing() -> None:
    seat1 = SEAT1.replace("Ad", "Ts")
    seat2 = SEAT2.replace("Ts", "Ad")
    state = _state(SEAT0 + seat1 + seat2)
    state.apply("play 3")
    state.apply("play 4444")
    assert state.legal_actions() == ["play AAA"]  # the only way to beat is the ace bomb
    state.apply("play AAA")
    state.apply("pass")
    state.apply("pass")
    assert state.bomb_bonus == [-10, -10, 20]


@pytest.mark.rule("ZSY-22", "ZSY-30")
def test_heavenly_bomb_only_on_the_opening_play() -> None:
    seat0 = "3h 3c 3d 3s 5c 6c 7c 8c 9c Tc Jc Qc Kc 5d 6d 7d"
    seat1 = "4c 4d 4h 4s Ac Ad As 8d 9d Td Jd Qd Kd 5h 6h 7h"
    state = _state(seat0 + seat1)
    assert "play 3333" in state.legal_actions()
    state.apply("play 3333")
    assert state.table is not None and state.table.type == "heavenly_bomb"
    assert state.legal_actions() == ["pass"]  # not even three aces beat it
    state.apply("pass")
    state.apply("pass")
    assert state.bomb_bonus == [0, 0, 0]  # a heavenly (and led) bomb earns nothing


@pytest.mark.rule("ZSY-23", "ZSY-30")
def test_later_four_threes_is_the_lowest_bomb_and_led_bombs_earn_nothing() -> None:
    state = _state(SEAT0 + SEAT1 + SEAT2)
    state.apply("play 3")
    state.apply("play 4444")
    state.apply("pass")
    state.apply("pass")
    # Seat 1 leads its own 333; a led bomb of its own earns nothing.
    state.apply("play 333")
    assert state.table is not None and state.table.type == "triple"
    combo = zhengshangyou.classify("3333")[0]
    assert combo.type == "bomb"
    assert [c.cards for c in zhengshangyou.legal_responses("4444", combo)] == ["4444"]


def _with_hands(state: ZhengShangyouState, hands: list[str]) -> None:
    """Give ``state`` these hands, seat 0 to lead (white box: a late position)."""
    cards = [cardkit.parse_cards(h) for h in hands]
    state._play = ClimbingDeal(zhengshangyou.RULES, cards, 0, _ACTIONS)


@pytest.mark.rule("ZSY-04", "ZSY-24", "ZSY-25", "ZSY-26", "ZSY-27", "ZSY-31", "ZSY-32")
def test_finishing_response_bomb_and_penalties() -> None:
    state = _state(SEAT0 + SEAT1 + SEAT2)
    _with_hands(state, ["3h 5c", "4c4d4h4s", "2s 7s 7h 8s 8h 8d 8c Ks"])
    state.apply("play 3")
    state.apply("play 4444")
    assert state.is_terminal and state.winner == 1
    # Seat 0: one card, played once. Seat 2: eight cards never played (x2), the
    # spade two (+10) and the 8888 bomb (+10).
    assert state.penalties() == [1, 0, 16 + 10 + 10]
    assert state.bomb_bonus == [-10, 20, -10]  # settled at once
    assert state.returns() == [-11.0, 20 + 37.0, -46.0]
    assert sum(state.returns()) == 0
    breakdown = state.score_breakdown()
    assert breakdown["seats"][2] == {
        "cards_left": 8,
        "never_played": True,
        "spade_two": True,
        "bombs_held": 1,
    }


def test_held_bombs_counts_fours_and_three_aces() -> None:
    assert zhengshangyou.held_bombs("4444AAA5") == 2
    assert zhengshangyou.held_bombs("444AA") == 0


def test_random_games_are_zero_sum_and_agents_play() -> None:
    for seed in range(10):
        agents = [
            ZhengShangyouRuleAgent(),
            ZhengShangyouSearchAgent(seed, samples=4),
            RandomAgent(seed),
        ]
        state = cardkit.play(GAME, agents, seed=seed)
        assert state.is_terminal and sum(state.returns()) == 0


def test_search_with_the_endgame_solver_plays_legal_replayable_games() -> None:
    for seed in range(4):
        agents = [ZhengShangyouSearchAgent(seed + s, samples=4, endgame=16) for s in range(3)]
        state = cardkit.play(GAME, agents, seed=seed)
        assert state.is_terminal and sum(state.returns()) == 0
        again = [ZhengShangyouSearchAgent(seed + s, samples=4, endgame=16) for s in range(3)]
        assert cardkit.play(GAME, again, seed=seed).history == state.history


def test_search_by_successive_halving_plays_legal_replayable_games() -> None:
    def agents(seed: int) -> list[ZhengShangyouSearchAgent]:
        return [ZhengShangyouSearchAgent(seed + s, samples=8, halving=True) for s in range(3)]

    assert_seeded_search(GAME, agents)


def test_search_with_shedding_playouts_plays_legal_replayable_games() -> None:
    # The shedding policy's own choices are checked in the Rust tests (playout.rs);
    # here the option reaches the search and its games replay.
    def agents(seed: int) -> list[ZhengShangyouSearchAgent]:
        return [ZhengShangyouSearchAgent(seed + s, samples=4, shedding=True) for s in range(3)]

    assert_seeded_search(GAME, agents)
    for value in (1, "yes", None):
        with pytest.raises(cardkit.RuleOptionError, match="shedding must be a bool"):
            ZhengShangyouSearchAgent(0, shedding=value)  # type: ignore[arg-type]


def _searchers(seed: int, evidence: bool) -> list[ZhengShangyouSearchAgent]:
    return [ZhengShangyouSearchAgent(seed + s, samples=4, evidence=evidence) for s in range(3)]


def test_search_dealing_to_fit_the_passes_plays_legal_replayable_games() -> None:
    # Rust tests check that the deals fit the passes; here every position of real
    # games reads back through the play history, with the option on and off.
    for evidence in (True, False):
        for seed in range(3):
            state = cardkit.play(GAME, _searchers(seed, evidence), seed=seed)
            assert state.is_terminal
            again = cardkit.play(GAME, _searchers(seed, evidence), seed=seed)
            assert again.history == state.history
    for value in (1, "yes", None):
        with pytest.raises(cardkit.RuleOptionError, match="evidence must be a bool"):
            ZhengShangyouSearchAgent(0, evidence=value)  # type: ignore[arg-type]


def test_a_play_history_that_does_not_fit_is_an_illegal_action() -> None:
    with pytest.raises(cardkit.IllegalActionError, match="out of turn"):
        ClimbingView("zhengshangyou", 0, "3", [1, 1, 1], "44", history=[(1, "5"), (1, "4")])
    with pytest.raises(cardkit.IllegalActionError, match="empty table"):
        ClimbingView("zhengshangyou", 0, "3", [1, 1, 1], "44", history=[(0, None)])


def test_rule_agent_beats_random() -> None:
    total = 0.0
    for seed in range(30):
        for hero in range(3):
            agents = [
                ZhengShangyouRuleAgent() if s == hero else RandomAgent(seed + s) for s in range(3)
            ]
            total += cardkit.play(GAME, agents, seed=seed).returns()[hero]
    assert total > 0


# -- the learning interface ----------------------------------------------------------

# Offsets of the tensor layout (docs/zhengshangyou.md, "Learning interface").
PLANE = 60
TABLE, OWNER, LEFT, PLAYED_ONCE, BOMBS, TO_ACT = 300, 360, 363, 414, 417, 431
OPENING, PENDING, BONUS = 434, 435, 436


def test_action_index_is_a_bijection_of_every_play() -> None:
    assert GAME.num_actions == zhengshangyou_action_space_size() == 141
    texts = [GAME.id_to_action(i) for i in range(GAME.num_actions)]
    assert texts[0] == "pass" and len(set(texts)) == len(texts)
    for action_id, action in enumerate(texts):
        assert GAME.action_to_id(action) == action_id
    for action in texts[1:]:
        ranks = action.args[0]
        assert zhengshangyou.classify(ranks) and len(ranks) <= 16
        assert ranks.count("A") <= 3 and ranks.count("2") <= 1
    assert GAME.action_to_id("play 3333") == GAME.action_to_id("3333")
    with pytest.raises(cardkit.IllegalActionError):
        GAME.action_to_id("play 34")
    with pytest.raises(cardkit.IllegalActionError):
        GAME.action_to_id("play 33445566778899TTJJ")  # nine pairs: more than a hand


def test_every_legal_play_of_random_deals_has_an_id() -> None:
    for seed in range(40):
        state = GAME.new_state(seed=seed)
        agents = [RandomAgent(seed * 3 + s) for s in range(3)]
        while not state.is_terminal:
            legal = state.legal_actions()
            ids = state.legal_action_ids()
            assert ids == sorted(GAME.action_to_id(a) for a in legal)
            assert [GAME.id_to_action(i) for i in ids] == sorted(legal, key=GAME.action_to_id)
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(state.observation(seat), legal))
        assert state.legal_action_ids() == []
        assert not state.legal_action_mask().any()


def test_the_heavenly_bomb_has_the_id_of_four_threes() -> None:
    seat0 = "3h 3c 3d 3s 5c 6c 7c 8c 9c Tc Jc Qc Kc 5d 6d 7d"
    seat1 = "4c 4d 4h 4s Ac Ad As 8d 9d Td Jd Qd Kd 5h 6h 7h"
    state = _state(seat0 + seat1)
    bomb = GAME.action_to_id("play 3333")
    assert bomb in state.legal_action_ids()
    assert state.id_to_action(bomb) == "play 3333"


def test_observation_tensor_layout() -> None:
    state = _state(SEAT0 + SEAT1 + SEAT2)
    tensor = state.observation_tensor(0)
    assert tensor.shape == GAME.observation_shape == (439,)
    # Own hand: one three, two each of 5-9 and T, one each of J Q K.
    assert tensor[0:4].tolist() == [1, 0, 0, 0]
    assert tensor[8:12].tolist() == [1, 1, 0, 0]
    assert tensor[:PLANE].sum() == 16
    assert tensor[PLANE : 2 * PLANE].sum() == 32  # the other two hands, unseen
    assert tensor[TABLE : TABLE + PLANE].sum() == 0  # seat 0 leads
    for rel in range(3):
        assert tensor[LEFT + 17 * rel + 16] == 1  # 16 cards each
    assert tensor[TO_ACT : TO_ACT + 3].tolist() == [1, 0, 0]
    assert tensor[OPENING] == 1 and tensor[PENDING] == 0
    state.apply("play 3")
    seen = state.observation_tensor(1)
    assert seen[TABLE : TABLE + 4].tolist() == [1, 0, 0, 0]
    assert seen[OWNER : OWNER + 3].tolist() == [0, 0, 1]  # the seat before seat 1
    assert seen[2 * PLANE + 2 * PLANE : 2 * PLANE + 2 * PLANE + 4].tolist() == [1, 0, 0, 0]
    assert seen[PLAYED_ONCE : PLAYED_ONCE + 3].tolist() == [0, 0, 1]
    assert seen[TO_ACT : TO_ACT + 3].tolist() == [1, 0, 0] and seen[OPENING] == 0
    state.apply("play 4444")  # a response bomb: its bonus is pending
    after = state.observation_tensor(2)
    assert after[PENDING] == 1 and after[BOMBS : BOMBS + 2].tolist() == [1, 0]


def test_bomb_bonuses_reach_the_tensor_rotated() -> None:
    state = _state(SEAT0 + SEAT1 + SEAT2)
    for action in ["play 3", "play 4444", "pass", "pass"]:
        state.apply(action)
    assert state.bomb_bonus == [-10, 20, -10]
    assert state.observation_tensor(1)[BONUS : BONUS + 3].tolist() == [1.0, -0.5, -0.5]
    assert state.observation_tensor(0)[BONUS : BONUS + 3].tolist() == [-0.5, 1.0, -0.5]


def test_utility_range_holds_the_worst_hand() -> None:
    # Never played, the spade two, three fours and the three aces: the largest penalty.
    low, high = GAME.utility_range
    worst = 2 * 16 + 10 + 10 * zhengshangyou.held_bombs("555566667777AAA2")
    assert low <= -worst and high >= 2 * worst - 10


def test_the_engine_refuses_bad_observation_buffers() -> None:
    deal = _state(SEAT0 + SEAT1 + SEAT2)._play
    good = np.zeros(GAME.observation_shape, dtype=np.float32)
    assert deal.write_observation(0, good) == climbing_card_play_size("zhengshangyou") == 431
    readonly = np.zeros(GAME.observation_shape, dtype=np.float32)
    readonly.flags.writeable = False
    bad: list[object] = [
        [0.0] * 439,
        np.zeros(439),
        np.zeros(10, dtype=np.float32),
        np.zeros(900, dtype=np.float32)[::2],
        readonly,
    ]
    for out in bad:
        with pytest.raises(cardkit.RuleOptionError):
            deal.write_observation(0, out)  # type: ignore[arg-type]
    with pytest.raises(cardkit.RuleOptionError):
        deal.write_observation(3, good)
