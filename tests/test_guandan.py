"""Guandan's flow, tribute and scoring, clause by clause (GD in the seeds' clauses.md).

The combination clauses (numbers 30 to 44) are tested with the engine elsewhere. Deals
are steered with :func:`drive`: the first seat of a wished finishing order still
holding cards plays its largest play, the others pass or lead their lowest single,
so any finishing order comes out of any deal. Tribute positions come from seeds whose
second deal holds what a test needs (found by :func:`seed_where`, which reads the
seeded deck the way the game deals it).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cardkit
from cardkit import Card, IllegalActionError, RuleOptionError, games
from cardkit._core import derive_seed, guandan_parse, guandan_strength, shuffled_deck
from cardkit.agents import RandomAgent, agent_factory
from cardkit.agents.guandan import (
    GuandanRuleAgent,
    GuandanSearchAgent,
    deal_of,
    planned_return,
)
from cardkit.api import Action
from cardkit.games.guandan import (
    CLIMB,
    LEVELS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    Guandan,
    GuandanState,
    Phase,
    return_choices,
    tribute_card,
)

RED = Card("RJ")


def single_deal(seed: int = 1, **options: Any) -> GuandanState:
    return Guandan(match=False, **options).new_state(seed=seed)


def match(seed: int = 1, **options: Any) -> GuandanState:
    return Guandan(**options).new_state(seed=seed)


def _strength(play_text: str, level: str) -> int:
    """The strength of a single's rank (``"5"``, ``"B"``, ``"W=5"``)."""
    rank = guandan_parse(play_text, level).main_rank
    card = {"B": "BJ", "R": "RJ"}.get(rank, rank + "s")
    return guandan_strength(card, level)


def drive(
    state: GuandanState, order: list[int], stop: Callable[[GuandanState], bool] | None = None
) -> None:
    """Play the deal in play to its end (or until ``stop``) so that seats finish in
    ``order`` (its first three decide the deal). Returns tribute with the first choice."""
    deal = state.deal_number
    while not state.is_terminal and state.deal_number == deal:
        if stop is not None and stop(state):
            return
        legal = state.legal_actions()
        if state.phase is Phase.RETURN:
            state.apply(legal[0])
            continue
        target = next(s for s in order if s not in state.order)
        plays = [a for a in legal if a != "pass"]
        if state.current_player == target and plays:
            state.apply(max(plays, key=lambda a: guandan_parse(a[5:], state.level).size))
        elif "pass" in legal:
            state.apply("pass")
        else:
            singles = [a for a in plays if guandan_parse(a[5:], state.level).type == "single"]
            state.apply(min(singles, key=lambda a: _strength(a[5:], state.level)))


def deal_hands(seed: int, number: int) -> list[list[Card]]:
    """The hands of deal ``number`` (> 0) of a match from ``seed``, before tribute."""
    order = shuffled_deck("double108", derive_seed(seed, number))
    return [order[27 * s : 27 * (s + 1)] for s in range(4)]


def seed_where(test: Callable[[list[list[Card]]], bool]) -> int:
    """The first seed whose second deal passes ``test``."""
    return next(seed for seed in range(5000) if test(deal_hands(seed, 1)))


def strongest(hand: list[Card], level: str) -> int:
    """The strength of the strongest non-wild card, by the engine."""
    wild = Card(level + "h")
    return max(guandan_strength(c, level) for c in hand if c != wild)


def last_deal(state: GuandanState) -> dict[str, Any]:
    deals: list[dict[str, Any]] = state.score_breakdown()["deals"]
    return deals[-1]


# -- GD-01 .. GD-04: partnership, format ------------------------------------------------


@pytest.mark.rule("GD-01")
@pytest.mark.rule("GD-04")
def test_partners_sit_opposite_and_share_the_result() -> None:
    for seed in range(20):
        state = cardkit.play(Guandan(match=False), [RandomAgent(seed + s) for s in range(4)], seed)
        r = state.returns()
        assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1] != 0
        first = last_deal(state)["order"][0]
        assert (r[first] > 0) and (r[(first + 2) % 4] > 0)


@pytest.mark.rule("GD-02")
@pytest.mark.rule("GD-03")
def test_four_players_a_level_match_with_heart_level_wilds() -> None:
    game = games.make("guandan")
    assert game.num_players == 4 and game.options["match"] is True
    wild = Card("2h")
    states = (game.new_state(seed=s) for s in range(100))
    state = next(s for s in states if wild in s.hands[s.current_player or 0])
    # The leader holds a heart of the level: it may play it alone, as the level rank.
    assert state.level == "2" and "play W=2" in state.legal_actions()
    assert guandan_parse("W=2", "2").main_rank == "2"


# -- GD-05 .. GD-09, GD-45 .. GD-49: places and levels ------------------------------------


