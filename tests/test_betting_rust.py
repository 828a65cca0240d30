"""The Rust betting core (``BettingCore``, what Hold'em and One Poker run on) against
its Python twin (the test oracle ``tests/oracle_betting.py``): same seeds, same moves,
same results.

Both are driven through random hands in Hold'em's configuration (2 to 12 seats,
blinds, antes, sitting-out seats, short and huge stacks, four rounds) and One
Poker's (two seats, an ante that may exceed a stack, minimum bet 1, one round) and
compared after every move: chips, turn, raise range, listed actions (also as the
games list them), the reason for each illegal attempt and the error it raises,
idle turns, returned chips, pots and the settlement.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit._core import BettingCore
from cardkit.errors import IllegalActionError, RuleOptionError
from cardkit.games._betting import action_code, listing

from .oracle_betting import (
    Betting,
    apply_betting_action,
    betting_actions,
    betting_illegal_reason,
)

#: The pot fractions the games list (Hold'em and One Poker alike) and a few others.
_FRACTIONS = ((0.5, 1.0), (), (0.25, 0.75, 2.0), (1.0, 0.5))


def _code_text(code: int) -> str:
    if code < 0:
        return {-1: "fold", -2: "check", -3: "call"}[code]
    total, raising = divmod(code, 2)
    return f"{'raise' if raising else 'bet'} {total}"


def _same(py: Betting, rs: BettingCore) -> None:
    assert rs.n == py.n
    assert rs.stacks == py.stacks
    assert rs.bets == py.bets
    assert rs.committed == py.committed
    assert rs.folded == py.folded
    assert rs.returned == py.returned
    assert rs.min_bet == py.min_bet
    assert rs.current_bet == py.current_bet
    assert rs.full_raise == py.full_raise
    assert rs.to_act == py.to_act
    assert rs.pot == py.pot
    assert rs.live() == py.live()
    assert rs.live_count() == len(py.live())
    assert rs.betting_possible() == py.betting_possible()
    for seat in range(py.n):
        assert rs.raise_range(seat) == py.raise_range(seat)
        assert rs.can_raise(seat) == py.can_raise(seat)
        assert rs.can_bet(seat) == py.can_bet(seat)
        assert rs.to_call(seat) == py.to_call(seat)
    assert rs.pots() == [(p.amount, list(p.eligible)) for p in py.pots()]


def _attempts(rng: random.Random, py: Betting, seat: int) -> list[str]:
    """Legal and illegal texts to try: every word, and amounts around the range."""
    texts = ["fold", "check", "call"]
    cb = py.current_bet
    for verb in ("bet", "raise"):
        for total in {0, 1, cb, cb + 1, py.min_bet, rng.randint(0, 2 * (py.stacks[seat] + 40))}:
            texts.append(f"{verb} {total}")
        bounds = py.raise_range(seat)
        if bounds is not None:
            low, high = bounds
            texts += [f"{verb} {low - 1}", f"{verb} {low}", f"{verb} {high}", f"{verb} {high + 1}"]
            texts.append(f"{verb} {rng.randint(low, high)}")
    return texts


def _refused_alike(py: Betting, rs: BettingCore, seat: int, text: str) -> bool:
    """Check one attempt on both sides; True when it is legal.

    An illegal one must be refused by ``apply`` (text) and ``act`` (code) with the
    oracle's reason as the message, changing nothing.
    """
    reason = betting_illegal_reason(py, seat, text)
    assert rs.illegal_reason(text) == reason, text
    if reason is None:
        return True
    with pytest.raises(IllegalActionError) as refused:
        rs.apply(text)
    assert str(refused.value) == reason
    with pytest.raises(IllegalActionError) as refused:
        rs.act(action_code(text))
    assert str(refused.value) == reason
    return False


def _table(rng: random.Random, seats: int, config: str) -> tuple[list[int], list[bool], int]:
    """Stacks, seats in the hand and the minimum bet of a random table."""
    if config == "onepoker":
        # One Poker: two players with chips, a minimum bet of 1 (OP-19).
        return [rng.randint(1, rng.choice((3, 20, 40, 2_000_000))) for _ in range(2)], [True] * 2, 1
    stacks = [rng.choice((0, 5, 15, 40, 100, 400, 1000, 10**12)) for _ in range(seats)]
    if sum(1 for s in stacks if s) < 2:
        stacks[0] = stacks[1] = 1000
    return stacks, [s > 0 for s in stacks], rng.choice((1, 2, 20, 10**9))


def play_both(seed: int, seats: int, config: str = "holdem") -> None:
    rng = random.Random(seed)
    stacks, in_hand, min_bet = _table(rng, seats, config)
    seats = len(stacks)
    py = Betting(stacks, in_hand, min_bet)
    rs = BettingCore(stacks, in_hand, min_bet)
    players = [s for s in range(seats) if in_hand[s]]
    fractions = rng.choice(_FRACTIONS)
    if config == "onepoker":
        # The ante, first player first; it may put a short stack all-in.
        first = rng.randrange(2)
        ante = rng.choice((0, 1, 1, 2, 5))
        for seat in (first, 1 - first):
            assert rs.post_ante(seat, ante) == py.post_ante(seat, ante)
        rounds = 1
    else:
        if rng.random() < 0.3:
            for seat in players:
                assert rs.post_ante(seat, 3) == py.post_ante(seat, 3)
        small, big = players[0], players[1]
        assert rs.post_blind(small, min_bet // 2) == py.post_blind(small, min_bet // 2)
        assert rs.post_blind(big, min_bet) == py.post_blind(big, min_bet)
        first = (big + 1) % seats
        rounds = 4
    idle: list[int] = []
    for _street in range(rounds):
        if py.betting_possible():
            py.start_round(first)
            assert rs.start_round(first) == py.to_act
        _same(py, rs)
        while py.to_act is not None:
            seat = py.to_act
            listed = betting_actions(py, seat, fractions)
            assert [_code_text(c) for c in rs.listed(fractions)] == listed
            # As the games list them: shared actions, each with its code.
            actions, codes = listing(rs, fractions)
            assert actions == listed
            assert [codes[a] for a in actions] == list(rs.listed(fractions))
            legal = [t for t in _attempts(rng, py, seat) if _refused_alike(py, rs, seat, t)]
            _same(py, rs)
            choice = rng.choice(legal + listed)
            if rng.random() < 0.4 and ("check" in legal or "call" in legal):
                # Amounts outnumber the other words; calls and checks keep hands going.
                choice = "check" if "check" in legal else "call"
            apply_betting_action(py, seat, choice)
            if rng.random() < 0.5:
                assert rs.apply(choice) == py.to_act
            else:
                assert rs.act(action_code(choice)) == py.to_act
            # Seats passed over after this move carry this move's number.
            fresh = rs.idle_turns[len(idle) :]
            assert fresh == [(rs.moves, seat) for seat in py.idle_turns]
            idle += py.idle_turns
            py.idle_turns.clear()
            _same(py, rs)
        assert rs.illegal_reason("check") == "no seat is to act: the betting round is closed"
        assert rs.end_round() == py.end_round()
        _same(py, rs)
        first = (first + 1) % seats
        if len(py.live()) == 1:
            break
    strength = [rng.randrange(4) for _ in range(seats)]

    def best(eligible: object) -> list[int]:
        seats_in = list(eligible)  # type: ignore[call-overload]
        top = max(strength[s] for s in seats_in)
        return [s for s in seats_in if strength[s] == top]

    expected = [
        (r.amount, list(r.eligible), list(r.winners), list(r.shares.items()))
        for r in py.award(best, first)
    ]
    assert rs.award(strength, first) == expected
    assert rs.stacks == py.stacks and rs.committed == py.committed


@pytest.mark.parametrize("seed", range(44))
def test_rust_core_matches_python_engine(seed: int) -> None:
    play_both(seed, 2 + seed % 11)


@pytest.mark.parametrize("seed", range(40))
def test_rust_core_matches_python_engine_for_one_poker(seed: int) -> None:
    play_both(seed, 2, "onepoker")


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    seats=st.integers(min_value=2, max_value=12),
    config=st.sampled_from(["holdem", "onepoker"]),
)
def test_rust_core_matches_python_engine_on_any_seed(seed: int, seats: int, config: str) -> None:
    play_both(seed, seats, config)


def test_illegal_moves_raise_and_change_nothing() -> None:
    rs = BettingCore([1000, 1000, 1000], [True] * 3, 20)
    rs.post_blind(0, 10)
    rs.post_blind(1, 20)
    rs.start_round(2)
    before = (rs.stacks, rs.bets, rs.to_act, rs.raise_range(2))
    for text in (
        "check",
        "bet 40",
        "raise 30",
        "raise 1001",
        "allin",
        "raise 99999999999999999999",
    ):
        with pytest.raises(IllegalActionError):
            rs.apply(text)
    for code in (-2, 2 * 30 + 1, -9, 2**70, True, "call"):
        with pytest.raises(IllegalActionError):
            rs.act(code)
    assert (rs.stacks, rs.bets, rs.to_act, rs.raise_range(2)) == before
    with pytest.raises(IllegalActionError):
        rs.post_blind(0, 5)  # forced bets come before the round opens
    copy = rs.copy()
    copy.apply("call")
    assert rs.to_act == 2 and copy.to_act == 0


@pytest.mark.parametrize(
    "make",
    [
        lambda: BettingCore([1000, -1], [True, True], 20),
        lambda: BettingCore([1000, 2**60], [True, True], 20),
        lambda: BettingCore("12", [True, True], 20),
        lambda: BettingCore([1000, 1000], [True], 20),
        lambda: BettingCore([1000, 1000], [True, True], 0),
        lambda: BettingCore([1000, 1000], [True, True], 20).start_round(2),
        lambda: BettingCore([1000, 1000], [True, True], 20).post_blind(-1, 5),
        lambda: BettingCore([1000, 1000], [True, True], 20).award([1], 0),
        lambda: BettingCore([1000, 1000], [True, True], 20).raise_range(True),
    ],
)
def test_bad_arguments_are_rule_option_errors(make: object) -> None:
    with pytest.raises(RuleOptionError):
        make()  # type: ignore[operator]
