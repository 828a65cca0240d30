"""Dou Dizhu game flow, bidding, scoring and agents (clauses DDZ-*)."""

from __future__ import annotations

import pytest

import cardkit
from cardkit._core import ClimbingView
from cardkit.agents import RandomAgent
from cardkit.agents.doudizhu import DouDizhuRuleAgent, DouDizhuSearchAgent, bid_strength
from cardkit.games import doudizhu
from cardkit.games._base import MAX_DEALS
from cardkit.games.doudizhu import DouDizhuState

from .test_climbing import assert_seeded_search

GAME = doudizhu.DouDizhu()


def _state(seed: int = 1) -> DouDizhuState:
    return GAME.new_state(seed=seed)


def _bid_to_landlord(state: DouDizhuState, bids: list[str]) -> None:
    for action in bids:
        state.apply(action)


def _lowest_single(state: DouDizhuState) -> str:
    seat = state.current_player
    assert seat is not None
    return f"play {state.hand_ranks[seat][0]}"


@pytest.mark.rule("DDZ-03", "DDZ-06")
def test_deal() -> None:
    state = _state()
    assert GAME.num_players == 3
    assert [len(h) for h in state.hands] == [17, 17, 17]
    assert len(state.bottom) == 3
    zones = state.zones()
    assert sum(len(z) for z in zones.values()) == 54
    assert {"BJ", "RJ"} <= {str(c) for z in zones.values() for c in z}


@pytest.mark.rule("DDZ-07", "DDZ-08")
def test_bidding_turns() -> None:
    firsts = {_state(seed).first_bidder for seed in range(40)}
    assert firsts == {0, 1, 2}
    state = _state()
    first = state.first_bidder
    assert state.current_player == first
    assert state.legal_actions() == ["pass", "bid 1", "bid 2", "bid 3"]
    state.apply("bid 2")
    assert state.current_player == (first + 1) % 3
    assert state.legal_actions() == ["pass", "bid 3"]
    with pytest.raises(cardkit.IllegalActionError, match="above the current bid"):
        state.apply("bid 1")
    with pytest.raises(cardkit.IllegalActionError):
        state.apply("bid 2")


@pytest.mark.rule("DDZ-09", "DDZ-10")
def test_bidding_ends_and_landlord_takes_bottom() -> None:
    state = _state(3)
    first = state.first_bidder
    bottom = list(state.bottom)
    state.apply("bid 3")  # a 3 ends the bidding at once
    assert state.phase == "play"
    assert state.landlord == first
    assert len(state.hands[first]) == 20
    assert all(c in state.hands[first] for c in bottom)
    assert state.current_player == first  # the landlord leads
    for seat in range(3):
        assert state.observation(seat)["bottom"] == [str(c) for c in bottom]
    # Two consecutive passes after a bid end it.
    state = _state(3)
    _bid_to_landlord(state, ["pass", "bid 1", "pass", "pass"])
    assert state.phase == "play" and state.landlord == (first + 1) % 3 and state.bid == 1
    # A bid, a pass, a higher bid: still bidding until two passes follow.
    state = _state(3)
    _bid_to_landlord(state, ["bid 1", "pass", "bid 2"])
    assert state.phase == "bid"
    _bid_to_landlord(state, ["pass", "pass"])
    assert state.landlord == (first + 2) % 3 and state.bid == 2


@pytest.mark.rule("DDZ-11")
def test_three_passes_redeal() -> None:
    state = _state(5)
    before = [list(h) for h in state.hands]
    _bid_to_landlord(state, ["pass", "pass", "pass"])
    assert state.deal_number == 1
    assert state.phase == "bid"
    order = state.deck_order(1)
    assert sorted(state.hands[0]) == sorted(order[0:17])
    assert state.hands != before
    assert state.current_player == state.first_bidder
    # The redeal replays from the seed.
    replay = GAME.state_from_json(state.to_json())
    assert replay.hands == state.hands


