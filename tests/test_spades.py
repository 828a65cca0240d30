"""Spades rules, clause by clause (SPD in the seeds' clauses.md), and its game flow."""

from __future__ import annotations

import itertools
import json
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import cardkit
from cardkit import IllegalActionError, RuleOptionError, games
from cardkit._core import (
    _test,  # the engine side of scoring twins, for tests only
    spades_observation,
    trick_winner,
)
from cardkit.agents import RandomAgent
from cardkit.games._base import MAX_DEALS
from cardkit.games.spades import Phase, Spades, SpadesState, team_score

# Seat 1 holds every spade and no heart: the seed's trick Ah 2s Kh 3h.
EXAMPLE = [
    "Ah Qh Jh Th 9h 2d 3d 4d 5d 6d 7d 8d 9d",
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
    "Kh 8h 7h 6h 5h Td Jd Qd Kd Ad 2c 3c 4c",
    "3h 2h 4h 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
]


def one_deal(hands: list[str], **options: object) -> SpadesState:
    return Spades(match=False, **options).new_state(seed=1, deal=" ".join(hands))  # type: ignore[arg-type]


def bid_all(state: SpadesState, bids: list[int]) -> None:
    for b in bids:
        state.apply(f"bid {b}")


def end_deal(state: SpadesState, won: list[int]) -> None:
    """White-box: end the deal as if its tricks went ``won`` (no cards played)."""
    state._play_deal = SimpleNamespace(won=won)  # type: ignore[assignment]
    state._phase = Phase.PLAY
    state._advance()


@pytest.mark.rule("SPD-01")
def test_partners_share_returns() -> None:
    # Random bids sink both scores, so the house rule ends the match (see below).
    game = games.make("spades", lose_at=-200)
    state = cardkit.play(game, [RandomAgent(i) for i in range(4)], seed=3)
    r = state.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]


@pytest.mark.rule("SPD-02", "SPD-03", "SPD-15")
def test_bidding_in_order_and_contracts() -> None:
    state = games.make("spades", dealer=1).new_state(seed=2)
    assert state.current_player == 2
    assert state.legal_actions() == [f"bid {n}" for n in range(14)]
    assert len(state.observation(0)["hand"]) == 13
    for seat, bid in zip((2, 3, 0, 1), ("bid 4", "nil", "bid 3", "bid 0"), strict=True):
        assert state.current_player == seat
        state.apply(bid)
    obs = state.observation(0)
    assert obs["bids"] == [3, 0, 4, 0]
    assert obs["contracts"] == [7, 0]
    # Left of the dealer leads.
    assert state.current_player == 2
    with pytest.raises(IllegalActionError):
        games.make("spades").new_state(seed=1).apply("bid 14")


@pytest.mark.rule("SPD-04", "SPD-05", "SPD-06", "SPD-11", "SPD-12", "SPD-13", "SPD-14")
def test_worked_example_low_trump_wins() -> None:
    state = one_deal(EXAMPLE)
    bid_all(state, [3, 4, 3, 2])
    state.apply("Ah")
    # Seat 1 has no heart: any card, and its low spade trumps.
    assert len(state.legal_actions()) == 13
    state.apply("2s")
    state.apply("Kh")
    # Seat 3 holds hearts and must follow: no trump to avoid the suit.
    assert all(a.args[0].endswith("h") for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="does not follow"):
        state.apply("5c")
    state.apply("3h")
    obs = state.observation(0)
    assert obs["trick_winners"] == [1]
    assert obs["tricks_won"] == [0, 1, 0, 0]
    assert obs["spades_broken"] is True
    assert state.current_player == 1
    assert trick_winner(["Ah", "2s", "Kh", "3h"], trump="s") == 1


@pytest.mark.rule("SPD-07")
def test_spades_not_led_before_broken() -> None:
    for seed in range(20):
        s = games.make("spades").new_state(seed=seed)
        bid_all(s, [3, 3, 3, 3])
        hand = s.observation(0)["hand"]
        legal = {a.args[0] for a in s.legal_actions()}
        if any(not c.endswith("s") for c in hand):
            assert legal == {c for c in hand if not c.endswith("s")}
    swapped = [EXAMPLE[0].replace("9h", "2s"), EXAMPLE[1].replace("2s", "9h"), *EXAMPLE[2:]]
    s2 = one_deal(swapped)
    bid_all(s2, [3, 3, 3, 3])
    before = s2.to_json()
    with pytest.raises(IllegalActionError, match="spades are not broken"):
        s2.apply("2s")
    assert s2.to_json() == before
    # A leader holding only spades may lead one.
    s3 = one_deal([EXAMPLE[1], EXAMPLE[0], EXAMPLE[2], EXAMPLE[3]])
    bid_all(s3, [3, 3, 3, 3])
    assert len(s3.legal_actions()) == 13


