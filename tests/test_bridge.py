"""Contract Bridge rules, clause by clause (BR in the seeds' clauses.md): the deal,
the auction, the play with dummy, and the duplicate score, checked against
endplay's contract scoring for every contract and trick count."""

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
from cardkit import Card, IllegalActionError, RuleOptionError, games
from cardkit._core import bridge_observation, bridge_score, trick_winner
from cardkit.agents import RandomAgent
from cardkit.games.bridge import CALL_ACTIONS, OBSERVATION_SIZE, Bridge, BridgeState, Phase, score

# North: two top hearts and eleven spades; East: three hearts and ten clubs; South:
# four hearts and nine diamonds; West: the rest (four small hearts, the two top
# spades, three top clubs, four top diamonds).
HANDS = {
    0: "Ah Kh 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs",
    1: "Qh Jh Th 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc",
    2: "9h 8h 7h 6h 2d 3d 4d 5d 6d 7d 8d 9d Td",
    3: "5h 4h 3h 2h Ks As Qc Kc Ac Jd Qd Kd Ad",
}


def dealt(hands: dict[int, str]) -> list[str]:
    """The deck order that deals ``hands`` one card at a time clockwise from West."""
    split = {seat: text.split() for seat, text in hands.items()}
    return [split[seat][k] for k in range(13) for seat in (3, 0, 1, 2)]


def fixed(*calls: str, vulnerability: str = "none") -> BridgeState:
    """The deal of ``HANDS`` after ``calls`` (from South)."""
    state = Bridge(vulnerability).new_state(seed=5, deal=dealt(HANDS))
    for call in calls:
        state.apply(call)
    return state


def hand(state: BridgeState, seat: int) -> set[str]:
    return {str(c) for c in state.zones()[f"hand{seat}"]}


# -- the deal -------------------------------------------------------------------


@pytest.mark.rule("BR-03", "BR-43")
def test_one_deal_whose_score_does_not_accumulate() -> None:
    game = games.make("bridge")
    assert game.options == {"vulnerability": "none"}
    with pytest.raises(RuleOptionError):
        games.make("bridge", match=True)
    state = cardkit.play(game, [RandomAgent(s) for s in range(4)], seed=11)
    assert state.is_terminal
    # The raw duplicate score of this one deal is the return: no IMPs, no totals.
    ns, ew = state.score_breakdown()["scores"]
    assert state.returns() == [ns, ew, ns, ew]


@pytest.mark.rule("BR-04", "BR-42")
def test_partnerships_north_south_against_east_west() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass")
    for card in ["Qh", "6h", "2h", "Ah"]:
        state.apply(card)
    r = RandomAgent(3)
    while not state.is_terminal:
        state.apply(r.act(state.observation(state.current_player), state.legal_actions()))
    ns, ew = state.score_breakdown()["scores"]
    assert ns == -ew != 0
    assert state.returns() == [ns, -ns, ns, -ns]
    obs = state.observation(2)
    assert obs["seat"] == 2 and obs["contract"]["declarer"] == 0


@pytest.mark.rule("BR-07")
def test_fifty_two_cards_without_jokers() -> None:
    state = Bridge().new_state(seed=1)
    cards = [c for zone in state.zones().values() for c in zone]
    assert sorted(cards) == sorted(cardkit.deck("standard52"))
    assert not any(c.is_joker for c in cards) and len(set(cards)) == 52
    with pytest.raises(RuleOptionError):
        Bridge().new_state(seed=1, deal="RJ")


@pytest.mark.rule("BR-08")
def test_dealt_one_at_a_time_clockwise_from_west() -> None:
    state = Bridge().new_state(seed=9)
    order = [str(c) for c in state.deck_order(0)]
    for i, card in enumerate(order):
        assert card in hand(state, (3 + i) % 4)
    assert all(len(hand(state, s)) == 13 for s in range(4))
    assert hand(fixed(), 3) == set(HANDS[3].split())