def test_single_round_bidding_option() -> None:
    game = cardkit.games.make("doudizhu", bidding="single_round")
    state = game.new_state(seed=3)
    first = state.first_bidder
    for action in ["bid 1", "bid 2", "pass"]:
        state.apply(action)
    assert state.phase == "play" and state.landlord == (first + 1) % 3
    with pytest.raises(cardkit.RuleOptionError):
        cardkit.games.make("doudizhu", bidding="auction")


@pytest.mark.rule("DDZ-12", "DDZ-13", "DDZ-14", "DDZ-15")
def test_leading_following_and_passing() -> None:
    state = _state(3)
    state.apply("bid 3")
    landlord = state.landlord
    assert landlord is not None
    assert "pass" not in state.legal_actions()
    with pytest.raises(cardkit.IllegalActionError, match="cannot pass"):
        state.apply("pass")
    lead = _lowest_single(state)
    state.apply(lead)
    follower = state.current_player
    assert follower == (landlord + 1) % 3
    assert "pass" in state.legal_actions()
    order = "3456789TJQKA2BR"
    for action in state.legal_actions()[:-1]:
        combo = doudizhu.classify(action.args[0])[0]
        assert combo.is_bomb or (
            combo.type == "single" and order.index(combo.main_rank) > order.index(lead[-1])
        )
    with pytest.raises(cardkit.IllegalActionError):
        state.apply("play 33")
    state.apply("pass")
    state.apply("pass")
    assert state.current_player == landlord and state.table is None


@pytest.mark.rule("DDZ-04", "DDZ-05", "DDZ-35", "DDZ-37", "DDZ-39", "DDZ-40", "DDZ-41", "DDZ-42")
def test_spring() -> None:
    state = _state(3)
    state.apply("bid 2")
    landlord = state.landlord
    while not state.is_terminal:
        if state.current_player == landlord:
            state.apply(_lowest_single(state))
        else:
            state.apply("pass")
    assert state.winner == landlord
    assert state.spring and not state.reverse_spring
    assert state.multiplier == 2
    returns = state.returns()
    assert returns[landlord] == 2 * 2 * 2
    assert sorted(returns) == [-4, -4, 8]
    assert state.score_breakdown()["winning_side"] == "landlord"


@pytest.mark.rule("DDZ-05", "DDZ-38", "DDZ-39", "DDZ-40", "DDZ-41", "DDZ-42")
def test_reverse_spring() -> None:
    state = _state(3)
    state.apply("bid 1")
    _bid_to_landlord(state, ["pass", "pass"])
    landlord = state.landlord
    assert landlord is not None
    farmer = (landlord + 1) % 3
    state.apply("play 3" if state.hand_ranks[landlord][0] == "3" else _lowest_single(state))
    responses = [a for a in state.legal_actions() if a != "pass" and len(a.args[0]) == 1]
    state.apply(responses[0])
    while not state.is_terminal:
        if state.current_player == farmer and state.table is None:
            state.apply(_lowest_single(state))
        else:
            state.apply("pass")
    assert state.winner == farmer  # a farmer goes out: both farmers win
    assert state.reverse_spring and not state.spring
    assert state.plays_made[landlord] == 1
    returns = state.returns()
    assert returns[landlord] == -2 * 1 * 2
    assert all(returns[s] == 2 for s in range(3) if s != landlord)
    assert sum(returns) == 0


@pytest.mark.rule("DDZ-36", "DDZ-39", "DDZ-40", "DDZ-41", "DDZ-42")
def test_bombs_double_the_multiplier() -> None:
    seen_bomb = False
    for seed in range(60):
        agents = [RandomAgent(seed * 3 + s) for s in range(3)]
        state = cardkit.play(GAME, agents, seed=seed)
        assert isinstance(state, DouDizhuState)
        bombs = sum(
            1 for a in state.history if a.kind == "play" and doudizhu.classify(a.args[0])[0].is_bomb
        )
        seen_bomb = seen_bomb or bombs > 0
        breakdown = state.score_breakdown()
        assert breakdown["bombs"] + breakdown["rockets"] == bombs
        spring = breakdown["spring"] or breakdown["reverse_spring"]
        assert breakdown["multiplier"] == 2 ** (bombs + int(spring))
        unit = breakdown["bid"] * breakdown["multiplier"]
        landlord = breakdown["landlord"]
        sign = 1 if breakdown["winning_side"] == "landlord" else -1
        assert state.returns()[landlord] == 2 * sign * unit
        assert sum(state.returns()) == 0
    assert seen_bomb


