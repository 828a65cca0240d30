"""Bad input to the game bindings (betting core, climbing, trick-taking search,
Chinese Poker) raises a typed ``CardkitError`` and leaves state untouched: no
index panic, no endless loop over an endless iterable, no allocation that aborts
the interpreter, and no bench-only binding in the typed public surface."""

from __future__ import annotations

import collections.abc
import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Any, overload

import pytest

from cardkit import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    RuleOptionError,
    _core,
)
from cardkit._core import (
    BettingCore,
    ChinesePokerRules,
    ClimbingView,
    GuandanDeal,
    _bench,
    _test,
    chinese_poker_score,
    climbing_classify,
    climbing_leads,
    hearts_search,
    spades_search,
)
from cardkit.agents.chinese_poker import MAX_CANDIDATES, MAX_SAMPLES, SolverAgent


@pytest.mark.parametrize("seats", [0, 1, 13, 1000])
def test_betting_core_refuses_tables_outside_two_to_twelve_seats(seats: int) -> None:
    # BettingCore([], [], 1).can_bet(0) used to index past the end of an empty table.
    with pytest.raises(RuleOptionError, match="2 to 12 seats"):
        BettingCore([100] * seats, [True] * seats, 1)


@pytest.mark.parametrize(
    ("stacks", "in_hand", "min_bet"),
    [
        ([100, 100], [True], 1),
        ([100, 100, 100], [True, True], 1),
        ([100, -1], [True, True], 1),
        ([100, 2**60], [True, True], 1),
        ([100, 10**40], [True, True], 1),
        ([100, True], [True, True], 1),
        ([100, 100], [True, True], 0),
        ([100, 100], [True, True], -5),
        (None, [True, True], 1),
    ],
)
def test_betting_core_refuses_malformed_tables(stacks: Any, in_hand: Any, min_bet: Any) -> None:
    with pytest.raises(RuleOptionError):
        BettingCore(stacks, in_hand, min_bet)


SEAT_METHODS: list[Callable[[BettingCore, Any], object]] = [
    lambda core, seat: core.can_bet(seat),
    lambda core, seat: core.to_call(seat),
    lambda core, seat: core.raise_range(seat),
    lambda core, seat: core.can_raise(seat),
    lambda core, seat: core.post_blind(seat, 5),
    lambda core, seat: core.post_ante(seat, 5),
    lambda core, seat: core.start_round(seat),
    lambda core, seat: core.next_round(seat),
    lambda core, seat: core.award([1, 1], seat),
]


@pytest.mark.parametrize("method", SEAT_METHODS)
@pytest.mark.parametrize("seat", [2, 3, -1, 2**64, True, "0", None, 1.0])
def test_every_seat_check_uses_the_real_seat_count(
    method: Callable[[BettingCore, Any], object], seat: Any
) -> None:
    core = BettingCore([100, 100], [True, True], 2)
    before = (core.stacks, core.bets, core.committed, core.to_act)
    with pytest.raises(RuleOptionError, match="seat"):
        method(core, seat)
    assert (core.stacks, core.bets, core.committed, core.to_act) == before


def test_huge_pot_fractions_list_nothing_past_all_in() -> None:
    core = BettingCore([1000, 1000], [True, True], 20)
    core.start_round(0)
    core.apply("bet 100")
    codes = core.listed([math.inf, math.nan, -1.0, 1e300])
    # fold, call, the minimum raise (to 200) and all-in (1000) only.
    assert codes == (-1, -3, 2 * 200 + 1, 2 * 1000 + 1)


BENCH_ONLY = (
    "climbing_random_playouts",
    "climbing_play_texts",
    "hearts_playouts",
    "spades_playouts",
    "chinese_poker_count_sets",
)


def test_bench_only_bindings_are_private_and_unlisted() -> None:
    public = set(_core.__all__)
    for name in BENCH_ONLY:
        assert not hasattr(_core, name), name
        assert callable(getattr(_bench, name)), name
    assert all(not n.startswith("_") or n.startswith("__") for n in public), public
    # Private submodules, importable by their dotted names like any module.
    from cardkit._core._bench import hearts_playouts
    from cardkit._core._test import spades_team_score

    assert hearts_playouts is _bench.hearts_playouts
    assert spades_team_score is _test.spades_team_score


def test_bench_playouts_count_wins_in_constant_memory() -> None:
    # The old binding kept one byte per game: 10**12 games aborted the process on
    # allocation. Wins per seat are counted instead (an endless count is a Ctrl-C
    # case: tests/test_interrupts_games.py).
    wins = _bench.climbing_random_playouts("doudizhu", 40, 0, "random")
    assert len(wins) == 3 and sum(wins) == 40
    assert _bench.climbing_random_playouts("zhengshangyou", 0, 0, "rule") == [0, 0, 0]


