"""The climbing scoring twins held to each other: the game modules score a finished
deal in Python (``DouDizhuState.returns``, ``ZhengShangyouState.penalties`` and
``returns``), the search scores it in Rust (``Deal::scores``, ``zsy_penalty``). Both
are driven here on the same seeded games, played by random, rule-based and passive
seats, and must give every seat the same result.

A differential guard, not a clause test: the rule texts are checked in
test_doudizhu.py and test_zhengshangyou.py. A sweep of fixed seeds also asserts that
it reached every scoring case (each bid, bombs, rockets, spring and reverse spring;
every winner and penalty kind), so the comparison cannot pass by never meeting one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import InvalidCardError, RuleOptionError, _core
from cardkit._core import _test, deck  # _test: the Rust twins, exposed to tests only
from cardkit.agents.doudizhu import DouDizhuRuleAgent
from cardkit.agents.zhengshangyou import ZhengShangyouRuleAgent
from cardkit.api import Action, Observation
from cardkit.games.doudizhu import DouDizhu, DouDizhuState
from cardkit.games.zhengshangyou import HEART_THREE, ZhengShangyou, ZhengShangyouState

DDZ = DouDizhu()
ZSY = ZhengShangyou()
POLICIES = ("random", "rule", "passive")

#: Chooses a card-play move from the observation and the legal actions.
Chooser = Callable[[Observation, Sequence[Action]], Action]


def _chooser(policy: str, game: str, rng: random.Random) -> Chooser:
    """A seat's card play: uniform among the legal moves, the rule agent's, or passive
    (pass whenever allowed, else the first listed play), which makes springs likely."""
    if policy == "random":
        return lambda _obs, legal: rng.choice(legal)
    if policy == "rule":
        agent = DouDizhuRuleAgent() if game == "doudizhu" else ZhengShangyouRuleAgent()
        return agent.act
    return lambda _obs, legal: legal[-1] if legal[-1] == "pass" else legal[0]


def _play_ddz(seed: int, policies: Sequence[str]) -> DouDizhuState:
    """A Dou Dizhu deal: bids drawn uniformly from the legal bidding actions (so each
    bid 1-3 occurs), then card play by each seat's policy."""
    rng = random.Random(seed)
    choosers = [_chooser(p, "doudizhu", rng) for p in policies]
    state = DDZ.new_state(seed=seed)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if state.phase == "bid":
            state.apply(rng.choice(legal))
        else:
            state.apply(choosers[seat](state.observation(seat), legal))
    return state


def _play_zsy(seed: int, policies: Sequence[str], endgame: bool = False) -> ZhengShangyouState:
    """A Zheng Shangyou deal played by each seat's policy. ``endgame``: instead of the
    dealt hands, hands of 1 to 16 cards of the pack (the heart three among them; half
    the time cut from the unshuffled pack), so that the first seat out can leave the
    others with bombs and never-played hands."""
    rng = random.Random(seed)
    if endgame:
        # The rule agent reads the unseen cards off the whole pack, which a hand-built
        # deal of fewer cards does not hold: such seats play at random instead.
        policies = ["random" if p == "rule" else p for p in policies]
    choosers = [_chooser(p, "zhengshangyou", rng) for p in policies]
    state = ZSY.new_state(seed=seed)
    if endgame:
        pack = [c for c in deck("zhengshangyou48") if c != HEART_THREE]
        if rng.random() < 0.5:
            rng.shuffle(pack)
        else:
            # Whole ranks together, so that a hand holds several bombs.
            turn = rng.randrange(len(pack))
            pack = pack[turn:] + pack[:turn]
        sizes = [rng.randint(1, 16) for _ in range(3)]
        cut = [0, sizes[0], sizes[0] + sizes[1], sum(sizes)]
        hands = [pack[cut[s] : cut[s + 1]] for s in range(3)]
        leader = rng.randrange(3)
        hands[leader][0] = HEART_THREE
        state._start_play(hands, leader)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(choosers[seat](state.observation(seat), state.legal_actions()))
    return state


def _assert_ddz_twins_agree(state: DouDizhuState) -> None:
    python = state.returns()
    assert all(r == int(r) for r in python)
    assert _test.climbing_scores(state._play) == [int(r) for r in python], state.score_breakdown()


def _assert_zsy_twins_agree(state: ZhengShangyouState) -> None:
    winner = state.winner
    assert winner is not None
    rust_penalties = [
        0 if s == winner else _test.zsy_penalty(state.hand_ranks[s], state.plays_made[s] == 0)
        for s in range(3)
    ]
    assert state.penalties() == rust_penalties, state.score_breakdown()
    python = state.returns()
    assert all(r == int(r) for r in python)
    assert _test.climbing_scores(state._play) == [int(r) for r in python], state.score_breakdown()