@pytest.mark.rule("BR-09", "BR-12")
def test_south_calls_first_then_clockwise() -> None:
    state = fixed()
    seats = []
    for call in ["1C", "pass", "1D", "pass", "1H"]:
        seats.append(state.current_player)
        state.apply(call)
    assert seats == [2, 3, 0, 1, 2]
    assert state.observation(0)["dealer"] == 2


@pytest.mark.rule("BR-10", "BR-11")
def test_vulnerability_is_chosen_before_the_deal_and_stays() -> None:
    for vul, flags in [
        ("none", [False, False]),
        ("ns", [True, False]),
        ("ew", [False, True]),
        ("both", [True, True]),
    ]:
        state = Bridge(vul).new_state(seed=2)
        seen = []
        while not state.is_terminal:
            seen.append(state.observation(state.current_player)["vulnerable"])
            legal = state.legal_actions()
            state.apply(legal[-1] if len(state.history) < 3 else legal[0])
        assert seen and all(v == flags for v in seen)
    with pytest.raises(RuleOptionError):
        Bridge("all")
    # Vulnerability changes the game bonus: 4S= is 420 or 620.
    assert score(4, 3, 0, False, 10)["total"] == 420
    assert score(4, 3, 0, True, 10)["total"] == 620


# -- the auction ----------------------------------------------------------------