@pytest.mark.rule("GD-05")
@pytest.mark.rule("GD-06")
@pytest.mark.rule("GD-46")
@pytest.mark.parametrize(
    ("order", "climb"), [([0, 2, 1, 3], 3), ([1, 0, 3, 2], 2), ([3, 0, 2, 1], 1)]
)
def test_first_finishers_team_climbs_by_its_partners_place(order: list[int], climb: int) -> None:
    state = single_deal(seed=3)
    drive(state, order)
    assert state.is_terminal
    deal = last_deal(state)
    assert deal["order"] == order and deal["climb"] == climb == CLIMB[deal["partner_place"]]
    team = order[0] % 2
    assert deal["winning_team"] == team
    assert deal["team_levels_after"][team] == LEVELS[climb]
    assert deal["team_levels_after"][1 - team] == "2"
    assert [deal["places"][s] for s in order] == [1, 2, 3, 4]
    won = [float(climb) if s % 2 == team else -float(climb) for s in range(4)]
    assert state.returns() == won


@pytest.mark.rule("GD-07")
@pytest.mark.rule("GD-49")
def test_teams_start_at_two_and_keep_separate_levels() -> None:
    state = match(seed=5)
    assert state.team_levels == ["2", "2"] and state.level == "2"
    drive(state, [1, 0, 3, 2])  # team 1 climbs 2
    assert state.team_levels == ["2", "4"]
    drive(state, [0, 2, 1, 3])  # team 0 climbs 3 from its own 2
    assert state.team_levels == ["5", "4"]
    # A new match (the restart) resets both teams to 2.
    assert match(seed=5).team_levels == ["2", "2"]


@pytest.mark.rule("GD-08")
@pytest.mark.rule("GD-48")
def test_the_next_deal_is_played_at_the_winners_level_capped_at_ace() -> None:
    state = match(seed=6)
    drive(state, [2, 1, 0, 3])  # team 0 climbs 2
    assert state.deal_number == 1 and state.level == "4"
    drive(state, [3, 1, 0, 2])  # team 1 climbs 3
    assert state.deal_number == 2 and state.level == "5" and state.team_levels == ["4", "5"]
    capped = match(seed=6, level="Q")
    drive(capped, [0, 2, 1, 3])
    assert capped.team_levels == ["A", "Q"] and capped.level == "A"
    assert last_deal(capped)["climb"] == 3 and not capped.is_terminal


@pytest.mark.rule("GD-09")
def test_the_match_is_won_only_at_the_ace_with_the_partner_not_last() -> None:
    state = match(seed=7, level="Q")
    drive(state, [0, 2, 1, 3])  # team 0 reaches the ace
    assert state.team_levels == ["A", "Q"] and state.level == "A"
    drive(state, [1, 0, 2, 3])  # team 1 wins a deal at the ace: K
    assert state.team_levels == ["A", "K"] and state.level == "K"
    # Team 0, at the ace, wins a deal played at K: not the match.
    drive(state, [0, 2, 1, 3])
    assert not state.is_terminal and not last_deal(state)["match_won"]
    assert state.level == "A"
    # At the ace, in a deal at the ace, but the partner is last: not the match.
    drive(state, [0, 1, 3, 2])
    assert not state.is_terminal and state.match_winner is None
    assert state.team_levels == ["A", "K"] and state.level == "A"
    # First with the partner third at the ace: the match.
    drive(state, [2, 1, 0, 3])
    assert state.is_terminal and state.match_winner == 0
    assert last_deal(state)["match_won"] and state.score_breakdown()["match_winner"] == 0
    # Own level minus the other's (A against K), one more for the match.
    assert state.returns() == [2.0, -2.0, 2.0, -2.0] == state.standings()


@pytest.mark.rule("GD-45")
def test_the_deal_ends_when_the_third_player_finishes() -> None:
    state = single_deal(seed=8)
    drive(state, [1, 3, 2, 0], stop=lambda s: len(s.order) == 2)
    assert len(state.order) == 2 and not state.is_terminal  # partners 1-2 play on
    drive(state, [1, 3, 2, 0])
    assert state.is_terminal and state.order == [1, 3, 2, 0]
    assert state.hands[0] and not any(state.hands[s] for s in (1, 2, 3))


def test_double_win_ends_is_an_option() -> None:
    state = single_deal(seed=8, double_win_ends=True)
    drive(state, [1, 3, 2, 0])
    # The opponents, still holding cards, take the last places in turn order from
    # the second finisher.
    assert state.is_terminal and state.order == [1, 3, 0, 2]
    deal = last_deal(state)
    assert deal["places"] == [3, 1, 4, 2] and deal["climb"] == 3
    assert state.hands[0] and state.hands[2]


@pytest.mark.rule("GD-47")
def test_bombs_score_nothing() -> None:
    bombs = 0
    for seed in range(30):
        state = cardkit.play(Guandan(match=False), [RandomAgent(seed + s) for s in range(4)], seed)
        deal = last_deal(state)
        bombs += sum(1 for e in state.observation(0)["plays"] if e[1] == "play" and _bomb(e))
        climb = CLIMB[deal["partner_place"]]
        assert sorted(state.returns()) == [-climb, -climb, climb, climb]
    assert bombs > 0


def _bomb(entry: list[Any]) -> bool:
    return entry[2] in ("bomb", "straight_flush", "joker_bomb")


# -- GD-10 .. GD-14: the deal --------------------------------------------------------------


@pytest.mark.rule("GD-10")
def test_two_packs_with_jokers_27_cards_each() -> None:
    state = single_deal(seed=9)
    hands = state.hands
    assert [len(h) for h in hands] == [27] * 4
    every = Counter(c for h in hands for c in h)
    assert every == Counter(cardkit.deck("double108")) and every[RED] == 2
    fixed = cardkit.deck("double108")[::-1]
    dealt = Guandan(match=False).new_state(seed=9, deal=fixed)
    assert dealt.hands[1] == sorted(fixed[27:54], key=dealt.hands[1].index)


