"""Bad input at every public entry point raises a typed CardkitError naming the value.

The contract: malformed cards, illegal actions, wrong types and out-of-range options
give a clear ``CardkitError`` subclass and leave state untouched; no ``TypeError``,
``OverflowError``, ``IndexError``, ``KeyError`` or pyo3 ``PanicException`` escapes.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
import cardkit.agents.chinese_poker as cp_agents
import cardkit.agents.doudizhu as ddz_agents
import cardkit.agents.hearts as hearts_agents
import cardkit.agents.holdem as holdem_agents
import cardkit.agents.onepoker as onepoker_agents
import cardkit.agents.spades as spades_agents
import cardkit.agents.tractor as tractor_agents
import cardkit.agents.zhengshangyou as zsy_agents
from cardkit import (
    CardkitError,
    IllegalActionError,
    InvalidCardError,
    RuleOptionError,
    cli,
    phh,
    poker,
    sim,
)
from cardkit.errors import InvalidRangeError
from cardkit.games import chinese_poker, doudizhu, holdem, make, zhengshangyou

GAMES = [
    "doudizhu",
    "zhengshangyou",
    "guandan",
    "hearts",
    "spades",
    "holdem",
    "onepoker",
    "chinese_poker",
]

#: Values of the wrong type for every int, bool or str argument.
WRONG_TYPES: list[object] = [None, 1.5, float("nan"), "x", "", True, [], {"a": 1}, b"7"]
#: Ints out of every seed/count range.
BAD_INTS: list[object] = [-1, 2**64, 2**70]
BAD_VALUES = WRONG_TYPES + BAD_INTS
#: A lone surrogate cannot be encoded as UTF-8; it must still be a typed error.
JUNK_TEXT = ["", "zz", "\x00", "As As", "10x", "🂡", " " * 3, "\ud800", "A\udfffs"]


def _raises(kind: type[CardkitError], call: Callable[[], object], value: object) -> None:
    """``call`` raises ``kind`` and its message shows ``value``."""
    with pytest.raises(kind) as info:
        call()
    assert repr(value) in str(info.value) or str(value) in str(info.value)


# -- cardkit.* ---------------------------------------------------------------------


def test_lone_surrogates_are_invalid_cards() -> None:
    # they cannot be encoded as UTF-8; the message shows them as U+FFFD
    with pytest.raises(InvalidCardError, match="\ufffd"):
        cardkit.Card("\ud800")


@pytest.mark.parametrize("value", [v for v in BAD_VALUES if v != ""])
def test_card_rejects_non_cards(value: object) -> None:
    _raises(InvalidCardError, lambda: cardkit.Card(value), value)  # type: ignore[arg-type]
    _raises(InvalidCardError, lambda: cardkit.Card.from_index(value), value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 1.5, True, 2**70, ["As", None], "\ud800"])
def test_parse_cards_rejects_non_cards(value: object) -> None:
    with pytest.raises(InvalidCardError):
        cardkit.parse_cards(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", BAD_VALUES)
def test_seeds_and_deck_names(value: object) -> None:
    _raises(RuleOptionError, lambda: cardkit.shuffled_deck("standard52", value), value)  # type: ignore[arg-type]
    _raises(RuleOptionError, lambda: cardkit.derive_seed(value, 0), value)  # type: ignore[arg-type]
    _raises(RuleOptionError, lambda: cardkit.derive_seed(0, value), value)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError):
        cardkit.deck(value)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError):
        cardkit.shuffled_deck(value, 1)  # type: ignore[arg-type]


def test_valid_input_is_unchanged() -> None:
    assert len(cardkit.deck("standard52")) == 52
    assert cardkit.shuffled_deck("standard52", 2**64 - 1) == cardkit.shuffled_deck(
        "standard52", 2**64 - 1
    )
    assert doudizhu.id_to_action(0) == doudizhu.PASS
    assert zhengshangyou.held_bombs("3333AAA") == 2
    assert len(poker.Range("QQ+")) == 18
    assert poker.equity(["AhAs", "KdKc"], samples=100, seed=3, threads=1).samples == 100


# -- cardkit.poker -----------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 1.5, True, 2**70, "", "AsAs", "AsKsQsJs", "Xx", "\ud800"])
def test_evaluate_and_compare_reject_bad_hands(value: object) -> None:
    with pytest.raises(InvalidCardError):
        poker.evaluate(value)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        poker.compare(value, "AsKsQsJsTs")  # type: ignore[arg-type]
    if value not in ("", "AsKsQsJs"):
        # with a three-card board these are valid three- and seven-card hands
        with pytest.raises(InvalidCardError):
            poker.winners([value, "AhKh"], board="2c3d4h")  # type: ignore[list-item]


@pytest.mark.parametrize("value", [None, 1.5, True, 2**70, "AsKs"])
def test_winners_needs_a_list_of_hands(value: object) -> None:
    with pytest.raises(InvalidCardError):
        poker.winners(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [v for v in BAD_VALUES if v is not None])
def test_evaluate_batch_threads(value: object) -> None:
    _raises(RuleOptionError, lambda: poker.evaluate_batch([[0, 1, 2, 3, 4]], threads=value), value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, "x", [[0, 0, 2, 3, 4]], [[0, 1, 2, 3, 99]], [["a"] * 5]])
def test_evaluate_batch_rows(value: object) -> None:
    with pytest.raises(InvalidCardError):
        poker.evaluate_batch(value)


@pytest.mark.parametrize(
    "value",
    [None, 1.5, True, 2**70, [], "", "ZZ", "AKs:2", "AKs:-1", "AKs:nan", "AA-", "AsAs", "\ud800"],
)
def test_range_rejects_bad_text(value: object) -> None:
    with pytest.raises(InvalidRangeError):
        poker.Range(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("option", ["samples", "seed", "threads", "stderr", "exact", "progress"])
@pytest.mark.parametrize("value", [v for v in BAD_VALUES if v is not None])
def test_equity_options(option: str, value: object) -> None:
    positive = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    if option == "stderr" and positive:
        # a big positive number is a (useless but) valid stderr
        return
    options: dict[str, Any] = {"samples": 100, option: value}
    with pytest.raises(RuleOptionError):
        poker.equity(["AhAs", "KdKc"], **options)


@pytest.mark.parametrize(
    "players",
    [None, 1.5, 2**70, "AhAs", [], ["AhAs"], ["AhAs"] * 11, ["AhAs", "AhAs"], [None, "KK"]],
)
def test_equity_players(players: object) -> None:
    with pytest.raises(CardkitError):
        poker.equity(players, samples=10)  # type: ignore[arg-type]


# -- games: options, seeds, actions ------------------------------------------------


#: The type of the options whose default is None (off), when they are set.
_OFF_BY_DEFAULT: dict[str, type] = {"lose_at": int}


@pytest.mark.parametrize("game", GAMES)
def test_make_options_and_seeds(game: str) -> None:
    options = make(game).options
    for name, default in options.items():
        for value in BAD_VALUES:
            try:
                make(game, **{name: value})
            except RuleOptionError as exc:
                assert name in str(exc)
                continue
            # only a value of the option's own type (or None for optional ones) may pass
            kind = _OFF_BY_DEFAULT.get(name, type(default))
            assert value is None or type(value) is kind, (name, value)
    with pytest.raises(RuleOptionError):
        make(game, no_such_option=1)
    state = make(game).new_state(1)
    for value in BAD_VALUES:
        if value is not None:
            # new_state(None) draws a fresh seed
            with pytest.raises(RuleOptionError):
                make(game).new_state(value)  # type: ignore[arg-type]
        before = state.to_json()
        with pytest.raises(CardkitError):
            state.apply(value)  # type: ignore[arg-type]
        assert state.to_json() == before


@pytest.mark.parametrize("value", [None, 1.5, True, [], {"a": 1}, "", "no_such_game"])
def test_make_rejects_bad_names(value: object) -> None:
    with pytest.raises(RuleOptionError):
        make(value)  # type: ignore[arg-type]


#: Junk elsewhere, a play here: Guandan plays may name their copies (two packs).
NOT_JUNK = {("guandan", "As As")}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", [*JUNK_TEXT, "play", "bid 99", "play 33333333"])
def test_junk_actions_leave_state_untouched(game: str, text: str) -> None:
    state = make(game).new_state(5)
    if (game, text) in NOT_JUNK:
        assert state.game.parse_action(text).kind == "play"
        return
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(text)
    assert state.to_json() == before


# -- module-level game helpers ------------------------------------------------------


@pytest.mark.parametrize("value", [None, 1.5, True, 2**70, "Z", "3" * 5, ["3", None], "\ud800"])
def test_climbing_helpers(value: object) -> None:
    for call in (
        lambda: doudizhu.classify(value),  # type: ignore[arg-type]
        lambda: doudizhu.legal_leads(value),  # type: ignore[arg-type]
        lambda: doudizhu.legal_responses("345", value),  # type: ignore[arg-type]
        lambda: zhengshangyou.classify(value),  # type: ignore[arg-type]
        lambda: zhengshangyou.legal_leads(value),  # type: ignore[arg-type]
        lambda: zhengshangyou.legal_responses("345", value),  # type: ignore[arg-type]
    ):
        try:
            call()
        except CardkitError:
            continue


@pytest.mark.parametrize("value", BAD_VALUES)
def test_zhengshangyou_flags_and_ranks(value: object) -> None:
    if value is not True:
        _raises(RuleOptionError, lambda: zhengshangyou.classify("33", opening=value), value)  # type: ignore[arg-type]
        _raises(RuleOptionError, lambda: zhengshangyou.legal_leads("33", opening=value), value)  # type: ignore[arg-type]
    if not isinstance(value, str):
        _raises(RuleOptionError, lambda: zhengshangyou.held_bombs(value), value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [*BAD_VALUES, doudizhu.action_space_size()])
def test_doudizhu_action_ids(value: object) -> None:
    with pytest.raises(IllegalActionError):
        doudizhu.id_to_action(value)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        doudizhu.action_to_id(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 1.5, True, 2**70, "33", [None], [1.5]])
def test_doudizhu_batch_ids(value: object) -> None:
    for batch in (doudizhu.legal_action_ids_batch, doudizhu.legal_plays_batch):
        with pytest.raises(CardkitError):
            batch(value)  # type: ignore[arg-type]
        if value is not None and value != [None]:
            # None (and a None table) means leading
            with pytest.raises(CardkitError):
                batch(["33"], value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 1.5, True, 2**70, "x", [], [None, None], [1, 2]])
def test_chinese_poker_score(value: object) -> None:
    with pytest.raises(CardkitError):
        chinese_poker.score(value)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError):
        chinese_poker.score(["x", "y"], variant=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", BAD_VALUES)
def test_holdem_arrange_deal(value: object) -> None:
    with pytest.raises(CardkitError):
        holdem.arrange_deal(value, 0, {})  # type: ignore[arg-type]
    with pytest.raises(CardkitError):
        holdem.arrange_deal([100, value], 0, {})  # type: ignore[list-item]
    with pytest.raises(CardkitError):
        holdem.arrange_deal([100, 100], value, {})  # type: ignore[arg-type]
    with pytest.raises(CardkitError):
        holdem.arrange_deal([100, 100], 0, value)  # type: ignore[arg-type]
    with pytest.raises(CardkitError):
        holdem.arrange_deal([100, 100], 0, {0: value, 1: "AhKh"})  # type: ignore[dict-item]


@pytest.mark.parametrize("value", BAD_VALUES)
def test_phh_loads(value: object) -> None:
    with pytest.raises(CardkitError):
        phh.loads(value)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError):
        phh.loads('variant = "NT"', seed=value)  # type: ignore[arg-type]


# -- agents, simulate, CLI ----------------------------------------------------------

AGENTS: list[tuple[Callable[..., Any], list[str]]] = [
    (cardkit.agents.RandomAgent, []),
    (cp_agents.SolverAgent, ["samples", "candidates"]),
    (cp_agents.RandomSetAgent, []),
    (ddz_agents.DouDizhuSearchAgent, ["samples", "endgame", "endgame_nodes", "bid_samples"]),
    (
        hearts_agents.HeartsSearchAgent,
        ["worlds", "epsilon", "endgame", "endgame_nodes", "pass_worlds", "pass_cards"],
    ),
    (holdem_agents.EquityAgent, ["samples"]),
    (onepoker_agents.SignalAgent, ["bluff"]),
    (
        spades_agents.SpadesSearchAgent,
        ["worlds", "epsilon", "bid_worlds", "endgame", "endgame_nodes"],
    ),
    (
        tractor_agents.TractorSearchAgent,
        ["worlds", "declare_worlds", "endgame", "endgame_nodes"],
    ),
    (zsy_agents.ZhengShangyouSearchAgent, ["samples", "endgame", "endgame_nodes"]),
]


@pytest.mark.parametrize(("agent", "counts"), AGENTS)
@pytest.mark.parametrize("value", [v for v in BAD_VALUES if v is not None])
def test_agent_constructors(agent: Callable[..., Any], counts: list[str], value: object) -> None:
    if not (isinstance(value, int) and value > 0):
        # agent seeds feed random.Random, which takes ints of any size
        _raises(RuleOptionError, lambda: agent(seed=value), value)
    for name in counts:
        _raises(RuleOptionError, lambda: agent(**{name: value}), value)  # noqa: B023
    agent(seed=None)
    agent(seed=2**70)


@pytest.mark.parametrize("value", BAD_VALUES)
def test_agent_helpers(value: object) -> None:
    ace = cardkit.Card("As")
    calls: list[Callable[[], object]] = [
        lambda: onepoker_agents.win_chance(value, 0),  # type: ignore[arg-type]
        lambda: onepoker_agents.win_chance(ace, value),  # type: ignore[arg-type]
        lambda: holdem_agents.starting_hand_score(value, ace),  # type: ignore[arg-type]
    ]
    if not isinstance(value, str):
        # any str is a rank text for bid_strength (unknown ranks score nothing)
        calls.append(lambda: ddz_agents.bid_strength(value))  # type: ignore[arg-type]
    if value != []:
        # an empty hand is a hand
        calls.append(lambda: spades_agents.rule_bid(value, None))  # type: ignore[arg-type]
    if value is not None:
        # None means the partner has not bid yet
        calls.append(lambda: spades_agents.rule_bid(["As"], value))  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(CardkitError):
            call()


@pytest.mark.parametrize("option", ["players", "samples", "candidates", "seed"])
@pytest.mark.parametrize("value", BAD_VALUES)
def test_chinese_poker_solver_options(option: str, value: object) -> None:
    hand = cardkit.shuffled_deck("standard52", 21)[:13]
    options: dict[str, Any] = {"samples": 4, "candidates": 2, option: value}
    _raises(RuleOptionError, lambda: cp_agents.solve(hand, **options), value)
    if option == "seed":
        _raises(RuleOptionError, lambda: cp_agents.random_set(hand, value), value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [{"name": v} for v in (None, 1.5, [], {"a": 1}, "nope")]
    + [{"games": v} for v in BAD_VALUES]
    + [{"seed": v} for v in BAD_VALUES]
    + [{"workers": v} for v in [1.5, "x", True, -1, 2**64]]
    + [{"options": v} for v in [1.5, "x", [], True, {"bogus": 1}]]
    + [{"agents": v} for v in [1.5, "x", 3, [None, None]]],
)
def test_simulate(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"name": "onepoker", "games": 1, "seed": 0, "workers": 1}
    args.update(kwargs)
    with pytest.raises(RuleOptionError):
        sim.simulate(**args)


@pytest.mark.parametrize(
    ("game", "agents", "seed"),
    [
        ("onepoker", None, 1),
        (None, None, 1),
        (5, [], 1),
        ("game", 5, 1),
        ("game", [1, 2], 1),
        ("game", "ab", 1),
        ("game", "agents", -1),
        ("game", "agents", 2**64),
        ("game", "agents", 1.5),
    ],
)
def test_play(game: object, agents: object, seed: object) -> None:
    onepoker = make("onepoker")
    seated = [cardkit.agents.RandomAgent(0), cardkit.agents.RandomAgent(1)]
    with pytest.raises(RuleOptionError):
        cardkit.play(
            onepoker if game == "game" else game,  # type: ignore[arg-type]
            seated if agents == "agents" else agents,  # type: ignore[arg-type]
            seed=seed,  # type: ignore[arg-type]
        )


@pytest.mark.parametrize(
    "argv",
    [
        ["--no-such-flag"],
        ["deal", "standard52", "--players", "0"],
        ["deal", "standard52", "--players", str(2**70)],
        ["deal", "standard52", "--seed", "-1"],
        ["deal", "standard52", "--cards", "-5"],
        ["simulate", "nope"],
        ["simulate", "onepoker", "--games", str(2**70)],
        ["simulate", "onepoker", "--games", "1", "--workers", "-1"],
        ["equity", "AhAs", "KdKc", "--stderr", "nan"],
        ["equity", "AhAs", "KdKc", "--threads", "-1", "--samples", "10"],
        ["equity", "ZZ", "KK"],
        ["equity", "AhAs", "KdKc", "--samples", "-1"],
        ["equity", "AhAs", "KdKc", "--seed", "-1"],
        ["equity", "AhAs", "KdKc", "--seed", str(2**70)],
        ["equity", "AhAs", "KdKc", "--board", "zz"],
    ],
)
def test_cli_bad_input_exits_2(argv: list[str]) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code  # type: ignore[assignment]
    assert code == 2
    assert "Traceback" not in err.getvalue()
    assert err.getvalue().strip()


# -- fuzzing: anything in, a CardkitError or a result out ---------------------------

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.text(st.characters(categories=["Cs", "Lu", "Nd"]), max_size=4),
    st.lists(st.one_of(st.text(max_size=3), st.integers(-3, 60)), max_size=4),
)

FUZZED: dict[str, Callable[[Any], object]] = {
    "Card": cardkit.Card,
    "Card.from_index": cardkit.Card.from_index,
    "parse_cards": cardkit.parse_cards,
    "deck": cardkit.deck,
    "shuffled_deck": lambda v: cardkit.shuffled_deck("standard52", v),
    "derive_seed": lambda v: cardkit.derive_seed(v, v),
    "evaluate": poker.evaluate,
    "compare": lambda v: poker.compare(v, "AsKsQsJsTs"),
    "winners": poker.winners,
    "Range": poker.Range,
    "equity.players": lambda v: poker.equity([v, "KK"], samples=50, threads=1),
    "equity.seed": lambda v: poker.equity(["AA", "KK"], samples=50, seed=v, threads=1),
    "equity.samples": lambda v: (
        poker.equity(["AA", "KK"], samples=v, threads=1)
        if not (isinstance(v, int) and v > 50)
        else None
    ),
    "ddz.classify": doudizhu.classify,
    "ddz.legal_responses": lambda v: doudizhu.legal_responses("3456789TJQKA", v),
    "ddz.action_to_id": doudizhu.action_to_id,
    "ddz.id_to_action": doudizhu.id_to_action,
    "zsy.legal_leads": zhengshangyou.legal_leads,
    "zsy.held_bombs": zhengshangyou.held_bombs,
    "cp.score": chinese_poker.score,
    "arrange_deal": lambda v: holdem.arrange_deal([100, 100], v, {0: "AsKs", 1: "QdQc"}),
    "phh.loads": phh.loads,
    "make": make,
    "RandomAgent": cardkit.agents.RandomAgent,
    "HeartsSearchAgent.worlds": lambda v: hearts_agents.HeartsSearchAgent(worlds=v),
    "SignalAgent.bluff": lambda v: onepoker_agents.SignalAgent(bluff=v),
}


@pytest.mark.parametrize("name", sorted(FUZZED))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=ANYTHING)
def test_fuzz_public_functions(name: str, value: object) -> None:
    with contextlib.suppress(CardkitError):
        FUZZED[name](value)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(action=ANYTHING, seed=ANYTHING)
def test_fuzz_apply_and_seed(game: str, action: object, seed: object) -> None:
    g = make(game)
    try:
        state = g.new_state(seed)  # type: ignore[arg-type]
    except RuleOptionError:
        state = g.new_state(0)
    before = state.to_json()
    try:
        state.apply(action)  # type: ignore[arg-type]
    except CardkitError:
        assert state.to_json() == before


def test_batch_evaluation_of_a_valid_array_still_works() -> None:
    rows = np.array([[0, 1, 2, 3, 4], [48, 44, 40, 36, 32]], dtype=np.int64)
    ranks = poker.evaluate_batch(rows, threads=1)
    assert ranks.shape == (2,) and ranks[1] > ranks[0]