@pytest.mark.rule("BR-13")
def test_pass_or_bid_one_to_seven_in_five_strains() -> None:
    legal = [a.text for a in fixed().legal_actions()]
    bids = [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
    assert legal == ["pass", *bids]
    assert [a.text for a in CALL_ACTIONS] == ["pass", *bids, "X", "XX"]


@pytest.mark.rule("BR-14", "BR-15", "BR-16")
def test_each_bid_exceeds_the_last() -> None:
    state = fixed("1S")
    legal = {a.text for a in state.legal_actions()}
    assert "1NT" in legal and "2C" in legal
    assert not {"1C", "1D", "1H", "1S"} & legal
    with pytest.raises(IllegalActionError, match="1H is insufficient: a new bid must exceed 1S"):
        state.apply("1H")
    state.apply("1NT")
    legal = {a.text for a in state.legal_actions()}
    assert "2C" in legal and "1NT" not in legal
    state.apply("pass")
    state.apply("3C")
    with pytest.raises(IllegalActionError, match="insufficient"):
        state.apply("2NT")
    assert state.history[-1].text == "3C"


@pytest.mark.rule("BR-17")
def test_only_opponents_double_an_undoubled_bid() -> None:
    with pytest.raises(IllegalActionError, match="no bid to double"):
        fixed().apply("X")
    state = fixed("1H", "pass")
    # North, South's partner, may not double its own side.
    with pytest.raises(IllegalActionError, match="cannot double its own side"):
        state.apply("X")
    state.apply("pass")
    state.apply("X")  # East doubles
    state.apply("pass")
    with pytest.raises(IllegalActionError, match="already doubled"):
        state.apply("X")  # West: already doubled


@pytest.mark.rule("BR-18")
def test_only_the_bidding_side_redoubles_a_double() -> None:
    state = fixed("1H")
    with pytest.raises(IllegalActionError, match="not doubled"):
        state.apply("XX")
    state.apply("X")  # West doubles
    with pytest.raises(IllegalActionError, match="cannot double its own side"):
        state.apply("X")
    state.apply("pass")  # North
    with pytest.raises(IllegalActionError, match="only the side that bid 1H may redouble"):
        state.apply("XX")  # East, of the doubling side
    state.apply("pass")
    state.apply("XX")  # South redoubles
    assert state.legal_actions()[-1].text == "7NT"
    with pytest.raises(IllegalActionError, match="already redoubled"):
        state.apply("XX")


@pytest.mark.rule("BR-19")
def test_passes_keep_the_doubling() -> None:
    state = fixed("1H", "X", "pass", "pass", "pass")
    assert state.contract_text() == "1HX"
    state = fixed("1H", "X", "XX", "pass", "pass", "pass")
    assert state.contract_text() == "1HXX"


@pytest.mark.rule("BR-20")
def test_a_new_bid_cancels_the_doubling() -> None:
    state = fixed("1H", "X", "XX", "2C", "pass", "pass", "pass")
    assert state.contract == {
        "level": 2,
        "strain": "C",
        "doubling": "",
        "declarer": 1,
        "dummy": 3,
    }


@pytest.mark.rule("BR-21")
def test_double_and_redouble_reset_the_pass_count() -> None:
    state = fixed("1H", "pass", "pass", "X", "pass", "pass")
    assert state.phase is Phase.AUCTION
    state.apply("XX")
    state.apply("pass")
    state.apply("pass")
    assert state.phase is Phase.AUCTION
    state.apply("pass")
    assert state.phase is Phase.PLAY and state.contract_text() == "1HXX"


@pytest.mark.rule("BR-22", "BR-44")
def test_four_passes_end_the_deal_zero_zero() -> None:
    state = fixed("pass", "pass", "pass")
    assert not state.is_terminal
    state.apply("pass")
    assert state.is_terminal and state.current_player is None
    assert state.returns() == [0.0, 0.0, 0.0, 0.0]
    bd = state.score_breakdown()
    assert bd["passed_out"] is True and bd["contract"] is None and bd["scores"] == [0, 0]
    assert state.legal_actions() == []


@pytest.mark.rule("BR-23", "BR-24")
def test_three_passes_after_a_bid_end_the_auction() -> None:
    state = fixed("pass", "1C", "1NT", "2H", "pass", "pass")
    assert state.phase is Phase.AUCTION
    state.apply("pass")
    assert state.phase is Phase.PLAY
    assert state.contract_text() == "2H"
    assert state.contract["declarer"] == 1  # type: ignore[index]


@pytest.mark.rule("BR-25", "BR-26")
def test_declarer_is_the_first_of_the_side_to_name_the_strain() -> None:
    # South names hearts first, West bids spades, North raises hearts: South
    # declares though North made the final bid.
    state = fixed("1H", "1S", "3H", "pass", "pass", "pass")
    assert state.contract == {
        "level": 3,
        "strain": "H",
        "doubling": "",
        "declarer": 2,
        "dummy": 0,
    }
    # The opponents naming the strain does not make a seat of theirs declarer.
    state = fixed("1S", "2S", "pass", "pass", "3S", "pass", "pass", "pass")
    assert state.contract["declarer"] == 2  # type: ignore[index]


@pytest.mark.rule("BR-05", "BR-27")
def test_the_target_is_six_plus_the_level() -> None:
    state = fixed("pass", "pass", "4S", "pass", "pass", "pass")
    assert state.score_breakdown()["target"] == 10
    assert score(4, 3, 0, False, 10)["total"] == 420
    assert score(4, 3, 0, False, 9)["total"] == -50
    assert score(1, 4, 0, False, 7)["total"] == 90
    assert score(1, 4, 0, False, 6)["total"] == -50


@pytest.mark.rule("BR-06")
def test_made_scores_the_declarer_defeated_the_defenders() -> None:
    made = score(3, 4, 0, False, 9)
    assert made["total"] == 400 and made["undertricks"] == 0
    down = score(3, 4, 0, False, 7)
    assert down["total"] == -100 and down["contract_points"] == 0
    # East-West declare and go down: North-South gain the penalty.
    state = fixed("pass", "1C", "pass", "7C", "pass", "pass", "pass")
    agents = [RandomAgent(s) for s in range(4)]
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    bd = state.score_breakdown()
    assert bd["declarer"] == 3 and bd["result"] < 0
    assert bd["scores"][0] == -bd["declarer_score"]["total"] > 0


# -- the play -------------------------------------------------------------------


@pytest.mark.rule("BR-29", "BR-31", "BR-30", "BR-40")
def test_opening_lead_then_dummy_is_public_and_played_by_declarer() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass")
    assert state.contract == {
        "level": 1,
        "strain": "S",
        "doubling": "",
        "declarer": 0,
        "dummy": 2,
    }
    # East, declarer North's left-hand opponent, leads.
    assert state.current_player == 1 and state.hand_to_play == 1
    for seat in range(4):
        assert state.observation(seat)["dummy_hand"] is None
    assert [str(c) for c in state.private_cards(2)] != []
    state.apply("Qh")
    dummy = sorted(HANDS[2].split(), key=lambda t: Card(t).index)
    for seat in range(4):
        assert state.observation(seat)["dummy_hand"] == dummy
    assert state.private_cards(2) == []
    # South is dummy: North, the declarer, plays South's cards (BR-31).
    assert state.current_player == 0 and state.hand_to_play == 2
    assert state.observation(0)["hand_to_play"] == 2
    assert {a.text for a in state.legal_actions()} == {"play 9h", "play 8h", "play 7h", "play 6h"}
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply("Kh")  # North's own card, not dummy's
    state.apply("6h")
    assert "6h" not in hand(state, 2)
    events = state.events(1)
    assert {"type": "dummy", "seat": 2, "cards": dummy} in events


@pytest.mark.rule("BR-32", "BR-36", "BR-38", "BR-28")
def test_clockwise_play_highest_of_the_led_suit_wins_and_leads() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass")
    order = []
    for card in ["Qh", "6h", "2h", "Ah"]:
        order.append(state.hand_to_play)
        state.apply(card)
    assert order == [1, 2, 3, 0]
    trick = state.score_breakdown()["tricks"][0]
    assert trick == {"leader": 1, "cards": ["Qh", "6h", "2h", "Ah"], "winner": 0}
    assert state.hand_to_play == 0  # the winner leads
    # A > K > ... > 2 in every suit.
    ranks = "23456789TJQKA"
    for suit in "cdhs":
        for lo, hi in itertools.combinations(ranks, 2):
            assert trick_winner([f"{lo}{suit}", f"{hi}{suit}"]) == 1


@pytest.mark.rule("BR-33")
def test_follow_suit_and_revokes_are_impossible() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass", "Qh")
    with pytest.raises(IllegalActionError, match="does not follow hearts"):
        state.apply("2d")
    assert len(state.history) == 7


@pytest.mark.rule("BR-34", "BR-35")
def test_void_plays_anything_and_the_highest_trump_wins() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass")
    for card in ["Qh", "6h", "2h", "Ah", "2s"]:
        state.apply(card)
    # East holds no spade: any card, no obligation to trump.
    assert len(state.legal_actions()) == 12
    for card in ["2c", "2d", "As"]:
        state.apply(card)
    assert state.score_breakdown()["tricks"][1]["winner"] == 3
    state.apply("Jd")  # West leads a diamond; North is void
    legal = {a.text for a in state.legal_actions()}
    assert "play Kh" in legal and "play 3s" in legal
    for card in ["3s", "3c", "Td"]:
        state.apply(card)
    assert state.score_breakdown()["tricks"][2] == {
        "leader": 3,
        "cards": ["Jd", "3s", "3c", "Td"],
        "winner": 0,
    }


@pytest.mark.rule("BR-37")
def test_at_no_trump_only_the_led_suit_wins() -> None:
    state = fixed("pass", "pass", "1NT", "pass", "pass", "pass")
    for card in ["2c", "Td", "Qc", "Qs"]:
        state.apply(card)
    assert state.score_breakdown()["tricks"][0]["winner"] == 3


@pytest.mark.rule("BR-39")
def test_a_card_is_chosen_then_confirmed_by_apply() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass")
    before = state.to_json()
    assert state.is_legal("Qh") and not state.is_legal("Ah")
    assert state.to_json() == before
    state.apply("play Qh")
    assert state.history[-1].text == "play Qh"


@pytest.mark.rule("BR-41", "BR-64")
def test_after_thirteen_tricks_the_records_hold_every_call_and_trick() -> None:
    calls = ["pass", "1C", "X", "XX", "pass", "pass", "pass"]
    state = fixed(*calls)
    rng = random.Random(4)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    bd = state.score_breakdown()
    assert [c["call"] for c in bd["calls"]] == ["pass", "bid", "double", "redouble"] + ["pass"] * 3
    assert [c["seat"] for c in bd["calls"]] == [2, 3, 0, 1, 2, 3, 0]
    assert len(bd["tricks"]) == 13
    assert all(t["winner"] in range(4) and len(t["cards"]) == 4 for t in bd["tricks"])
    won = sum(1 for t in bd["tricks"] if t["winner"] % 2 == 1)
    assert bd["declarer_tricks"] == won
    assert bd["contract"] == "1CXX" and bd["declarer"] == 3
    parts = bd["declarer_score"]
    assert parts == score(1, 0, 2, False, won)
    assert bd["scores"][1] == parts["total"]


# -- scoring ------------------------------------------------------------------


HAND_CHECKED = [
    # level, strain, doubling, vulnerable, tricks, score
    (4, 3, 0, False, 10, 420),
    (3, 4, 0, True, 10, 630),
    (1, 4, 1, False, 7, 180),
    (2, 0, 1, False, 9, 280),
    (2, 0, 1, True, 9, 380),
    (6, 3, 0, True, 12, 1430),
    (6, 4, 0, False, 12, 990),
    (7, 3, 2, False, 13, 2240),
    (4, 2, 1, False, 9, -100),
    (4, 2, 1, False, 8, -300),
    (4, 2, 1, False, 7, -500),
    (4, 2, 1, False, 6, -800),
    (4, 2, 1, True, 9, -200),
    (4, 2, 1, True, 8, -500),
    (4, 2, 1, True, 7, -800),
    (4, 2, 1, True, 6, -1100),
]


@pytest.mark.parametrize(("level", "strain", "doubling", "vul", "tricks", "expected"), HAND_CHECKED)
def test_hand_checked_rows(
    level: int, strain: int, doubling: int, vul: bool, tricks: int, expected: int
) -> None:
    assert score(level, strain, doubling, vul, tricks)["total"] == expected


def test_every_contract_scores_as_endplay() -> None:
    from endplay.types import Contract, Denom, Penalty, Player, Vul

    denoms = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt]
    penalties = [Penalty.passed, Penalty.doubled, Penalty.redoubled]
    checked = 0
    for level, strain, doubling, vul, tricks in itertools.product(
        range(1, 8), range(5), range(3), (False, True), range(14)
    ):
        contract = Contract(
            level=level,
            denom=denoms[strain],
            declarer=Player.north,
            penalty=penalties[doubling],
            result=tricks - 6 - level,
        )
        want = contract.score(Vul.both if vul else Vul.none)
        parts = score(level, strain, doubling, vul, tricks)
        assert parts["total"] == want, (level, strain, doubling, vul, tricks)
        assert sum(v for k, v in parts.items() if k != "total") == want
        checked += 1
    assert checked == 7 * 5 * 3 * 2 * 14


