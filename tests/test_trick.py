"""The Rust trick-taking core through its bindings: trick winners, search input
checks, playouts, and the Hearts/Spades agents playing legal, seeded games."""

from __future__ import annotations

import random

import pytest

import cardkit
from cardkit import InvalidCardError, RuleOptionError, games
from cardkit._core import (  # _bench: unstable bench helpers
    _bench,
    hearts_search,
    spades_search,
    trick_winner,
)
from cardkit.agents import RandomAgent
from cardkit.agents.hearts import HeartsRuleAgent, HeartsSearchAgent
from cardkit.agents.spades import SpadesRuleAgent, SpadesSearchAgent, rule_bid
from cardkit.games._tricks import mask_of

FULL = (1 << 52) - 1


@pytest.mark.rule("HRT-08", "HRT-16", "SPD-06", "SPD-13")
def test_trick_winner_with_and_without_trump() -> None:
    assert trick_winner(["Ac", "3c", "2h", "Qs"]) == 0
    assert trick_winner(["Ah", "2s", "Kh", "3h"], trump="s") == 1
    assert trick_winner(["Ah", "2s", "Kh", "3s"], trump="s") == 3
    assert trick_winner(["Ah", "2s", "Kh", "3h"]) == 0
    for bad in ([], ["BJ"]):
        with pytest.raises(RuleOptionError):
            trick_winner(bad)
    with pytest.raises(RuleOptionError):
        trick_winner(["Ah"], trump="x")
    with pytest.raises(InvalidCardError):
        trick_winner(["Zz"])


def test_playouts_conserve_points_and_tricks() -> None:
    for eps in (1.0, 0.1):
        points = _bench.hearts_playouts(200, 5, eps)
        assert sum(points) % 26 == 0 and sum(points) >= 26 * 200
        assert sum(_bench.spades_playouts(200, 5, 3, eps)) == 13 * 200
    assert _bench.hearts_playouts(50, 9) == _bench.hearts_playouts(50, 9)
    with pytest.raises(RuleOptionError):
        _bench.hearts_playouts(1, 1, 2.0)
    with pytest.raises(RuleOptionError, match="counting"):
        _bench.hearts_playouts(1, 1, 0.1, 16)
    # Seat 0 counting cards against three plain seats takes fewer points.
    plain = _bench.hearts_playouts(2000, 3, 0.1)
    counting = _bench.hearts_playouts(2000, 3, 0.1, 0b0001)
    assert counting[0] < plain[0] and sum(counting) % 26 == 0
    # Unloading as well, against three seats that only count, takes fewer still.
    table = _bench.hearts_playouts(2000, 3, 0.1, 0b1111)
    unloading = _bench.hearts_playouts(2000, 3, 0.1, 0b1111, 0b0001)
    assert unloading[0] < table[0] and sum(unloading) % 26 == 0
    with pytest.raises(RuleOptionError, match="unloading"):
        _bench.hearts_playouts(1, 1, 0.1, 15, 16)
    with pytest.raises(RuleOptionError):
        _bench.spades_playouts(1, 1, 14)


def test_search_rejects_inconsistent_views() -> None:
    hand = mask_of([0, 4, 8])  # 2c 3c 4c
    rest = FULL & ~hand
    good = dict(
        seat=0,
        known=[hand, 0, 0, 0],
        unknown=rest,
        sizes=[13, 13, 13, 13],
        voids=[0] * 4,
        leader=0,
        trick=[],
        taken=[0] * 4,
        broken=False,
        tricks_played=0,
        candidates=[0],
        worlds=4,
        seed=1,
    )
    good["sizes"] = [3, 13, 13, 13]
    with pytest.raises(RuleOptionError, match="add up"):
        hearts_search(**good)  # type: ignore[arg-type]
    cases = [
        {"candidates": [12]},
        {"seat": 5},
        {"leader": 1},
        {"known": [hand, hand, 0, 0]},
        {"unknown": 1 << 60},
        {"voids": [16, 0, 0, 0]},
        {"trick": [99]},
        {"tricks_played": 13},
    ]
    good["sizes"] = [3, 16, 16, 17]
    for override in cases:
        with pytest.raises(RuleOptionError):
            hearts_search(**{**good, **override})  # type: ignore[arg-type]


def test_search_prefers_ducking_under_the_queen() -> None:
    # Seat 0 holds As and 2s; seat 1 led Ks to a trick where Qs already fell.
    hand = mask_of([51, 3])
    trick = [47, 43, 39]
    unknown = mask_of([0, 4, 8])
    taken = FULL & ~hand & ~mask_of(trick) & ~unknown
    values = hearts_search(
        0,
        [hand, 0, 0, 0],
        unknown,
        [2, 1, 1, 1],
        [0] * 4,
        1,
        trick,
        [0, 0, taken, 0],
        True,
        11,
        [51, 3],
        64,
        7,
    )
    # Winning with As takes Q♠ (13 points); ducking with 2s does not.
    assert values[1] > values[0]