def test_actions_written_as_ranks() -> None:
    state = _state(3)
    state.apply("bid 3")
    seat = state.current_player
    assert seat is not None
    low = state.hand_ranks[seat][0]
    assert GAME.parse_action(low) == f"play {low}"
    assert GAME.parse_action("play 10JQKA") == "play TJQKA"
    assert GAME.parse_action("RB") == "play BR"
    with pytest.raises(cardkit.IllegalActionError):
        GAME.parse_action("play 3x")
    missing = next(r for r in "3456789TJQKA2" if r * 4 not in state.hand_ranks[seat])
    with pytest.raises(cardkit.IllegalActionError, match="does not hold"):
        state.apply(f"play {missing * 4}")
    with pytest.raises(cardkit.IllegalActionError, match="not a doudizhu combination"):
        state.apply("play 34")


def test_observation_hides_other_hands() -> None:
    state = _state(3)
    obs = state.observation(0)
    assert obs["hand"] == [str(c) for c in state.hands[0]]
    assert obs["bottom"] == []
    assert obs["card_counts"] == [17, 17, 17]
    for seat in (1, 2):
        assert not {str(c) for c in state.hands[seat]} & set(obs["hand"])


def test_bid_strength() -> None:
    assert bid_strength("BR2222") == 4 + 3 + 8 + 4
    assert bid_strength("3456") == 0


def test_agents_play_legal_games() -> None:
    for seed in range(6):
        agents = [
            DouDizhuRuleAgent(),
            DouDizhuSearchAgent(seed, samples=4),
            RandomAgent(seed),
        ]
        state = cardkit.play(GAME, agents, seed=seed)
        assert state.is_terminal and sum(state.returns()) == 0
    a = cardkit.play(GAME, [DouDizhuSearchAgent(1, 4) for _ in range(3)], seed=9)
    b = cardkit.play(GAME, [DouDizhuSearchAgent(1, 4) for _ in range(3)], seed=9)
    assert a.history == b.history


def test_search_with_the_endgame_solver_plays_legal_replayable_games() -> None:
    # From 14 cards left every sampled deal is solved exactly (Rust tests check the
    # solver against plain minimax); here the agent's games stay legal and seeded.
    assert_seeded_search(
        GAME,
        lambda seed: [DouDizhuSearchAgent(seed + s, samples=4, endgame=14) for s in range(3)],
        range(4),
    )


def test_search_by_successive_halving_plays_legal_replayable_games() -> None:
    # Rust tests check the schedule's budget and that two candidates search as the
    # uniform split; here the option reaches the search, and games stay seeded.
    assert_seeded_search(
        GAME,
        lambda seed: [DouDizhuSearchAgent(seed + s, samples=8, halving=True) for s in range(3)],
    )
    for value in (1, "yes", None, 1.0):
        with pytest.raises(cardkit.RuleOptionError, match="halving must be a bool"):
            DouDizhuSearchAgent(0, halving=value)  # type: ignore[arg-type]


def test_search_dealing_to_fit_the_passes_plays_legal_replayable_games() -> None:
    # Rust tests check that the deals fit the passes; here every position of real
    # games reads back through the play history, with the option on and off.
    for evidence in (True, False):
        assert_seeded_search(
            GAME,
            lambda seed, fit=evidence: [
                DouDizhuSearchAgent(seed + s, samples=4, evidence=fit) for s in range(3)
            ],
        )
    for value in (1, "yes", None, "farmer", "Landlord", b"landlord"):
        with pytest.raises(cardkit.RuleOptionError, match="evidence must be a bool or 'landlord'"):
            DouDizhuSearchAgent(0, evidence=value)  # type: ignore[arg-type]