@pytest.mark.rule("SPD-08", "SPD-09", "SPD-16", "SPD-17", "SPD-18", "SPD-19")
def test_contract_nil_and_bag_scoring() -> None:
    assert team_score([3, 4], [4, 4], 0)["points"] == 71
    assert team_score([3, 4], [3, 3], 0)["points"] == -70
    nil_made = team_score([0, 4], [0, 5], 0)
    assert nil_made["nil_points"] == 100 and nil_made["points"] == 141
    failed = team_score([0, 4], [2, 3], 0)
    assert failed["made"] is False and failed["bags"] == 2
    assert failed["points"] == -100 - 40 + 2
    # The failed nil's tricks are bags, not part of the contract.
    assert team_score([0, 2], [3, 2], 0)["tricks_toward_contract"] == 2
    assert team_score([0, 2], [3, 2], 0)["points"] == -100 + 20 + 3


@pytest.mark.rule("SPD-09")
def test_bags_crossing_ten_twice_in_one_deal() -> None:
    result = team_score([1, 1], [6, 7], 9)
    assert result["bags"] == 11
    assert result["bag_penalty"] == -200
    assert result["bags_after"] == 0
    assert result["points"] == 20 + 11 - 200


def test_python_and_rust_scoring_agree() -> None:
    # A guard of the scoring twins, not a clause test (the clauses have theirs above).
    for b0, b1 in itertools.product(range(0, 14, 3), range(0, 14, 2)):
        for t0 in range(14):
            for t1 in range(14 - t0):
                for bags in (0, 5, 9):
                    py = team_score([b0, b1], [t0, t1], bags)
                    assert _test.spades_team_score([b0, b1], [t0, t1], bags) == (
                        py["points"],
                        py["bags_after"],
                    )


@pytest.mark.rule("SPD-10")
def test_match_to_500_and_equal_scores_continue() -> None:
    state = games.make("spades").new_state(seed=5)
    state._scores = [480, 481]  # white-box: a deal that ends 505-505
    state._bids = [1, 1, 1, 1]
    end_deal(state, [3, 3, 4, 3])
    assert state.scores == [505, 505]
    assert not state.is_terminal
    assert state.observation(0)["deal"] == 1
    assert state.bags == [5, 4]
    state._bids = [3, 1, 3, 1]
    end_deal(state, [4, 3, 3, 3])
    assert state.scores == [566, 529]
    assert state.is_terminal and state.winning_team() == 0
    assert state.returns() == [37.0, -37.0, 37.0, -37.0]


@pytest.mark.rule("SPD-20")
def test_no_blind_nil_no_jokers() -> None:
    game = games.make("spades")
    assert game.deck_name == "standard52"
    state = game.new_state(seed=1)
    assert all(len(state.observation(s)["hand"]) == 13 for s in range(4))
    for bad in ("blind nil", "bid blind", "bid -1", "BJ"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)


def test_dealer_rotates_and_options() -> None:
    state = games.make("spades", lose_at=-100_000).new_state(seed=4)
    agents = [RandomAgent(i) for i in range(4)]
    dealers = []
    while len(dealers) < 5:
        obs = state.observation(0)
        if obs["deal"] == len(dealers):
            dealers.append(obs["dealer"])
            # Bidding starts on the dealer's left.
            assert state.current_player == (obs["dealer"] + 1) % 4
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    assert dealers == [3, 0, 1, 2, 3]
    fixed = games.make("spades", rotate_dealer=False, match=False).new_state(seed=2)
    assert fixed.observation(0)["dealer"] == 3
    two = games.make("spades", first_lead="two_of_clubs").new_state(seed=9)
    bid_all(two, [2, 2, 2, 2])
    assert two.legal_actions() == ["play 2c"]
    for bad in ({"lose_at": 5}, {"dealer": 4}, {"first_lead": "dealer"}, {"match": 1}):
        with pytest.raises(RuleOptionError):
            games.make("spades", **bad)


