"""Hold'em's learning interface (issue 15) and the betting grid it shares with One Poker.

The grid (docs/holdem.md, "Learning interface"): ids 0-2 fold, check, call; ids 3-6
the minimum, half-pot, pot and all-in totals, bet and raise alike. Each listed size
takes the id of the first grid point with its total; any other legal total takes the
id of the nearest listed size, the smaller on a tie. The checks below derive the
grid from the betting numbers by the documented formula, independently of
``_betting.turn_ids``, along random playouts of both betting games.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cardkit import Card, IllegalActionError, RuleOptionError, games
from cardkit.agents import RandomAgent
from cardkit.games._base import BaseState
from cardkit.games.holdem import OBSERVATION_FIELDS, SEAT_ROWS, Holdem, HoldemState, arrange_deal

FOLD, CHECK, CALL, MIN, HALF_POT, POT, ALL_IN = range(7)


def _grid_totals(state: BaseState, seat: int) -> list[int] | None:
    """The documented grid: the minimum, current bet + f x (pot after calling) for
    f = 1/2 and 1 (rounded down), all-in; ``None`` when the seat may not bet."""
    betting = state.betting  # type: ignore[attr-defined]
    bounds = betting.raise_range(seat)
    if bounds is None:
        return None
    current = betting.current_bet
    after_call = betting.pot + max(current - betting.bets[seat], 0)
    return [bounds[0], current + after_call // 2, current + after_call, bounds[1]]


def _nearest(sizes: list[tuple[int, int]], total: int) -> int:
    return min(sizes, key=lambda s: (abs(s[0] - total), s[0]))[1]


def check_betting_ids(state: BaseState, rng: random.Random) -> None:
    """Every listed size sits on its documented grid point; free totals map to the
    nearest listed size; illegal totals and unlisted grid ids are refused."""
    seat = state.current_player
    assert seat is not None
    before = state.to_json()
    legal = state.legal_actions()
    for word, fixed in (("fold", FOLD), ("check", CHECK), ("call", CALL)):
        assert state.action_to_id(word) == fixed
        if word in legal:
            assert state.id_to_action(fixed) == word
    sizes = [(int(a.args[0]), state.action_to_id(a)) for a in legal if a.kind in ("bet", "raise")]
    totals = _grid_totals(state, seat)
    if totals is None:
        assert not sizes
        for grid in (MIN, HALF_POT, POT, ALL_IN):
            with pytest.raises(IllegalActionError):
                state.id_to_action(grid)
        return
    for total, grid in sizes:
        assert grid == MIN + totals.index(total)
    verb = next(a.kind for a in legal if a.kind in ("bet", "raise"))
    low, high = totals[0], totals[-1]
    probes = {low, high, rng.randint(low, high), rng.randint(low, high)}
    for (a, _), (b, _) in itertools.pairwise(sizes):
        probes.update({(a + b) // 2, (a + b + 1) // 2})
    for total in probes:
        assert state.action_to_id(f"{verb} {total}") == _nearest(sizes, total), total
    other = "bet" if verb == "raise" else "raise"
    refused = [f"{other} {high}", f"{verb} {high + 1}"]
    if low < high:
        refused.append(f"{verb} {low - 1}")
    for text in refused:
        with pytest.raises(IllegalActionError):
            state.action_to_id(text)
    listed_ids = {grid for _, grid in sizes}
    for grid in {MIN, HALF_POT, POT, ALL_IN} - listed_ids:
        with pytest.raises(IllegalActionError):
            state.id_to_action(grid)
    assert state.to_json() == before


def _playout(game: games.Game, seed: int) -> list[BaseState]:
    state = game.new_state(seed=seed)
    agents = [RandomAgent(seed * 13 + s) for s in range(game.num_players)]
    states: list[BaseState] = []
    while not state.is_terminal:
        states.append(state.clone())
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    return states


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("holdem", {"players": 2}),
        ("holdem", {"players": 6, "stacks": [40, 1000, 75, 300, 20, 2000]}),
        ("holdem", {"players": 12, "blinds": (5, 10), "stack": 200}),
        ("onepoker", {}),
        ("onepoker", {"stack": 7, "ante": 2}),
    ],
)
def test_listed_and_free_sizes_map_to_the_documented_grid(name: str, options: dict) -> None:
    game = games.make(name, **options)
    rng = random.Random(name)
    checked = 0
    for seed in range(8):
        for state in _playout(game, seed):
            if state.phase in ("preflop", "flop", "turn", "river", "bet"):
                check_betting_ids(state, rng)
                checked += 1
    assert checked > 50


def test_the_grid_of_the_docs_example() -> None:
    state = games.make("holdem", players=4).new_state(seed=7)
    assert state.legal_actions() == [
        "fold",
        "call",
        "raise 40",
        "raise 45",
        "raise 70",
        "raise 1000",
    ]
    assert state.legal_action_ids() == [FOLD, CALL, MIN, HALF_POT, POT, ALL_IN]
    # 57 is nearer 45, 58 nearer 70; any legal total has an id, the exact one is
    # still what apply takes.
    assert [state.action_to_id(f"raise {t}") for t in (41, 57, 58, 999)] == [3, 4, 5, 6]
    state.apply(state.id_to_action(POT))
    assert state.history == ["raise 70"]


def test_a_minimum_that_is_all_in_keeps_the_minimum_id() -> None:
    # Heads-up, the button (small blind) has 30 chips: its only raise is all-in,
    # listed once, on the smallest grid point of that total.
    state = Holdem(players=2, stacks=[30, 1000], match=False).new_state(seed=1)
    assert state.legal_actions() == ["fold", "call", "raise 30"]
    assert state.legal_action_ids() == [FOLD, CALL, MIN]
    assert state.action_to_id("raise 30") == MIN


def test_a_pot_sized_all_in_takes_the_pot_id() -> None:
    # Facing 20 with 60 behind the blind: the pot raise, 20 + 40 = 60, is all-in.
    state = Holdem(players=2, stacks=[60, 1000], match=False).new_state(seed=1)
    assert state.legal_actions() == ["fold", "call", "raise 40", "raise 60"]
    assert state.legal_action_ids() == [FOLD, CALL, MIN, POT]


def test_fixed_ids_on_the_game_and_sizes_only_in_a_state() -> None:
    game = games.make("holdem")
    assert game.num_actions == 7
    assert [game.action_to_id(w) for w in ("fold", "check", "call")] == [0, 1, 2]
    assert [game.id_to_action(i) for i in range(3)] == ["fold", "check", "call"]
    for i in range(3, 7):
        assert game._id_action(i) is None
        with pytest.raises(IllegalActionError, match="position"):
            game.id_to_action(i)
    with pytest.raises(IllegalActionError, match="position"):
        game.action_to_id("raise 60")
    over = games.make("holdem", match=False).new_state(seed=2)
    while not over.is_terminal:
        over.apply("fold" if "fold" in over.legal_actions() else "check")
    assert over.legal_action_ids() == [] and not over.legal_action_mask().any()
    with pytest.raises(IllegalActionError, match="over"):
        over.action_to_id("bet 40")
    with pytest.raises(IllegalActionError):
        over.id_to_action(MIN)


@pytest.mark.parametrize("players", range(2, 13))
def test_sizes_follow_the_player_count(players: int) -> None:
    game = games.make("holdem", players=players)
    assert game.num_actions == 7
    assert game.observation_shape == (112 + 13 * players,)
    assert game.info.observation_shape == game.observation_shape
    state = game.new_state(seed=players)
    for seat in range(players):
        assert state.observation_tensor(seat).shape == game.observation_shape


def test_utility_range_spans_every_stack() -> None:
    assert games.make("holdem", players=3, stack=500).utility_range == (-500.0, 1000.0)
    game = games.make("holdem", players=3, stacks=[100, 0, 400])
    assert game.utility_range == (-400.0, 500.0)
    assert game.info.min_utility == -400.0 and game.info.max_utility == 500.0


def _decode(game: Holdem, tensor: np.ndarray) -> dict[str, np.ndarray]:
    """The tensor cut along the documented layout."""
    parts = {}
    at = 0
    for name, length in OBSERVATION_FIELDS:
        parts[name] = tensor[at : at + length]
        at += length
    rows = tensor[at:].reshape(len(SEAT_ROWS), game.num_players)
    parts.update(zip(SEAT_ROWS, rows, strict=True))
    return parts


def _expected_marks(state: HoldemState, seat: int) -> dict[str, list[float]]:
    n = state.game.num_players
    marks = {row: [0.0] * n for row in ("checked", "called", "raises")}
    log = state.log
    for actor, act in log.actions[log.board_at[-1] if log.board_at else 0 :]:
        column = (actor - seat) % n
        if act.kind in ("check", "call"):
            marks[act.kind + "ed" if act.kind == "call" else "checked"][column] = 1.0
        elif act.kind in ("bet", "raise"):
            marks["raises"][column] = min(marks["raises"][column] + 0.25, 1.0)
    return marks


@pytest.mark.parametrize("players", [2, 5, 9])
def test_tensor_layout_matches_the_observation(players: int) -> None:
    game = games.make("holdem", players=players, stack=300)
    total = 300 * players
    for seed in range(4):
        for state in _playout(game, seed):
            assert isinstance(state, HoldemState)
            for seat in range(players):
                obs = state.observation(seat)
                parts = _decode(game, state.observation_tensor(seat))
                order = [(seat + k) % players for k in range(players)]
                assert np.flatnonzero(parts["hole"]).tolist() == sorted(
                    Card(c).index for c in obs["hole"]
                )
                assert np.flatnonzero(parts["board"]).tolist() == sorted(
                    Card(c).index for c in obs["board"]
                )
                streets = ["preflop", "flop", "turn", "river"]
                assert parts["street"].tolist() == [float(s == obs["street"]) for s in streets]
                assert parts["pot"][0] == np.float32(obs["pot"] / total)
                assert parts["to_call"][0] == np.float32(obs["to_call"] / total)
                low, high = obs["bet_range"] or (0, 0)
                assert parts["raise_min"][0] == np.float32(low / total)
                assert parts["raise_max"][0] == np.float32(high / total)
                for key in ("stacks", "bets", "committed"):
                    row = parts[key.rstrip("s") if key != "committed" else key]
                    assert row.tolist() == [np.float32(obs[key][s] / total) for s in order]
                assert parts["dealt"].tolist() == [float(obs["in_hand"][s]) for s in order]
                assert parts["folded"].tolist() == [float(obs["folded"][s]) for s in order]
                all_in = [
                    float(obs["in_hand"][s] and not obs["folded"][s] and obs["stacks"][s] == 0)
                    for s in order
                ]
                assert parts["all_in"].tolist() == all_in
                for key in ("button", "small_blind", "big_blind", "to_act"):
                    at = obs[key]
                    assert parts[key].tolist() == [float(s == at) for s in order]
                for key, row in _expected_marks(state, seat).items():
                    assert parts[key].tolist() == row


@pytest.mark.parametrize("players", [2, 3, 8])
def test_other_seats_hole_cards_never_reach_the_tensor(players: int) -> None:
    """The same hand with every other seat's hole cards replaced by unseen cards
    (same board, same burns), the same actions replayed: the seat's tensor is the
    same at every step before the showdown."""
    game = Holdem(players=players, match=False)
    stacks = [1000] * players
    rng = random.Random(players)
    for seed in range(6):
        ours = game.new_state(seed=seed)
        seat = rng.randrange(players)
        top = ours.deck_order(0)
        dealt = 2 * players
        burns = [top[dealt], top[dealt + 4], top[dealt + 6]]
        board = [*top[dealt + 1 : dealt + 4], top[dealt + 5], top[dealt + 7]]
        used = {*ours.holes[seat], *burns, *board}
        spare = [c for c in top if c not in used]
        rng.shuffle(spare)
        holes = {
            s: list(ours.holes[s]) if s == seat else [spare.pop(), spare.pop()]
            for s in range(players)
        }
        twin = game.new_state(seed=seed, deal=arrange_deal(stacks, 0, holes, board, burns))
        assert twin.holes[seat] == ours.holes[seat] and twin.holes != ours.holes
        agent = RandomAgent(seed)
        while not ours.is_terminal:
            np.testing.assert_array_equal(
                twin.observation_tensor(seat), ours.observation_tensor(seat)
            )
            seat_to_act = ours.current_player
            assert seat_to_act is not None
            act = agent.act(ours.observation(seat_to_act), ours.legal_actions())
            ours.apply(act)
            twin.apply(act)
        assert twin.board == ours.board


def test_own_cards_change_the_tensor() -> None:
    game = Holdem(players=2, match=False)
    deal_a = arrange_deal([1000, 1000], 0, {0: "AsKs", 1: "2c3d"})
    deal_b = arrange_deal([1000, 1000], 0, {0: "AsQs", 1: "2c3d"})
    a = game.new_state(seed=1, deal=deal_a).observation_tensor(0)
    b = game.new_state(seed=1, deal=deal_b).observation_tensor(0)
    assert not np.array_equal(a, b)
    assert a[Card("Ks").index] == 1 and b[Card("Qs").index] == 1


def test_the_rust_tensor_writer_refuses_bad_arguments_without_writing() -> None:
    from cardkit._core import BettingCore

    core = BettingCore([100, 100], [True, True], 2)
    good = dict(
        seat=0,
        total=200,
        holes=[(0, 1), (2, 3)],
        board=[],
        button=0,
        small_blind=0,
        big_blind=1,
        to_act=None,
        street_actions=[],
    )
    out = np.zeros(112 + 13 * 2, dtype=np.float32)
    core.write_observation(out, **good)
    assert out[0] == out[1] == 1.0 and out[2] == 0.0  # only the seat's own cards
    for bad in (
        {"seat": 2},
        {"total": 0},
        {"holes": [(0, 1)]},
        {"holes": [(0, 52), (2, 3)]},
        {"board": [4, 5, 6, 7, 8, 9]},
        {"button": 5},
        {"to_act": 2},
        {"street_actions": [(0, 9)]},
    ):
        spare = np.full_like(out, 7.0)
        with pytest.raises(RuleOptionError):
            core.write_observation(spare, **{**good, **bad})
        assert (spare == 7.0).all()
    for array in (np.zeros(10, np.float32), np.zeros(138, np.float64), out[::2], [0.0] * 138):
        with pytest.raises(RuleOptionError):
            core.write_observation(array, **good)
