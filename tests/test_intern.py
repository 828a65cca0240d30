"""The one bounded action cache (``cardkit.games._intern``) and every site using it."""

from __future__ import annotations

import pytest

from cardkit._core import ClimbingActions, ClimbingDeal
from cardkit.api import Action
from cardkit.errors import IllegalActionError
from cardkit.games import _betting, _climbing, hearts
from cardkit.games._intern import MAX_INTERNED, Interner


def test_interner_shares_values_and_stops_adding_when_full() -> None:
    made: list[str] = []

    def build(key: str) -> Action:
        made.append(key)
        return Action(key)

    table = Interner(build, {"pass": Action("pass")}, limit=3)
    assert len(table) == 1
    first = table("bet 1")
    assert table("bet 1") is first and table.get("bet 1") is first
    table("bet 2")
    assert len(table) == 3
    # Full: a new key's value is still built and right, but not kept.
    late = table("bet 3")
    assert late == "bet 3" and table.get("bet 3") is None
    assert table("bet 3") is not late and len(table) == 3
    assert made == ["bet 1", "bet 2", "bet 3", "bet 3"]
    assert table.get("bet 1") is first  # what was kept stays shared


def test_interner_keeps_nothing_when_make_fails() -> None:
    def refuse(key: str) -> Action:
        raise IllegalActionError(f"no action {key}")

    table: Interner[str, Action] = Interner(refuse)
    with pytest.raises(IllegalActionError, match="no action x"):
        table("x")
    assert len(table) == 0 and table.get("x") is None


def test_every_action_cache_is_a_bounded_interner() -> None:
    caches = [
        _betting._ACTIONS,
        _betting._CODE_ACTIONS,
        _betting._LISTINGS,
        hearts._PARSED,
        hearts._PASS_ACTIONS,
        _climbing._KNOWN,
    ]
    for cache in caches:
        assert isinstance(cache, Interner) and cache.limit == MAX_INTERNED


def test_climbing_actions_keep_at_most_their_limit() -> None:
    def build(ranks: str) -> Action:
        return Action("play " + ranks)

    pass_action = Action("pass")
    hands = [["3h", "5h", "7h", "9h", "Jh"], ["8s", "Ts"], ["Qs", "Ks"]]
    for limit, shared in ((2, 2), (MAX_INTERNED, 5)):
        actions = ClimbingActions(build, pass_action, limit)
        first = ClimbingDeal("doudizhu", hands, 0, actions).legal_actions()
        # Five singles (no straight, no pair): every one listed, at most limit kept.
        assert sorted(first) == ["play 3", "play 5", "play 7", "play 9", "play J"]
        assert len(actions) == shared
        again = ClimbingDeal("doudizhu", hands, 0, actions).legal_actions()
        assert again == first
        assert sum(a is b for a, b in zip(again, first, strict=True)) == shared
