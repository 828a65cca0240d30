"""Hostile text at the parsers: saved states, actions, PHH hand histories, card lists.

Every case gives a typed ``CardkitError`` whose message names the input cut to about
80 characters; nothing is read past the size any game can use, so no input makes a
parser slow, deep or large (issue 13, "Untyped errors and amplification").
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import (
    CardkitError,
    IllegalActionError,
    InvalidCardError,
    InvalidNotationError,
    RuleOptionError,
    phh,
)
from cardkit._validate import check_real
from cardkit.agents import RandomAgent
from cardkit.agents.onepoker import SignalAgent
from cardkit.api import Action
from cardkit.errors import shown
from cardkit.games import available, doudizhu, make, zhengshangyou
from cardkit.games._base import MAX_ACTION_CHARS, MAX_DEALS, BaseGame, BaseState
from cardkit.games.holdem import Holdem, HoldemState

GAMES = sorted(available())
#: A message quotes at most ~80 characters of input plus its own words.
MESSAGE_LIMIT = 300


def _short(exc: pytest.ExceptionInfo[BaseException]) -> None:
    assert len(str(exc.value)) < MESSAGE_LIMIT, str(exc.value)[:500]


def _save(of: BaseGame, /, **changes: Any) -> str:
    """A save of ``of`` with some fields replaced."""
    data: dict[str, Any] = json.loads(of.new_state(seed=3).to_json())
    data.update(changes)
    return json.dumps(data)


def _played(name: str, seed: int, moves: int) -> BaseState:
    """A state of ``name`` after up to ``moves`` random actions."""
    game = make(name)
    state = game.new_state(seed=seed)
    assert isinstance(state, BaseState)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- 1. state_from_json ---------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    "changes",
    [
        {"history": 5},
        {"history": None},
        {"history": "fold"},
        {"history": [1, 2]},
        {"history": [None]},
        {"history": [["pass"]]},
        {"history": [{"a": 1}]},
        {"seed": "7"},
        {"seed": 1.5},
        {"seed": True},
        {"seed": None},
        {"seed": -1},
        {"seed": 2**70},
        {"deal": 5},
        {"deal": [1, 2]},
        {"deal": {"As": 1}},
        {"deal": "As" * 60_000},
        {"deal": ["As"] * 60_000},
        {"options": None},
        {"options": [1]},
        {"options": "x"},
        {"game": 5},
        {"game": None},
    ],
)
def test_state_json_with_wrong_types_is_a_typed_error(name: str, changes: dict[str, Any]) -> None:
    game = make(name)
    with pytest.raises(CardkitError) as info:
        game.state_from_json(_save(game, **changes))
    _short(info)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"history": ' + "[" * 100_000 + "}",
        "[" * 5000,
        "5",
        "null",
        '"text"',
        "[]",
        "{}",
        '{"game": "x"}',
        "9" * 5000,
        "\x00",
        "",
    ],
)
def test_state_json_that_is_not_a_save_is_a_notation_error(name: str, text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        make(name).state_from_json(text)
    _short(info)


@pytest.mark.parametrize("name", GAMES)
def test_state_json_nested_deeply_inside_the_history(name: str) -> None:
    game = make(name)
    inner = _save(game).replace('"history": []', '"history": [' + "[" * 50_000 + "]")
    with pytest.raises(InvalidNotationError):
        game.state_from_json(inner)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("text", [None, 5, ["{}"], {"game": "x"}])
def test_state_json_of_the_wrong_type(name: str, text: object) -> None:
    with pytest.raises(InvalidNotationError):
        make(name).state_from_json(text)  # type: ignore[arg-type]


def test_one_hand_of_a_hundred_thousand_folds_is_refused_before_reading() -> None:
    game = make("holdem", players=2, match=False)
    text = _save(game, history=["fold"] * 100_000)
    with pytest.raises(InvalidNotationError, match="longer than any holdem save") as info:
        game.state_from_json(text)
    _short(info)
    # Under the size limit but over the length limit: refused before the replay.
    history = ["fold"] * (game.max_match_length + 1)
    with pytest.raises(InvalidNotationError, match="history of"):
        game.state_from_json(_save(game, history=history))


def test_a_match_of_a_hundred_thousand_folds_stops_at_the_deal_limit() -> None:
    game = make("holdem", players=2)
    with pytest.raises(InvalidNotationError, match=rf"history\[{MAX_DEALS}\]") as info:
        game.state_from_json(_save(game, history=["fold"] * 100_000))
    _short(info)


def test_every_save_of_a_game_fits_its_limits() -> None:
    for name in GAMES:
        for seed in range(3):
            state = _played(name, seed, 400)
            assert len(state.history) <= state.game.max_match_length  # type: ignore[attr-defined]
            back = state.game.state_from_json(state.to_json())
            assert back.to_json() == state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_a_history_that_does_not_replay_names_its_entry(name: str) -> None:
    game = make(name)
    state = _played(name, 1, 3)
    history = [str(a) for a in state.history] + ["zz" * 100]
    with pytest.raises(InvalidNotationError, match=rf"history\[{len(history) - 1}\]") as info:
        game.state_from_json(_save(game, seed=1, history=history))
    _short(info)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_saves_raise_only_cardkit_errors(name: str, data: st.DataObject) -> None:
    text = _played(name, 5, 30).to_json()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        piece = data.draw(st.sampled_from(['"', "[", "]", "{", ",", "9", "-", "x", "null", ""]))
        cut = data.draw(st.integers(0, 3))
        text = text[:i] + piece + text[i + cut :]
    try:
        state = make(name).state_from_json(text)
    except CardkitError as exc:
        assert len(str(exc)) < MESSAGE_LIMIT
    else:
        assert isinstance(state, BaseState)


@pytest.mark.parametrize("name", GAMES)
def test_max_game_length_bounds_every_deal(name: str) -> None:
    game = make(name)
    assert isinstance(game, BaseGame)
    assert isinstance(game.max_game_length, int) and game.max_game_length >= 1
    assert game.max_match_length >= game.max_game_length
    single = {"holdem", "onepoker", "spades", "hearts"}
    if name in single:
        one = make(name, match=False)
        assert isinstance(one, BaseGame)
        assert one.max_match_length == one.max_game_length
        for seed in range(20):
            state = one.new_state(seed=seed)
            agents = [RandomAgent(seed * 8 + i) for i in range(one.num_players)]
            state = cardkit.play(one, agents, seed=seed)
            assert len(state.history) <= one.max_game_length


def test_max_game_length_follows_the_options() -> None:
    deep = Holdem(players=2, stack=100_000, blinds=(1, 2), match=False)
    shallow = Holdem(players=2, stack=100, blinds=(1, 2), match=False)
    assert deep.max_game_length > shallow.max_game_length
    assert make("hearts", target=1000).max_match_length > make("hearts").max_match_length
    assert make("chinese_poker", players=2).max_game_length == 2


def test_dou_dizhu_without_a_bidder_is_abandoned_at_the_deal_limit() -> None:
    game = make("doudizhu")
    state = game.new_state(seed=3)
    while not state.is_terminal:
        state.apply("pass")
    assert len(state.history) == 3 * MAX_DEALS <= game.max_match_length
    assert state.current_player is None and state.legal_actions() == []
    assert state.returns() == [0.0, 0.0, 0.0]
    assert sum(len(cards) for cards in state.zones().values()) == 54
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("pass")


# -- 2. actions: huge numbers, any type, is_legal never raises ---------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("holdem", "raise " + HUGE),
        ("holdem", "bet " + HUGE),
        ("holdem", "raise " + "9" * 100),
        ("holdem", "raise " + "0" * 150 + "1" * 30),
        ("onepoker", "raise " + HUGE),
        ("onepoker", "bet " + "9" * 100),
        ("spades", "bid " + HUGE),
        ("spades", "bid " + "9" * 100),
        ("doudizhu", "bid " + "9" * 100),
        ("chinese_poker", "set " + "As" * 80_000),
        ("chinese_poker", "set " + "AsKsQs/" * 3 + "Js" * 40),
    ],
)
def test_huge_numbers_in_actions_are_illegal_actions(name: str, text: str) -> None:
    state = make(name).new_state(seed=2)
    if name == "onepoker":
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    _short(info)
    assert state.is_legal(text) is False
    assert state.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_long_actions_are_refused_before_parsing(name: str) -> None:
    game = make(name)
    for text in ("pass " + "2c " * 5000, Action("pass " + "2c " * 5000), "play " + "3" * 10_000):
        with pytest.raises(IllegalActionError, match="longer than any action") as info:
            game.parse_action(text)
        _short(info)


def test_an_action_of_a_huge_int_is_an_illegal_action() -> None:
    with pytest.raises(IllegalActionError, match="bits"):
        Action(10**5000)


def test_amounts_with_leading_zeros_still_parse() -> None:
    assert make("holdem").parse_action("raise " + "0" * 20 + "60") == "raise 60"


#: Inputs no game accepts, of every kind.
JUNK: list[object] = [
    None,
    5,
    1.5,
    True,
    b"pass",
    ["pass"],
    {"pass": 1},
    object(),
    "",
    " ",
    "\x00",
    "\ud800",
    "zz",
    "pass zz",
    "pass " + "2c " * 100,
    "play",
    "bid",
    "bid -1",
    "bid 1.5",
    "bid 99",
    "raise",
    "raise -5",
    "raise 1e9",
    "raise " + HUGE,
    "lock Xx",
    "lock",
    "set",
    "set / /",
    "declare",
    "declare nothing",
    "x" * (MAX_ACTION_CHARS + 1),
    # Just under the length limit: parsed, and still quoted short.
    "play " + "3" * 190,
    "3" * 195,
    "pass " + "x" * 190,
    "pass " + "2c " * 60,
    "lock " + "A" * 190,
    "set " + "As" * 95,
    "declare " + "x" * 190,
    "bid nil " + "x" * 190,
    "play " + "3" * 10_000,
    Action("pass zz"),
    Action("lock Xx"),
    Action("bid 99"),
    Action("raise " + "9" * 40),
    Action("play Xx"),
    Action("set As"),
    Action("x" * 10_000),
]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 120))
def test_is_legal_never_raises(name: str, seed: int, moves: int) -> None:
    state = _played(name, seed, moves)
    before = state.to_json()
    for junk in JUNK:
        assert state.is_legal(junk) is False, junk  # type: ignore[arg-type]
        with pytest.raises(CardkitError) as info:
            state.apply(junk)  # type: ignore[arg-type]
        _short(info)
    assert state.to_json() == before


# -- 3. PHH ---------------------------------------------------------------------------


def _hand() -> str:
    game = Holdem(players=3, match=False)
    state = cardkit.play(game, [RandomAgent(i) for i in range(3)], seed=4)
    assert isinstance(state, HoldemState)
    return phh.dumps(state)


GOOD_PHH = _hand()


def _before_first_deal(extra: str) -> str:
    return GOOD_PHH.replace('"d dh p1 ', f'"{extra}",\n  "d dh p1 ', 1)


PHH_CASES = [
    _before_first_deal(""),
    _before_first_deal("   "),
    _before_first_deal("d dh"),
    _before_first_deal("d dh p1"),
    _before_first_deal("d dh p1 As"),
    _before_first_deal("d dh p1 AsKsQs"),
    _before_first_deal("d db"),
    _before_first_deal("d db AsKs 2c"),
    _before_first_deal("d db 2c3c4c5c6c7c"),
    _before_first_deal("p3 cbr"),
    _before_first_deal("p4 cbr 50"),
    _before_first_deal("p1 sm"),
    _before_first_deal("p1 cbr " + HUGE),
    _before_first_deal("p1 cbr -5"),
    _before_first_deal("p1 cbr 1.5"),
    _before_first_deal("p1 f now"),
    _before_first_deal("p" + HUGE + " f"),
    _before_first_deal("pp f"),
    _before_first_deal("d"),
    _before_first_deal("x y z"),
    GOOD_PHH.replace("blinds_or_straddles = [10, 20, 0]", "blinds_or_straddles = [10]"),
    GOOD_PHH.replace("blinds_or_straddles = [10, 20, 0]", "blinds_or_straddles = 10"),
    GOOD_PHH.replace("antes = [0, 0, 0]", 'antes = ["0", "0", "0"]'),
    GOOD_PHH.replace("antes = [0, 0, 0]", "antes = 5"),
    GOOD_PHH.replace("antes = [0, 0, 0]", "antes = [0]"),
    GOOD_PHH.replace("starting_stacks = [1000, 1000, 1000]", 'starting_stacks = ["a"]'),
    GOOD_PHH.replace("starting_stacks = [1000, 1000, 1000]", "starting_stacks = [1000]"),
    GOOD_PHH.replace("starting_stacks = [1000, 1000, 1000]", "starting_stacks = [-1, 5, 5]"),
    GOOD_PHH.replace("starting_stacks = [1000, 1000, 1000]", "starting_stacks = " + HUGE),
    GOOD_PHH.replace("actions = [", "actions = 5\nx = ["),
    GOOD_PHH.replace('variant = "NT"', "variant = 5"),
    GOOD_PHH.replace('variant = "NT"', "variant = [" * 5000),
    GOOD_PHH.replace('variant = "NT"', "= 5"),
    GOOD_PHH + "[table]\n",
    GOOD_PHH + "actions = [\n",
    "a = " + "[" * 100_000,
    "x" * 300_000,
]


@pytest.mark.parametrize("text", PHH_CASES)
def test_malformed_phh_names_the_line(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="PHH") as info:
        phh.loads(text)
    _short(info)
    assert isinstance(info.value, RuleOptionError)


def test_phh_errors_name_the_line_and_quote_it() -> None:
    with pytest.raises(InvalidNotationError, match=r"line 8\b.*'\"p1 sm\",'"):
        phh.loads(_before_first_deal("p1 sm"))
    with pytest.raises(InvalidNotationError, match=r"line 3\b.*antes = 5"):
        phh.loads(GOOD_PHH.replace("antes = [0, 0, 0]", "antes = 5"))
    with pytest.raises(InvalidNotationError, match=r"line \d+: illegal here"):
        phh.loads(GOOD_PHH.replace('"p3 cbr 45"', '"p3 cbr 1"'))


def _mutations() -> st.SearchStrategy[str]:
    lines = GOOD_PHH.splitlines()
    alphabet = st.sampled_from([*'pd fcbrsm?0123456789[]",=#ATKQJhsdc\n ', "\x00"])

    @st.composite
    def mutated(draw: st.DrawFn) -> str:
        out = list(lines)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(out) - 1))
            kind = draw(st.integers(0, 5))
            line = out[i]
            j = draw(st.integers(0, len(line)))
            if kind == 0:
                out[i] = line[:j] + draw(alphabet) + line[j:]
            elif kind == 1:
                out[i] = line[:j] + line[j + 1 :]
            elif kind == 2:
                del out[i]
            elif kind == 3:
                out.insert(i, line)
            elif kind == 4:
                out[i] = line[:j]
            else:
                out[i] = line.replace(draw(st.sampled_from(["p1", "p2", "p3", "cc", "f"])), "")
            if not out:
                out = [""]
        return "\n".join(out)

    return mutated()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_mutations())
def test_mutated_phh_raises_only_cardkit_errors(text: str) -> None:
    try:
        state = phh.loads(text)
    except CardkitError as exc:
        assert len(str(exc)) < MESSAGE_LIMIT
    else:
        assert isinstance(state, HoldemState)


# -- 4. card lists --------------------------------------------------------------------


def _endless() -> Iterator[str]:
    while True:
        yield "As"


@pytest.mark.parametrize(
    "cards",
    [
        "As" * 40_000,
        "As " * 40_000,
        "10♥" * 1000,
        ["As"] * 40_000,
        tuple(["As"] * 40_000),
        _endless(),
        "As" * 109,
        " " * 100_000,
    ],
)
def test_more_cards_than_any_deck_are_refused(cards: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        cardkit.parse_cards(cards)  # type: ignore[arg-type]
    _short(info)


def test_the_largest_deck_still_parses() -> None:
    double = [str(c) for c in cardkit.deck("double108")]
    assert len(cardkit.parse_cards("".join(double))) == 108
    assert len(cardkit.parse_cards(" , ".join(double))) == 108
    assert len(cardkit.parse_cards(double)) == 108
    mixed = cardkit.parse_cards("AsKd 10h,,BJ 2♥")
    assert [str(c) for c in mixed] == ["As", "Kd", "Th", "BJ", "2h"]


def test_packed_and_separated_cards_read_the_same() -> None:
    assert cardkit.parse_cards("AsKd10h BJ,2c") == cardkit.parse_cards("As Kd Th BJ 2c")
    with pytest.raises(InvalidCardError, match="Kx"):
        cardkit.parse_cards("AsKx Qd")


@pytest.mark.parametrize("module", [doudizhu, zhengshangyou])
def test_climbing_helpers_refuse_endless_card_iterators(module: Any) -> None:
    for call in (
        lambda: module.classify(_endless()),
        lambda: module.legal_leads(_endless()),
        lambda: module.legal_responses(_endless(), "3"),
        lambda: module.legal_responses("33", _endless()),
    ):
        with pytest.raises(InvalidCardError, match="no deck holds more than 108"):
            call()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("deal", ["As" * 60_000, ["As"] * 60_000, "As" * 200])
def test_game_deals_longer_than_the_deck_are_refused(name: str, deal: object) -> None:
    with pytest.raises(CardkitError) as info:
        make(name).new_state(seed=1, deal=deal)  # type: ignore[arg-type]
    _short(info)


def test_a_card_of_a_huge_text_is_quoted_short() -> None:
    with pytest.raises(InvalidCardError) as info:
        cardkit.Card("A" * 120_000)
    _short(info)
    with pytest.raises(InvalidCardError) as info:
        cardkit.Card(list(range(100_000)))  # type: ignore[arg-type]
    _short(info)


# -- 5. messages ----------------------------------------------------------------------


def _spades_in_play() -> BaseState:
    state = make("spades").new_state(seed=1)
    for _ in range(4):
        state.apply("bid 3")
    return state


def test_spades_bid_without_a_number_says_so() -> None:
    state = make("spades").new_state(seed=1)
    for text in ("bid", "BID"):
        with pytest.raises(IllegalActionError, match=r"bid needs a number 0\.\.13"):
            state.apply(text)
    with pytest.raises(IllegalActionError, match=r"a bid is a number 0\.\.13"):
        state.apply("bid x")
    with pytest.raises(IllegalActionError, match="Spades has no pass"):
        state.apply("pass")


@pytest.mark.parametrize("text", ["pass", "pass 2c", "PASS"])
def test_pass_in_play_says_play_a_card(text: str) -> None:
    hearts = make("hearts", passing=False).new_state(seed=1)
    for state in (_spades_in_play(), hearts):
        with pytest.raises(
            IllegalActionError, match="not an action in the play phase; play a card"
        ):
            state.apply(text)


def test_bid_in_spades_play_and_play_without_a_card() -> None:
    with pytest.raises(IllegalActionError, match="bid is not an action in the play phase"):
        _spades_in_play().apply("bid 3")
    for name in ("spades", "hearts"):
        with pytest.raises(IllegalActionError, match="play needs a card"):
            make(name).new_state(seed=1).apply("play")


def test_hearts_pass_without_cards_says_so() -> None:
    with pytest.raises(IllegalActionError, match="pass needs cards"):
        make("hearts").new_state(seed=1).apply("pass")


def test_an_airplane_takes_an() -> None:
    game = make("doudizhu")
    first = game.new_state(seed=1).first_bidder  # type: ignore[attr-defined]
    cards = [str(c) for c in cardkit.deck("french54")]
    plane = ["3c", "3d", "3h", "4c", "4d", "4h"]
    rest = [c for c in cards if c not in plane and c != "5s"]
    hands: list[list[str]] = [[], [], []]
    hands[first] = ["5s", *rest[:16]]
    hands[(first + 1) % 3] = plane + rest[16:27]
    hands[(first + 2) % 3] = rest[27:44]
    state = game.new_state(seed=1, deal=[c for h in hands for c in h] + rest[44:47])
    state.apply("bid 3")
    state.apply("play 5")
    with pytest.raises(IllegalActionError, match="an airplane 333444 does not beat the single"):
        state.apply("play 333444")


@pytest.mark.parametrize("name", GAMES)
def test_messages_quote_at_most_80_characters(name: str) -> None:
    game = make(name)
    state = game.new_state(seed=1)
    for text in ("As" * 60_000, "x" * 120_000, "play " + "A" * 150, "pass " + "2c" * 80):
        with pytest.raises(CardkitError) as info:
            state.apply(text)
        _short(info)
        with pytest.raises(CardkitError) as info:
            game.new_state(seed=1, deal=text)
        _short(info)


def test_shown_cuts_long_values_and_survives_bad_reprs() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert shown("As") == "'As'"
    assert shown("x" * 1000).endswith("... (1000 characters)")
    assert len(shown("x" * 100_000)) < 120
    assert len(shown(list(range(100_000)))) < 120
    assert "bits" in shown(10**5000)
    assert shown(Broken()) == "?"


def test_options_with_huge_ints_are_rule_errors() -> None:
    for options in ({"stack": 10**5000}, {"players": 10**5000}, {"blinds": (1, 10**5000)}):
        with pytest.raises(RuleOptionError) as info:
            make("holdem", **options)
        _short(info)


@pytest.mark.parametrize("value", [10**400, -(10**400), 2**1024 - 1])
def test_real_options_past_the_float_range_are_rule_errors(value: int) -> None:
    with pytest.raises(RuleOptionError, match="finite number") as info:
        SignalAgent(0, bluff=value)
    _short(info)
    with pytest.raises(RuleOptionError, match="finite number"):
        check_real("x", value, -math.inf, math.inf)
