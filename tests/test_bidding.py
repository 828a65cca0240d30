"""Bidding from search: Dou Dizhu on the hand's expected score as landlord, Spades
on the tricks of sampled play. Legal, seeded, blind to hidden cards, typed errors
on bad options, and sensible on clear hands."""

from __future__ import annotations

from typing import Any

import pytest

import cardkit
from cardkit import CardkitError, InvalidCardError, RuleOptionError, _core, games
from cardkit.agents.doudizhu import (
    BID_THRESHOLDS,
    DouDizhuRuleAgent,
    DouDizhuSearchAgent,
    landlord_estimate,
)
from cardkit.agents.spades import SpadesRuleAgent, SpadesSearchAgent, search_bid
from cardkit.api import Action

STRONG_DDZ = "BR22223333AAAKKKQ"
WEAK_DDZ = "3344567899TJJ56QK"


def _ddz_bid_state(seed: int, bidding: str = "open") -> Any:
    return games.make("doudizhu", bidding=bidding).new_state(seed=seed)


def _ddz_agent(seed: int, **options: Any) -> DouDizhuSearchAgent:
    return DouDizhuSearchAgent(seed, samples=4, bidding="search", bid_samples=32, **options)


# -- Dou Dizhu ----------------------------------------------------------------------


@pytest.mark.parametrize("bidding", ["open", "single_round"])
def test_ddz_search_bidding_plays_legal_seeded_games(bidding: str) -> None:
    game = games.make("doudizhu", bidding=bidding)
    for seed in range(3):
        table = [_ddz_agent(seed * 3 + s) for s in range(3)]
        a = cardkit.play(game, table, seed=seed)
        again = cardkit.play(game, [_ddz_agent(seed * 3 + s) for s in range(3)], seed=seed)
        assert a.is_terminal and a.history == again.history


def test_ddz_search_bid_is_listed_in_every_bidding_state() -> None:
    # Every turn of a bidding, whatever the bid so far: the answer is listed.
    for seed in range(6):
        state = _ddz_bid_state(seed)
        agent = _ddz_agent(seed)
        while state.phase == "bid":
            legal = state.legal_actions()
            action = agent.act(state.observation(state.current_player), legal)
            assert action in legal
            # Raise the bid by one to reach later states, never the 3 that ends it.
            raise_by_one = Action(f"bid {state.bid + 1}")
            state.apply(raise_by_one if state.bid < 2 else "pass")


def test_ddz_search_bid_reads_only_the_seats_own_cards() -> None:
    state = _ddz_bid_state(4)
    seat = state.current_player
    other, third = (seat + 1) % 3, (seat + 2) % 3
    twin = _ddz_bid_state(4)
    # Swap the two hidden hands and one hidden card with the bottom.
    hands = twin.hands
    hands[other], hands[third] = hands[third], hands[other]
    hands[other][0], twin.bottom[0] = twin.bottom[0], hands[other][0]
    twin._start_play(hands, leader=twin.first_bidder)
    assert twin.hands != state.hands
    assert twin.observation(seat) == state.observation(seat)
    legal = state.legal_actions()
    for seed in range(3):
        a = _ddz_agent(seed).act(state.observation(seat), legal)
        b = _ddz_agent(seed).act(twin.observation(seat), legal)
        assert a == b


def _ddz_bid_observation(hand: str, bid: int = 0) -> tuple[dict[str, Any], list[Action]]:
    state = _ddz_bid_state(1)
    obs = dict(state.observation(state.current_player))
    obs["hand_ranks"] = hand
    obs["bid"] = bid
    legal = [Action("pass"), *(Action(f"bid {n}") for n in range(bid + 1, 4))]
    return obs, legal


