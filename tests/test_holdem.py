"""Texas Hold'em rules: blinds and button, betting order, streets, showdown, pots, match."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import Card, IllegalActionError, RuleOptionError, games
from cardkit.agents import RandomAgent
from cardkit.games.holdem import Holdem, HoldemState, arrange_deal


def hand(
    holes: dict[int, str],
    board: str = "",
    stacks: list[int] | None = None,
    button: int = 0,
    **options: object,
) -> HoldemState:
    """A single hand (or, with ``match=True``, a match) with the given first deal."""
    n = len(stacks) if stacks else max(holes) + 1
    stacks = stacks or [1000] * n
    options.setdefault("match", False)
    game = Holdem(players=n, stacks=stacks, button=button, **options)  # type: ignore[arg-type]
    return game.new_state(seed=7, deal=arrange_deal(stacks, button, holes, board))


def play(state: HoldemState, *actions: str) -> None:
    for a in actions:
        state.apply(a)


@pytest.mark.rule("NLH-03", "NLH-07", "NLH-08", "NLH-09", "NLH-10", "NLH2-03", "NLH2-04")
def test_defaults_and_player_counts() -> None:
    game = games.make("holdem")
    assert game.num_players == 4
    assert game.options["stack"] == 1000 and game.options["blinds"] == [10, 20]
    assert len(cardkit.deck(game.deck_name)) == 52
    assert not any(c.is_joker for c in cardkit.deck(game.deck_name))
    state = game.new_state(seed=1)
    assert all(len(h) == 2 for h in state.holes)
    # No ante: only the two blinds are in the pot.
    assert state.betting.committed == [0, 10, 20, 0]
    for n in range(2, 13):
        assert games.make("holdem", players=n).new_state(seed=n).current_player is not None
    for bad in (1, 13):
        with pytest.raises(RuleOptionError):
            games.make("holdem", players=bad)
    with pytest.raises(RuleOptionError):
        games.make("holdem", blinds=(20, 10))
    with pytest.raises(RuleOptionError):
        games.make("holdem", stacks=[0, 0, 5, 0])


@pytest.mark.rule("NLH-11", "NLH-12", "NLH-14", "NLH-16", "NLH2-05")
def test_button_blinds_and_preflop_order() -> None:
    state = games.make("holdem").new_state(seed=3)
    assert (state.button, state.small_blind, state.big_blind) == (0, 1, 2)
    assert state.current_player == 3  # after the big blind
    order = []
    for a in ("call", "call", "call"):
        order.append(state.current_player)
        state.apply(a)
    order.append(state.current_player)
    assert order == [3, 0, 1, 2]  # clockwise, the big blind last
    state.apply("check")
    assert state.street == "flop"
    state.apply("bet 20")
    for _ in range(3):
        state.apply("fold")
    # The next hand: the button moves one seat clockwise and the blinds follow.
    assert state.hand_number == 1
    assert (state.button, state.small_blind, state.big_blind) == (1, 2, 3)


@pytest.mark.rule("NLH-13", "NLH-14", "NLH-29", "NLH2-11", "NLH2-12", "NLH2-13")
def test_worked_example_two_player_hand() -> None:
    # "In a fresh two-player hand, seat 1 calls 10 more chips. Both stacks become 980.
    # Seat 2 checks, revealing the three-card flop." Seat 1 is cardkit's seat 0.
    state = games.make("holdem", players=2).new_state(seed=11)
    assert state.button == 0 and state.small_blind == 0 and state.big_blind == 1
    assert state.current_player == 0  # heads-up the button acts first pre-flop
    assert state.observation(0)["to_call"] == 10
    state.apply("call")
    assert state.betting.stacks == [980, 980]
    assert state.current_player == 1
    assert state.board == []
    state.apply("check")
    assert len(state.board) == 3 and state.observation(0)["street"] == "flop"
    assert state.current_player == 1  # post-flop the big blind (left of the button) starts


@pytest.mark.rule("NLH-15")
def test_first_heads_up_hand_avoids_a_second_big_blind() -> None:
    # Seat 0 (the button) busts in the first hand, in which seat 2 paid the big blind.
    holes = {0: "2c3d", 1: "AhAd", 2: "KhKd"}
    state = hand(holes, "9s8s4c5hJc", stacks=[5, 1000, 1000], match=True)
    play(state, "call", "call", "check", "check", "check", "check", "check", "check", "check")
    assert state.stacks[0] == 0 and state.hand_number == 1
    # The button would move to seat 1, making seat 2 the big blind again; it is
    # adjusted so that seat 1 pays it instead.
    assert (state.button, state.small_blind, state.big_blind) == (2, 2, 1)
    assert state.holes[0] == ()  # NLH-48: the busted player gets no cards


@pytest.mark.rule("NLH-30", "NLH-17", "NLH2-18", "NLH2-19")
def test_big_blind_keeps_its_option() -> None:
    state = games.make("holdem", players=3).new_state(seed=5)
    play(state, "call", "call")
    assert state.current_player == 2
    assert state.legal_actions()[:2] == ["check", "raise 40"]
    state.apply("raise 60")
    assert state.current_player == 0
    with pytest.raises(IllegalActionError, match="cannot check"):
        state.apply("check")


@pytest.mark.rule("NLH-21", "NLH-22", "NLH-23", "NLH2-14", "NLH-24")
def test_bet_sizes_are_round_totals() -> None:
    state = games.make("holdem", players=3).new_state(seed=5)
    assert state.bet_range() == (40, 1000)
    with pytest.raises(IllegalActionError, match="minimum is 40"):
        state.apply("raise 30")
    state.apply("raise 100")  # total 100: an increase of 80
    assert state.bet_range() == (180, 1000)
    assert state.is_legal("raise 180") and not state.is_legal("raise 179")
    assert state.is_legal("raise 1000") and not state.is_legal("raise 1001")
    assert state.is_legal("raise 777")  # any legal amount, not only the listed ones
    state.apply("raise 777")
    assert state.betting.stacks[1] == 223 and state.betting.bets[1] == 777
    play(state, "fold", "call")
    assert state.street == "flop"
    assert state.bet_range() == (20, 223)  # post-flop minimum opening bet: the big blind
    assert state.legal_actions() == ["check", "bet 20", "bet 223"]


@pytest.mark.rule("NLH-25", "NLH-26", "NLH-27", "NLH-19", "NLH-24")
def test_short_all_in_in_a_hand() -> None:
    state = hand({0: "AsKs", 1: "QdQc", 2: "7h7c"}, stacks=[1000, 1000, 130])
    # Seat 0 (button) opens to 100, seat 1 calls, seat 2 (big blind) shoves 130.
    play(state, "raise 100", "call", "raise 130")
    assert state.current_player == 0 and state.bet_range() is None
    assert [str(a) for a in state.legal_actions()] == ["fold", "call"]
    play(state, "call", "call")
    assert state.street == "flop" and state.bet_range() == (20, 870)


@pytest.mark.rule("NLH-28", "NLH2-07")
def test_burn_before_each_street() -> None:
    state = hand({0: "AsKs", 1: "QdQc"}, "2c3c4c5d6d", button=0)
    top = arrange_deal([1000, 1000], 0, {0: "AsKs", 1: "QdQc"}, "2c3c4c5d6d")
    play(state, "call", "check")
    assert state.board == top[5:8] and state.burns == [top[4]]
    play(state, "check", "check")
    assert state.board[3] == top[9] and state.burns[1] == top[8]
    play(state, "check", "check")
    assert state.board[4] == top[11] and state.burns[2] == top[10]
    assert [str(c) for c in state.board] == ["2c", "3c", "4c", "5d", "6d"]


@pytest.mark.rule("NLH-39", "NLH-20", "NLH-04", "NLH2-01")
def test_last_player_standing_wins_without_more_cards() -> None:
    state = hand({0: "AsKs", 1: "QdQc", 2: "7h7c"})
    play(state, "raise 100", "fold", "fold")
    assert state.is_terminal and state.board == []
    assert state.stacks == [1030, 990, 980]
    record = state.hands[0]
    assert record["shown"] == {} and record["returned"] == [80, 0, 0]
    assert state.observation(1)["shown"] == {}


@pytest.mark.rule("NLH-40", "NLH-41", "NLH-42", "NLH-43", "NLH-06", "NLH2-09", "NLH2-10")
def test_all_in_run_out_and_side_pots() -> None:
    holes = {0: "AsAh", 1: "KsKh", 2: "QsQh"}
    state = hand(holes, "2c7d9hJcTd", stacks=[1000, 300, 100])
    play(state, "raise 1000", "call", "call")
    # Nobody can bet any more: the board is run out and the hands shown.
    assert state.is_terminal and len(state.board) == 5
    pots = state.score_breakdown()["hands"][0]["pots"]
    assert [(p["amount"], p["eligible"], p["winners"]) for p in pots] == [
        (300, [0, 1, 2], [0]),
        (400, [0, 1], [0]),
    ]
    assert state.hands[0]["returned"] == [700, 0, 0]
    assert state.stacks == [1400, 0, 0]
    assert state.observation(2)["shown"] == {
        "0": ["As", "Ah"],
        "1": ["Ks", "Kh"],
        "2": ["Qs", "Qh"],
    }


@pytest.mark.rule("NLH-44", "NLH-45", "NLH-42")
def test_each_pot_settled_separately_and_folded_chips_stay() -> None:
    # Seat 2 has the best hand but is all-in for 100: it wins only the main pot.
    holes = {0: "AsKd", 1: "QdQc", 2: "7h7c", 3: "2h3d"}
    state = hand(holes, "7s7d2c9hTs", stacks=[1000, 1000, 100, 1000])
    # Seat 3 (UTG) limps, seat 0 raises, seat 1 calls, seat 2 (big blind) calls all-in
    # for 100, seat 3 folds its 20.
    play(state, "call", "raise 200", "call", "call", "fold")
    play(state, "check", "check", "check", "check", "check", "check")
    pots = state.hands[0]["pots"]
    assert [(p["amount"], p["eligible"], p["winners"]) for p in pots] == [
        (320, [0, 1, 2], [2]),
        (200, [0, 1], [1]),
    ]
    assert state.stacks == [800, 1000, 320, 980]


@pytest.mark.rule("NLH-46", "NLH2-10", "NLH-37", "NLH-35", "NLH2-23")
def test_split_pot_odd_chip_goes_clockwise_from_the_button() -> None:
    # Both play the board straight; 3 players, one folded chip makes the pot odd.
    holes = {0: "2c3d", 1: "2d3c", 2: "4h4d"}
    state = hand(holes, "TsJhQdKcAs", stacks=[1000, 1000, 1000], button=2, blinds=(5, 10))
    play(state, "call", "call")  # seat 2 (button) calls, seat 0 (SB) completes ...
    play(state, "check")  # ... and seat 1 (BB) checks: 30 in the pot
    for _ in range(9):
        state.apply("check")
    assert state.hands[0]["pots"][0]["winners"] == [0, 1, 2]
    # An odd pot: seat 0 (button) limps, seat 1 folds its small blind of 5, seat 2 checks.
    odd = hand(holes, "TsJhQdKcAs", stacks=[1000, 1000, 1000], button=0, blinds=(5, 10))
    play(odd, "call", "fold", "check")
    for _ in range(6):
        odd.apply("check")
    pot = odd.hands[0]["pots"][0]
    # 25 chips split two ways: the odd chip goes to the first winner clockwise from
    # the button's left (seat 1 folded, so seat 2), not to the lowest seat number.
    assert pot["amount"] == 25 and pot["shares"] == {"2": 13, "0": 12}


@pytest.mark.rule(
    "NLH-31",
    "NLH-32",
    "NLH-33",
    "NLH-34",
    "NLH-36",
    "NLH-38",
    "NLH2-08",
    "NLH2-15",
    "NLH2-16",
    "NLH2-17",
    "NLH2-20",
    "NLH2-21",
    "NLH2-22",
)
def test_showdowns_use_the_best_five_of_seven() -> None:
    def winners(holes: dict[int, str], board: str) -> list[int]:
        state = hand(holes, board, stacks=[1000] * len(holes), button=len(holes) - 1)
        while not state.is_terminal:
            state.apply("check" if state.is_legal("check") else "call")
        return list(state.hands[0]["pots"][0]["winners"])

    # The board plays for both (zero hole cards used): a split.
    assert winners({0: "2c3d", 1: "2d3c"}, "AsKsQsJsTs") == [0, 1]
    # One hole card: a flush with the ace beats the board's straight.
    assert winners({0: "Ah2c", 1: "KdKc"}, "3h7h9hJhQd") == [0]
    # A-2-3-4-5 is the lowest straight: it beats trips, loses to 6-high.
    assert winners({0: "Ac2d", 1: "9s9h"}, "3c4d5h9cKd") == [0]
    assert winners({0: "Ac2d", 1: "6c7d"}, "3c4d5hKsKd") == [1]
    # Kickers decide in order; the sixth and seventh cards never do.
    assert winners({0: "AhQc", 1: "AdJc"}, "As8d7c4h2s") == [0]
    assert winners({0: "3h2c", 1: "4d2d"}, "AsKdQc9h8s") == [0, 1]
    # A royal flush is the top straight flush; category order descends.
    assert winners({0: "AhKh", 1: "9h8h"}, "QhJhTh2c3d") == [0]
    assert winners({0: "7c7d", 1: "Ah2h"}, "7h7s5h9hKc") == [0]  # quads over flush
    assert winners({0: "KcKd", 1: "AcQd"}, "KhQhQs4c2d") == [0]  # full house over trips


@pytest.mark.rule("NLH-05", "NLH-47", "NLH-48", "NLH-49", "NLH-50", "NLH2-02")
def test_match_plays_to_the_last_stack() -> None:
    game = games.make("holdem")
    state = cardkit.play(game, [RandomAgent(i) for i in range(4)], seed=21)
    assert state.is_terminal and sorted(state.stacks) == [0, 0, 0, 4000]
    assert sum(state.returns()) == 0 and max(state.returns()) == 3000
    hands = state.score_breakdown()["hands"]
    assert len(hands) > 1
    for prev, nxt in itertools.pairwise(hands):
        # Stacks carry over from hand to hand, busted seats are dealt out.
        assert nxt["starting_stacks"] == prev["finishing_stacks"]
        out = [s for s, c in enumerate(prev["finishing_stacks"]) if c == 0]
        assert all(str(s) not in nxt["shown"] for s in out)
        assert all(s != a[0] for a in nxt["actions"] for s in out)
    # Each hand is a fresh shuffle.
    assert state.deck_order(0) != state.deck_order(1)
    # Restarting is a new state: everyone back at 1000.
    assert game.new_state(seed=21).betting.stacks == [1000, 990, 980, 1000]


def test_observation_hides_other_hole_cards() -> None:
    state = hand({0: "AsKs", 1: "QdQc", 2: "7h7c"}, "2c3c4c5d6d")
    text = json.dumps(state.observation(1))
    assert "Qd" in text and "As" not in text and "7h" not in text
    assert state.private_cards(0) == [Card("As"), Card("Ks")]


def test_observation_marks_where_each_street_starts() -> None:
    # board_at splits the hand's actions by street exactly as they were played.
    for seed in range(40):
        game = games.make("holdem", players=2 + seed % 5, match=False)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        streets: list[str] = []
        while not state.is_terminal:
            seat = state.current_player
            streets.append(state.observation(seat)["street"])
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        obs = state.observation(0)
        assert len(obs["actions"]) == len(streets)
        starts = [0, *obs["board_at"]]
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(streets)
            assert set(streets[start:end]) <= {("preflop", "flop", "turn", "river")[k]}


def test_bad_options_and_actions() -> None:
    game = games.make("holdem", players=2)
    state = game.new_state(seed=1)
    for junk in ("raise", "bet -1", "raise 10.5", "allin", "lock As"):
        with pytest.raises(IllegalActionError):
            state.apply(junk)
    assert game.parse_action("RAISE 0100") == "raise 100"
    with pytest.raises(RuleOptionError):
        games.make("holdem", match="yes")
    with pytest.raises(RuleOptionError):
        games.make("holdem", players=3, stacks=[1, 2])
    with pytest.raises(RuleOptionError):
        arrange_deal([100, 100], 0, {0: "AsKs", 1: "AsQd"})
    back = game.state_from_json(state.to_json())
    assert back.to_json() == state.to_json()


@settings(max_examples=60, deadline=None)
@given(
    stacks=st.lists(st.integers(min_value=0, max_value=600), min_size=2, max_size=12),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    match=st.booleans(),
)
def test_chips_are_conserved_in_every_hand(stacks: list[int], seed: int, match: bool) -> None:
    if sum(1 for s in stacks if s > 0) < 2:
        stacks = [*stacks[:-2], 5, 7]
    game = Holdem(players=len(stacks), stacks=stacks, match=match, button=seed % len(stacks))
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    total = sum(stacks)
    steps = 0
    while not state.is_terminal and steps < 3000:
        steps += 1
        b = state.betting
        assert sum(b.stacks) + b.pot == total
        legal = [a.text for a in state.legal_actions()]
        bounds = state.bet_range()
        if bounds is not None and rng.random() < 0.3:
            legal.append(f"{'raise' if b.current_bet else 'bet'} {rng.randint(*bounds)}")
        state.apply(rng.choice(legal))
    assert sum(state.stacks) == total
    for record in state.hands:
        assert sum(record["finishing_stacks"]) == total
        paid = sum(p["amount"] for p in record["pots"])
        assert paid == sum(v for p in record["pots"] for v in p["shares"].values())


@pytest.mark.parametrize("seed", range(6))
def test_listed_and_typed_moves_take_the_same_path_to_the_same_state(seed: int) -> None:
    """A listed action skips parsing and checking, typed text does not; both end in
    the one ``_apply``, so the two states agree at every step."""
    game = Holdem(players=2 + seed % 5, match=True)
    fast, slow = game.new_state(seed=seed), game.new_state(seed=seed)
    rng = random.Random(seed)
    while not fast.is_terminal and len(fast.history) < 400:
        listed = fast.legal_actions()
        assert slow.legal_actions() == listed
        choice = listed[rng.randrange(len(listed))]
        fast.apply(choice)
        # Spaced and upper-cased text is parsed and checked before it is played.
        slow.apply("  " + choice.upper().replace(" ", "   "))
        assert fast.to_json() == slow.to_json()
        assert all(type(a) is cardkit.api.Action for a in fast.history + slow.history)
        for seat in range(game.num_players):
            assert fast.observation(seat) == slow.observation(seat)
        assert fast.events() == slow.events()
    assert fast.returns() == slow.returns()