@pytest.mark.rule("SPD-10")
def test_only_500_ends_a_match_by_default() -> None:
    game = games.make("spades")
    assert game.options["lose_at"] is None
    state = game.new_state(seed=5)
    state._scores = [-400, 100]  # white-box: far below the -200 house rule
    state._bids = [1, 1, 1, 1]
    end_deal(state, [3, 3, 4, 3])
    assert state.scores == [-375, 124]
    assert not state.is_terminal and state.observation(0)["deal"] == 1


def test_lose_at_ends_hopeless_matches() -> None:
    # The house rule, an option: a match also ends when a team sinks to lose_at.
    # Every seat's observation carries it, for agents that value the match.
    state = games.make("spades", lose_at=-200).new_state(seed=1)
    assert [state.observation(s)["lose_at"] for s in range(4)] == [-200] * 4
    assert games.make("spades").new_state(seed=1).observation(0)["lose_at"] is None
    for seed in range(5):
        state = cardkit.play(
            games.make("spades", lose_at=-200), [RandomAgent(seed + i) for i in range(4)], seed=seed
        )
        a, b = state.scores
        assert a != b and (max(a, b) >= 500 or min(a, b) <= -200)
        json.dumps(state.score_breakdown())


def test_a_match_ends_at_the_deal_cap() -> None:
    # Random play never reaches 500 (most bids and nils fail, bags cost 100 a ten):
    # without lose_at a random match runs to the cap that max_match_length promises
    # (issue 19: a random match takes seconds). Two deals from 0 cannot reach 500.
    game = games.make("spades")
    assert game.max_match_length == MAX_DEALS * game.max_game_length
    state = game.new_state(seed=3)
    state._deal_number = MAX_DEALS - 2  # white-box: two deals before the cap
    agents = [RandomAgent(i) for i in range(4)]
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    deals = state.score_breakdown()["deals"]
    assert [d["deal"] for d in deals] == [MAX_DEALS - 2, MAX_DEALS - 1]
    assert max(state.scores) < 500 and len(state.history) == 2 * game.max_game_length


def test_single_deal_returns_deal_points() -> None:
    state = cardkit.play(Spades(match=False), [RandomAgent(i) for i in range(4)], seed=12)
    deal = state.score_breakdown()["deals"][0]
    d = deal["teams"][0]["points"] - deal["teams"][1]["points"]
    assert state.returns() == [d, -d, d, -d]
    assert sum(deal["tricks"]) == 13


# -- the learning interface (docs/spades.md, "Learning interface") -----------------


def test_action_index_names_every_play_and_bid() -> None:
    game = games.make("spades", first_lead="two_of_clubs")
    assert game.num_actions == 66
    for card in range(52):
        name = str(cardkit.Card.from_index(card))
        assert game.action_to_id(name) == game.action_to_id(f"play {name}") == card
    for bid in range(14):
        assert game.action_to_id(f"bid {bid}") == 52 + bid
    assert game.action_to_id("nil") == game.action_to_id("bid nil") == 52
    for i in range(66):
        assert game.action_to_id(game.id_to_action(i)) == i
    state = game.new_state(seed=2)
    assert state.legal_action_ids() == list(range(52, 66))
    with pytest.raises(IllegalActionError, match="no action id"):
        state.action_to_id("pass")


def _expected_tensor(obs: dict[str, Any]) -> np.ndarray:
    """The documented layout, built in Python from ``observation(seat)``."""
    seat, out = obs["seat"], np.zeros(547, np.float32)

    def rel(p: int) -> int:
        return (p - seat) % 4

    def put(at: int, names: list[str]) -> None:
        for name in names:
            out[at + cardkit.Card(name).index] = 1

    leader, trick, to_act, playing = obs["leader"], obs["trick"], obs["to_act"], obs["phase"]
    put(0, obs["hand"])
    done = zip(obs["trick_leaders"], obs["tricks"], strict=True)
    for first, cards in [*done, (leader, trick)]:
        for k, name in enumerate(cards):
            put(52 + rel(first + k) * 52, [name])
            if cards is trick:
                put(260 + rel(first + k) * 52, [name])
    if to_act is not None:
        if playing == "play":
            out[468 + rel(leader)] = 1
        out[472 + rel(to_act)] = 1
        out[477 + (playing == "play")] = 1
    out[476] = obs["spades_broken"]
    out[479 + rel(obs["dealer"])] = 1
    for p, bid in enumerate(obs["bids"]):
        if bid is not None:
            out[483 + rel(p) * 14 + bid] = 1
        out[539 + rel(p)] = obs["tricks_won"][p] / 13
    for k, team in enumerate((seat % 2, 1 - seat % 2)):
        out[543 + k] = obs["scores"][team] / obs["target"]
        out[545 + k] = obs["bags"][team] / 10
    return out