@pytest.mark.rule("BR-45", "BR-46")
def test_trick_points_by_strain() -> None:
    assert score(3, 0, 0, False, 9)["contract_points"] == 60
    assert score(3, 1, 0, False, 9)["contract_points"] == 60
    assert score(3, 2, 0, False, 9)["contract_points"] == 90
    assert score(3, 3, 0, False, 9)["contract_points"] == 90
    assert score(3, 4, 0, False, 9)["contract_points"] == 100
    assert score(1, 4, 0, False, 7)["contract_points"] == 40


@pytest.mark.rule("BR-47", "BR-48")
def test_doubling_multiplies_trick_points() -> None:
    assert score(2, 2, 1, False, 8)["contract_points"] == 120
    assert score(2, 2, 2, False, 8)["contract_points"] == 240
    assert score(1, 4, 2, False, 7)["contract_points"] == 160


@pytest.mark.rule("BR-49", "BR-50")
def test_game_bonus_or_partscore() -> None:
    assert score(3, 4, 0, False, 9)["game_bonus"] == 300
    assert score(3, 4, 0, True, 9)["game_bonus"] == 500
    assert score(5, 0, 0, True, 11)["game_bonus"] == 500
    part = score(4, 0, 0, True, 10)
    assert part["game_bonus"] == 0 and part["partscore_bonus"] == 50
    # Doubled into game: 2H doubled is 120 trick points.
    assert score(2, 2, 1, False, 8)["game_bonus"] == 300


