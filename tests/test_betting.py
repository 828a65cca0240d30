"""The no-limit betting rules Hold'em and One Poker share: bets, raises, short
all-ins, pots, odd chips.

Every clause is checked on both implementations: the production ``BettingCore``
(Rust) and its Python twin, the test oracle in ``tests/oracle_betting.py``. The two
are also played against each other move for move in ``tests/test_betting_rust.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit._core import BettingCore
from cardkit.games._betting import action_code, listing, parse_betting_action

from .oracle_betting import (
    Betting,
    apply_betting_action,
    betting_actions,
    betting_illegal_reason,
    split_amount,
)


class OracleTable:
    """The Python oracle behind the interface the tests use."""

    def __init__(self, stacks: Sequence[int], min_bet: int) -> None:
        self.b = Betting(list(stacks), [True] * len(stacks), min_bet)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.b, name)

    def reason(self, text: str) -> str | None:
        return betting_illegal_reason(self.b, self.b.to_act, text)

    def play(self, text: str) -> None:
        apply_betting_action(self.b, self.b.to_act, text)

    def listed(self, fractions: Sequence[float]) -> list[str]:
        return betting_actions(self.b, self.b.to_act, fractions)

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        return [(p.amount, p.eligible) for p in self.b.pots()]

    def award(self, strength: Sequence[int], first: int) -> list[tuple[Any, ...]]:
        def best(eligible: Sequence[int]) -> list[int]:
            top = max(strength[s] for s in eligible)
            return [s for s in eligible if strength[s] == top]

        return [(r.winners, r.shares) for r in self.b.award(best, first)]


class CoreTable:
    """The Rust ``BettingCore`` behind the same interface."""

    def __init__(self, stacks: Sequence[int], min_bet: int) -> None:
        self.b = BettingCore(list(stacks), [True] * len(stacks), min_bet)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.b, name)

    def reason(self, text: str) -> str | None:
        return self.b.illegal_reason(text)

    def play(self, text: str) -> None:
        self.b.act(action_code(text))

    def listed(self, fractions: Sequence[float]) -> list[str]:
        return [str(a) for a in listing(self.b, fractions)[0]]

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        return [(amount, tuple(eligible)) for amount, eligible in self.b.pots()]

    def award(self, strength: Sequence[int], first: int) -> list[tuple[Any, ...]]:
        return [
            (tuple(winners), dict(shares))
            for _, _, winners, shares in self.b.award(list(strength), first)
        ]


Table = OracleTable | CoreTable


@pytest.fixture(params=[CoreTable, OracleTable], ids=["BettingCore", "oracle"])
def impl(request: pytest.FixtureRequest) -> type[Table]:
    return request.param  # type: ignore[no-any-return]


def make_table(impl: type[Table], *stacks: int, min_bet: int = 20) -> Table:
    b = impl(stacks, min_bet)
    b.start_round(0)
    return b


def act(b: Table, text: str) -> None:
    assert b.to_act is not None
    reason = b.reason(text)
    assert reason is None, reason
    b.play(text)


def illegal(b: Table, text: str) -> str:
    assert b.to_act is not None
    reason = b.reason(text)
    assert reason is not None, f"{text} should be illegal"
    return reason


@pytest.mark.rule("NLH-21", "OP-19", "NLH-24", "OP-21")
def test_minimum_opening_bet_and_short_all_in_bet(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 1000, 15)
    assert b.raise_range(0) == (20, 1000)
    assert "minimum is 20" in illegal(b, "bet 19")
    act(b, "check")
    act(b, "check")
    # Seat 2 holds only 15: its all-in bet may be below the minimum.
    assert b.raise_range(2) == (15, 15)
    act(b, "bet 15")
    assert b.current_bet == 15
    one = make_table(impl, 20, 20, min_bet=1)
    assert one.raise_range(0) == (1, 20)


@pytest.mark.rule("NLH-22", "NLH-23", "OP-19", "OP-20", "NLH2-14", "NLH2-06")
def test_raise_is_a_total_and_increases_by_the_last_full_increment(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 1000, 1000)
    act(b, "bet 100")
    # "raise 150" is the new total (an increase of 50): short of a full raise of 100.
    assert "minimum is 200" in illegal(b, "raise 150")
    act(b, "raise 300")  # an increase of 200 becomes the step to match
    assert b.bets[1] == 300 and b.stacks[1] == 700
    assert b.raise_range(2) == (500, 1000)
    assert "minimum is 500" in illegal(b, "raise 499")
    assert "most this seat can bet is 1000" in illegal(b, "raise 1001")
    act(b, "raise 500")
    assert b.full_raise == 200


@pytest.mark.rule("NLH-17", "NLH-18", "OP-17", "OP-18", "NLH2-18", "NLH2-19")
def test_check_only_when_nothing_is_owed(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 1000)
    assert b.listed(()) == ["check", "bet 20", "bet 1000"]
    assert b.listed((0.5, 1.0)) == ["check", "bet 20", "bet 1000"]
    assert "nothing is owed" in illegal(b, "call")
    assert "nothing is owed" in illegal(b, "fold")
    assert "no bet yet" in illegal(b, "raise 40")
    act(b, "bet 50")
    assert "50 to call" in illegal(b, "check")
    assert "already a bet" in illegal(b, "bet 100")
    assert b.listed(()) == ["fold", "call", "raise 100", "raise 1000"]


@pytest.mark.rule("NLH-19", "OP-24")
def test_call_that_cannot_be_covered_is_all_in(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 70)
    act(b, "bet 100")
    assert b.to_call(1) == 70
    act(b, "call")
    assert b.stacks[1] == 0 and b.bets[1] == 70
    assert b.to_act is None


@pytest.mark.rule("NLH-25", "OP-22", "NLH-24", "OP-21")
def test_short_all_in_does_not_reopen_raising(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 1000, 150)
    act(b, "bet 100")
    act(b, "call")
    act(b, "raise 150")  # seat 2 all-in: 50 more, short of a full raise
    assert b.to_act == 0
    assert b.raise_range(0) is None
    assert "only call or fold" in illegal(b, "raise 250")
    assert b.listed((0.5, 1.0)) == ["fold", "call"]
    act(b, "call")
    assert b.raise_range(1) is None
    act(b, "call")
    assert b.to_act is None


def test_short_all_in_leaves_raising_open_to_seats_yet_to_act(impl: type[Table]) -> None:
    b = make_table(impl, 150, 1000, 1000)
    act(b, "bet 100")
    b2 = make_table(impl, 1000, 150, 1000)
    act(b2, "bet 100")
    act(b2, "raise 150")  # short all-in
    # Seat 2 has not acted yet: it may raise, by a full 100 over the 150.
    assert b2.raise_range(2) == (250, 1000)


@pytest.mark.rule("NLH-26")
def test_cumulative_short_all_ins_reaching_a_full_raise_reopen(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 150, 220, 1000)
    act(b, "bet 100")
    act(b, "raise 150")  # +50, short
    act(b, "raise 220")  # +70, short; but +120 since seat 0 acted
    act(b, "call")  # seat 3 calls 220
    assert b.to_act == 0
    assert b.raise_range(0) == (320, 1000)
    # Seat 3 acted at 220 and has faced no increase since: it may not raise later.
    act(b, "raise 320")  # seat 0 raises fully: reopens for seat 3
    assert b.raise_range(3) == (420, 1000)


@pytest.mark.rule("NLH-27", "OP-23")
def test_no_raise_when_no_other_player_can_continue(impl: type[Table]) -> None:
    b = make_table(impl, 300, 1000)
    act(b, "bet 300")  # all-in
    assert b.raise_range(1) is None
    assert b.listed((0.5, 1.0)) == ["fold", "call"]
    act(b, "call")
    assert not b.betting_possible()


@pytest.mark.rule("NLH-41", "OP-25")
def test_uncalled_excess_is_returned(impl: type[Table]) -> None:
    b = make_table(impl, 1000, 300)
    act(b, "bet 800")
    act(b, "call")  # all-in for 300
    assert b.end_round() == 500
    assert b.stacks == [700, 0] and b.committed == [300, 300] and b.returned == [500, 0]
    b = make_table(impl, 1000, 1000)
    act(b, "bet 100")
    act(b, "fold")
    assert b.end_round() == 100
    assert b.pot == 0 and b.stacks == [1000, 1000]


@pytest.mark.rule("NLH-42", "NLH-43", "NLH-44", "NLH-45", "NLH2-09", "NLH2-10", "NLH-20")
def test_side_pots_by_contribution_with_folded_chips(impl: type[Table]) -> None:
    b = make_table(impl, 100, 300, 1000, 1000)
    act(b, "bet 100")  # seat 0 all-in
    act(b, "raise 300")  # seat 1 all-in
    act(b, "raise 600")
    act(b, "fold")  # seat 3 folds without putting a chip in
    b.end_round()
    # Seat 2's 300 over seat 1's 300 was uncalled.
    assert b.committed == [100, 300, 300, 0]
    assert b.pots() == [(300, (0, 1, 2)), (400, (1, 2))]
    b2 = make_table(impl, 1000, 1000, 1000, 50)
    act(b2, "bet 200")
    act(b2, "call")
    act(b2, "call")
    act(b2, "call")  # seat 3 all-in for 50
    assert b2.to_act is None
    b2.end_round()
    assert b2.pots() == [(200, (0, 1, 2, 3)), (450, (0, 1, 2))]
    # Seat 1 folds on the next street: its chips stay, it cannot win.
    b2.start_round(0)
    for text in ("check", "check", "bet 100", "call", "fold"):
        act(b2, text)
    b2.end_round()
    assert b2.committed == [300, 200, 300, 50]
    assert b2.pots() == [(200, (0, 2, 3)), (650, (0, 2))]
    results = b2.award([0, 1, 2, 3], 0)
    assert results == [((3,), {3: 200}), ((2,), {2: 650})]
    assert b2.stacks == [700, 800, 1350, 200]


@pytest.mark.rule("NLH-46", "NLH-06", "OP-31")
def test_ties_split_and_odd_chips_go_clockwise_from_the_first_seat(impl: type[Table]) -> None:
    assert split_amount(100, [1, 3], 0, 4) == {1: 50, 3: 50}
    assert split_amount(101, [1, 3], 0, 4) == {1: 51, 3: 50}
    assert split_amount(101, [1, 3], 2, 4) == {3: 51, 1: 50}
    assert split_amount(302, [0, 1, 2], 1, 4) == {1: 101, 2: 101, 0: 100}
    b = impl([35, 34, 32], 2)
    for seat, chips in enumerate((35, 34, 32)):
        b.post_ante(seat, chips)
    assert b.committed == [35, 34, 32] and b.stacks == [0, 0, 0]
    results = b.award([7, 7, 7], 1)
    # Main pot 96 three ways; side 4 between 0 and 1, odd chip of side 1 to seat 0.
    assert [shares for _, shares in results] == [{1: 32, 2: 32, 0: 32}, {1: 2, 0: 2}, {0: 1}]


def test_parse_betting_action() -> None:
    assert parse_betting_action("raise 060") == "raise 60"
    assert parse_betting_action(" FOLD ") == "fold"
    for bad in ("raise", "raise -5", "raise 1.5", "bet x", "allin", "raise 5 6", "bet ５"):
        assert parse_betting_action(bad) is None


@pytest.mark.parametrize("impl", [CoreTable, OracleTable], ids=["BettingCore", "oracle"])
@settings(max_examples=100, deadline=None)
@given(
    stacks=st.lists(st.integers(min_value=1, max_value=400), min_size=2, max_size=12),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_betting_conserves_chips(impl: type[Table], stacks: list[int], seed: int) -> None:
    """Chips are conserved through any betting; pots hold exactly what was committed."""
    rng = random.Random(seed)
    b = impl(stacks, 20)
    total = sum(stacks)
    for _ in range(4):
        if b.betting_possible():
            b.start_round(0)
        while b.to_act is not None:
            options = b.listed((0.5, 1.0))
            bounds = b.raise_range(b.to_act)
            if bounds is not None and rng.random() < 0.3:
                verb = "raise" if b.current_bet else "bet"
                options.append(f"{verb} {rng.randint(*bounds)}")
            act(b, rng.choice(options))
            assert sum(b.stacks) + b.pot == total
        b.end_round()
        if len(b.live()) == 1:
            break
    assert sum(amount for amount, _ in b.pots()) == b.pot
    b.award([rng.randrange(3) for _ in stacks], 0)
    assert sum(b.stacks) == total