def _policies(seed: int) -> list[str]:
    """The seats' policies of sweep game ``seed``: every mix of the three in turn."""
    return [POLICIES[(seed // 3**s) % 3] for s in range(3)]


def test_dou_dizhu_scores_agree_on_a_sweep_that_meets_every_case() -> None:
    seen: set[str] = set()
    for seed in range(270):
        state = _play_ddz(seed, _policies(seed))
        _assert_ddz_twins_agree(state)
        b = state.score_breakdown()
        seen.add(f"bid {b['bid']}")
        seen.add(f"{b['winning_side']} won")
        if b["bombs"]:
            seen.add("bomb")
        if b["rockets"]:
            seen.add("rocket")
        if b["bombs"] + b["rockets"] >= 2:
            seen.add("several doublings")
        if b["spring"]:
            seen.add("spring")
        if b["reverse_spring"]:
            seen.add("reverse spring")
        if (b["spring"] or b["reverse_spring"]) and b["bombs"] + b["rockets"]:
            seen.add("spring with a bomb")
    assert seen == {
        "bid 1",
        "bid 2",
        "bid 3",
        "landlord won",
        "farmers won",
        "bomb",
        "rocket",
        "several doublings",
        "spring",
        "reverse spring",
        "spring with a bomb",
    }


def test_zheng_shangyou_scores_agree_on_a_sweep_that_meets_every_case() -> None:
    seen: set[str] = set()
    for seed in range(2 * 270):
        state = _play_zsy(seed, _policies(seed), endgame=seed % 2 == 1)
        _assert_zsy_twins_agree(state)
        winner = state.winner
        assert winner is not None
        # Which seat goes out, absolute and counted from the heart-three leader.
        leader = state.play_log[0][0]
        seen.add(f"seat {winner} won")
        seen.add(f"leader+{(winner - leader) % 3} won")
        for s in range(3):
            if s == winner:
                continue
            seat = state.score_breakdown()["seats"][s]
            ranks = state.hand_ranks[s]
            if seat["never_played"]:
                seen.add("never played")
            if seat["spade_two"]:
                seen.add("spade two held")
            if any(ranks.count(r) == 4 for r in set(ranks)):
                seen.add("four of a kind held")
            if ranks.count("A") == 3:
                seen.add("three aces held")
            if seat["bombs_held"] >= 2:
                seen.add("two bombs held")
        if any(state.bomb_bonus):
            seen.add("bomb bonus")
        if state.bonus_log and state.bonus_log[-1][0] == winner:
            seen.add("bonus to the winner")
            if state.play_log[-1] == (winner, f"play {state.bonus_log[-1][1]}"):
                seen.add("finishing bomb settled")
        bonus_seats = {s for s, _ in state.bonus_log}
        if bonus_seats - {winner}:
            seen.add("bonus to a loser")
    assert seen == {
        *(f"seat {s} won" for s in range(3)),
        *(f"leader+{k} won" for k in range(3)),
        "never played",
        "spade two held",
        "four of a kind held",
        "three aces held",
        "two bombs held",
        "bomb bonus",
        "bonus to the winner",
        "finishing bomb settled",
        "bonus to a loser",
    }


@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from(POLICIES), min_size=3, max_size=3))
@settings(max_examples=100, deadline=None)
def test_dou_dizhu_scores_agree_on_any_seed(seed: int, policies: list[str]) -> None:
    _assert_ddz_twins_agree(_play_ddz(seed, policies))


@given(
    st.integers(0, 2**32 - 1),
    st.lists(st.sampled_from(POLICIES), min_size=3, max_size=3),
    st.booleans(),
)
@settings(max_examples=100, deadline=None)
def test_zheng_shangyou_scores_agree_on_any_seed(
    seed: int, policies: list[str], endgame: bool
) -> None:
    _assert_zsy_twins_agree(_play_zsy(seed, policies, endgame))


def test_unfinished_deals_score_zero_on_both_sides() -> None:
    ddz = DDZ.new_state(seed=4)
    zsy = ZSY.new_state(seed=4)
    ddz.apply("bid 3")
    for state in (ddz, zsy):
        assert state.returns() == [0.0, 0.0, 0.0]
        assert _test.climbing_scores(state._play) == [0, 0, 0]


def test_the_test_bindings_stay_private_and_refuse_bad_input() -> None:
    # A private submodule like the _bench helpers: outside `__all__` and the stub.
    for name in ("climbing_scores", "zsy_penalty", "hearts_deal_points", "spades_team_score"):
        assert callable(getattr(_test, name)), name
        assert name not in _core.__all__ and not hasattr(_core, name), name
    stub = (Path(cardkit.__file__).parent / "_core.pyi").read_text(encoding="utf-8")
    assert "_test" not in stub and "hearts_deal_points" not in stub
    with pytest.raises(InvalidCardError, match="invalid rank"):
        _test.zsy_penalty("33x", False)
    with pytest.raises(RuleOptionError, match="disjoint"):
        _test.hearts_deal_points([1, 1, 0, 0])
    with pytest.raises(RuleOptionError, match="outside the 52-card pack"):
        _test.hearts_deal_points([1 << 52, 0, 0, 0])