def test_ddz_strong_hand_bids_three_weak_hand_passes() -> None:
    agent = DouDizhuSearchAgent(1, bidding="search")
    assert agent.act(*_ddz_bid_observation(STRONG_DDZ)) == Action("bid 3")
    assert agent.act(*_ddz_bid_observation(WEAK_DDZ)) == Action("pass")
    # A bid already at the wanted level leaves only passing.
    assert DouDizhuSearchAgent(1, bidding="search").act(
        *_ddz_bid_observation(STRONG_DDZ, 2)
    ) == Action("bid 3")
    obs, legal = _ddz_bid_observation(STRONG_DDZ, 2)
    assert DouDizhuSearchAgent(1, bidding="search", bid_thresholds=(0, 0, 99)).act(
        obs, legal
    ) == Action("pass")


def test_ddz_thresholds_pick_the_level() -> None:
    win_rate, score = landlord_estimate(STRONG_DDZ, 256, 7)
    assert win_rate > 0.8 and score > 1.0
    assert landlord_estimate(STRONG_DDZ, 256, 7) == (win_rate, score)
    obs, legal = _ddz_bid_observation(STRONG_DDZ)
    levels = {
        (score + 1, score + 2, score + 3): "pass",
        (score - 1, score + 2, score + 3): "bid 1",
        (score - 2, score - 1, score + 3): "bid 2",
    }
    for thresholds, want in levels.items():
        agent = DouDizhuSearchAgent(3, bidding="search", bid_thresholds=thresholds)
        # The agent's own seed differs, so leave a margin of one point either side.
        assert agent.act(obs, legal) == Action(want)
    weak_rate, weak_score = landlord_estimate(WEAK_DDZ, 256, 7)
    assert weak_rate < 0.3 and weak_score < BID_THRESHOLDS[0]


def test_ddz_points_bidding_is_the_rule_agents() -> None:
    for seed in range(4):
        state = _ddz_bid_state(seed)
        obs, legal = state.observation(state.current_player), state.legal_actions()
        assert DouDizhuSearchAgent(seed).act(obs, legal) == DouDizhuRuleAgent().act(obs, legal)


@pytest.mark.parametrize(
    "options",
    [
        {"bidding": "auction"},
        {"bidding": None},
        {"bid_samples": 0},
        {"bid_samples": True},
        {"bid_samples": 1.5},
        {"bid_thresholds": (1, 2)},
        {"bid_thresholds": (3, 2, 1)},
        {"bid_thresholds": ("a", 1, 2)},
        {"bid_thresholds": "abc"},
        {"bid_thresholds": (float("nan"), 1, 2)},
        {"bid_thresholds": None},
    ],
)
def test_ddz_bad_bidding_options_raise_rule_option_errors(options: dict[str, Any]) -> None:
    with pytest.raises(RuleOptionError):
        DouDizhuSearchAgent(1, **options)


def test_ddz_landlord_estimate_refuses_bad_input() -> None:
    for bad in ["3456", "33333456789TJQKA2", "BBR3456789TJQKA22"]:
        with pytest.raises(InvalidCardError, match="hand"):
            landlord_estimate(bad, 8, 1)
    for samples in [0, -1, True, 1.5]:
        with pytest.raises(RuleOptionError, match="samples"):
            landlord_estimate(STRONG_DDZ, samples, 1)  # type: ignore[arg-type]
    with pytest.raises(CardkitError):
        _core.doudizhu_landlord_playouts(STRONG_DDZ, 8, -1)


# -- Spades -------------------------------------------------------------------------

LOW_SPADES = ["2c", "3c", "4c", "5c", "2d", "3d", "4d", "5d", "2h", "3h", "4h", "5h", "2s"]
HIGH_SPADES = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "Ac", "Kc", "Ad", "Kd", "Ah", "Kh"]


def _spades_agent(seed: int) -> SpadesSearchAgent:
    return SpadesSearchAgent(seed, worlds=4, bidding="search", bid_worlds=32)


