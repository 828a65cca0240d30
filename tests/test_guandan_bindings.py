"""Guandan bindings: the shared action table of the card play and card errors that
name the argument holding the bad card."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable
from typing import Any

import pytest

import cardkit
from cardkit import Card, IllegalActionError, InvalidCardError, RuleOptionError, games
from cardkit._core import (
    GuandanActions,
    GuandanDeal,
    guandan_lead_ids_batch,
    guandan_leads,
    guandan_play_id,
    guandan_responses,
    guandan_strength,
    guandan_take,
)
from cardkit.agents.guandan import GuandanRuleAgent
from cardkit.api import Action

HANDS = [["3c", "3d", "9s"], ["4c", "5c"], ["6c", "7c"], ["8c", "Tc"]]


def _table() -> GuandanActions:
    return GuandanActions(lambda text: Action("play " + text), Action("pass"))


def test_listed_actions_are_shared_across_deals_and_turns() -> None:
    table = _table()
    one = GuandanDeal(HANDS, "2", 0, False, table)
    two = GuandanDeal(HANDS, "2", 0, False, table)
    listed = one.legal_actions()
    assert listed == ["play 3", "play 9", "play 33"]
    assert [guandan_play_id(a[5:]) for a in listed] == one.legal_ids()
    assert all(a is b for a, b in zip(listed, two.legal_actions(), strict=True))
    assert table.action(0) == "pass"
    assert table.action(one.legal_ids()[0]) is listed[0]
    assert len(table) == 3


def test_apply_action_by_object_or_exact_text() -> None:
    deal = GuandanDeal(HANDS, "2", 0, False, _table())
    listed = deal.legal_actions()
    moved = deal.apply_action(listed[2])
    assert moved is not None
    action, seat, cards, kind, main_rank, jiefeng = moved
    assert action is listed[2]
    assert (seat, sorted(map(str, cards)), kind, main_rank, jiefeng) == (
        0,
        ["3c", "3d"],
        "pair",
        "3",
        None,
    )
    # Text is applied only when it is a listed move's exact text; the rest is the
    # caller's to parse, and nothing changes.
    for unlisted in ("play 44", "play  pass", "44", "pass ", 5, None):
        assert deal.apply_action(unlisted) is None
    assert deal.to_move == 1
    moved = deal.apply_action("pass")
    assert moved is not None and moved[0] == "pass" and moved[3] is None


def test_apply_action_reports_jiefeng() -> None:
    # Seat 0 goes out with its last card; when the others pass, its partner leads.
    deal = GuandanDeal([["Ac"], ["3c", "4c"], ["5c", "6c"], ["7c", "8c"]], "2", 0, False, _table())
    assert deal.apply_action("play A") is not None
    assert deal.apply_action("pass") is not None
    assert deal.apply_action("pass") is not None
    last = deal.apply_action("pass")
    assert last is not None and last[5] == (2, 0)
    assert deal.to_move == 2


def test_a_deal_without_a_table_lists_no_actions() -> None:
    deal = GuandanDeal(HANDS, "2", 0)
    with pytest.raises(RuleOptionError, match="action table"):
        deal.legal_actions()
    assert deal.legal_ids() == [guandan_play_id(t) for t in ("3", "9", "33")]


def test_copy_and_listing_stay_apart() -> None:
    deal = GuandanDeal(HANDS, "2", 0, False, _table())
    listed = deal.legal_actions()
    twin = deal.copy()
    assert deal.apply_action(listed[0]) is not None
    assert twin.legal_actions() == listed
    assert twin.to_move == 0


def test_state_api_hands_out_the_listed_objects() -> None:
    state = games.make("guandan", match=False).new_state(seed=3)
    legal = state.legal_actions()
    choice = legal[-1]
    state.apply(choice)
    assert state.history[-1] is choice
    # The canonical text of a play at another level still parses (W=4 at level 4).
    game = games.make("guandan")
    assert game.parse_action("play W=4") == Action("play W=4")


@pytest.mark.parametrize(
    ("call", "argument", "quoted"),
    [
        (lambda: guandan_leads("3c4x", "2"), "hand", '"4x"'),
        (lambda: guandan_responses(["3c", "Zz"], "2", "3"), "hand", '"Zz"'),
        (lambda: guandan_take("3c3x", "2", "33"), "hand", '"3x"'),
        (lambda: guandan_strength("Qx", "2"), "card", '"Qx"'),
        (lambda: guandan_lead_ids_batch(["3c", "3c9y"], "2"), "hands", '"9y"'),
        (lambda: GuandanDeal([["3c"], ["4c"], ["5x"], ["6c"]], "2", 0), "hands", '"5x"'),
        (
            lambda: GuandanDeal.resume([["3c"], ["4c"], ["5c"], ["6q"]], "2", 0, None, 0, 0, []),
            "hands",
            '"6q"',
        ),
        (lambda: GuandanDeal(HANDS, "2", 0).apply_copies("33", "3c3z"), "cards", '"3z"'),
    ],
)
def test_card_errors_name_the_argument(
    call: Callable[[], object], argument: str, quoted: str
) -> None:
    with pytest.raises(InvalidCardError) as info:
        call()
    assert info.value.argument == argument
    assert str(info.value).startswith(f"{argument}: ")
    assert quoted in str(info.value)


def test_a_card_held_too_often_names_the_argument() -> None:
    with pytest.raises(InvalidCardError) as info:
        guandan_leads(["3c", "3c", "3c"], "2")
    assert info.value.argument == "hand"


def test_bad_cards_leave_the_deal_untouched() -> None:
    deal = GuandanDeal(HANDS, "2", 0, False, _table())
    before = deal.legal_ids()
    with pytest.raises(InvalidCardError):
        deal.apply_copies("33", "3c3z")
    with pytest.raises(IllegalActionError):
        deal.apply_copies("33", "3c3h")
    assert deal.legal_ids() == before
    assert deal.hand(0) == [Card("3c"), Card("3d"), Card("9s")]


@pytest.mark.rule("GD-29")
def test_rule_policy_leads_its_partner_out_for_jiefeng() -> None:
    # The partner (seat 2) holds one card: a low single lets it go out and the lead
    # come back; without the awareness the plan leads its lowest group, the pair.
    hands = [["3c", "3d", "9s"], ["4c", "6d", "8h", "Tc", "Qs"], ["Ac"], ["5d", "7s", "9h", "Jc"]]
    deal = GuandanDeal(hands, "2", 0)
    aware, plain = deal.rule_move(), deal.rule_move(jiefeng=False)
    assert aware is not None and aware.text == "3"
    assert plain is not None and plain.text == "33"
    assert GuandanRuleAgent(jiefeng=False).jiefeng is False
    with pytest.raises(RuleOptionError):
        GuandanRuleAgent(jiefeng="yes")  # type: ignore[arg-type]


def _logged(deal: GuandanDeal) -> tuple[list[Any], list[tuple[Any, ...]], list[list[Card]]]:
    log: tuple[list[Any], list[tuple[Any, ...]], list[list[Card]]] = ([], [], [[], [], [], []])
    deal.attach_log(*log)
    return log


def test_apply_logged_keeps_the_move_log() -> None:
    hands = [["3c", "3d", "Ac"], ["4c", "4d", "5c"], ["6c", "7c"], ["8c", "9c"]]
    deal = GuandanDeal(hands, "2", 0, False, _table())
    history, plays, played = _logged(deal)
    # Named copies of a listed pair: logged as their canonical text, with the
    # pair's type and rank. Other texts are the caller's to parse; nothing changes.
    for other in ("play 3d3c", "play 3c3h", "play 33 ", 5, None):
        assert deal.apply_logged(other) is None
    assert history == plays == [] and deal.card_counts == [3, 3, 2, 2]
    assert deal.apply_logged("play 3c3d") is False
    assert history == [Action("play 3c3d")]
    assert plays == [(0, "play", "pair", "3", [Card("3c"), Card("3d")])]
    assert played == [[Card("3c"), Card("3d")], [], [], []]
    # A listed action is logged as itself.
    answer = deal.legal_actions()[1]
    assert answer == "play 44" and deal.apply_logged(answer) is False
    assert history[-1] is answer and plays[-1] == (1, "play", "pair", "4", played[1])
    assert sorted(played[1]) == [Card("4c"), Card("4d")]  # the copies take picks
    for _ in range(3):
        assert deal.apply_logged("pass") is False and deal.jiefeng is None
    assert plays[2:] == [(2, "pass"), (3, "pass"), (0, "pass")] and len(history) == 5
    assert deal.to_move == 1 and deal.table is None


def test_apply_logged_reports_jiefeng_and_the_end() -> None:
    deal = GuandanDeal([["Ac"], ["3c", "4c"], ["5c", "6c"], ["7c", "8c"]], "2", 0, False, _table())
    history, plays, _ = _logged(deal)
    for action in ("play A", "pass", "pass"):
        assert deal.apply_logged(action) is False
        assert deal.jiefeng is None
    assert deal.apply_logged("pass") is False
    assert deal.jiefeng == (2, 0) and deal.to_move == 2
    assert [entry[:2] for entry in plays[1:]] == [(1, "pass"), (2, "pass"), (3, "pass")]
    assert deal.apply_logged("play 5") is False and deal.jiefeng is None
    assert len(history) == 5


class _Sentinel:
    """A weakly referable object, to see whether the collector freed a cycle."""


def test_a_log_that_holds_its_deal_is_collected() -> None:
    # The deal reports what it holds to the cycle collector, so a log list holding
    # the deal itself (a caller's own log, say) is freed with it, not leaked.
    deal = GuandanDeal(HANDS, "2", 0, False, _table())
    history, plays, played = _logged(deal)
    deal.legal_actions()
    held = gc.get_referents(deal)
    assert all(any(x is y for y in held) for x in (history, plays, *played))
    assert any(x is deal.legal_actions()[0] for x in held)
    sentinel = _Sentinel()
    alive = weakref.ref(sentinel)
    history.extend([deal, sentinel])
    del deal, history, plays, played, held, sentinel
    gc.collect()
    assert alive() is None


def test_apply_logged_needs_a_log_and_copies_keep_none() -> None:
    deal = GuandanDeal(HANDS, "2", 0, False, _table())
    with pytest.raises(RuleOptionError, match="log"):
        deal.apply_logged("play 3")
    assert deal.to_move == 0 and deal.card_counts == [3, 2, 2, 2]
    history, _, _ = _logged(deal)
    twin = deal.copy()
    with pytest.raises(RuleOptionError, match="log"):
        twin.apply_logged("play 3")
    assert deal.apply_logged("play 3") is False and len(history) == 1
    twin_history, _, _ = _logged(twin)
    assert twin.apply_logged("play 9") is False
    assert history == ["play 3"] and twin_history == ["play 9"]


@pytest.mark.parametrize("seed", range(6))
def test_apply_logged_logs_what_apply_action_reports(seed: int) -> None:
    # The log apply_logged keeps is the one a caller of apply_action would build from
    # its reports, move for move, with the same jiefeng and the same end.
    cards = list(cardkit.shuffled_deck("double108", seed))
    hands = [cards[27 * s : 27 * (s + 1)] for s in range(4)]
    table = _table()
    reported = GuandanDeal(hands, "5", seed % 4, bool(seed % 2), table)
    logged = GuandanDeal(hands, "5", seed % 4, bool(seed % 2), table)
    history, plays, played = _logged(logged)
    expected: list[tuple[Any, ...]] = []
    expected_played: list[list[Card]] = [[], [], [], []]
    rng = random.Random(seed)
    while not reported.over:
        legal = reported.legal_actions()
        choice = legal[rng.randrange(len(legal))]
        moved = reported.apply_action(choice)
        assert moved is not None
        action, seat, taken, kind, main_rank, jiefeng = moved
        if kind is None:
            expected.append((seat, "pass"))
        else:
            expected.append((seat, "play", kind, main_rank, taken))
            expected_played[seat].extend(taken)
        assert logged.apply_logged(choice) is reported.over
        assert history[-1] is action and plays == expected and played == expected_played
        assert logged.jiefeng == reported.jiefeng == jiefeng
    assert logged.places == reported.places