@pytest.mark.rule("BR-51")
def test_overtricks_never_make_game() -> None:
    parts = score(2, 3, 0, False, 13)
    assert parts["contract_points"] == 60 and parts["overtricks"] == 150
    assert parts["game_bonus"] == 0 and parts["partscore_bonus"] == 50


@pytest.mark.rule("BR-52", "BR-53", "BR-54")
def test_slam_bonuses_only_when_bid() -> None:
    assert score(6, 0, 0, False, 12)["slam_bonus"] == 500
    assert score(6, 0, 0, True, 12)["slam_bonus"] == 750
    assert score(7, 0, 0, False, 13)["slam_bonus"] == 1000
    assert score(7, 0, 0, True, 13)["slam_bonus"] == 1500
    assert score(4, 3, 0, True, 13)["slam_bonus"] == 0
    assert score(5, 3, 0, True, 12)["slam_bonus"] == 0


@pytest.mark.rule("BR-55", "BR-56")
def test_insult_for_making_doubled_or_redoubled() -> None:
    assert score(1, 0, 1, False, 7)["insult"] == 50
    assert score(1, 0, 2, False, 7)["insult"] == 100
    assert score(1, 0, 0, False, 7)["insult"] == 0
    assert score(1, 0, 1, False, 6)["insult"] == 0