def test_rank_counts_past_255_are_refused_not_clipped() -> None:
    assert len(climbing_leads("doudizhu", "3" * 255)) == 4  # single, pair, triple, bomb
    with pytest.raises(InvalidCardError, match="more than 255"):
        climbing_leads("doudizhu", "3" * 256)
    # Card by card, the same count also ends an endless iterable.
    with pytest.raises(InvalidCardError, match="more than 255"):
        climbing_classify("doudizhu", itertools.repeat("3s"))


FULL_DDZ = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"


@pytest.mark.parametrize("bid", [0, 4, 255])
def test_dou_dizhu_views_refuse_bids_outside_one_to_three(bid: int) -> None:
    hand, unknown = FULL_DDZ[:20], FULL_DDZ[20:]
    with pytest.raises(RuleOptionError, match="bid"):
        ClimbingView("doudizhu", 0, hand, [20, 17, 17], unknown, bid=bid)


class _EndlessHistory(collections.abc.Sequence[tuple[int, None]]):
    """A history whose ``__len__`` says one move while its iterator never ends."""

    def __len__(self) -> int:
        return 1

    @overload
    def __getitem__(self, index: int) -> tuple[int, None]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, None]]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return (0, None)


def test_climbing_view_histories_are_bounded_by_the_longest_card_play() -> None:
    hand, unknown = FULL_DDZ[:20], FULL_DDZ[20:]

    def view(history: Any) -> ClimbingView:
        return ClimbingView("doudizhu", 0, hand, [20, 17, 17], unknown, history=history)

    # 162 moves reach the engine, which reads them (a pass on an empty table).
    with pytest.raises(IllegalActionError, match="empty table"):
        view([(0, None)] * 162)
    # One more, or a million, is refused by its length before any move is copied.
    for n in (163, 10**6):
        with pytest.raises(InvalidArgumentError, match="at most 162 items"):
            view([(0, None)] * n)
    # A length that lies does not bound the copy either: the iterator is cut off.
    with pytest.raises(InvalidArgumentError, match="at most 162 items"):
        view(_EndlessHistory())


_LEAD_3C = _core.tractor_lead_id("3c", "2", "s")
_LEAD_4C = _core.tractor_lead_id("4c", "2", "s")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (([_LEAD_3C], [0], 4, "5c"), IllegalActionError),
        (([_LEAD_3C], [0], -1, "5c"), IllegalActionError),
        (([_LEAD_3C], [0], 0, "5c5c5c"), InvalidCardError),
        (([_LEAD_3C], [0], 0, "5c", 101), RuleOptionError),
        (([_LEAD_3C], [0], 0, "5c", 2**32 - 1), RuleOptionError),
        (([_LEAD_3C], [0, 1], 0, "5c"), RuleOptionError),
        (([_LEAD_3C, _core.tractor_lead_id("5d", "2", "s")], [0, 1], 0, "5c"), IllegalActionError),
        (([2**31], [0], 0, "5c"), IllegalActionError),
    ],
)
def test_tractor_action_points_refuses_bad_actions_seats_kitties_and_endgames(
    args: tuple[Any, ...], error: type[Exception]
) -> None:
    deal = _core.TractorDeal(["3c4c", "5d6d", "7h8h", "9sTs"], "2", "s", 0)
    before = deal.hand(0)
    with pytest.raises(error):
        deal.action_points(*args)
    assert deal.hand(0) == before
    both = ([_LEAD_3C, _LEAD_4C], [0, 1], 0, "5c")
    # Zero nodes: every solve gives up and the world is played out.
    assert deal.action_points(*both, 8, 0) == deal.action_points(*both)
    assert deal.action_points([], [], 0, "5c") == []


def test_tractor_action_points_refuses_more_actions_than_the_action_space() -> None:
    # Each action is played on a copy of the deal: the list's length bounds what
    # a call copies, so a list longer than the action space is refused unread.
    deal = _core.TractorDeal(["3c4c", "5d6d", "7h8h", "9sTs"], "2", "s", 0)
    size = _core.tractor_action_index()[-1]
    assert len(deal.action_points([_LEAD_3C] * size, [0] * size, 0, "5c")) == size
    with pytest.raises(InvalidArgumentError, match="at most 3693"):
        deal.action_points([_LEAD_3C] * (size + 1), [0] * (size + 1), 0, "5c")
    with pytest.raises(InvalidArgumentError, match="at most 3693"):
        deal.action_points([_LEAD_3C], [0] * (size + 1), 0, "5c")