@pytest.mark.rule("GD-11")
@pytest.mark.rule("GD-12")
def test_the_level_rank_and_its_hearts_follow_the_level() -> None:
    state = single_deal(seed=10, level="7")
    assert state.level == "7"
    hand = cardkit.parse_cards("7h 7h 7s 5c 6d")
    # The level rank's hearts are the wilds: never a tribute, never a return.
    assert tribute_card([*hand, Card("As")], "7") == Card("7s")
    assert return_choices(hand, "7") == [Card("5c"), Card("6d"), Card("7s")]
    # At level 2 the same heart seven is an ordinary card.
    assert tribute_card([Card("7h"), Card("3c")], "2") == Card("7h")


@pytest.mark.rule("GD-13")
def test_the_first_leader_is_drawn_from_the_seed() -> None:
    leaders = [single_deal(seed=s).current_player for s in range(40)]
    assert set(leaders) == {0, 1, 2, 3}
    assert leaders == [match(seed=s).current_player for s in range(40)]
    for seed in range(5):
        assert single_deal(seed=seed).leader == single_deal(seed=seed).current_player


# -- GD-14 .. GD-23: tribute and return ----------------------------------------------------


def _after_first_deal(seed: int, order: list[int]) -> GuandanState:
    state = match(seed=seed)
    drive(state, order)
    assert state.deal_number == 1 and last_deal(state)["order"] == order
    return state


@pytest.mark.rule("GD-14")
@pytest.mark.rule("GD-15")
@pytest.mark.rule("GD-21")
@pytest.mark.rule("GD-22")
def test_last_place_pays_its_strongest_card_and_gets_the_first_return() -> None:
    level = "4"  # team 0 wins 1-3: two levels
    seed = seed_where(lambda h: h[3].count(RED) < 2)
    state = _after_first_deal(seed, [0, 1, 2, 3])
    assert state.level == level and state.phase is Phase.RETURN
    dealt = deal_hands(seed, 1)
    card = tribute_card(dealt[3], level)
    assert guandan_strength(card, level) == strongest(dealt[3], level)
    assert card != Card(level + "h")
    # Automatic: no action was needed; the card moved from last place to first.
    assert len(state.hands[0]) == 28 and len(state.hands[3]) == 26
    assert Counter(state.hands[0]) - Counter(dealt[0]) == Counter([card])
    assert state.current_player == 0
    choice = state.legal_actions()[0]
    state.apply(choice)
    assert state.phase is Phase.PLAY and state.current_player == 3 == state.leader
    assert len(state.hands[0]) == len(state.hands[3]) == 27
    assert state.observation(3)["return"] == [[0, 3]]


@pytest.mark.rule("GD-16")
def test_after_a_double_win_both_opponents_pay_the_higher_to_first_place() -> None:
    level = "5"  # team 0 wins 1-2: three levels

    def unequal(hands: list[list[Card]]) -> bool:
        reds = hands[1].count(RED) + hands[3].count(RED)
        return reds < 2 and strongest(hands[1], level) < strongest(hands[3], level)

    seed = seed_where(unequal)
    state = _after_first_deal(seed, [2, 0, 3, 1])
    dealt = deal_hands(seed, 1)
    high, low = tribute_card(dealt[3], level), tribute_card(dealt[1], level)
    assert state.score_breakdown()["deals"] == [last_deal(state)]
    assert state.observation(2)["tribute"] == [[3, 2], [1, 0]]
    assert Counter(state.hands[2]) - Counter(dealt[2]) == Counter([high])
    assert Counter(state.hands[0]) - Counter(dealt[0]) == Counter([low])
    # First place returns first; the seat that paid it leads.
    assert state.current_player == 2
    state.apply(state.legal_actions()[0])
    assert state.current_player == 0 and state.phase is Phase.RETURN
    state.apply(state.legal_actions()[-1])
    assert state.phase is Phase.PLAY and state.current_player == 3
    deal = _finish_deal(state)
    assert [t["seat"] for t in deal["tribute"]] == [3, 1]
    assert [t["card"] for t in deal["tribute"]] == [str(high), str(low)]
    assert [(r["seat"], r["to"]) for r in deal["return"]] == [(2, 3), (0, 1)]


def _finish_deal(state: GuandanState) -> dict[str, Any]:
    drive(state, [0, 1, 2, 3])
    return state.score_breakdown()["deals"][1]


@pytest.mark.rule("GD-17")
@pytest.mark.parametrize("first", [0, 1])
def test_equal_tributes_go_in_turn_order_from_first_place(first: int) -> None:
    # Team ``first % 2`` wins 1-2, from level 2 to 5.
    level = "5"
    payers = [(first + 1) % 4, (first + 3) % 4]

    def equal(hands: list[list[Card]]) -> bool:
        a, b = (hands[p] for p in payers)
        return a.count(RED) + b.count(RED) < 2 and strongest(a, level) == strongest(b, level)

    seed = seed_where(equal)
    state = _after_first_deal(seed, [first, (first + 2) % 4, payers[0], payers[1]])
    # 同大时按头游起的出牌顺序分配: the payer right after first place pays first place.
    assert state.observation(first)["tribute"] == [[payers[0], first], [payers[1], (first + 2) % 4]]
    dealt = deal_hands(seed, 1)
    got = Counter(state.hands[first]) - Counter(dealt[first])
    assert got == Counter([tribute_card(dealt[payers[0]], level)])