@pytest.mark.rule("BR-57", "BR-58", "BR-59")
def test_overtricks() -> None:
    assert score(1, 0, 0, False, 9)["overtricks"] == 40
    assert score(1, 2, 0, False, 9)["overtricks"] == 60
    assert score(1, 4, 0, False, 9)["overtricks"] == 60
    assert score(1, 0, 1, False, 9)["overtricks"] == 200
    assert score(1, 0, 1, True, 9)["overtricks"] == 400
    assert score(1, 0, 2, False, 9)["overtricks"] == 400
    assert score(1, 0, 2, True, 9)["overtricks"] == 800


@pytest.mark.rule("BR-60")
def test_undoubled_undertricks() -> None:
    parts = score(4, 2, 0, False, 7)
    assert parts["undertricks"] == -150 and parts["total"] == -150
    assert parts["contract_points"] == parts["game_bonus"] == parts["partscore_bonus"] == 0
    assert score(4, 2, 0, True, 7)["undertricks"] == -300


@pytest.mark.rule("BR-61", "BR-62", "BR-63")
def test_doubled_and_redoubled_undertricks() -> None:
    nv = [score(7, 4, 1, False, 13 - d)["total"] for d in range(1, 7)]
    assert nv == [-100, -300, -500, -800, -1100, -1400]
    v = [score(7, 4, 1, True, 13 - d)["total"] for d in range(1, 5)]
    assert v == [-200, -500, -800, -1100]
    assert [score(7, 4, 2, False, 13 - d)["total"] for d in range(1, 5)] == [
        -200,
        -600,
        -1000,
        -1600,
    ]
    assert score(7, 4, 2, True, 0)["total"] == -7600


