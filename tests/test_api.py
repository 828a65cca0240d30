"""The common game API, registry, agents and CLI (issue 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cardkit
from cardkit import IllegalActionError, RuleOptionError, games
from cardkit.agents import RandomAgent
from cardkit.api import Action
from cardkit.cli import main
from cardkit.play import CHECK_EVERY


def test_action_value_semantics() -> None:
    a = Action("  play   Qs ")
    assert str(a) == "play Qs" and a.kind == "play" and a.args == ("Qs",)
    assert a == "play Qs" and a == Action("play Qs") and hash(a) == hash("play Qs")
    assert a in ["play Qs"] and "play Qs" in [a]
    assert sorted([Action("b"), Action("a")]) == [Action("a"), Action("b")]


def test_registry() -> None:
    names = games.available()
    assert names == sorted(names)
    with pytest.raises(RuleOptionError, match="unknown game"):
        games.make("no-such-game")
    with pytest.raises(RuleOptionError):
        games.make("doudizhu", bidding="auction")
    with pytest.raises(RuleOptionError):
        games.make("doudizhu", bidding=3)
    assert games.make("doudizhu", bidding="single_round").options == {"bidding": "single_round"}


def test_fixed_deal_puts_cards_on_top() -> None:
    # Dou Dizhu deals in blocks: seat 0 takes the first 17 cards of the deck order.
    game = games.make("doudizhu")
    top = cardkit.parse_cards("RJ BJ 2s 2h 2d 2c As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Jc")
    state = game.new_state(seed=1, deal=top)
    assert sorted(state.private_cards(0)) == sorted(top[:17])
    assert top[17] in state.private_cards(1)
    partial = game.new_state(seed=1, deal=["As"])
    assert "As" in map(str, partial.private_cards(0))
    assert json.loads(partial.to_json())["deal"] == ["As"]
    with pytest.raises(RuleOptionError, match="lacks"):
        game.new_state(seed=1, deal="As As")
    with pytest.raises(cardkit.InvalidCardError):
        game.new_state(seed=1, deal="Ax")


def test_play_and_replay() -> None:
    game = games.make("doudizhu")
    agents = [RandomAgent(1), RandomAgent(2), RandomAgent(3)]
    state = cardkit.play(game, agents, seed=11)
    assert state.is_terminal and state.current_player is None
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("pass")
    with pytest.raises(RuleOptionError):
        cardkit.play(game, agents[:1], seed=1)


class _Stop(Exception):
    """Raised by a ``check`` to end a game."""


class _Counting:
    """A random agent that counts the moves of every seat."""

    moves = 0

    def __init__(self, seed: int) -> None:
        self.agent = RandomAgent(seed)

    def act(self, observation: object, legal: list[Action]) -> Action:
        _Counting.moves += 1
        return self.agent.act(observation, legal)


def test_play_check_runs_every_check_every_moves_and_its_exception_ends_the_game() -> None:
    _Counting.moves = 0
    calls: list[int] = []

    def check() -> None:
        calls.append(_Counting.moves)
        if len(calls) == 3:
            raise _Stop

    # random players bid so that a Spades match rarely ends: thousands of moves
    with pytest.raises(_Stop):
        cardkit.play(games.make("spades"), [_Counting(s) for s in range(4)], seed=4, check=check)
    assert calls == [CHECK_EVERY, 2 * CHECK_EVERY, 3 * CHECK_EVERY]
    assert _Counting.moves == 3 * CHECK_EVERY


def test_play_check_that_passes_changes_nothing() -> None:
    game = games.make("hearts")
    calls: list[None] = []
    checked = cardkit.play(
        game, [RandomAgent(s) for s in range(4)], seed=4, check=lambda: calls.append(None)
    )
    plain = cardkit.play(game, [RandomAgent(s) for s in range(4)], seed=4)
    assert calls and checked.history == plain.history and checked.returns() == plain.returns()
    with pytest.raises(RuleOptionError, match="check must be a callable"):
        cardkit.play(game, [RandomAgent(s) for s in range(4)], seed=4, check=3)  # type: ignore[arg-type]


def test_illegal_action_carries_reason() -> None:
    state = games.make("doudizhu").new_state(seed=3)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply("bid 4")
    assert info.value.reason and str(info.value) == info.value.reason
    assert state.to_json() == before


def test_random_agent_is_seeded() -> None:
    legal = [Action(f"play {c}") for c in ("As", "Kd", "Qh", "Jc")]
    picks = [RandomAgent(9).act({}, legal) for _ in range(3)]
    assert len(set(picks)) == 1
    with pytest.raises(IllegalActionError):
        RandomAgent(1).act({}, [])


def test_cli_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "french54", "--players", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "french54, seed 7, 3 players"
    hands = [line.split(": ")[1].split() for line in out[1:4]]
    assert [len(h) for h in hands] == [18, 18, 18]
    assert main(["deal", "standard52", "--players", "4", "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(len(h) for h in data["hands"]) == 52
    assert main(["deal", "standard52", "--players", "5", "--cards", "20"]) == 2


def test_cli_version_and_console_script() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cardkit.cli", "--version"], capture_output=True, text=True
    )
    assert out.stdout.strip() == f"cardkit {cardkit.__version__}"


def test_simulation_is_reproducible_and_worker_independent() -> None:
    from cardkit.sim import simulate

    one = simulate("doudizhu", 40, seed=3, workers=1)
    two = simulate("doudizhu", 40, seed=3, workers=2)
    assert one.returns == two.returns
    assert one.mean_returns == two.mean_returns
    assert len(one.returns) == 40
    assert abs(sum(one.mean_returns)) < 1e-9
    assert "games/s" in one.table()
    with pytest.raises(RuleOptionError):
        simulate("doudizhu", 0)
    with pytest.raises(RuleOptionError):
        simulate("doudizhu", 5, agents=[RandomAgent])


def test_simulation_refuses_factories_workers_cannot_rebuild() -> None:
    from cardkit.sim import simulate

    local = [lambda seed: RandomAgent(seed)] * 3
    with pytest.raises(RuleOptionError, match="seat 0's agent factory"):
        simulate("doudizhu", 8, workers=2, agents=local)
    # one process needs no pickling, so the same factories run there
    assert simulate("doudizhu", 8, workers=1, agents=local).games == 8


def test_cli_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "doudizhu", "--games", "20", "--workers", "1"]) == 0
    assert "20 games from seed 0" in capsys.readouterr().out
    assert main(["simulate", "no-such-game", "--games", "2"]) == 2


def test_agent_registry_builds_every_named_agent() -> None:
    from cardkit.agents import agent_factory, agent_names

    for name in games.available():
        names = agent_names(name)
        assert "random" in names
        for agent_name in names:
            agent = agent_factory(name, agent_name)(7)
            assert isinstance(agent, cardkit.api.Agent)
    with pytest.raises(RuleOptionError, match="unknown agent"):
        agent_factory("doudizhu", "oracle")


def test_cli_simulate_with_agents(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "doudizhu", "--games", "30", "--workers", "1", "--seed", "7"]
    assert main([*args, "--agents", "rule,random,random"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 rule" in out and "30 games from seed 7" in out
    assert main([*args, "--agents", "rule,random"]) == 2