@pytest.mark.rule("GD-18")
@pytest.mark.rule("GD-14")
def test_payers_holding_both_red_jokers_between_them_cancel_the_tribute() -> None:
    seed = seed_where(lambda h: h[1].count(RED) == 1 and h[3].count(RED) == 1)
    state = _after_first_deal(seed, [0, 2, 1, 3])
    assert state.phase is Phase.PLAY and state.current_player == 0 == state.leader
    assert state.hands == [_sorted_like(state, h) for h in deal_hands(seed, 1)]
    seen = state.observation(2)
    assert seen["anti_tribute"] == [1, 3] and seen["tribute"] == []
    shown = [e for e in state.events(None) if e["type"] == "anti_tribute"]
    assert shown == [{"type": "anti_tribute", "seats": [1, 3], "red_jokers": [1, 1]}]
    # Everyone saw the red jokers: they are no seat's secret any more.
    assert RED not in state.private_cards(1) and RED not in state.private_cards(3)


@pytest.mark.rule("GD-18")
def test_a_single_payer_holding_both_red_jokers_cancels_the_tribute() -> None:
    seed = seed_where(lambda h: h[2].count(RED) == 2)
    state = _after_first_deal(seed, [1, 0, 3, 2])
    assert state.phase is Phase.PLAY and state.current_player == 1
    assert state.observation(0)["anti_tribute"] == [2]


def _sorted_like(state: GuandanState, hand: list[Card]) -> list[Card]:
    order = {c: i for i, c in enumerate(sorted(set(hand), key=lambda c: _rank_key(state, c)))}
    return sorted(hand, key=order.__getitem__)


def _rank_key(state: GuandanState, card: Card) -> tuple[int, int]:
    return guandan_strength(card, state.level), cardkit.deck("french54").index(card)


@pytest.mark.rule("GD-19")
@pytest.mark.rule("GD-20")
@pytest.mark.rule("GD-23")
def test_a_recipient_returns_a_card_ranked_two_to_ten_of_its_choice() -> None:
    hand = cardkit.parse_cards("2h 2s Ts Jd Ks BJ")
    # Weakest first: at level 2 the natural two ranks above the ace.
    assert return_choices(hand, "2") == [Card("Ts"), Card("2s")]
    assert return_choices(cardkit.parse_cards("2h Jd Js Ks RJ"), "2") == [
        Card("Jd"),
        Card("Js"),
    ]
    assert return_choices(cardkit.parse_cards("Qh Qs RJ"), "Q") == [Card("Qs")]
    seed = seed_where(lambda h: h[3].count(RED) < 2)
    state = _after_first_deal(seed, [0, 1, 2, 3])
    hand = state.hands[0]
    legal = state.legal_actions()
    assert legal == [f"return {c}" for c in return_choices(hand, state.level)]
    assert all(a.kind == "return" for a in legal)
    before = state.to_json()
    high = next(c for c in hand if c.rank in "JQKA" or c.suit is None)
    with pytest.raises(IllegalActionError, match="cannot be returned"):
        state.apply(f"return {high}")
    with pytest.raises(IllegalActionError, match="must first return a card to seat 3"):
        state.apply("pass")
    missing = next(c for c in cardkit.deck("french54") if c not in hand)
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply(f"return {missing}")
    assert state.to_json() == before
    # The recipient's choice, confirmed by its action.
    state.apply(legal[-1])
    assert _has(state.hands[3], legal[-1].args[0])
    assert state.observation(0)["return"] == [[0, 3]]


def _has(hand: list[Card], card: str) -> bool:
    return Card(card) in hand


def test_tribute_and_return_cards_are_seen_by_their_two_players_only() -> None:
    seed = seed_where(lambda h: h[3].count(RED) < 2)
    state = _after_first_deal(seed, [0, 1, 2, 3])
    state.apply(state.legal_actions()[0])
    exchanged = {}
    for viewer in (None, 0, 1, 2, 3):
        events = state.events(viewer)
        cards = [e for e in events if e["type"] in ("tribute_card", "return_card")]
        assert len(cards) == (2 if viewer in (0, 3) else 0)
        exchanged.update({e["type"]: Card(e["card"]) for e in cards})
        assert [e for e in events if e["type"] == "tribute"] == [
            {"type": "tribute", "seat": 3, "to": 0}
        ]
    # Each seat's hand event shows its cards as dealt, before the tribute moved one.
    dealt = deal_hands(seed, 1)
    for seat in range(4):
        hand = [e for e in state.events(seat) if e["type"] == "hand"][-1]
        assert Counter(hand["cards"]) == Counter(str(c) for c in dealt[seat])
    # A received card is no secret of its holder: its giver knows it.
    tribute, returned = exchanged["tribute_card"], exchanged["return_card"]
    assert Counter(state.private_cards(0))[tribute] == state.hands[0].count(tribute) - 1
    assert Counter(state.private_cards(3))[returned] == state.hands[3].count(returned) - 1
    assert state.observation(1)["tribute"] == [[3, 0]]
    # Once scored, the others see who paid whom, not the cards.
    drive(state, [1, 0, 2, 3])
    ends = [e for e in state.events(1) if e["type"] == "deal_end"]
    assert ends[1]["tribute"] == [{"seat": 3, "to": 0}] and ends[1]["return"] == [
        {"seat": 0, "to": 3}
    ]
    assert state.score_breakdown()["deals"][1]["tribute"][0]["card"] == str(tribute)