def test_spades_search_runs_and_is_seeded() -> None:
    state = games.make("spades", match=False).new_state(seed=3)
    for _ in range(4):
        state.apply("bid 3")
    a = SpadesSearchAgent(seed=1, worlds=20)
    b = SpadesSearchAgent(seed=1, worlds=20)
    obs = state.observation(0)
    assert a.act(obs, state.legal_actions()) == b.act(obs, state.legal_actions())
    with pytest.raises(RuleOptionError):
        spades_search(
            0,
            [0, 0, 0, 0],
            FULL,
            [13] * 4,
            [0] * 4,
            0,
            [],
            0,
            [14, 1, 1, 1],
            [0] * 4,
            [0, 0],
            False,
            [0],
            4,
            1,
        )


@pytest.mark.parametrize(
    "agents",
    [
        lambda s: [
            HeartsSearchAgent(s, worlds=8),
            HeartsRuleAgent(),
            RandomAgent(s),
            HeartsRuleAgent(),
        ],
    ],
)
def test_hearts_agents_play_legal_seeded_games(agents: object) -> None:
    game = games.make("hearts", target=40)
    for seed in range(2):
        a = cardkit.play(game, agents(seed), seed=seed)  # type: ignore[operator]
        b = cardkit.play(game, agents(seed), seed=seed)  # type: ignore[operator]
        assert a.history == b.history and a.is_terminal


def _spades_table(seed: int) -> list[object]:
    return [
        SpadesSearchAgent(seed, 8),
        SpadesRuleAgent(),
        SpadesSearchAgent(seed + 1, 8),
        SpadesRuleAgent(),
    ]


def test_spades_agents_play_legal_seeded_games() -> None:
    game = games.make("spades", target=200)
    for seed in range(2):
        a = cardkit.play(game, _spades_table(seed), seed=seed)  # type: ignore[arg-type]
        b = cardkit.play(game, _spades_table(seed), seed=seed)  # type: ignore[arg-type]
        assert a.history == b.history and a.is_terminal


def test_spades_nil_play_reaches_the_playouts() -> None:
    # Seat 1 bid nil: seat 0's leads are valued against defenders who set it.
    hand = random.Random(5).sample(range(52), 13)
    args = [0, [mask_of(hand), 0, 0, 0], FULL & ~mask_of(hand), [13] * 4, [0] * 4, 0, [], 0]
    leads = [c for c in hand if c % 4 != 3]  # spades are not broken
    rest = [[3, 0, 3, 3], [0] * 4, [0, 0], False, leads, 64, 5, 0.0]
    plain = spades_search(*args, *rest)  # type: ignore[arg-type]
    assert spades_search(*args, *rest, nil_play=False) == plain  # type: ignore[arg-type]
    assert spades_search(*args, *rest, nil_play=True) != plain  # type: ignore[arg-type]


def test_spades_search_agent_options_play_legal_seeded_matches() -> None:
    game = games.make("spades", target=200)

    def table(seed: int) -> list[object]:
        strong = {"bidding": "search", "bid_worlds": 16, "endgame": 12}
        return [
            SpadesSearchAgent(seed * 4 + s, 8, objective="match", nil_play=True, **strong)
            if s % 2 == 0
            else SpadesSearchAgent(seed * 4 + s, 8)
            for s in range(4)
        ]

    for seed in range(2):
        a = cardkit.play(game, table(seed), seed=seed)  # type: ignore[arg-type]
        b = cardkit.play(game, table(seed), seed=seed)  # type: ignore[arg-type]
        assert a.history == b.history and a.is_terminal
    with pytest.raises(RuleOptionError, match="objective"):
        SpadesSearchAgent(1, objective="moon")
    with pytest.raises(RuleOptionError, match="nil_play"):
        SpadesSearchAgent(1, nil_play=1)  # type: ignore[arg-type]


def test_rule_bids() -> None:
    strong = ["As", "Ks", "Qs", "Js", "Ts", "Ah", "Kh", "Ad", "Kd", "Ac", "Kc", "2h", "2d"]
    assert rule_bid(strong, None) >= 9
    weak = ["2s", "3s", "2h", "3h", "4h", "5h", "2d", "3d", "4d", "5d", "2c", "3c", "4c"]
    assert rule_bid(weak, None) == 0
    assert rule_bid(weak, 0) >= 1
    for agent in (HeartsRuleAgent(), SpadesRuleAgent(), HeartsSearchAgent(1), SpadesSearchAgent(1)):
        with pytest.raises(cardkit.IllegalActionError):
            agent.act({}, [])