@pytest.mark.parametrize("first_lead", ["left_of_dealer", "two_of_clubs"])
def test_observation_tensor_follows_the_documented_layout(first_lead: str) -> None:
    # A match that ends soon: bids, every trick, several deals, carried bags, the end.
    game = games.make("spades", target=150, lose_at=-1000, first_lead=first_lead)
    state = game.new_state(seed=1)
    agent = RandomAgent(1)
    while True:
        for seat in range(4):
            tensor = state.observation_tensor(seat)
            expected = _expected_tensor(state.observation(seat))
            np.testing.assert_allclose(tensor, expected, rtol=1e-6, err_msg=str(seat))
        if state.is_terminal:
            break
        state.apply(agent.act({}, state.legal_actions()))
    assert len(state.score_breakdown()["deals"]) > 1
    over = state.observation_tensor(0)
    # Over: nobody to act and no phase; the broken suit stays shown.
    assert over[472:476].tolist() == [0] * 4 and over[477:479].tolist() == [0] * 2
    assert over[476] == 1


def _team_points(bags: range) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """The highest and lowest points of one team in one deal, over every pair of bids
    and carried bags, by the tricks its two seats took."""
    high, low = {}, {}
    for tricks in itertools.product(range(14), repeat=2):
        if sum(tricks) <= 13:
            points = [
                team_score(bids, list(tricks), carried)["points"]
                for bids in itertools.product(range(14), repeat=2)
                for carried in bags
            ]
            high[tricks], low[tricks] = max(points), min(points)
    return high, low


def _widest_difference(bags: range) -> int:
    high, low = _team_points(bags)
    return max(
        high[mine] - low[theirs] for mine in high for theirs in low if sum(mine) + sum(theirs) == 13
    )


def test_utility_range_constants_are_the_scoring_extremes() -> None:
    from cardkit.games import spades

    assert _widest_difference(range(1)) == spades._DEAL_SPREAD
    assert _widest_difference(range(10)) == spades._CARRIED_SPREAD
    assert min(_team_points(range(10))[1].values()) == spades._WORST_DEAL
    assert games.make("spades", match=False).utility_range == (-520.0, 520.0)
    assert games.make("spades", lose_at=-200).utility_range == (-1317.0, 1317.0)
    low, high = games.make("spades").utility_range
    assert low == -high and high > 10_000 * 419


def test_observation_binding_refuses_bad_inputs() -> None:
    hearts = games.make("hearts", passing=False).new_state(seed=1)
    good = np.zeros(547, np.float32)
    args: list[object] = [good, 0, 1, None, 0, 3, [None, 2, None, None], [0, 0], [0, 0], 500]
    spades_observation(*args)  # type: ignore[arg-type]
    assert good[483 + 14 + 2] == 1
    bad_calls = {
        0: [np.zeros(548, np.float32)],
        1: [4],
        3: [hearts._play_deal],
        5: [4],
        6: [[14, None, None, None]],
        8: [[10, 0]],
        9: [0],
    }
    for position, values in bad_calls.items():
        for value in values:
            call = list(args)
            call[position] = value
            with pytest.raises(RuleOptionError):
                spades_observation(*call)  # type: ignore[arg-type]


def test_bidding_observation_does_not_name_the_two_of_clubs_holder() -> None:
    # Under first_lead="two_of_clubs" the holder of the 2♣ leads; while seats bid,
    # nobody may learn who that is, so the observed leader stays unknown until play.
    game = Spades(first_lead="two_of_clubs", match=False)
    state = game.new_state(seed=4)
    while state.phase == "bid":
        assert all(state.observation(s)["leader"] is None for s in range(4))
        state.apply(state.legal_actions()[2])
    holder = next(s for s in range(4) if "2c" in state.observation(s)["hand"])
    assert all(state.observation(s)["leader"] == holder for s in range(4))
    plain = Spades(match=False).new_state(seed=4).observation(0)
    assert plain["leader"] == (plain["dealer"] + 1) % 4