# -- GD-24 .. GD-29: turns ---------------------------------------------------------------


@pytest.mark.rule("GD-24")
@pytest.mark.rule("GD-26")
def test_turns_run_in_seat_order_and_followers_may_pass() -> None:
    state = single_deal(seed=11)
    leader = state.current_player
    assert leader is not None
    state.apply(state.legal_actions()[0])
    for step in (1, 2, 3):
        assert state.current_player == (leader + step) % 4
        assert "pass" in state.legal_actions()
        state.apply("pass")


@pytest.mark.rule("GD-25")
@pytest.mark.rule("GD-27")
def test_after_all_others_pass_the_last_player_leads_again_and_must_play() -> None:
    state = single_deal(seed=12)
    leader = state.current_player
    assert leader is not None
    state.apply(state.legal_actions()[0])
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == leader and state.table is None
    assert "pass" not in state.legal_actions()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="leader must play"):
        state.apply("pass")
    assert state.to_json() == before


@pytest.mark.rule("GD-28")
def test_finished_players_are_skipped() -> None:
    state = single_deal(seed=13)
    drive(state, [1, 0, 2, 3], stop=lambda s: bool(s.order) and s.table is None)
    assert state.order == [1]
    seen = set()
    for _ in range(40):
        seat = state.current_player
        assert seat is not None and seat != 1
        seen.add(seat)
        legal = state.legal_actions()
        state.apply("pass" if "pass" in legal else legal[0])
    assert seen == {0, 2, 3}


def _until_finished(seat: int) -> Callable[[GuandanState], bool]:
    return lambda s: seat in s.order


@pytest.mark.rule("GD-29")
def test_jiefeng_the_partner_leads_after_the_last_player_finished() -> None:
    state = single_deal(seed=14)
    drive(state, [0, 1, 2, 3], stop=_until_finished(0))
    assert state.order == [0] and state.table is not None
    for seat in (1, 2, 3):
        assert state.current_player == seat
        state.apply("pass")
    # Seat 1 comes next in turn order, but the finished seat's partner leads.
    assert state.current_player == 2 and state.table is None
    assert state.events(None)[-1] == {"type": "jiefeng", "seat": 2, "from": 0}


@pytest.mark.rule("GD-29")
def test_jiefeng_skips_a_finished_next_player() -> None:
    state = single_deal(seed=15)
    drive(state, [1, 0, 2, 3], stop=_until_finished(0))
    assert state.order == [1, 0]
    while state.table is not None:
        assert state.current_player != 1
        state.apply("pass")
    assert state.current_player == 2


@pytest.mark.rule("GD-29")
def test_when_the_partner_has_finished_too_the_next_active_player_leads() -> None:
    state = single_deal(seed=16)
    drive(state, [2, 0, 1, 3], stop=_until_finished(0))
    assert state.order == [2, 0] and not state.is_terminal
    passes = 0
    while state.table is not None:
        state.apply("pass")
        passes += 1
    assert passes == 2  # both opponents, the only players left, passed
    assert state.current_player == 1  # the next active player after seat 0
    assert state.events(None)[-1] == {"type": "jiefeng", "seat": 1, "from": 0}


# -- the rest of the surface --------------------------------------------------------------


def test_options_are_checked() -> None:
    assert Guandan(level="10").level == "T" == Guandan(level="t").level
    for bad in ("1", "B", "", 2, None, "22"):
        with pytest.raises(RuleOptionError, match="level"):
            Guandan(level=bad)  # type: ignore[arg-type]
    for name in ("match", "double_win_ends"):
        with pytest.raises(RuleOptionError, match=name):
            Guandan(**{name: 1})
    assert Guandan(match=False).utility_range == (-3.0, 3.0)
    assert Guandan().utility_range == (-13.0, 13.0)
    assert Guandan(level="A").utility_range == (-1.0, 1.0)


def test_illegal_plays_say_why() -> None:
    state = single_deal(seed=17)
    seat = state.current_player
    assert seat is not None
    hand = state.hands[seat]
    missing = next(r for r in "23456789TJQKA" if sum(c.rank == r for c in hand) < 2)
    cases = {
        "play BR": "never pair",
        f"play {missing * 4}": "does not hold",
        "bid 3": "not a Guandan action",
        "return 3s": "no return is due",
        "play": "play needs cards",
    }
    before = state.to_json()
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(text)
        assert not state.is_legal(text)
    assert state.to_json() == before
    # Seat 0 leads an ace; seat 1 holds a three.
    pack = [str(c) for c in cardkit.deck("double108")]
    pack.remove("As")
    pack.remove("3c")
    pack = ["As", *pack[:26], "3c", *pack[26:]]
    seed = next(s for s in range(100) if single_deal(seed=s).current_player == 0)
    fixed = Guandan(match=False).new_state(seed=seed, deal=pack)
    fixed.apply("play A")
    with pytest.raises(IllegalActionError, match="the single 3 does not beat the single A"):
        fixed.apply("play 3")