def test_spades_search_bidding_plays_legal_seeded_games() -> None:
    game = games.make("spades", target=150)
    for seed in range(2):
        table = [_spades_agent(seed), SpadesRuleAgent(), _spades_agent(seed + 1), SpadesRuleAgent()]
        a = cardkit.play(game, table, seed=seed)  # type: ignore[arg-type]
        table = [_spades_agent(seed), SpadesRuleAgent(), _spades_agent(seed + 1), SpadesRuleAgent()]
        b = cardkit.play(game, table, seed=seed)  # type: ignore[arg-type]
        assert a.is_terminal and a.history == b.history


@pytest.mark.parametrize("first_lead", ["left_of_dealer", "two_of_clubs"])
def test_spades_search_bid_is_listed_in_every_bidding_state(first_lead: str) -> None:
    for seed in range(3):
        state: Any = games.make("spades", match=False, first_lead=first_lead).new_state(seed=seed)
        agent = _spades_agent(seed)
        while state.observation(0)["phase"] == "bid":
            legal = state.legal_actions()
            action = agent.act(state.observation(state.current_player), legal)
            assert action in legal
            state.apply(action)


def test_spades_search_bid_reads_only_the_seats_own_cards() -> None:
    state: Any = games.make("spades", match=False).new_state(seed=5)
    twin: Any = games.make("spades", match=False).new_state(seed=5)
    seat = state.current_player
    # Swap two hidden hands: the seat's own hand and everything public stay.
    hands = list(twin._hands)
    a, b = (seat + 1) % 4, (seat + 2) % 4
    hands[a], hands[b] = hands[b], hands[a]
    twin._hands = hands
    assert twin._hands != state._hands
    assert twin.observation(seat) == state.observation(seat)
    legal = state.legal_actions()
    for seed in range(3):
        assert _spades_agent(seed).act(state.observation(seat), legal) == _spades_agent(seed).act(
            twin.observation(seat), legal
        )


def test_spades_clear_hands() -> None:
    high = search_bid(HIGH_SPADES, 0, [None] * 4, 0, 128, 3)
    assert high >= 9
    assert search_bid(LOW_SPADES, 0, [None] * 4, 0, 128, 3) == 0
    # Never nil beside a nil partner; never more than the pair can take.
    assert search_bid(LOW_SPADES, 0, [None, None, 0, None], 0, 128, 3) >= 1
    assert search_bid(HIGH_SPADES, 0, [None, 3, 9, 3], 1, 128, 3) <= 4
    # Seeded.
    assert search_bid(HIGH_SPADES, 0, [None] * 4, None, 64, 9) == search_bid(
        HIGH_SPADES, 0, [None] * 4, None, 64, 9
    )


@pytest.mark.parametrize(
    "options",
    [{"bidding": "points"}, {"bidding": 3}, {"bid_worlds": 0}, {"bid_worlds": "8"}],
)
def test_spades_bad_bidding_options_raise_rule_option_errors(options: dict[str, Any]) -> None:
    with pytest.raises(RuleOptionError):
        SpadesSearchAgent(1, **options)


def test_spades_search_bid_refuses_bad_input() -> None:
    with pytest.raises(InvalidCardError, match="hand_names"):
        search_bid(["Zz"], 0, [None] * 4, 0, 8, 1)
    with pytest.raises(InvalidCardError, match="hand"):
        search_bid(["As"], 0, [None] * 4, 0, 8, 1)
    bad_calls: list[dict[str, Any]] = [
        {"seat": 4},
        {"bids": [None] * 3},
        {"bids": [14, None, None, None]},
        {"bids": "abcd"},
        {"leader": 4},
        {"worlds": 0},
    ]
    for bad in bad_calls:
        args: dict[str, Any] = {
            "hand_names": HIGH_SPADES,
            "seat": 0,
            "bids": [None] * 4,
            "leader": 0,
            "worlds": 8,
            "seed": 1,
            **bad,
        }
        with pytest.raises(CardkitError):
            search_bid(**args)