def test_score_refuses_out_of_range_contracts() -> None:
    for args in [
        (0, 0, 0, False, 7),
        (8, 0, 0, False, 7),
        (1, 5, 0, False, 7),
        (1, 0, 3, False, 7),
    ]:
        with pytest.raises(RuleOptionError):
            bridge_score(*args)
    with pytest.raises(RuleOptionError, match="tricks 14"):
        bridge_score(1, 0, 0, False, 14)


# -- actions, learning interface, random playouts ------------------------------------


def test_action_texts_and_ids() -> None:
    game = Bridge()
    assert game.num_actions == 90
    assert game.action_to_id("pass") == 52
    assert game.action_to_id("1C") == 53
    assert game.action_to_id("7NT") == 87
    assert game.action_to_id("X") == 88 and game.action_to_id("XX") == 89
    assert game.action_to_id("play As") == Card("As").index
    for text, canonical in [
        ("p", "pass"),
        ("Pass", "pass"),
        ("double", "X"),
        ("x", "X"),
        ("rdbl", "XX"),
        ("1c", "1C"),
        ("3nt", "3NT"),
        ("3N", "3NT"),
        ("2C", "2C"),
        ("2c", "play 2c"),
        ("play 2C", "play 2c"),
        ("As", "play As"),
        ("10h", "play Th"),
    ]:
        assert game.parse_action(text).text == canonical
    for bad in ["", "play", "8NT", "bid", "1X", "play 1C", "2 C"]:
        with pytest.raises(IllegalActionError):
            game.parse_action(bad)


def test_wrong_phase_actions_are_refused_with_reasons() -> None:
    state = fixed()
    with pytest.raises(IllegalActionError, match="auction is not over"):
        state.apply("As")
    state = fixed("1C", "pass", "pass", "pass")
    with pytest.raises(IllegalActionError, match="auction is over"):
        state.apply("2C")
    passed = fixed("pass", "pass", "pass", "pass")
    with pytest.raises(IllegalActionError, match="over"):
        passed.apply("pass")


def test_observation_tensor_layout() -> None:
    state = fixed("pass", "pass", "1S", "pass", "pass", "pass")
    out = state.observation_tensor(0)
    assert out.shape == (OBSERVATION_SIZE,) and out.dtype == np.float32
    hand_plane = out[:52]
    assert {Card.from_index(i).__str__() for i in np.flatnonzero(hand_plane)} == set(
        HANDS[0].split()
    )
    state.apply("Qh")
    out = state.observation_tensor(0)
    dummy = out[924:976]
    assert {str(Card.from_index(i)) for i in np.flatnonzero(dummy)} == set(HANDS[2].split())
    buf = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    with pytest.raises(RuleOptionError, match="legal auction"):
        bridge_observation(buf, 0, 0, None, 2, [36], [False, False])


def _check_no_revoke(state: BridgeState) -> None:
    """Every played card followed the led suit when its player still held one."""
    hands = {s: {c for c in hand(state, s)} for s in range(4)}
    tricks = state.score_breakdown()["tricks"]
    for t in tricks:
        for k, card in enumerate(t["cards"]):
            hands[(t["leader"] + k) % 4].add(card)
    for t in tricks:
        led = t["cards"][0][1]
        for k, card in enumerate(t["cards"]):
            seat = (t["leader"] + k) % 4
            if card[1] != led:
                assert not any(c[1] == led for c in hands[seat]), f"{card} revokes"
            hands[seat].discard(card)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(["none", "ns", "ew", "both"]))
def test_random_playouts_keep_the_invariants(seed: int, vulnerability: str) -> None:
    game = Bridge(vulnerability)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        assert legal and seat is not None
        if state.phase is Phase.PLAY:
            # Declarer chooses dummy's cards; a defender never plays dummy's.
            played = state.hand_to_play
            contract = state.contract
            assert contract is not None
            assert seat == (contract["declarer"] if played == contract["dummy"] else played)
        state.apply(legal[rng.randrange(len(legal))])
        cards = [c for zone in state.zones().values() for c in zone]
        assert len(cards) == 52 and len(set(cards)) == 52
    assert sum(state.returns()) == 0
    bd = state.score_breakdown()
    assert abs(bd["scores"][0]) <= 7600
    if not bd["passed_out"]:
        _check_no_revoke(state)
        assert len(bd["tricks"]) == 13
    back = game.state_from_json(state.to_json())
    assert back == state and back.score_breakdown() == bd
    assert json.loads(json.dumps(bd)) == bd