def test_action_ids_and_the_return_ids() -> None:
    game = Guandan()
    assert game.action_to_id("pass") == 0
    returns = [game.action_to_id(f"return {c}") for c in cardkit.deck("french54")]
    assert returns == list(range(game.num_actions - 54, game.num_actions))
    assert game.id_to_action(game.num_actions - 1) == "return RJ"
    play = game.action_to_id("play 3456 W=7")
    assert 0 < play < game.num_actions - 54 and game.id_to_action(play) == "play 3456 W=7"
    # The state reads wild cards named as the heart at the deal's level.
    state = single_deal(seed=1, level="9")
    assert state.action_to_id("play 3456 9h=7") == play
    with pytest.raises(IllegalActionError):
        game.action_to_id("bid 3")


def test_observation_tensor_layout() -> None:
    assert sum(n for _, n in OBSERVATION_LAYOUT) == OBSERVATION_SIZE
    state = single_deal(seed=18)
    seat = state.current_player
    assert seat is not None
    tensor = state.observation_tensor(seat)
    assert tensor.shape == (OBSERVATION_SIZE,) and tensor[:54].sum() == 27
    offsets = {}
    at = 0
    for name, n in OBSERVATION_LAYOUT:
        offsets[name] = at
        at += n
    assert tensor[offsets["to_act"]] == 1.0  # relative seat 0: the seat itself
    assert tensor[offsets["level"]] == 1.0  # level 2
    assert np.array_equal(tensor[offsets["card_counts"] : offsets["card_counts"] + 4], [27.0] * 4)


def test_phase_is_a_string_enum() -> None:
    assert [str(p) for p in Phase] == ["return", "play", "over"]
    assert Phase.RETURN == "return" and json.dumps(Phase.PLAY) == '"play"'
    assert isinstance(single_deal().phase, Phase)


@pytest.mark.parametrize("seed", range(12))
def test_random_matches_play_to_the_end(seed: int) -> None:
    game = Guandan(level="T") if seed % 2 else Guandan()
    agents = [RandomAgent(seed * 4 + s) for s in range(4)]
    state = game.new_state(seed=seed)
    deal, length = 0, 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
        length += 1
        zones = Counter(c for cards in state.zones().values() for c in cards)
        assert zones == Counter(cardkit.deck("double108"))
        if state.deal_number != deal:
            assert length <= game.max_game_length
            deal, length = state.deal_number, 0
    sb = state.score_breakdown()
    for d in sb["deals"]:
        assert sorted(d["order"]) == [0, 1, 2, 3]
        assert all(lv in LEVELS for lv in d["team_levels_after"])
    assert sb["match_winner"] is not None
    low, high = game.utility_range
    assert all(low <= r <= high for r in state.returns())
    back = game.state_from_json(state.to_json())
    assert back == state and back.returns() == state.returns()
    assert back.score_breakdown() == sb


# -- agents -----------------------------------------------------------------------------


def test_the_rule_agent_beats_random_as_a_team() -> None:
    game = Guandan(match=False)
    won = []
    for seed in range(150):
        for team in (0, 1):
            agents = [
                GuandanRuleAgent() if s % 2 == team else RandomAgent(seed * 4 + s) for s in range(4)
            ]
            won.append(cardkit.play(game, agents, seed=seed).returns()[team])
    mean = float(np.mean(won))
    half_width = 1.96 * float(np.std(won)) / len(won) ** 0.5
    assert mean - half_width > 0, (mean, half_width)


@pytest.mark.rule("GD-19")
def test_the_rule_agent_plays_whole_matches_and_returns_allowed_cards() -> None:
    state = cardkit.play(Guandan(level="T"), [GuandanRuleAgent() for _ in range(4)], seed=2)
    assert state.is_terminal and state.match_winner is not None
    for deal in state.score_breakdown()["deals"][1:]:
        for given in deal["return"]:
            assert Card(given["card"]).rank in "23456789T"
    weakest = GuandanRuleAgent(returns="weakest")
    returns = [Action("return Ts"), Action("return 3d")]
    obs = {"phase": "return", "level": "2", "hand": ["3d", "Ts", "Kc", "Kd"]}
    assert weakest.act(obs, returns) == "return 3d"
    assert agent_factory("guandan", "rule")(1).act({}, [Action("pass")]) == "pass"
    with pytest.raises(RuleOptionError):
        GuandanRuleAgent(returns="strongest")


def _planned(hand: str, offered: str, level: str = "2") -> str:
    actions = [Action(f"return {c}") for c in offered.split()]
    return str(planned_return({"level": level, "hand": hand.split()}, actions))


