"""One Poker: locking, UP/DOWN signals, betting, the 2-beats-A showdown, carry-over."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import cardkit
from cardkit import Card, IllegalActionError, games
from cardkit.agents import RandomAgent
from cardkit.games.onepoker import OnePoker, OnePokerState, compare_cards, is_up


def start(cards: str, **options: object) -> OnePokerState:
    """Deal ``cards`` one at a time, seat 0 first: seat 0 gets the 1st and 3rd."""
    return OnePoker(**options).new_state(seed=1, deal=cards)  # type: ignore[arg-type]


@pytest.mark.rule("OP-03", "OP-05", "OP-06", "OP-07", "OP-37")
def test_setup_two_packs_twenty_chips_ante() -> None:
    game = games.make("onepoker")
    assert game.num_players == 2 and game.options == {"match": True, "stack": 20, "ante": 1}
    deck = cardkit.deck(game.deck_name)
    assert len(deck) == 104 and not any(c.is_joker for c in deck)
    assert Counter(deck) == Counter(cardkit.deck("standard52") * 2)
    state = game.new_state(seed=3)
    obs = state.observation(0)
    assert obs["stacks"] == [19, 19] and obs["pot"] == 2
    assert len(state.hands[0]) == len(state.hands[1]) == 2
    assert len(state.stock) == 100


@pytest.mark.rule("OP-08", "OP-14", "OP-15", "OP-16")
def test_lock_then_bet_and_locked_cards_stay() -> None:
    state = start("Ah 2c Kd 7s")
    assert state.hands == [[Card("Ah"), Card("Kd")], [Card("2c"), Card("7s")]]
    assert state.current_player == 0
    assert set(state.legal_actions()) == {"lock Ah", "lock Kd"}
    with pytest.raises(IllegalActionError, match="only after both players have locked"):
        state.apply("bet 1")
    with pytest.raises(IllegalActionError, match="not in this seat's hand"):
        state.apply("lock 2c")
    state.apply("lock Kd")
    assert state.current_player == 1
    with pytest.raises(IllegalActionError, match="only after both"):
        state.apply("check")
    state.apply("lock 7s")
    assert state.current_player == 0  # seat 0 also acts first in the opening deal
    with pytest.raises(IllegalActionError, match="cannot be changed"):
        state.apply("lock Ah")
    assert state.locked == [Card("Kd"), Card("7s")]


@pytest.mark.rule("OP-11", "OP-12", "OP-13")
def test_signals_show_group_counts_only() -> None:
    state = start("Ah 2c 8d 7s")
    assert is_up(Card("8d")) and is_up(Card("Ah")) and not is_up(Card("7s"))
    assert all(is_up(Card(r + "c")) for r in "89TJQKA")
    assert not any(is_up(Card(r + "c")) for r in "234567")
    assert state.signals(0) == {"up": 2, "down": 0}
    assert state.signals(1) == {"up": 0, "down": 2}
    state.apply("lock Ah")
    obs1 = state.observation(1)
    # Seat 1 sees that seat 0 locked, and its counts, but no card of seat 0.
    assert obs1["locked_by"] == [True, False]
    assert obs1["signals"][0] == {"up": 2, "down": 0}
    text = json.dumps(obs1)
    assert "Ah" not in text and "8d" not in text
    mixed = start("Ah 2c 3d 7s")
    mixed.apply("lock 3d")
    # The counts do not change on locking: they do not reveal the locked card's group.
    assert mixed.observation(1)["signals"][0] == {"up": 1, "down": 1}


@pytest.mark.rule("OP-17", "OP-18", "OP-19", "OP-20")
def test_betting_minimum_one_and_totals_exclude_the_ante() -> None:
    state = start("Ah 2c Kd 7s")
    state.apply("lock Ah")
    state.apply("lock 2c")
    assert state.legal_actions()[:2] == ["check", "bet 1"]
    state.apply("bet 3")  # a total of 3 for the round; the ante is apart
    assert state.observation(1)["to_call"] == 3
    with pytest.raises(IllegalActionError, match="cannot check"):
        state.apply("check")
    with pytest.raises(IllegalActionError, match="minimum is 6"):
        state.apply("raise 5")
    state.apply("raise 6")
    assert state.betting.bets == [3, 6] and state.betting.stacks == [16, 13]
    assert state.betting.pot == 2 + 9


@pytest.mark.rule("OP-21", "OP-22", "OP-23", "OP-24", "OP-25")
def test_all_in_rules() -> None:
    state = start("Ah 2c Kd 7s", stack=20)
    state.apply("lock Ah")
    state.apply("lock 2c")
    state.apply("bet 19")  # all-in
    assert state.legal_actions() == ["fold", "call"]  # against an all-in: call or fold
    state.apply("call")
    # The 2 beats the ace: seat 0 has no chips left and the match is over.
    assert state.is_terminal and state.stacks == [0, 40]
    # A call that cannot be covered commits the remaining chips, and the excess
    # comes back. Seat 0 first wins 10 chips (K over 7), then draws 5h to Ah.
    short = start("Ah 2c Kd 7s 5h 9c", stack=20)
    for move in ("lock Kd", "lock 7s", "bet 9", "call"):
        short.apply(move)
    assert short.stacks == [30, 10] and short.betting.stacks == [29, 9]
    for move in ("lock Ah", "lock 2c", "bet 15", "call"):
        short.apply(move)
    deal = short.deals[-1]
    assert deal["returned"] == [6, 0] and deal["pot"] == 20


@pytest.mark.rule("OP-26", "OP-27", "OP-28", "OP-02")
def test_card_comparison_two_beats_ace() -> None:
    order = "23456789TJQKA"
    for i, low in enumerate(order):
        for high in order[i + 1 :]:
            expected = 1 if (low, high) == ("2", "A") else -1
            assert compare_cards(Card(low + "h"), Card(high + "s")) == expected
            assert compare_cards(Card(high + "s"), Card(low + "h")) == -expected
    assert compare_cards(Card("Qh"), Card("Qs")) == 0


@pytest.mark.rule("OP-04", "OP-29", "OP-30", "OP-09", "OP-34")
def test_showdown_stronger_locked_card_wins_and_winner_starts() -> None:
    state = start("Ah 2c Kd 7s 5h 9c")
    state.apply("lock Ah")
    state.apply("lock 2c")
    state.apply("bet 2")
    state.apply("call")
    deal = state.deals[0]
    assert deal["locked"] == ["Ah", "2c"] and deal["winners"] == [1] and deal["pot"] == 6
    assert state.stacks == [17, 23]
    assert [str(c) for c in state.revealed] == ["Ah", "2c"]
    # Next deal: played cards discarded, the other card kept, one drawn (winner first).
    assert state.first == 1 and state.current_player == 1
    assert state.hands == [[Card("Kd"), Card("9c")], [Card("7s"), Card("5h")]]
    assert state.discards == [Card("Ah"), Card("2c")]
    assert state.observation(0)["stacks"] == [16, 22]  # next ante paid


@pytest.mark.rule("OP-31", "OP-10")
def test_tie_splits_and_first_player_switches() -> None:
    state = start("Qh Qc Kd 7s")
    state.apply("lock Qh")
    state.apply("lock Qc")
    state.apply("bet 4")
    state.apply("call")
    assert state.deals[0]["winners"] == [0, 1]
    assert state.stacks == [20, 20]
    assert state.first == 1


@pytest.mark.rule("OP-32", "OP-33", "OP-04")
def test_fold_wins_and_still_reveals_both_locked_cards() -> None:
    state = start("2h Ac Kd 7s")
    state.apply("lock 2h")  # the 2 would beat seat 1's ace ...
    state.apply("lock Ac")
    state.apply("check")
    state.apply("bet 5")
    state.apply("fold")  # ... but seat 0 folds, so seat 1 wins
    deal = state.deals[0]
    assert deal["folded"] == 0 and deal["winners"] == [1] and deal["locked"] == ["2h", "Ac"]
    assert state.stacks == [19, 21]
    assert state.observation(0)["revealed"] == ["2h", "Ac"]
    assert state.first == 1


@pytest.mark.rule("OP-35")
def test_reshuffle_keeps_held_cards_aside() -> None:
    state = start("Ah 2c Kd 7s")
    state.stock = state.stock[:1]
    state.discards = [Card("3h"), Card("4h")]
    state.apply("lock Ah")
    state.apply("lock 2c")
    state.apply("check")
    state.apply("check")
    assert state.reshuffles == 1
    assert state.hands[0][0] == Card("Kd") and state.hands[1][0] == Card("7s")
    assert state.discards == []
    # Everything not held went back into the stock: the stock's card, the old
    # discards and the two just played, minus the two replacements drawn.
    assert len(state.stock) == 1 + 2 + 2 - 2


@pytest.mark.rule("OP-35")
def test_the_stock_is_checked_once_before_both_draws() -> None:
    # Two cards left: not fewer than two, so both players draw them, no reshuffle.
    state = start("Ah 2c Kd 7s")
    state.stock = [Card("5d"), Card("6d")]
    state.discards = [Card("3h"), Card("4h")]
    for action in ("lock Ah", "lock 2c", "check", "check"):
        state.apply(action)
    assert state.reshuffles == 0 and state.stock == []
    assert sorted(state.hands[0] + state.hands[1]) == sorted(cardkit.parse_cards("Kd 7s 5d 6d"))
    # The next deal finds the stock empty: one reshuffle, then both draw from it.
    state.apply(f"lock {state.hands[state.current_player][0]}")
    state.apply(f"lock {state.hands[state.current_player][0]}")
    state.apply("check")
    state.apply("check")
    assert state.reshuffles == 1
    # Four discards from the first deal and the two just played, less two drawn.
    assert len(state.stock) == 4 + 2 - 2 and state.discards == []
    assert all(len(hand) == 2 for hand in state.hands)


@pytest.mark.rule("OP-36", "OP-05")
def test_match_ends_when_a_stack_is_empty() -> None:
    game = games.make("onepoker")
    for seed in range(20):
        state = cardkit.play(game, [RandomAgent(seed), RandomAgent(seed + 100)], seed=seed)
        assert sorted(state.stacks) == [0, 40]
        assert sorted(state.returns()) == [-20.0, 20.0]
        assert state.current_player is None


def test_single_deal_mode_and_options() -> None:
    game = games.make("onepoker", match=False)
    state = game.new_state(seed=9)
    while not state.is_terminal:
        state.apply("check" if state.is_legal("check") else state.legal_actions()[0])
    assert len(state.deals) == 1 and sum(state.returns()) == 0
    for bad in ({"match": 1}, {"stack": 0}, {"ante": 21}):
        with pytest.raises(cardkit.RuleOptionError):
            games.make("onepoker", **bad)
    with pytest.raises(IllegalActionError):
        game.parse_action("lock Zz")
    assert game.parse_action("LOCK ah") == "lock Ah"
