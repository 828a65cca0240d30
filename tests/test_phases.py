"""Each game's phases: the ``Phase`` enums, their transitions as the rule texts order
them, and saves and views that read exactly as they did before the phases were enums."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from cardkit import IllegalActionError, games
from cardkit.games import (
    chinese_poker,
    doudizhu,
    hearts,
    holdem,
    onepoker,
    spades,
    zhengshangyou,
)
from cardkit.games._base import MAX_DEALS, BaseState

MODULES = [doudizhu, zhengshangyou, hearts, spades, onepoker, holdem, chinese_poker]
# Saves, every seat's observation and the final event log of seeded random games,
# recorded from the code before the phases were enums (plain strings and flags).
SAVES = Path(__file__).parent / "data" / "saves_before_phase_enums.json"


def _step(state: BaseState, rng: random.Random) -> str:
    """Apply a random legal action; return its text."""
    action = rng.choice(state.legal_actions())
    state.apply(action)
    return str(action)


# -- the enums -----------------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_each_game_exports_a_string_phase_enum(module: ModuleType) -> None:
    phase = module.Phase
    assert "Phase" in module.__all__ and phase.__doc__
    for member in phase:
        assert isinstance(member, str) and member == member.name.lower()
        assert str(member) == member.value and f"{member}" == member.value
        assert json.dumps(member) == json.dumps(member.value)
        assert {member.value: 1}[member] == 1
    game = games.make(module.__name__.rsplit(".", 1)[1])
    assert isinstance(game.new_state(seed=1).phase, phase)


def test_observations_hand_out_plain_strings() -> None:
    for name, field in (
        ("doudizhu", "phase"),
        ("hearts", "phase"),
        ("spades", "phase"),
        ("onepoker", "phase"),
        ("holdem", "street"),
    ):
        state = games.make(name).new_state(seed=2)
        rng = random.Random(2)
        for _ in range(30):
            if state.is_terminal:
                break
            obs = state.observation(0)
            assert type(obs[field]) is str, (name, obs[field])
            _step(state, rng)


def test_saves_from_before_the_enums_load_to_the_same_views() -> None:
    records = json.loads(SAVES.read_text(encoding="utf-8"))
    assert {r["game"] for r in records} == {m.__name__.rsplit(".", 1)[1] for m in MODULES}
    for record in records:
        game = games.make(record["game"], **record["options"])
        for point in record["points"]:
            state = game.state_from_json(point["save"])
            assert state.to_json() == point["save"]
            views = [json.dumps(state.observation(s)) for s in range(game.num_players)]
            assert views == point["observations"], (record["game"], record["seed"])
            if "events" in point:
                assert json.dumps(state.events()) == point["events"]


# -- the transitions, clause by clause -------------------------------------------------


@pytest.mark.rule("DDZ-09", "DDZ-10", "DDZ-11")
def test_doudizhu_bidding_leads_to_play_or_a_redeal() -> None:
    phase = doudizhu.Phase
    for seed in range(40):
        state = games.make("doudizhu").new_state(seed=seed)
        rng = random.Random(seed)
        calls: list[str] = []
        bidders: list[int | None] = []
        assert state.phase is phase.BID
        while not state.is_terminal:
            before, deal, seat = state.phase, state.deal_number, state.current_player
            calls.append(_step(state, rng))
            if before is phase.PLAY:
                assert state.phase is phase.PLAY
                continue
            bidders += [seat] if calls[-1].startswith("bid") else []
            ended = calls[-1] == "bid 3" or (calls[-2:] == ["pass", "pass"] and bidders != [])
            assert (state.phase is phase.PLAY) == ended, calls
            if ended:
                # The highest (last) bidder is landlord, holds the bottom and leads.
                assert state.landlord == bidders[-1] == state.current_player
                assert len(state.hands[bidders[-1]]) == 20
                calls, bidders = [], []
            elif calls == ["pass", "pass", "pass"]:
                assert state.phase is phase.BID and state.deal_number == deal + 1
                calls = []
            else:
                assert state.phase is phase.BID and state.deal_number == deal
        assert state.phase is phase.PLAY and state.winner is not None


def test_doudizhu_is_abandoned_after_the_last_deal_without_a_bid() -> None:
    state = games.make("doudizhu").new_state(seed=4)
    state.deal_number = MAX_DEALS - 1  # white-box: the last deal the game allows
    for _ in range(3):
        assert state.phase is doudizhu.Phase.BID
        state.apply("pass")
    assert state.phase is doudizhu.Phase.ABANDONED and state.is_terminal
    assert state.observation(0)["phase"] == "abandoned"


@pytest.mark.rule("ZSY-04")
def test_zhengshangyou_plays_until_a_hand_is_empty() -> None:
    phase = zhengshangyou.Phase
    for seed in range(10):
        state = games.make("zhengshangyou").new_state(seed=seed)
        rng = random.Random(seed)
        while all(state.hands):
            assert state.phase is phase.PLAY and not state.is_terminal
            _step(state, rng)
        assert state.phase is phase.OVER and state.is_terminal


@pytest.mark.rule("HRT-05", "HRT-13")
def test_hearts_passes_then_plays_each_deal_until_the_target() -> None:
    phase = hearts.Phase
    for seed in range(3):
        state = games.make("hearts", target=40).new_state(seed=seed)
        rng = random.Random(seed)
        deal, passes = 0, 0
        while not state.is_terminal:
            if state.observation(0)["deal"] != deal:
                deal, passes = deal + 1, 0
                assert max(state.scores) < 40  # nobody reached the target: play on
            kept = deal % 4 == 3
            # Three cards from each seat, one at a time, unless the hands are kept.
            expected = phase.PLAY if kept or passes == 12 else phase.PASS
            assert state.phase is expected, (deal, passes)
            passes += _step(state, rng).startswith("pass")
        assert state.phase is phase.OVER and max(state.scores) >= 40
    single = games.make("hearts", passing=False, match=False).new_state(seed=1)
    assert single.phase is phase.PLAY
    rng = random.Random(1)
    while not single.is_terminal:
        _step(single, rng)
    assert single.phase is phase.OVER and single.observation(0)["phase"] == "over"


@pytest.mark.rule("SPD-02", "SPD-10")
def test_spades_bids_then_plays_each_deal_until_a_team_wins() -> None:
    phase = spades.Phase
    for seed in range(3):
        # lose_at ends the random agents' sinking matches (a house rule).
        game = games.make("spades", target=100, lose_at=-100)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        bids = 0
        while not state.is_terminal:
            deal = state.observation(0)["deal"]
            assert state.phase is (phase.BID if bids < 4 else phase.PLAY)
            assert state.bidding == (state.phase is phase.BID)
            bids += _step(state, rng).startswith("bid")
            if state.observation(0)["deal"] != deal:
                a, b = state.scores
                # An equal score continues, whatever the totals.
                assert a == b or -100 < min(a, b) <= max(a, b) < 100
                bids = 0
        a, b = state.scores
        assert state.phase is phase.OVER and a != b and (max(a, b) >= 100 or min(a, b) <= -100)


@pytest.mark.rule("OP-05", "OP-14", "OP-15")
def test_onepoker_locks_then_bets_until_a_stack_is_empty() -> None:
    phase = onepoker.Phase
    for seed in range(5):
        state = games.make("onepoker", stack=4).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            locked = sum(c is not None for c in state.locked)
            assert state.phase is (phase.LOCK if locked < 2 else phase.BET)
            deals = len(state.deals)
            _step(state, rng)
            if len(state.deals) > deals and not state.is_terminal:
                assert state.phase is phase.LOCK and min(state.stacks) > 0
        assert state.phase is phase.OVER and min(state.stacks) == 0
        with pytest.raises(IllegalActionError, match="over"):
            state.apply("fold")


@pytest.mark.rule("NLH-28", "NLH-39", "NLH-40")
def test_holdem_streets_run_in_order_and_end_the_hand() -> None:
    phase = holdem.Phase
    board = {phase.PREFLOP: 0, phase.FLOP: 3, phase.TURN: 4, phase.RIVER: 5}
    order = list(board)
    for seed in range(10):
        state = games.make("holdem", players=3, stack=100).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            hand, before = state.hand_number, state.phase
            assert state.street is before and len(state.board) == board[before]
            _step(state, rng)
            if state.is_terminal or state.hand_number != hand:
                last = state.hands[-1]
                if last["hands"]:
                    # A showdown: after the river betting, or on a board completed
                    # at once when nobody could bet any more.
                    assert len(last["board"]) == 3
                else:
                    # The last player left wins at once: no card after the fold.
                    assert last["actions"][-1][1] == "fold"
                    assert all(at < len(last["actions"]) for at in last["board_at"])
                continue
            # Within a hand the streets move forward one at a time.
            assert order.index(state.phase) - order.index(before) in (0, 1)
        assert state.phase is phase.OVER and state.street is not phase.OVER
        assert sum(1 for s in state.stacks if s > 0) == 1


@pytest.mark.rule("CP-20")
def test_chinese_poker_sets_then_shows_down() -> None:
    phase = chinese_poker.Phase
    state = games.make("chinese_poker", players=3).new_state(seed=5)
    rng = random.Random(5)
    for seat in range(3):
        assert state.phase is phase.SET and state.current_player == seat
        assert "showdown" not in state.observation(seat)
        _step(state, rng)
    assert state.phase is phase.SHOWDOWN and state.is_terminal
    assert "showdown" in state.observation(0)
    # Declarations come before the hands are opened, never after.
    with pytest.raises(IllegalActionError):
        state.apply("declare dragon")