def test_the_planned_return_keeps_pairs_and_straight_chances() -> None:
    # The 3 is the weakest, but it is one of a pair: the lone 9 goes.
    assert _planned("3c 3d 9s Kd Kh", "3c 3d 9s") == "return 9s"
    # Both held once: the 4 sits among 3, 5 and 6 (a straight chance), the 9 alone.
    assert _planned("3c 4d 5s 6h 9c Kd", "3c 4d 5s 6h 9c") == "return 9c"
    # Lone cards with no neighbours: the weakest.
    assert _planned("3c 7d Jc Ks", "3c 7d") == "return 3c"
    # The ace is low too: a lone 3 next to A and 2 is kept before a lone 8.
    assert _planned("Ac 2d 3s 8h Qs", "2d 3s 8h") == "return 8h"
    # The wild (the heart of the level) is no second 5: the lone 5c goes before the 9
    # next to the T, though the 5 is the level rank.
    assert _planned("5h 5c 9d Td", "5c 9d", level="5") == "return 5c"
    # GuandanRuleAgent and GuandanSearchAgent return by plan.
    returns = [Action("return 3c"), Action("return 3d"), Action("return 9s")]
    obs = {"phase": "return", "level": "2", "hand": ["3c", "3d", "9s", "Kd", "Kh"]}
    assert GuandanRuleAgent().act(obs, returns) == "return 9s"
    assert GuandanSearchAgent(1, samples=1).act(obs, returns) == "return 9s"


def test_agents_rebuild_the_position_their_observation_describes() -> None:
    game = Guandan(level="9")
    state = game.new_state(seed=6)
    rng = random.Random(6)
    checked = 0
    while not state.is_terminal and checked < 300:
        seat = state.current_player
        assert seat is not None
        if state.phase is Phase.PLAY:
            deal = deal_of(state.observation(seat))
            listed = ["pass" if p is None else f"play {p.text}" for p in deal.legal()]
            assert listed == state.legal_actions()
            assert deal.card_counts == state.observation(seat)["card_counts"]
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked == 300


def test_the_search_agent_plays_deals_and_replays_from_its_seed() -> None:
    game = Guandan(match=False)

    def run() -> GuandanState:
        agents = [
            GuandanSearchAgent(7, samples=4),
            RandomAgent(1),
            GuandanSearchAgent(8, samples=4),
            RandomAgent(3),
        ]
        state = cardkit.play(game, agents, seed=4)
        assert isinstance(state, GuandanState)
        return state

    first = run()
    assert first.is_terminal and first.history == run().history
    with pytest.raises(RuleOptionError):
        GuandanSearchAgent(samples=0)


def test_search_with_the_endgame_solver_plays_whole_deals() -> None:
    # Whole deals to the end with every seat searching and solving its sampled deals
    # from 12 cards left; the same seeds replay the same game.
    game = Guandan(match=False)

    def run(seed: int) -> GuandanState:
        agents = [GuandanSearchAgent(seed + s, samples=2, endgame=12) for s in range(4)]
        state = cardkit.play(game, agents, seed=seed)
        assert isinstance(state, GuandanState)
        return state

    for seed in (3, 4):
        first = run(seed)
        assert first.is_terminal and first.history == run(seed).history


def test_the_endgame_solver_off_searches_as_before() -> None:
    # endgame=0 (the default) chooses exactly what the search chose before the
    # solver: the binding's default, and any node budget, give the same moves.
    state = single_deal(6)
    rng = random.Random(2)
    compared = 0
    while not state.is_terminal and compared < 40:
        seat = state.current_player
        assert seat is not None
        deal = deal_of(state.observation(seat))
        seed = rng.getrandbits(64)
        before = deal.search_move(4, seed)
        assert deal.search_move(4, seed, 0, 5) == before
        assert deal.search_move(4, seed, endgame_cards=0, endgame_nodes=10**6) == before
        compared += 1
        state.apply(rng.choice(state.legal_actions()))
    assert compared == 40


@pytest.mark.parametrize(
    "options", [{"endgame": -1}, {"endgame": 109}, {"endgame_nodes": 0}, {"endgame": True}]
)
def test_the_search_agent_refuses_endgame_options_out_of_range(options: dict[str, Any]) -> None:
    with pytest.raises(RuleOptionError):
        GuandanSearchAgent(1, **options)


def test_a_play_may_name_the_copies_it_takes() -> None:
    # Both packs hold two of each card, so a pair of fives may be taken as different
    # cards; suits matter for later straight flushes. `play 5s5d` names them (docs).
    state = single_deal(3)
    seat = state.current_player
    assert seat is not None
    hand = [str(c) for c in state._hand(seat)]
    rank, suits = next(
        (r, sorted({h[1] for h in hand if h[0] == r}))
        for r in "3456789TJQKA"
        if len({h[1] for h in hand if h[0] == r}) >= 2
    )
    named = f"play {rank}{suits[-1]}{rank}{suits[0]}"
    canonical = state.game.parse_action(named)
    assert canonical.text == f"play {rank}{suits[0]}{rank}{suits[-1]}"
    assert canonical not in state.legal_actions()  # listing names ranks
    assert state.action_to_id(named) == state.action_to_id(f"play {rank}{rank}")
    missing = next(s for s in "cdhs" if f"{rank}{s}" not in hand)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply(f"play {rank}{missing}{rank}{suits[0]}")
    assert not state.is_legal(f"play {rank}{missing}{rank}{suits[0]}")
    assert state.to_json() == before
    assert state.is_legal(named)
    state.apply(named)
    left = [str(c) for c in state._hand(seat)]
    assert Counter(hand) - Counter(left) == Counter([f"{rank}{suits[0]}", f"{rank}{suits[-1]}"])
    assert state.history[-1] == canonical
    again = state.game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    assert [str(c) for c in again._hand(seat)] == left