def test_search_fitting_the_passes_as_landlord_only_replays_and_is_mixed() -> None:
    # evidence="landlord" with halving (the strongest search, docs/doudizhu.md):
    # seeded games replay, and a position is searched with the passes fitted exactly
    # when the agent is the landlord, so the landlord's move is the evidence=True
    # search's and a farmer's the uniform one's.
    def best(seed: int) -> list[DouDizhuSearchAgent]:
        return [
            DouDizhuSearchAgent(seed + s, samples=4, halving=True, evidence="landlord")
            for s in range(3)
        ]

    assert_seeded_search(GAME, best)
    state = GAME.new_state(seed=4)
    checked = set()
    while not state.is_terminal and len(checked) < 2:
        seat = state.current_player
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_actions()
        if obs["phase"] == "play" and len(legal) > 1 and obs["play_history"]:
            role = obs["landlord"] == seat
            mixed = DouDizhuSearchAgent(7, samples=4, evidence="landlord").act(obs, legal)
            same = DouDizhuSearchAgent(7, samples=4, evidence=role).act(obs, legal)
            assert mixed == same
            checked.add(role)
        state.apply(DouDizhuRuleAgent().act(obs, legal))
    assert checked == {True, False}


def test_search_with_shedding_playouts_plays_legal_replayable_games() -> None:
    # The shedding policy's Dou Dizhu choices are checked in the Rust tests
    # (playout.rs); here the option reaches the search (on the same sampled deals,
    # some move of a game differs from the rule playouts' choice) and games replay.
    assert_seeded_search(
        GAME,
        lambda seed: [DouDizhuSearchAgent(seed + s, samples=4, shedding=True) for s in range(3)],
    )
    state = GAME.new_state(seed=2)
    differs = False
    while not state.is_terminal and not differs:
        seat = state.current_player
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_actions()
        if obs["phase"] == "play" and len(legal) > 1:
            shed = DouDizhuSearchAgent(7, samples=8, shedding=True).act(obs, legal)
            differs = shed != DouDizhuSearchAgent(7, samples=8).act(obs, legal)
        state.apply(DouDizhuRuleAgent().act(obs, legal))
    assert differs
    for value in (1, "yes", None):
        with pytest.raises(cardkit.RuleOptionError, match="shedding must be a bool"):
            DouDizhuSearchAgent(0, shedding=value)  # type: ignore[arg-type]


def test_a_play_history_that_does_not_fit_is_an_illegal_action() -> None:
    with pytest.raises(cardkit.IllegalActionError, match="out of turn"):
        ClimbingView("doudizhu", 0, "3", [1, 1, 1], "44", history=[(1, "5"), (1, "4")])
    with pytest.raises(cardkit.IllegalActionError, match="empty table"):
        ClimbingView("doudizhu", 0, "3", [1, 1, 1], "44", history=[(0, None)])


def test_rule_agent_beats_random() -> None:
    total = 0.0
    for seed in range(30):
        for hero in range(3):
            agents = [DouDizhuRuleAgent() if s == hero else RandomAgent(seed + s) for s in range(3)]
            total += cardkit.play(GAME, agents, seed=seed).returns()[hero]
    assert total > 0


# -- the learning interface ----------------------------------------------------------

# Offsets of the tensor layout (docs/doudizhu.md, "Learning interface").
PLANE = 60
TABLE, OWNER, LEFT, TO_ACT = 300, 360, 363, 443
BIDDING, BID, LANDLORD, FIRST, CALLS, BOTTOM = 446, 447, 451, 454, 457, 472


