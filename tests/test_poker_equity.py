"""Equity of hands and ranges: exact, Monte Carlo, determinism, errors (issue 3)."""

from __future__ import annotations

import itertools
import math

import eval7
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit import Card, CardkitError, InvalidCardError, RuleOptionError, deck
from cardkit.poker import InvalidRangeError, Range, equity, evaluate


def brute_force(players: list[str], board: str) -> list[float]:
    """Every deal of one combo per player and every runout, ranked one by one."""
    board_cards = board.split()
    combos = [[(str(a), str(b)) for a, b, _ in Range(p).combos(dead=board)] for p in players]
    shares = [0.0] * len(players)
    total = 0
    for deal in itertools.product(*combos):
        held = [c for pair in deal for c in pair]
        if len(set(held)) != len(held):
            continue
        rest = [str(c) for c in deck("standard52") if str(c) not in held + board_cards]
        for runout in itertools.combinations(rest, 5 - len(board_cards)):
            ranks = [evaluate([*pair, *board_cards, *runout]) for pair in deal]
            best = max(ranks)
            k = ranks.count(best)
            for p, r in enumerate(ranks):
                if r == best:
                    shares[p] += 1 / k
            total += 1
    return [s / total for s in shares]


def test_aces_against_kings_preflop_exact() -> None:
    result = equity(["AhAs", "KdKc"])
    assert result.exact
    assert result.boards == 1_712_304
    # The counts of a brute force over all boards with eval7.
    assert result[0].win * 1_712_304 == pytest.approx(1_388_072)
    assert result[1].win * 1_712_304 == pytest.approx(317_694)
    assert result[0].tie * 1_712_304 * 2 == pytest.approx(6_538)
    assert result.equity[0] == pytest.approx(0.8125549, abs=1e-7)
    assert sum(result.equity) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AhKh", "QsQd"], "Jh 9h 2c 5d"),
        (["AK", "QQ"], "Jh 9h 2c 5d"),
        (["AhAs", "KK", "T9s"], "Th 9c 2c 5d"),
        (["AhAs", "AdAc"], "Ts 9s 2h 3c 4d"),
    ],
)
def test_exact_matches_brute_force(players: list[str], board: str) -> None:
    result = equity(players, board, exact=True)
    assert result.equity == pytest.approx(brute_force(players, board), abs=1e-12)
    for p in result.players:
        assert p.equity == pytest.approx(p.win + p.tie)
        assert p.stderr == 0
    assert sum(result.equity) == pytest.approx(1.0)


@settings(max_examples=12, deadline=None)
@given(
    st.lists(
        st.sampled_from([str(c) for c in deck("standard52")]), min_size=9, max_size=11, unique=True
    )
)
def test_exact_multiway_flops_and_turns_match_brute_force(cards: list[str]) -> None:
    # Three or four fixed hands on a random flop or turn: rank patterns, suit by suit
    # flush corrections and every board one by one must agree.
    players = 3 if len(cards) < 11 else 4
    hands = [cards[2 * i] + cards[2 * i + 1] for i in range(players)]
    board = " ".join(cards[2 * players :][:4])
    result = equity(hands, board, exact=True)
    assert result.equity == pytest.approx(brute_force(hands, board), abs=1e-12)
    assert sum(result.equity) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AK", "QsQd", "T9s"], "Qh 7h 2c 5s"),
        (["AhKh, 7c7d", "JJ-99"], "Jh 9h 2h 5d"),
        (["KK+", "AKs", "22-33"], "Ac 8h 3d 2s"),
    ],
)
def test_exact_ranges_match_brute_force(players: list[str], board: str) -> None:
    result = equity(players, board, exact=True)
    assert result.equity == pytest.approx(brute_force(players, board), abs=1e-12)


def test_wide_preflop_ranges_are_exact_now() -> None:
    # Suit symmetry leaves a handful of distinct deals of AK against QQ.
    result = equity(["AK", "QQ"], exact=True)
    assert result.exact
    # With ranges no card is held for sure: boards come from the whole pack.
    assert result.boards == 2_598_960
    assert sum(result.equity) == pytest.approx(1.0, abs=1e-12)
    sampled = equity(["AK", "QQ"], samples=400_000, seed=3)
    assert abs(sampled.equity[0] - result.equity[0]) < 4 * sampled.stderr[0]


def test_exact_problems_beyond_the_limit_are_refused() -> None:
    with pytest.raises(RuleOptionError, match="Monte Carlo"):
        equity(["random", "random", "random", "random"], exact=True)


def test_weights_scale_combos() -> None:
    # Half weight on suited AK equals a range holding suited AK half as often.
    weighted = equity(["AKs:0.5, AKo", "22-33"], "Kc 8h 3d 2s", exact=True)
    suited = equity(["AKs", "22-33"], "Kc 8h 3d 2s", exact=True)
    offsuit = equity(["AKo", "22-33"], "Kc 8h 3d 2s", exact=True)
    # Combo counts after the board: AKs 3 live, AKo 9 live; 22-33 has 3 + 3 live.
    ws, wo = 0.5 * 3 * 6, 1.0 * 9 * 6
    # Exclusive card removal between AK and the small pairs is nil (no shared ranks).
    expected = (ws * suited[0].equity + wo * offsuit[0].equity) / (ws + wo)
    assert weighted[0].equity == pytest.approx(expected, abs=1e-12)