def test_any_spelling_of_a_listed_play_is_that_play() -> None:
    # Naturals in any order, spaced out, lower case: parse_action gives the listed
    # action's canonical text and apply accepts it.
    state = single_deal(5)
    listed = max(
        (
            a
            for a in state.legal_actions()
            if a.kind == "play" and not set(a.text[5:].split(" ")[0]) & set("cdhs")
        ),
        key=lambda a: len(a.text),
    )
    naturals, _, wilds = listed.text[5:].partition(" ")
    respelled = " ".join(reversed(naturals)).lower() + (" " + wilds if wilds else "")
    assert state.game.parse_action(respelled) == listed
    state.apply(respelled)
    assert state.history[-1] == listed


# -- dealing and the move log --------------------------------------------------------------


@pytest.mark.parametrize("level", ["2", "7", "A"])
def test_dealt_hands_are_sorted_weakest_first_then_by_card_index(level: str) -> None:
    fixed = cardkit.deck("double108")[::-1][:30]
    for state in (single_deal(seed=4, level=level), match(seed=4, level=level)):
        assert state._deck_indices(0) == bytes(c.index for c in state.deck_order(0))
        assert state._deck_indices(3) == bytes(c.index for c in state.deck_order(3))
        order = state.deck_order(0)
        for seat, hand in enumerate(state._hands):
            dealt = order[27 * seat : 27 * (seat + 1)]
            assert hand == sorted(dealt, key=lambda c: (guandan_strength(c, level), c.index))
    dealt_state = Guandan(match=False, level=level).new_state(seed=4, deal=fixed)
    assert dealt_state._deck_indices(0) == bytes(c.index for c in dealt_state.deck_order(0))
    assert Counter(dealt_state._hands[0]) == Counter(fixed[:27])


def test_clones_keep_their_own_move_log() -> None:
    for state in (single_deal(seed=6), match(seed=6)):
        rng = random.Random(6)
        for _ in range(40):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        saved = state.to_json()
        seen = state.observation(0)
        twin = state.clone()
        mine, theirs = state.legal_actions()[0], twin.legal_actions()[-1]
        twin.apply(theirs)
        assert state.to_json() == saved and state.observation(0) == seen
        state.apply(mine)
        assert state.history[-1] == mine and twin.history[-1] == theirs
        assert state.observation(0)["plays"][:-1] == twin.observation(0)["plays"][:-1]
        assert state.game.state_from_json(twin.to_json()).observation(2) == twin.observation(2)


def test_known_cards_count_only_while_held() -> None:
    # What another seat knows of a hand (a received tribute or return) hides those
    # cards from private_cards only while the hand holds them: checked against a
    # log that forgets a known card as soon as it is given away or played.
    clamped = 0
    for seed in range(2):
        state = match(seed=seed)
        rng = random.Random(seed)
        known: list[Counter[Card]] = []
        deal = -1
        while not state.is_terminal:
            if state.deal_number != deal:
                deal, known = state.deal_number, [Counter(), Counter(), Counter(), Counter()]
            # The state learns known cards before the card play (tribute, returns,
            # red jokers shown); from then on the reference only forgets.
            learning = state.phase is Phase.RETURN or not state._plays
            for seat in range(4):
                hand = Counter(state._hand(seat))
                if learning:
                    known[seat] |= state._known[seat]
                held = Counter({c: min(n, hand[c]) for c, n in known[seat].items()})
                clamped += held != known[seat]
                known[seat] = held
                assert Counter(state.private_cards(seat)) == hand - held
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert clamped > 0


def test_changing_a_listed_turn_or_the_terminal_flag_leaves_the_state_intact() -> None:
    # legal_actions hands out a new list each call and is_terminal is read-only:
    # what a caller does with either cannot reach the deal.
    state = games.make("guandan", match=False).new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal:
        legal = state.legal_actions()
        kept = list(legal)
        legal.reverse()
        legal.append(Action("play 3"))
        assert state.legal_actions() == kept
        rng.shuffle(legal)
        state.apply(kept[rng.randrange(len(kept))])
    with pytest.raises(AttributeError):
        state.is_terminal = False  # type: ignore[misc]
    assert state.is_terminal and state.legal_actions() == []
    replay = state.game.state_from_json(state.to_json())
    assert replay.is_terminal and replay.clone().is_terminal


def test_the_terminal_flag_follows_the_phase_in_clones_and_replays() -> None:
    # is_terminal reads a flag kept beside the phase for speed: both must agree at
    # every step of a match (tribute, returns, several deals), in clones and replays.
    for state in (single_deal(seed=7), match(seed=7)):
        rng = random.Random(7)
        phases: set[Phase] = set()
        for step in range(100_000):
            copies = [state, state.clone()]
            if step % 97 == 0 or state.is_terminal:
                copies.append(state.game.state_from_json(state.to_json()))
            for copy in copies:
                assert copy.phase is state.phase
                assert copy.is_terminal is (copy.phase is Phase.OVER)
            phases.add(state.phase)
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        assert Phase.OVER in phases and Phase.PLAY in phases
    assert Phase.RETURN in phases  # the match went past a tribute