def test_the_game_index_is_the_module_index() -> None:
    assert GAME.num_actions == doudizhu.action_space_size() == 24643
    for text in ["pass", "bid 1", "bid 3", "play 3", "play 33344", "play BR"]:
        assert GAME.action_to_id(text) == doudizhu.action_to_id(text)
    for action_id in (0, 2, 4, 227, GAME.num_actions - 1):
        assert GAME.id_to_action(action_id) == doudizhu.id_to_action(action_id)
    for bad in ("bid 4", "bid 0", "play 34"):
        with pytest.raises(cardkit.IllegalActionError):
            GAME.action_to_id(bad)


def test_bidding_ids_and_masks() -> None:
    state = _state(3)
    assert state.legal_action_ids() == [0, 1, 2, 3]
    state.apply("bid 2")
    assert state.legal_action_ids() == [0, 3]
    assert state.legal_action_mask().sum() == 2
    state.apply("bid 3")
    ids = state.legal_action_ids()
    assert 0 not in ids  # the landlord leads
    assert ids == sorted(doudizhu.action_to_id(a) for a in state.legal_actions())


def test_observation_tensor_bidding_then_play() -> None:
    state = _state(3)
    first = state.first_bidder
    seat = (first + 1) % 3
    tensor = state.observation_tensor(seat)
    assert tensor.shape == GAME.observation_shape == (532,)
    assert tensor[:PLANE].sum() == 17 and tensor[PLANE : 2 * PLANE].sum() == 37
    assert tensor[BIDDING] == 1 and tensor[BID] == 1  # no bid yet
    assert tensor[FIRST : FIRST + 3].tolist() == [0, 0, 1]  # the seat before
    assert tensor[TO_ACT : TO_ACT + 3].tolist() == [0, 0, 1]
    assert tensor[BOTTOM:].sum() == 0  # the bottom cards are hidden
    state.apply("bid 1")
    state.apply("bid 3")  # seat bids 3 and becomes the landlord
    tensor = state.observation_tensor(seat)
    assert tensor[BIDDING] == 0 and tensor[BID + 3] == 1
    assert tensor[LANDLORD : LANDLORD + 3].tolist() == [1, 0, 0]
    # Each seat's last call: the seat itself bid 3, the seat before it bid 1.
    assert tensor[CALLS : CALLS + 5].tolist() == [0, 0, 0, 0, 1]
    assert tensor[CALLS + 10 : CALLS + 15].tolist() == [0, 0, 1, 0, 0]
    assert tensor[CALLS + 5] == 1  # the next seat has not spoken
    assert tensor[BOTTOM:].sum() == 3
    assert tensor[:PLANE].sum() == 20 and tensor[LEFT + 20] == 1
    # The farmers see the same bottom cards, and the landlord relative to them.
    farmer = state.observation_tensor(first)
    assert (farmer[BOTTOM:] == tensor[BOTTOM:]).all()
    assert farmer[LANDLORD : LANDLORD + 3].tolist() == [0, 1, 0]
    state.apply(_lowest_single(state))
    after = state.observation_tensor((seat + 1) % 3)
    assert after[TABLE : TABLE + PLANE].sum() == 1
    assert after[OWNER : OWNER + 3].tolist() == [0, 0, 1]


def test_utility_range_bounds_the_largest_stake() -> None:
    low, high = GAME.utility_range
    assert (low, high) == (-49152.0, 49152.0)  # 2 x bid 3 x 2**13
    assert doudizhu.DouDizhu(bidding="single_round").utility_range == (low, high)


def test_an_abandoned_game_has_no_legal_ids() -> None:
    state = _state(5)
    state.deal_number = MAX_DEALS - 1  # white-box: the last deal the game allows
    for _ in range(3):
        state.apply("pass")
    assert state.phase == "abandoned" and state.is_terminal
    assert state.legal_action_ids() == [] and not state.legal_action_mask().any()
    tensor = state.observation_tensor(0)
    assert tensor[TO_ACT : TO_ACT + 3].sum() == 0 and tensor[BOTTOM:].sum() == 0
    assert GAME.utility_range[0] <= min(state.returns())
