"""Every public callable of ``cardkit._core`` refuses an argument of the wrong type
or out of its range with a ``CardkitError`` that names the argument: no PyO3
``TypeError``, ``OverflowError`` or int-conversion ``ValueError`` escapes.

``TABLE`` holds, per callable, valid arguments and what kind of value each parameter
takes; each case spoils one argument. A public callable that takes arguments and has
no entry, or an entry missing one of its parameters, fails
``test_the_table_covers_every_public_callable``, so a new binding cannot skip it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pytest

from cardkit import (
    CardkitError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    RuleOptionError,
    _core,
)
from cardkit.api import Action
from cardkit.errors import InvalidRangeError


@dataclass(frozen=True)
class Kind:
    """The bad values for one kind of parameter and the error they raise.

    ``named``: the message names the parameter (else it quotes the value, as the
    card parsers' messages do).
    """

    bad: tuple[object, ...]
    error: type[CardkitError] = InvalidArgumentError
    named: bool = True


UINT = Kind(("7", 1.5, None, -1, 2**64, 2**70, True, [1]))
INT = Kind(("7", 1.5, None, 2**70, -(2**70), [1]))
OPT_INT = Kind(("7", 1.5, 2**70, -(2**70), [1]))
OPT_UINT = Kind(("7", 1.5, -1, 2**70, True))
FLOAT = Kind(("x", None, [1.0], True))
OPT_FLOAT = Kind(("x", [1.0], True))
BOOL = Kind(("x", None, 1.5, 2, [True]))
OPT_BOOL = Kind(("x", 1.5, 2, [True]))
STR = Kind((None, 5, 1.5, ["x"], b"x", "\ud800"))
OPT_STR = Kind((5, 1.5, ["x"], b"x"))
LIST = Kind(("x", 5, None, 1.5, ["x"], [-1], [2**70]))
OPT_LIST = Kind(("x", 5, 1.5, ["x"]))
#: A list of signed ints (match scores may be negative).
INT_LIST = Kind(("x", 5, None, 1.5, ["x"], [2**70]))
ITERABLE = Kind((5, None, 1.5))
CALLABLE = Kind((5, "x"))
OPT_CALLABLE = Kind((5, "x"))
OBJECT = Kind((5, None, "x"))
OPT_OBJECT = Kind((5, "x"))
ARRAY = Kind(("x", None, [[0, 1, 2, 3, 4]], np.zeros(3, dtype=np.float64)))
OPT_ARRAY = Kind(("x", [0], np.zeros(1, dtype=np.float64)))
#: Cards and rank texts: ``InvalidCardError`` quoting the value.
CARDS = Kind((5, None, 1.5, [None]), InvalidCardError, named=False)
OPT_CARDS = Kind((5, 1.5, [None]), InvalidCardError, named=False)
#: Seats, chip counts and tables of ``BettingCore``, checked against the table.
CHIPS = Kind(("7", 1.5, None, -1, 2**70, True), RuleOptionError)
CHIP_LIST = Kind(("x", 5, None, ["x"], [-1, 1], [2**70, 1]), RuleOptionError)
#: Any object: the binding reads it itself (an unknown action is just not listed).
ANY = Kind(())
DICT = Kind(("x", 5, None, [1]))


@dataclass(frozen=True)
class Entry:
    """Valid ``args`` of a callable and the ``kinds`` of its parameters.

    ``make`` builds the instance a method is called on.
    """

    args: dict[str, Any]
    kinds: dict[str, Kind]
    make: Callable[[], object] | None = field(default=None)


def _table() -> _core.BettingCore:
    return _core.BettingCore([100, 100], [True, True], 2)


def _betting() -> _core.BettingCore:
    core = _table()
    core.start_round(0)
    return core


class _AecEnv:
    """Stands in for the AEC environment an AecCore serves (its dicts and the
    calls ``step`` makes back)."""

    def __init__(self) -> None:
        self.agents = [f"player_{seat}" for seat in range(4)]
        self.agent_selection = self.agents[0]

    def dicts(self) -> dict[str, Any]:
        """The per-episode dicts ``AecCore.reset`` takes."""
        return {
            "infos": {agent: {} for agent in self.agents},
            "cumulative_rewards": dict.fromkeys(self.agents, 0.0),
            "terminations": dict.fromkeys(self.agents, False),
            "truncations": dict.fromkeys(self.agents, False),
        }

    def _engine_event(self, code: int, action: object) -> None:
        """A refused id or the end of the deal: nothing for this stand-in to do."""


_AEC_ENV = _AecEnv()


def _aec_core_attached() -> _core.AecCore:
    core = _core.AecCore.hearts(True, 100)
    core.attach(_AEC_ENV, _AEC_ENV.agents, False)
    return core


def _aec_core() -> _core.AecCore:
    core = _aec_core_attached()
    core.reset(0, **_AEC_ENV.dicts())
    return core


def _vector_env() -> _core.VectorEnv:
    env = _core.VectorEnv.hearts(1, 0, 1, True, 100)
    env.reset()
    return env


def _climbing_actions() -> _core.ClimbingActions:
    return _core.ClimbingActions(str, "pass", 100)


def _climbing_deal() -> _core.ClimbingDeal:
    return _core.ClimbingDeal("doudizhu", [["3s"], ["4s"], ["5s"]], 0, _climbing_actions())


def _climbing_view() -> _core.ClimbingView:
    return _core.ClimbingView("doudizhu", 0, "3", [1, 1, 1], "44")


GD_HANDS = [["3c"], ["4c"], ["5c"], ["6c"]]


def _guandan_actions() -> _core.GuandanActions:
    return _core.GuandanActions(Action, Action("pass"))


def _guandan_deal() -> _core.GuandanDeal:
    return _core.GuandanDeal(GD_HANDS, "2", 0)


def _guandan_logged() -> _core.GuandanDeal:
    deal = _core.GuandanDeal(GD_HANDS, "2", 0, False, _guandan_actions())
    deal.attach_log([], [], [[], [], [], []])
    return deal


#: A Guandan level: a rank letter, else ``RuleOptionError`` naming the level.
LEVEL = Kind((None, 5, 1.5, ["2"], "Z"), RuleOptionError)
#: A Guandan play: a ``GuandanPlay`` or its text, else ``IllegalActionError`` quoting it.
PLAY = Kind((5, None, 1.5, "Z"), IllegalActionError, named=False)
OPT_PLAY = Kind((5, 1.5, "Z"), IllegalActionError, named=False)
#: Four Guandan hands.
HANDS4 = Kind((5, None, 1.5, [["3c"]]), InvalidCardError)

TR_HANDS = [["3c"], ["4c"], ["5c"], ["6c"]]
TR_OBS = sum(n for _, n in _core.TractorDeal.OBSERVATION_LAYOUT)


def _tractor_deal() -> _core.TractorDeal:
    return _core.TractorDeal(TR_HANDS, "2", "s", 0)


def _tractor_round() -> _core.TractorRound:
    return _core.TractorRound(_core.deck("double108"), ["2", "2"], 0)


def _tractor_listing_round() -> _core.TractorRound:
    return _core.TractorRound(
        _core.deck("double108"), ["2", "2"], 0, None, _core.TractorActions(Action)
    )


#: A Tractor trump: a suit letter or "nt" (None too), else ``RuleOptionError``.
TRUMP = Kind((5, 1.5, ["s"], "Z"), RuleOptionError)

#: Any object serves as an action: one per card index.
ACTIONS: list[Any] = list(range(52))
PLAY_TABLE = _core.ActionTable(ACTIONS)
#: The four 13-card hands of the 52-card pack, by suit, as bitsets.
SUIT_HANDS = [sum(1 << (4 * r + s) for r in range(13)) for s in range(4)]
RULES = _core.ChinesePokerRules()
HAND13 = "AsKsQsJsTs9s8s7s6s5s4s3s2s"
COMBO = _core.climbing_classify("doudizhu", "3")[0]
SEARCH = {
    "seat": 0,
    "known": [SUIT_HANDS[0], 0, 0, 0],
    "unknown": SUIT_HANDS[1] | SUIT_HANDS[2] | SUIT_HANDS[3],
    "sizes": [13, 13, 13, 13],
    "voids": [0, 0, 0, 0],
    "leader": 0,
    "trick": [],
    "broken": False,
    "candidates": [0],
    "worlds": 1,
    "seed": 0,
    "epsilon": 0.1,
}
SEARCH_KINDS = {
    "seat": UINT,
    "known": LIST,
    "unknown": UINT,
    "sizes": LIST,
    "voids": LIST,
    "leader": UINT,
    "trick": LIST,
    "broken": BOOL,
    "candidates": LIST,
    "worlds": UINT,
    "seed": UINT,
    "epsilon": FLOAT,
}
VECTOR = {"num_envs": 1, "seed": 0, "threads": 1}
VECTOR_KINDS = {"num_envs": UINT, "seed": UINT, "threads": UINT}
SEAT = {"seat": 0}
SEAT_KINDS = {"seat": UINT}
BATCH = {"hands": ["345"], "tables": None, "threads": 1}
BATCH_KINDS = {
    "hands": Kind((5, None, "345", [5]), InvalidCardError),
    "tables": Kind((5, "x", [5]), IllegalActionError),
    "threads": OPT_UINT,
}

TABLE: dict[str, Entry] = {
    "Card": Entry({"card": "As"}, {"card": CARDS}),
    "Card.from_index": Entry({"index": 0}, {"index": Kind(UINT.bad, InvalidCardError)}),
    "parse_cards": Entry({"cards": "AsKs"}, {"cards": CARDS}),
    "deck": Entry({"name": "standard52"}, {"name": STR}),
    "shuffled_deck": Entry({"name": "standard52", "seed": 1}, {"name": STR, "seed": UINT}),
    "shuffled_deck_indices": Entry({"name": "standard52", "seed": 1}, {"name": STR, "seed": UINT}),
    "derive_seed": Entry({"seed": 1, "stream": 2}, {"seed": UINT, "stream": UINT}),
    "Range": Entry({"text": "AA"}, {"text": Kind(STR.bad[:-1], InvalidRangeError, named=False)}),
    "Range.combos": Entry({"dead": None}, {"dead": OPT_CARDS}, lambda: _core.Range("AA")),
    "poker_equity": Entry(
        {
            "players": ["AhAs", "KdKc"],
            "board": None,
            "dead": None,
            "exact": None,
            "samples": 10,
            "stderr": None,
            "seed": 1,
            "threads": 1,
            "progress": None,
        },
        {
            "players": ITERABLE,
            "board": OPT_CARDS,
            "dead": OPT_CARDS,
            "exact": OPT_BOOL,
            "samples": OPT_UINT,
            "stderr": OPT_FLOAT,
            "seed": OPT_UINT,
            "threads": OPT_UINT,
            "progress": OPT_CALLABLE,
        },
    ),
    "poker_evaluate_batch": Entry(
        {"cards": np.arange(5, dtype=np.uint8).reshape(1, 5), "threads": 1, "out": None},
        {"cards": ARRAY, "threads": OPT_UINT, "out": OPT_ARRAY},
    ),
    "poker_evaluate": Entry({"cards": "AsKsQsJsTs"}, {"cards": CARDS}),
    "poker_compare": Entry({"a": "AsKsQsJsTs", "b": "2c3d4h5s7c"}, {"a": CARDS, "b": CARDS}),
    "poker_winners": Entry(
        {"hands": ["AsKsQsJsTs", "2c3d4h5s7c"], "board": None},
        {"hands": ITERABLE, "board": OPT_CARDS},
    ),
    "ChinesePokerRules": Entry(
        {
            "variant": "basic",
            "automatic_win_points": 3,
            "dragon_points": 13,
            "majority": "two_of_three",
            "western_bonus": False,
            "shot": "multiply",
        },
        {
            "variant": STR,
            "automatic_win_points": INT,
            "dragon_points": INT,
            "majority": STR,
            "western_bonus": BOOL,
            "shot": STR,
        },
    ),
    "chinese_poker_automatic_wins": Entry({"hand": HAND13}, {"hand": CARDS}),
    "chinese_poker_rank_set": Entry(
        {"front": "AsKsQs", "middle": "JsTs9s8s7s", "back": "6s5s4s3s2s"},
        {"front": CARDS, "middle": CARDS, "back": CARDS},
    ),
    "chinese_poker_score": Entry(
        {"entries": ["dragon", ("AsKsQs", "JsTs9s8s7s", "6s5s4s3s2s")], "rules": RULES},
        {"entries": ITERABLE, "rules": OBJECT},
    ),
    "chinese_poker_sample_sets": Entry(
        {"hand": HAND13, "count": 2, "improper": False},
        {"hand": CARDS, "count": UINT, "improper": BOOL},
    ),
    "chinese_poker_greedy_set": Entry({"hand": HAND13}, {"hand": CARDS}),
    "chinese_poker_random_set": Entry({"hand": HAND13, "seed": 1}, {"hand": CARDS, "seed": UINT}),
    "chinese_poker_solve": Entry(
        {"hand": HAND13, "rules": RULES, "players": 2, "samples": 2, "candidates": 2, "seed": 0},
        {
            "hand": CARDS,
            "rules": OBJECT,
            "players": UINT,
            "samples": UINT,
            "candidates": UINT,
            "seed": UINT,
        },
    ),
    "ClimbingView": Entry(
        {
            "game": "doudizhu",
            "seat": 0,
            "hand": "3",
            "counts": [1, 1, 1],
            "unknown": "44",
            "table": None,
            "table_owner": 0,
            "passes": 0,
            "plays": [0, 0, 0],
            "landlord": 0,
            "bid": 1,
            "bombs": 0,
            "opening": False,
            "pending_bomb": False,
            "pinned": None,
            "history": [(0, "3")],
        },
        {
            "game": STR,
            "seat": UINT,
            "hand": CARDS,
            "counts": LIST,
            "unknown": CARDS,
            "table": OPT_OBJECT,
            "table_owner": UINT,
            "passes": UINT,
            "plays": LIST,
            "landlord": UINT,
            "bid": UINT,
            "bombs": UINT,
            "opening": BOOL,
            "pending_bomb": BOOL,
            "pinned": OPT_LIST,
            "history": OPT_LIST,
        },
    ),
    "ClimbingView.search_move": Entry(
        {
            "samples": 1,
            "seed": 0,
            "endgame_cards": 0,
            "endgame_nodes": 1,
            "halving": True,
            "shedding": True,
        },
        {
            "samples": UINT,
            "seed": UINT,
            "endgame_cards": UINT,
            "endgame_nodes": UINT,
            "halving": BOOL,
            "shedding": BOOL,
        },
        _climbing_view,
    ),
    "ClimbingActions": Entry(
        {"make": str, "pass_action": "pass", "limit": 10},
        {"make": CALLABLE, "pass_action": ANY, "limit": UINT},
    ),
    "ClimbingDeal": Entry(
        {
            "game": "doudizhu",
            "hands": [["3s"], ["4s"], ["5s"]],
            "leader": 0,
            "actions": _climbing_actions(),
            "landlord": 0,
            "bid": 1,
            "plays": [0, 0, 0],
        },
        {
            "game": STR,
            "hands": Kind((5, None, "x", [["3s"]])),
            "leader": UINT,
            "actions": OBJECT,
            "landlord": UINT,
            "bid": UINT,
            "plays": LIST,
        },
    ),
    "ClimbingDeal.apply": Entry({"action": "pass"}, {"action": ANY}, _climbing_deal),
    "ClimbingDeal.write_observation": Entry(
        {"seat": 0, "out": np.zeros(4096, dtype=np.float32)},
        {"seat": UINT, "out": Kind(ARRAY.bad, RuleOptionError)},
        _climbing_deal,
    ),
    "ClimbingDeal.hand": Entry(SEAT, SEAT_KINDS, _climbing_deal),
    "ClimbingDeal.hand_ranks": Entry(SEAT, SEAT_KINDS, _climbing_deal),
    "ClimbingDeal.played": Entry(SEAT, SEAT_KINDS, _climbing_deal),
    "ClimbingDeal.played_ranks": Entry(SEAT, SEAT_KINDS, _climbing_deal),
    "climbing_classify": Entry(
        {"game": "doudizhu", "cards": "33", "opening": False},
        {"game": STR, "cards": CARDS, "opening": BOOL},
    ),
    "climbing_leads": Entry(
        {"game": "doudizhu", "hand": "33", "opening": False},
        {"game": STR, "hand": CARDS, "opening": BOOL},
    ),
    "climbing_responses": Entry(
        {"game": "doudizhu", "hand": "44", "table": COMBO, "opening": False},
        {"game": STR, "hand": CARDS, "table": CARDS, "opening": BOOL},
    ),
    "climbing_beats": Entry(
        {"game": "doudizhu", "play": COMBO, "table": COMBO},
        {"game": STR, "play": OBJECT, "table": OBJECT},
    ),
    "doudizhu_play_id": Entry({"cards": "33"}, {"cards": CARDS}),
    "doudizhu_play_of_id": Entry({"id": 5}, {"id": INT}),
    "doudizhu_legal_ids_batch": Entry(BATCH, BATCH_KINDS),
    "doudizhu_plays_batch": Entry(BATCH, BATCH_KINDS),
    "zhengshangyou_play_id": Entry({"cards": "33"}, {"cards": CARDS}),
    "zhengshangyou_play_of_id": Entry({"id": 5}, {"id": INT}),
    "climbing_card_play_size": Entry({"game": "doudizhu"}, {"game": STR}),
    "doudizhu_landlord_playouts": Entry(
        {"hand": "BR22223333AAAKKKQ", "samples": 1, "seed": 0},
        {"hand": CARDS, "samples": UINT, "seed": UINT},
    ),
    "ActionTable": Entry({"actions": ACTIONS}, {"actions": Kind(("x", 5, None))}),
    "ActionTable.of": Entry({"cards": 5}, {"cards": UINT}, lambda: PLAY_TABLE),
    "bit_ids": Entry({"bits": 5, "offset": 0}, {"bits": UINT, "offset": UINT}),
    "bit_mask": Entry(
        {"bits": 5, "offset": 0, "size": 60}, {"bits": UINT, "offset": UINT, "size": UINT}
    ),
    "hearts_observation": Entry(
        {
            "out": np.zeros(595, dtype=np.float32),
            "seat": 0,
            "hand": SUIT_HANDS[0],
            "deal": None,
            "to_act": None,
            "direction": 0,
            "passed": 0,
            "received": 0,
            "scores": [0, 0, 0, 0],
            "target": 100,
        },
        {
            "out": ARRAY,
            "seat": UINT,
            "hand": UINT,
            "deal": OPT_OBJECT,
            "to_act": OPT_UINT,
            "direction": UINT,
            "passed": UINT,
            "received": UINT,
            "scores": Kind(("x", 5, None, ["x"] * 4, [2**70] * 4, [0])),
            "target": UINT,
        },
    ),
    "spades_observation": Entry(
        {
            "out": np.zeros(547, dtype=np.float32),
            "seat": 0,
            "hand": SUIT_HANDS[0],
            "deal": None,
            "to_act": None,
            "dealer": 0,
            "bids": [None, None, None, None],
            "scores": [0, 0],
            "bags": [0, 0],
            "target": 500,
        },
        {
            "out": ARRAY,
            "seat": UINT,
            "hand": UINT,
            "deal": OPT_OBJECT,
            "to_act": OPT_UINT,
            "dealer": UINT,
            "bids": Kind(("x", 5, None, ["x"] * 4, [-1] * 4, [None])),
            "scores": Kind(("x", 5, None, ["x"] * 2, [2**70] * 2, [0])),
            "bags": LIST,
            "target": UINT,
        },
    ),
    "bridge_observation": Entry(
        {
            "out": np.zeros(982, dtype=np.float32),
            "seat": 0,
            "hand": SUIT_HANDS[0],
            "deal": None,
            "to_act": 2,
            "calls": [0],
            "vulnerable": [False, True],
        },
        {
            "out": ARRAY,
            "seat": UINT,
            "hand": UINT,
            "deal": OPT_OBJECT,
            "to_act": OPT_UINT,
            "calls": LIST,
            "vulnerable": Kind(("x", 5, None, ["x", "y"], [1.5, 2.5], [True])),
        },
    ),
    "bridge_sample_deals": Entry(
        {
            "unseen": SUIT_HANDS[0] | SUIT_HANDS[1],
            "played": [0, 0],
            "voids": [0, 0],
            "hcp": [(0, 37), (0, 37)],
            "lengths": [[(0, 13)] * 4] * 2,
            "balanced": [False, False],
            "samples": 1,
            "seed": 0,
            "budget": 100,
        },
        {
            "unseen": UINT,
            "played": LIST,
            "voids": LIST,
            "hcp": LIST,
            "lengths": LIST,
            "balanced": LIST,
            "samples": UINT,
            "seed": UINT,
            "budget": UINT,
        },
    ),
    "bridge_score": Entry(
        {"level": 4, "strain": 3, "doubling": 0, "vulnerable": False, "tricks": 10},
        {"level": UINT, "strain": UINT, "doubling": UINT, "vulnerable": BOOL, "tricks": UINT},
    ),
    "TrickDeal.bridge": Entry(
        {
            "hands": SUIT_HANDS,
            "level": 4,
            "strain": 3,
            "doubling": 0,
            "declarer": 2,
            "actions": PLAY_TABLE,
        },
        {
            "hands": LIST,
            "level": UINT,
            "strain": UINT,
            "doubling": UINT,
            "declarer": UINT,
            "actions": OBJECT,
        },
    ),
    "TrickDeal.hearts": Entry(
        {"hands": SUIT_HANDS, "actions": PLAY_TABLE}, {"hands": LIST, "actions": OBJECT}
    ),
    "TrickDeal.spades": Entry(
        {
            "hands": SUIT_HANDS,
            "bids": [3, 3, 3, 3],
            "leader": 0,
            "actions": PLAY_TABLE,
            "two_of_clubs_leads": False,
        },
        {
            "hands": LIST,
            "bids": LIST,
            "leader": UINT,
            "actions": OBJECT,
            "two_of_clubs_leads": BOOL,
        },
    ),
    "TrickDeal.play": Entry(
        {"card": 0},
        {"card": Kind(("x", None, 1.5, [0]), IllegalActionError)},
        lambda: _core.TrickDeal.hearts(SUIT_HANDS, PLAY_TABLE),
    ),
    "TrickDeal.play_listed": Entry(
        {"action": "play 2c", "history": []},
        {"action": ANY, "history": Kind(("x", 5, None, (1,)))},
        lambda: _core.TrickDeal.hearts(SUIT_HANDS, PLAY_TABLE),
    ),
    "trick_winner": Entry(
        {"cards": ["2c", "3c"], "trump": None}, {"cards": CARDS, "trump": OPT_STR}
    ),
    "dd_table": Entry({"hands": SUIT_HANDS, "threads": 1}, {"hands": LIST, "threads": OPT_UINT}),
    "dd_tables": Entry({"deals": [SUIT_HANDS], "threads": 1}, {"deals": LIST, "threads": OPT_UINT}),
    "dd_solve": Entry(
        {"hands": SUIT_HANDS, "trump": 4, "leader": 0, "trick": []},
        {"hands": LIST, "trump": UINT, "leader": UINT, "trick": LIST},
    ),
    "dd_solve_many": Entry(
        {"hands": [SUIT_HANDS], "trumps": [4], "leaders": [0], "tricks": [[]], "threads": 1},
        {"hands": LIST, "trumps": LIST, "leaders": LIST, "tricks": LIST, "threads": OPT_UINT},
    ),
    "dd_par": Entry(
        {"tricks": [0] * 20, "vulnerable": 0, "dealer": 0},
        {"tricks": LIST, "vulnerable": UINT, "dealer": UINT},
    ),
    "hearts_search": Entry(
        {
            **SEARCH,
            "taken": [0, 0, 0, 0],
            "tricks_played": 0,
            "objective": "deal",
            "scores": [0, 0, 0, 0],
            "target": 100,
            "moon": True,
            "endgame_cards": 4,
            "endgame_nodes": 100,
            "policy": "counting",
            "avoid": [0, 0, 0, 0],
            "history": [],
            "reading": 0.5,
        },
        {
            **SEARCH_KINDS,
            "taken": LIST,
            "tricks_played": UINT,
            "objective": STR,
            "scores": LIST,
            "target": UINT,
            "moon": BOOL,
            "endgame_cards": UINT,
            "endgame_nodes": UINT,
            "policy": STR,
            "avoid": LIST,
            "history": LIST,
            "reading": FLOAT,
        },
    ),
    "hearts_pass_search": Entry(
        {
            "seat": 0,
            "hand": SUIT_HANDS[0],
            "passes": [0b1_0001_0001],
            "offset": 1,
            "worlds": 2,
            "seed": 0,
            "epsilon": 0.1,
            "objective": "deal",
            "scores": [0, 0, 0, 0],
            "target": 100,
            "policy": "counting",
        },
        {
            "seat": UINT,
            "hand": UINT,
            "passes": LIST,
            "offset": UINT,
            "worlds": UINT,
            "seed": UINT,
            "epsilon": FLOAT,
            "objective": STR,
            "scores": LIST,
            "target": UINT,
            "policy": STR,
        },
    ),
    "hearts_moon_card": Entry(
        {
            "seat": 0,
            "hand": SUIT_HANDS[0],
            "leader": 0,
            "trick": [],
            "taken": [0, 0, 0, 0],
            "broken": False,
            "tricks_played": 0,
        },
        {
            "seat": UINT,
            "hand": UINT,
            "leader": UINT,
            "trick": LIST,
            "taken": LIST,
            "broken": BOOL,
            "tricks_played": UINT,
        },
    ),
    "spades_search": Entry(
        {
            **SEARCH,
            "played": 0,
            "bids": [3, 3, 3, 3],
            "tricks": [0, 0, 0, 0],
            "bags": [0, 0],
            "endgame_cards": 4,
            "endgame_nodes": 100,
            "objective": "match",
            "scores": [-150, 420],
            "target": 500,
            "nil_play": True,
            "lose_at": -200,
        },
        {
            **SEARCH_KINDS,
            "played": UINT,
            "bids": LIST,
            "tricks": LIST,
            "bags": LIST,
            "endgame_cards": UINT,
            "endgame_nodes": UINT,
            "objective": STR,
            "scores": INT_LIST,
            "target": INT,
            "nil_play": BOOL,
            "lose_at": OPT_INT,
        },
    ),
    "spades_bid_playouts": Entry(
        {
            "seat": 0,
            "hand": SUIT_HANDS[0],
            "bids": [3, 3, 3, 3],
            "leader": 0,
            "worlds": 1,
            "seed": 0,
            "epsilon": 0.1,
        },
        {
            "seat": UINT,
            "hand": UINT,
            "bids": LIST,
            "leader": OPT_UINT,
            "worlds": UINT,
            "seed": UINT,
            "epsilon": FLOAT,
        },
    ),
    "BettingCore": Entry(
        {"stacks": [100, 100], "in_hand": [True, True], "min_bet": 2},
        {
            "stacks": CHIP_LIST,
            "in_hand": Kind(("x", 5, None, [1, 2]), RuleOptionError),
            "min_bet": CHIPS,
        },
    ),
    **{
        f"BettingCore.{method}": Entry(SEAT, {"seat": CHIPS}, _betting)
        for method in ("can_bet", "to_call", "raise_range", "can_raise")
    },
    **{
        f"BettingCore.{method}": Entry(
            {"seat": 0, "amount": 1}, {"seat": CHIPS, "amount": CHIPS}, _table
        )
        for method in ("post_blind", "post_ante")
    },
    "BettingCore.start_round": Entry({"first": 0}, {"first": CHIPS}, _betting),
    "BettingCore.next_round": Entry({"first": 0}, {"first": CHIPS}, _betting),
    "BettingCore.illegal_reason": Entry({"text": "check"}, {"text": STR}, _betting),
    "BettingCore.apply": Entry({"text": "check"}, {"text": STR}, _betting),
    "BettingCore.act": Entry(
        {"code": -2}, {"code": Kind(("x", None, 1.5, 2**70, True), IllegalActionError)}, _betting
    ),
    "BettingCore.listed": Entry(
        {"pot_fractions": [0.5]}, {"pot_fractions": Kind(("x", 5, None, ["x"]))}, _betting
    ),
    "BettingCore.award": Entry(
        {"strength": [1, 2], "first": 0}, {"strength": CHIP_LIST, "first": CHIPS}, _betting
    ),
    "BettingCore.write_observation": Entry(
        {
            "out": np.zeros(138, dtype=np.float32),
            "seat": 0,
            "total": 200,
            "holes": [(0, 1), (2, 3)],
            "board": [],
            "button": 0,
            "small_blind": 0,
            "big_blind": 1,
            "to_act": 0,
            "street_actions": [],
        },
        {
            "out": Kind(ARRAY.bad, RuleOptionError),
            "seat": UINT,
            "total": UINT,
            "holes": Kind(("x", 5, None, [(0,)], [(0, -1)], [5])),
            "board": LIST,
            "button": UINT,
            "small_blind": UINT,
            "big_blind": UINT,
            "to_act": OPT_UINT,
            "street_actions": Kind(("x", 5, None, [(0,)], [(0, -1)], [5])),
        },
        _betting,
    ),
    "guandan_leads": Entry({"hand": "3c4c", "level": "2"}, {"hand": CARDS, "level": LEVEL}),
    "guandan_responses": Entry(
        {"hand": "3c4c", "level": "2", "table": "3"},
        {"hand": CARDS, "level": LEVEL, "table": PLAY},
    ),
    "guandan_parse": Entry({"text": "3", "level": "2"}, {"text": PLAY, "level": LEVEL}),
    "guandan_parse_copies": Entry({"text": "3c3d", "level": "2"}, {"text": PLAY, "level": LEVEL}),
    "guandan_beats": Entry(
        {"play": "4", "table": "3", "level": "2"}, {"play": PLAY, "table": PLAY, "level": LEVEL}
    ),
    "guandan_take": Entry(
        {"hand": "3c4c", "level": "2", "play": "3"},
        {"hand": CARDS, "level": LEVEL, "play": PLAY},
    ),
    "guandan_strength": Entry({"card": "3c", "level": "2"}, {"card": CARDS, "level": LEVEL}),
    "guandan_play_id": Entry({"text": "3"}, {"text": ANY}),
    "guandan_play_of_id": Entry({"id": 1}, {"id": INT}),
    "guandan_lead_ids_batch": Entry(
        {"hands": ["3c4c"], "level": "2"},
        {"hands": Kind((5, None, 1.5, [5]), InvalidCardError, named=False), "level": LEVEL},
    ),
    "GuandanActions": Entry(
        {"make": Action, "pass_action": Action("pass")}, {"make": CALLABLE, "pass_action": ANY}
    ),
    "GuandanActions.action": Entry({"id": 0}, {"id": UINT}, _guandan_actions),
    "GuandanDeal": Entry(
        {
            "hands": GD_HANDS,
            "level": "2",
            "leader": 0,
            "double_win_ends": False,
            "actions": _guandan_actions(),
        },
        {
            "hands": HANDS4,
            "level": LEVEL,
            "leader": INT,
            "double_win_ends": BOOL,
            "actions": OPT_OBJECT,
        },
    ),
    "GuandanDeal.apply_action": Entry(
        {"action": "play 3"},
        {"action": ANY},
        lambda: _core.GuandanDeal(GD_HANDS, "2", 0, False, _guandan_actions()),
    ),
    "GuandanDeal.attach_log": Entry(
        {"history": [], "plays": [], "played": [[], [], [], []]},
        {
            "history": Kind(("x", 5, None, ())),
            "plays": Kind(("x", 5, None, ())),
            "played": Kind(("x", 5, None, [[], [], []], [[], [], [], ()])),
        },
        _guandan_deal,
    ),
    "GuandanDeal.apply_logged": Entry({"action": "play 3"}, {"action": ANY}, _guandan_logged),
    "GuandanDeal.resume": Entry(
        {
            "hands": GD_HANDS,
            "level": "2",
            "to_move": 1,
            "table": "3",
            "owner": 0,
            "passes": 0,
            "places": [],
            "double_win_ends": False,
        },
        {
            "hands": HANDS4,
            "level": LEVEL,
            "to_move": INT,
            "table": OPT_PLAY,
            "owner": INT,
            "passes": Kind(("7", 1.5, None, -1, 256, True, [1])),
            "places": Kind(("x", 5, None, 1.5, ["x"], [2**70])),
            "double_win_ends": BOOL,
        },
    ),
    "GuandanDeal.hand": Entry({"seat": 0}, {"seat": INT}, _guandan_deal),
    "GuandanDeal.apply": Entry({"action": "3"}, {"action": OPT_PLAY}, _guandan_deal),
    "GuandanDeal.apply_copies": Entry(
        {"play": "3", "cards": "3c"}, {"play": PLAY, "cards": CARDS}, _guandan_deal
    ),
    "GuandanDeal.apply_id": Entry({"id": _core.guandan_play_id("3")}, {"id": UINT}, _guandan_deal),
    "GuandanDeal.search_move": Entry(
        {"samples": 1, "seed": 0, "endgame_cards": 0, "endgame_nodes": 1},
        {"samples": UINT, "seed": UINT, "endgame_cards": UINT, "endgame_nodes": UINT},
        _guandan_deal,
    ),
    "GuandanDeal.rule_move": Entry({"jiefeng": True}, {"jiefeng": BOOL}, _guandan_deal),
    "GuandanDeal.random_playout": Entry({"seed": 0}, {"seed": UINT}, _guandan_deal),
    "GuandanDeal.write_observation": Entry(
        {"seat": 0, "out": np.zeros(535, dtype=np.float32)},
        {"seat": INT, "out": Kind((*ARRAY.bad, np.zeros(534, dtype=np.float32)), RuleOptionError)},
        _guandan_deal,
    ),
    "tractor_shape": Entry(
        {"cards": "3c", "level": "2", "trump": "s"},
        {"cards": CARDS, "level": LEVEL, "trump": TRUMP},
    ),
    "tractor_follow_cards": Entry(
        {"hand": "3c4c", "lead": "5c", "chosen": "", "level": "2", "trump": "s"},
        {"hand": CARDS, "lead": CARDS, "chosen": CARDS, "level": LEVEL, "trump": TRUMP},
    ),
    "tractor_is_legal_follow": Entry(
        {"hand": "3c4c", "lead": "5c", "follow": "3c", "level": "2", "trump": "s"},
        {"hand": CARDS, "lead": CARDS, "follow": CARDS, "level": LEVEL, "trump": TRUMP},
    ),
    "tractor_trick_winner": Entry(
        {"plays": ["5c", "3c"], "level": "2", "trump": "s"},
        {
            "plays": Kind((5, None, 1.5)),
            "level": LEVEL,
            "trump": TRUMP,
        },
    ),
    "tractor_action_text": Entry(
        {"id": 0, "level": "2", "trump": "s"}, {"id": UINT, "level": LEVEL, "trump": TRUMP}
    ),
    "tractor_lead_id": Entry(
        {"cards": "3c", "level": "2", "trump": "s"},
        {"cards": CARDS, "level": LEVEL, "trump": TRUMP},
    ),
    "TractorDeal": Entry(
        {"hands": TR_HANDS, "level": "2", "trump": "s", "leader": 0},
        {"hands": HANDS4, "level": LEVEL, "trump": TRUMP, "leader": INT},
    ),
    "TractorDeal.hand": Entry({"seat": 0}, {"seat": INT}, _tractor_deal),
    "TractorDeal.played": Entry({"seat": 0}, {"seat": INT}, _tractor_deal),
    "TractorDeal.apply_id": Entry(
        {"id": _core.tractor_lead_id("3c", "2", "s")}, {"id": UINT}, _tractor_deal
    ),
    "TractorDeal.action_text": Entry({"id": 0}, {"id": UINT}, _tractor_deal),
    "TractorDeal.lead_id": Entry({"cards": "3c"}, {"cards": CARDS}, _tractor_deal),
    "TractorDeal.attacker_points": Entry(
        {"dealer": 0, "kitty": "5c"}, {"dealer": INT, "kitty": CARDS}, _tractor_deal
    ),
    "TractorDeal.random_playout": Entry({"seed": 0}, {"seed": UINT}, _tractor_deal),
    "TractorDeal.heuristic_playout": Entry({"seed": 0}, {"seed": UINT}, _tractor_deal),
    "TractorDeal.action_points": Entry(
        {
            "ids": [_core.tractor_lead_id("3c", "2", "s")],
            "seeds": [0],
            "dealer": 0,
            "kitty": "5c",
            "endgame_cards": 0,
            "endgame_nodes": 1,
        },
        {
            "ids": LIST,
            "seeds": LIST,
            "dealer": INT,
            "kitty": CARDS,
            "endgame_cards": UINT,
            "endgame_nodes": UINT,
        },
        _tractor_deal,
    ),
    "TractorDeal.write_observation": Entry(
        {"seat": 0, "out": np.zeros(TR_OBS, dtype=np.float32), "playing": True},
        {
            "seat": INT,
            "out": Kind((*ARRAY.bad, np.zeros(TR_OBS - 1, dtype=np.float32)), RuleOptionError),
            "playing": BOOL,
        },
        _tractor_deal,
    ),
    "TractorRound": Entry(
        {
            "order": _core.deck("double108"),
            "levels": ["2", "2"],
            "first_speaker": 0,
            "dealer": None,
            "actions": _core.TractorActions(Action),
        },
        {
            "order": CARDS,
            "levels": Kind(("x", 5, None, ["2"], ["2", 5], ["2", "2", "2"])),
            "first_speaker": UINT,
            "dealer": OPT_UINT,
            "actions": OPT_OBJECT,
        },
    ),
    "TractorActions": Entry({"make": Action}, {"make": CALLABLE}),
    "TractorRound.apply_action": Entry(
        {"action": "pass", "history": []},
        {"action": ANY, "history": Kind(("x", 5, None, (1,)))},
        _tractor_listing_round,
    ),
    "tractor_declare_values": Entry(
        {
            "seat": 0,
            "hand": _core.deck("double108")[:25],
            "team_levels": ["2", "2"],
            "dealer": None,
            "first_speaker": 0,
            "declarations": [],
            "candidates": [0],
            "worlds": 1,
            "seed": 0,
        },
        {
            "seat": UINT,
            "hand": CARDS,
            "team_levels": Kind(("x", 5, None, ["2"], ["2", 5], ["2", "2", "2"])),
            "dealer": OPT_UINT,
            "first_speaker": UINT,
            "declarations": LIST,
            "candidates": LIST,
            "worlds": UINT,
            "seed": UINT,
        },
    ),
    "tractor_rule_declare": Entry(
        {"hand": _core.deck("double108")[:25], "level": "2", "legal": [0, 1]},
        {"hand": CARDS, "level": LEVEL, "legal": LIST},
    ),
    "tractor_rule_burial": Entry(
        {"hand": _core.deck("double108")[:33], "level": "2", "trump": "s"},
        {"hand": CARDS, "level": LEVEL, "trump": TRUMP},
    ),
    "TractorRound.hand": Entry({"seat": 0}, {"seat": INT}, _tractor_round),
    "TractorRound.played": Entry({"seat": 0}, {"seat": INT}, _tractor_round),
    "TractorRound.apply_id": Entry({"id": 0}, {"id": UINT}, _tractor_round),
    "TractorRound.apply_ids": Entry({"ids": [0]}, {"ids": LIST}, _tractor_round),
    "TractorRound.why_illegal": Entry({"ids": [0]}, {"ids": LIST}, _tractor_round),
    "TractorRound.write_observation": Entry(
        {"seat": 0, "out": np.zeros(TR_OBS, dtype=np.float32)},
        {
            "seat": INT,
            "out": Kind((*ARRAY.bad, np.zeros(TR_OBS - 1, dtype=np.float32)), RuleOptionError),
        },
        _tractor_round,
    ),
    "tractor_level_change": Entry({"points": 80}, {"points": UINT}),
    "tractor_card_points": Entry({"cards": "5cTc"}, {"cards": CARDS}),
    "VectorEnv.hearts": Entry(
        {**VECTOR, "passing": True, "target": 100},
        {**VECTOR_KINDS, "passing": BOOL, "target": UINT},
    ),
    "VectorEnv.spades": Entry(
        {**VECTOR, "dealer": 0, "two_of_clubs_leads": False, "target": 500},
        {**VECTOR_KINDS, "dealer": UINT, "two_of_clubs_leads": BOOL, "target": UINT},
    ),
    "VectorEnv.bridge": Entry(
        {**VECTOR, "vulnerable": [True, False]},
        {**VECTOR_KINDS, "vulnerable": Kind(("x", 5, None, ["x", "y"], [1.5, 2.5], [True]))},
    ),
    "VectorEnv.doudizhu": Entry(
        {**VECTOR, "single_round": False}, {**VECTOR_KINDS, "single_round": BOOL}
    ),
    "VectorEnv.zhengshangyou": Entry(VECTOR, VECTOR_KINDS),
    "VectorEnv.guandan": Entry(
        {**VECTOR, "level": "2", "double_win_ends": False},
        {**VECTOR_KINDS, "level": LEVEL, "double_win_ends": BOOL},
    ),
    "VectorEnv.tractor": Entry(
        {**VECTOR, "level": "2", "first_speaker": 0},
        {**VECTOR_KINDS, "level": LEVEL, "first_speaker": UINT},
    ),
    "VectorEnv.holdem": Entry(
        {**VECTOR, "stacks": [100, 100], "blinds": (1, 2), "button": 0},
        {
            **VECTOR_KINDS,
            "stacks": LIST,
            "blinds": Kind(("x", 5, None, (1,), (1, -1), (1, "x"))),
            "button": UINT,
        },
    ),
    "VectorEnv.reset": Entry({"seed": None}, {"seed": OPT_UINT}, _vector_env),
    "VectorEnv.step": Entry(
        {"actions": _vector_env().legal_ids()[0][:1]},
        {"actions": Kind(("x", None, [0], np.zeros(1, dtype=np.float64)), IllegalActionError)},
        _vector_env,
    ),
    "AecCore.hearts": Entry({"passing": True, "target": 100}, {"passing": BOOL, "target": UINT}),
    "AecCore.spades": Entry(
        {"dealer": 0, "two_of_clubs_leads": False, "target": 500},
        {"dealer": UINT, "two_of_clubs_leads": BOOL, "target": UINT},
    ),
    "AecCore.bridge": Entry(
        {"vulnerable": [True, False]},
        {"vulnerable": Kind(("x", 5, None, ["x", "y"], [1.5, 2.5], [True]))},
    ),
    "AecCore.doudizhu": Entry({"single_round": False}, {"single_round": BOOL}),
    "AecCore.guandan": Entry(
        {"level": "2", "double_win_ends": False}, {"level": LEVEL, "double_win_ends": BOOL}
    ),
    "AecCore.tractor": Entry(
        {"level": "2", "first_speaker": 0}, {"level": LEVEL, "first_speaker": UINT}
    ),
    "AecCore.holdem": Entry(
        {"stacks": [100, 100], "blinds": (1, 2), "button": 0},
        {
            "stacks": LIST,
            "blinds": Kind(("x", 5, None, (1,), (1, -1), (1, "x"))),
            "button": UINT,
        },
    ),
    "AecCore.attach": Entry(
        {"env": _AEC_ENV, "agents": _AEC_ENV.agents, "copy_observations": False},
        {
            "env": Kind((5, None, "x")),
            "agents": Kind(("x", 5, None, [5, 6, 7, 8])),
            "copy_observations": BOOL,
        },
        _aec_core_attached,
    ),
    "AecCore.reset": Entry(
        {"seed": 0, **_AEC_ENV.dicts()},
        {
            "seed": UINT,
            "infos": DICT,
            "cumulative_rewards": DICT,
            "terminations": DICT,
            "truncations": DICT,
        },
        _aec_core_attached,
    ),
    "AecCore.last": Entry({"observe": True}, {"observe": BOOL}, _aec_core),
    # Any object: an id the episode does not list is refused by the answer -2.
    "AecCore.step": Entry({"action": 0}, {"action": ANY}, _aec_core),
    "AecCore.observe": Entry({"seat": 0}, {"seat": UINT}, _aec_core),
    "AecCore.played": Entry({"start": 0}, {"start": UINT}, _aec_core),
}


def _runtime(dotted: str) -> Any:
    obj: Any = _core
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _parameters(dotted: str) -> list[str]:
    """The parameter names of a public callable (``self`` left out)."""
    signature = inspect.signature(_runtime(dotted))
    return [name for name in signature.parameters if name != "self"]


def _public_callables() -> Iterator[str]:
    """Every public function, constructor, method and static method of ``_core``."""
    for name in _core.__all__:
        if name.startswith("_"):
            continue
        obj = getattr(_core, name)
        yield name
        if isinstance(obj, type):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and (
                    callable(member) or isinstance(member, staticmethod | classmethod)
                ):
                    yield f"{name}.{attr}"


def test_the_table_covers_every_public_callable() -> None:
    taking_arguments = {name for name in _public_callables() if _parameters(name)}
    missing = taking_arguments - TABLE.keys()
    assert not missing, f"add these to TABLE: {sorted(missing)}"
    assert not TABLE.keys() - taking_arguments, "TABLE names no such callable"
    for name, entry in TABLE.items():
        parameters = _parameters(name)
        assert sorted(entry.args) == sorted(parameters), name
        assert entry.kinds.keys() == entry.args.keys(), name


def _target(name: str, entry: Entry) -> Callable[..., object]:
    if entry.make is None:
        return cast("Callable[..., object]", _runtime(name))
    return cast("Callable[..., object]", getattr(entry.make(), name.rsplit(".", 1)[1]))


@pytest.mark.parametrize("name", sorted(TABLE))
def test_the_valid_arguments_are_accepted(name: str) -> None:
    # So each case below fails because of the one argument it spoils.
    entry = TABLE[name]
    _target(name, entry)(**entry.args)


def _cases() -> Iterator[Any]:
    for name, entry in sorted(TABLE.items()):
        for parameter, kind in entry.kinds.items():
            for bad in kind.bad:
                yield pytest.param(name, parameter, bad, id=f"{name}-{parameter}-{bad!r:.20}")


@pytest.mark.parametrize(("name", "parameter", "bad"), list(_cases()))
def test_a_bad_argument_raises_a_typed_error_naming_it(
    name: str, parameter: str, bad: object
) -> None:
    entry = TABLE[name]
    kind = entry.kinds[parameter]
    with pytest.raises(CardkitError) as info:
        _target(name, entry)(**{**entry.args, parameter: bad})
    assert isinstance(info.value, kind.error), (type(info.value), info.value)
    if kind.named:
        assert parameter.replace("_", " ") in str(info.value).replace("_", " "), info.value


def test_invalid_argument_error_is_a_rule_option_error_and_a_type_error() -> None:
    with pytest.raises(InvalidArgumentError) as info:
        _core.derive_seed(-1, 0)
    error = info.value
    assert isinstance(error, RuleOptionError) and isinstance(error, TypeError)
    assert error.argument == "seed"
    assert str(error) == "seed must be an int in 0..2**64-1, got -1"
    assert not getattr(error, "__notes__", [])


def test_other_notes_stay_notes() -> None:
    error = InvalidArgumentError("must be a str, got 5")
    error.add_note("context")
    assert str(error) == "must be a str, got 5" and error.__notes__ == ["context"]
    assert error.argument is None


def test_numpy_ints_are_accepted() -> None:
    # Python layers may pass numpy scalars straight through (the stubs say int).
    numpy: Any = np
    assert _core.derive_seed(numpy.uint64(7), numpy.int64(0)) == _core.derive_seed(7, 0)
    assert _core.bit_ids(numpy.int64(5), numpy.uint8(1)) == [1, 3]
    rules = _core.ChinesePokerRules(automatic_win_points=numpy.int32(4))
    assert rules.automatic_win_points == 4


def test_an_int_past_int64_is_no_card_of_the_pack() -> None:
    # It named the int as "not an int" before.
    deal = _core.TrickDeal.hearts(SUIT_HANDS, PLAY_TABLE)
    assert deal.play(2**70) is None and deal.play(-(2**70)) is None