def test_monte_carlo_within_four_standard_errors() -> None:
    exact = equity(["AhKh", "QsQd"], "Jh 9h 2c")
    mc = equity(["AhKh", "QsQd"], "Jh 9h 2c", samples=300_000, seed=5)
    assert not mc.exact
    assert mc.samples == 300_000
    for e, m in zip(exact.players, mc.players, strict=True):
        assert m.stderr > 0
        assert abs(e.equity - m.equity) < 4 * m.stderr


def test_monte_carlo_stops_at_the_standard_error() -> None:
    mc = equity(["QQ+, AKs", "random"], stderr=0.003, seed=2)
    assert all(s <= 0.003 for s in mc.stderr)
    assert mc.samples < 10**6


def test_deterministic_for_seed_and_any_thread_count() -> None:
    a = equity(["QQ+, AKs", "random", "22+"], samples=100_000, seed=7, threads=1)
    b = equity(["QQ+, AKs", "random", "22+"], samples=100_000, seed=7, threads=2)
    c = equity(["QQ+, AKs", "random", "22+"], samples=100_000, seed=8, threads=2)
    assert a == b
    assert a != c


def test_auto_method_choice() -> None:
    assert equity(["AhAs", "KdKc"], "2c 3d 4h").exact
    big = equity(["random", "random"], stderr=0.01)
    assert not big.exact
    assert equity(["random", "random"], seed=1, samples=50_000).samples == 50_000


def test_agrees_with_eval7_monte_carlo() -> None:
    ours = equity(["AhKh", "QQ"], "Jh 9h 2c")
    hand = [eval7.Card("Ah"), eval7.Card("Kh")]
    board = [eval7.Card(c) for c in ("Jh", "9h", "2c")]
    iterations = 200_000
    theirs = eval7.py_hand_vs_range_monte_carlo(hand, eval7.HandRange("QQ"), board, iterations)
    se = math.sqrt(ours[0].equity * (1 - ours[0].equity) / iterations)
    assert abs(ours[0].equity - theirs) < 4 * se + 1e-3


def test_progress_is_reported() -> None:
    seen: list[float] = []
    equity(["AhAs", "KdKc"], progress=seen.append)
    assert seen
    assert seen[-1] == 1.0
    assert all(0.0 <= f <= 1.0 for f in seen)


def test_progress_errors_propagate() -> None:
    def boom(fraction: float) -> None:
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        equity(["AhAs", "KdKc"], progress=boom)


@pytest.mark.parametrize(
    ("players", "board", "dead", "error", "message"),
    [
        (["AhAs"], "", "", RuleOptionError, "2 to 10 players"),
        (["AA"] * 11, "", "", RuleOptionError, "2 to 10 players"),
        (["AhAs", "AhKd"], "", "", InvalidCardError, "both hold Ah"),
        (["AA", "AA", "AA"], "", "", InvalidCardError, "no deal is possible"),
        (["AA", "KK"], "Ah As Ad", "Ac", InvalidCardError, "player 0 has no possible hand"),
        (["AA", "KK"], "2c 2c", "", InvalidCardError, "duplicate card 2c"),
        (["AA", "KK"], "2c 3c 4c 5c 6c 7c", "", InvalidCardError, "at most 5 cards"),
        (["AA", "KQx"], "", "", InvalidRangeError, '"KQx"'),
        (["AA", ["Ah"]], "", "", InvalidCardError, "two different cards"),
    ],
)
def test_impossible_inputs(
    players: list[str], board: str, dead: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as info:
        equity(players, board, dead)
    assert isinstance(info.value, CardkitError)
    assert isinstance(info.value, ValueError)


def test_conflicting_options() -> None:
    with pytest.raises(RuleOptionError, match="exact=True"):
        equity(["AA", "KK"], exact=True, samples=10)
    with pytest.raises(RuleOptionError, match="samples"):
        equity(["AA", "KK"], samples=0)
    with pytest.raises(RuleOptionError, match="stderr"):
        equity(["AA", "KK"], stderr=-1.0)


def test_players_as_cards_and_ranges() -> None:
    by_text = equity(["AhAs", "KdKc"], "2c 3d 4h 5s")
    by_cards = equity([[Card("Ah"), "As"], Range("KdKc")], [Card("2c"), "3d", "4h", "5s"])
    assert by_text == by_cards


HANDS = st.lists(
    st.sampled_from([str(c) for c in deck("standard52")]), min_size=8, max_size=8, unique=True
)


@settings(max_examples=25, deadline=None)
@given(HANDS)
def test_swapping_players_swaps_results(cards: list[str]) -> None:
    a, b, board = cards[0] + cards[1], cards[2] + cards[3], " ".join(cards[4:8])
    ab = equity([a, b], board)
    ba = equity([b, a], board)
    assert ab.equity == pytest.approx(ba.equity[::-1], abs=1e-12)
    assert ab.win == pytest.approx(ba.win[::-1], abs=1e-12)
    assert sum(ab.equity) == pytest.approx(1.0)


@settings(max_examples=15, deadline=None)
@given(HANDS, st.integers(min_value=2, max_value=4))
def test_multiway_equities_sum_to_one(cards: list[str], players: int) -> None:
    hands = [cards[2 * i] + cards[2 * i + 1] for i in range(players)]
    board = " ".join(cards[2 * players :][:3])
    result = equity(hands, board, samples=20_000, seed=1)
    assert sum(result.equity) == pytest.approx(1.0, abs=1e-9)
    assert all(0 <= p.win <= p.equity <= 1 for p in result.players)