def test_the_longest_auction_fits_max_game_length() -> None:
    # Three passes, then every bid passed twice, doubled, passed twice, redoubled
    # and passed twice: 3 + 34 * 9 + 10 = 319 calls.
    state = fixed("pass", "pass", "pass")
    bids = [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
    for b in bids:
        for c in (b, "pass", "pass", "X", "pass", "pass", "XX", "pass", "pass"):
            state.apply(c)
    state.apply("pass")
    assert len(state.history) == 319 == Bridge().max_game_length - 52
    assert state.contract_text() == "7NTXX" and state.phase is Phase.PLAY


def _rebuild(obs: dict[str, Any], vulnerable: tuple[bool, bool]) -> np.ndarray:
    """The documented tensor layout (docs/bridge.md) rebuilt from ``observation``."""
    seat = obs["seat"]
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)

    def rel(p: int) -> int:
        return (p - seat) % 4

    def idx(text: str) -> int:
        return Card(text).index

    for c in obs["hand"]:
        out[idx(c)] = 1
    playing = obs["contract"] is not None
    over = obs["phase"] == "over"
    for leader, cards in zip(obs["trick_leaders"], obs["tricks"], strict=True):
        for k, c in enumerate(cards):
            out[52 + rel((leader + k) % 4) * 52 + idx(c)] = 1
    for k, c in enumerate(obs["trick"]):
        p = rel((obs["leader"] + k) % 4)
        out[52 + p * 52 + idx(c)] = 1
        out[260 + p * 52 + idx(c)] = 1
    if not over:
        if playing:
            out[468 + rel(obs["leader"])] = 1
            out[472 + rel(obs["hand_to_play"])] = 1
            out[477 + 1] = 1
        else:
            out[472 + rel(obs["to_act"])] = 1
            out[477] = 1
        out[978 + rel(obs["to_act"])] = 1
    out[479] = vulnerable[seat % 2]
    out[480] = vulnerable[1 - seat % 2]
    row = None
    for c in obs["auction"]:
        r = rel(c["seat"])
        if c["call"] == "bid":
            row = 5 * (c["level"] - 1) + ("C", "D", "H", "S", "NT").index(c["strain"])
            out[481 + 12 * row + r] = 1
        elif row is None:
            out[901 + r] = 1
        elif c["call"] != "pass":
            out[481 + 12 * row + (4 if c["call"] == "double" else 8) + r] = 1
    if playing:
        con = obs["contract"]
        out[905 + con["level"] - 1] = 1
        out[912 + ("C", "D", "H", "S", "NT").index(con["strain"])] = 1
        out[917 + ("", "X", "XX").index(con["doubling"])] = 1
        out[920 + rel(con["declarer"])] = 1
        won = obs["tricks_won"]
        out[976] = (won[seat] + won[(seat + 2) % 4]) / 13
        out[977] = (won[(seat + 1) % 4] + won[(seat + 3) % 4]) / 13
    for c in obs["dummy_hand"] or []:
        out[924 + idx(c)] = 1
    return out


@pytest.mark.parametrize("vulnerability", ["none", "ns", "ew", "both"])
def test_tensor_matches_the_documented_layout_at_every_step(vulnerability: str) -> None:
    game = Bridge(vulnerability)
    for seed in range(4):
        state = game.new_state(seed=seed)
        agents = [RandomAgent(seed + s) for s in range(4)]
        while True:
            for seat in range(4):
                want = _rebuild(state.observation(seat), game.vulnerable)
                np.testing.assert_allclose(state.observation_tensor(seat), want)
            if state.is_terminal:
                break
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