def test_tractor_tricks_hold_at_most_one_play_a_seat() -> None:
    assert _core.tractor_trick_winner(["5c", "3c", "Kc", "2s"], "2") == 3
    with pytest.raises(InvalidArgumentError, match="at most 4 items"):
        _core.tractor_trick_winner([""] * 10**6, "2")


def _hearts_start() -> dict[str, Any]:
    """Seat 0's view of a fresh deal (Hearts after the pass), as ``hearts_search`` takes it."""
    cards = list(range(52))
    random.Random(5).shuffle(cards)
    hand = cards[:13]
    return {
        "seat": 0,
        "known": [sum(1 << c for c in hand), 0, 0, 0],
        "unknown": sum(1 << c for c in cards[13:]),
        "sizes": [13, 13, 13, 13],
        "voids": [0, 0, 0, 0],
        "leader": 0,
        "trick": [],
        "taken": [0, 0, 0, 0],
        "broken": False,
        "tricks_played": 0,
        "candidates": hand,
        "worlds": 2,
        "seed": 1,
    }


def test_repeated_search_candidates_are_refused() -> None:
    view = _hearts_start()
    assert len(hearts_search(**view)) == 13
    view["candidates"] = [view["candidates"][0]] * 100_000
    with pytest.raises(RuleOptionError, match="repeat"):
        hearts_search(**view)


def test_chinese_poker_score_stops_reading_at_the_fifth_entry() -> None:
    entry = ("2c3c4c", "5d6d7d8dTh", "9sJsQsKsAs")
    with pytest.raises(RuleOptionError, match="2 to 4 players"):
        chinese_poker_score([entry] * 5, ChinesePokerRules())
    with pytest.raises(RuleOptionError, match="2 to 4 players"):
        chinese_poker_score(itertools.repeat(entry), ChinesePokerRules())


@pytest.mark.parametrize("cards", [109, 255, 2**32 - 1])
def test_guandan_search_refuses_endgame_cards_past_two_packs(cards: int) -> None:
    deal = GuandanDeal([["3c"], ["4c"], ["5c"], ["6c"]], "2", 0, False)
    assert str(deal.search_move(1, 0, 108, 10)) == "3"
    with pytest.raises(RuleOptionError, match="endgame_cards"):
        deal.search_move(1, 0, cards, 10)


@pytest.mark.parametrize("options", [{"samples": 100_001}, {"candidates": 72_073}])
def test_solver_agent_refuses_budgets_the_solver_cannot_take(options: dict[str, int]) -> None:
    # They used to be accepted here and refused by the solver at the first move.
    with pytest.raises(RuleOptionError):
        SolverAgent(seed=1, **options)
    SolverAgent(seed=1, samples=MAX_SAMPLES, candidates=MAX_CANDIDATES)


def test_spades_bag_carries_past_nine_are_refused() -> None:
    # Penalties were counted off ten bags at a time: a carry of 4e9 bags took 4e8
    # steps on every playout of a search and overflowed the points.
    view = _hearts_start()
    args = [0, view["known"], view["unknown"], [13] * 4, [0] * 4, 0, [], 0, [3] * 4]
    assert len(spades_search(*args, [0] * 4, [9, 9], False, view["candidates"], 2, 1)) == 13
    with pytest.raises(RuleOptionError, match="bags"):
        spades_search(*args, [0] * 4, [2**32 - 1, 0], False, view["candidates"], 2, 1)
    assert _test.spades_team_score([3, 2], [4, 2], 9) == (51 - 100, 0)
    with pytest.raises(RuleOptionError, match="bags"):
        _test.spades_team_score([3, 2], [4, 2], 10)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"objective": "moon"}, "objective"),
        ({"objective": "match", "scores": [10**7 + 1, 0]}, "scores"),
        ({"objective": "match", "scores": [0, -(10**7) - 1]}, "scores"),
        ({"objective": "match", "target": 0}, "target"),
        ({"objective": "match", "target": 10**7 + 1}, "target"),
        ({"objective": "match", "lose_at": 0}, "lose_at"),
        ({"objective": "match", "lose_at": 200}, "lose_at"),
        ({"objective": "match", "lose_at": -(10**7) - 1}, "lose_at"),
    ],
)
def test_spades_search_objective_out_of_range_is_refused(
    options: dict[str, Any], match: str
) -> None:
    view = _hearts_start()
    args = [0, view["known"], view["unknown"], [13] * 4, [0] * 4, 0, [], 0, [3] * 4]
    with pytest.raises(RuleOptionError, match=match):
        spades_search(*args, [0] * 4, [0, 0], False, view["candidates"], 2, 1, **options)
