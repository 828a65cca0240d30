"""The terminal table (``cardkit play``), driven through its input stream as a person
at a keyboard would: every registered game to the end, matches, bad input, replays."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardkit import games
from cardkit.cli import main
from cardkit.errors import RuleOptionError
from cardkit.terminal import TerminalTable, card_text, replay_file


def _single_deal(name: str) -> dict[str, object]:
    """Options that make ``name`` one deal, so a test plays it to the end quickly."""
    return {"match": False} if "match" in games.make(name).options else {}


def _run(name: str, lines: str, **kwargs: object) -> str:
    out = io.StringIO()
    table = TerminalTable(
        name,
        options=_single_deal(name),
        input=io.StringIO(lines),
        output=out,
        **kwargs,  # type: ignore[arg-type]
    )
    assert table.run() == 0
    return out.getvalue()


@pytest.mark.parametrize("name", games.available())
def test_every_game_plays_to_the_score_breakdown(name: str) -> None:
    game = games.make(name, **_single_deal(name))
    text = _run(name, "1\n" * (game.max_game_length + 1) + "n\n", seed=5)
    assert "your hand (seat 0)" in text
    assert "table: " in text
    assert "  1) " in text
    assert "game over" in text
    assert "score breakdown:" in text
    assert "another game?" in text


def test_a_typed_illegal_action_shows_the_engine_reason_and_asks_again() -> None:
    text = _run("doudizhu", "bid 9\nq\n", seed=1, agents=["random"])
    assert "not allowed:" in text
    assert "game over" not in text
    # The question came twice: after the refused move, the person is asked again.
    assert text.count("your move") == 2


def test_a_number_out_of_range_is_read_as_action_text_and_refused() -> None:
    text = _run("hearts", "999\nq\n")
    assert "not allowed:" in text


def test_quitting_and_end_of_input_stop_without_a_result(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    text = _run("spades", "q\n", save=save)
    assert "game over" not in text
    # The save holds the game up to the quit, ready for --replay.
    state = games.make("spades", match=False).state_from_json(save.read_text())
    assert not state.is_terminal
    assert "game over" not in _run("spades", "")


def test_a_match_goes_on_deal_after_deal_with_standings() -> None:
    out = io.StringIO()
    table = TerminalTable(
        "hearts",
        options={"target": 30},
        agents=["random"],
        seed=2,
        input=io.StringIO("1\n" * 2000 + "n\n"),
        output=out,
    )
    table.run()
    text = out.getvalue()
    assert "deal 2" in text
    assert "standings:" in text
    assert "game over" in text


class _Player(io.StringIO):
    """A person who always picks the first action and answers "another game?" from
    ``answers``, reading the table's output to know which question is asked."""

    def __init__(self, output: io.StringIO, answers: list[str]) -> None:
        super().__init__()
        self.output = output
        self.answers = answers

    def readline(self, size: int | None = -1) -> str:
        if self.output.getvalue().endswith("another game? [y/N] "):
            return self.answers.pop(0) + "\n" if self.answers else ""
        return "1\n"


def test_another_game_takes_the_next_seed() -> None:
    out = io.StringIO()
    table = TerminalTable("zhengshangyou", seed=7, output=out)
    table.input = _Player(out, ["y", "n"])
    assert table.run() == 0
    text = out.getvalue()
    assert text.count("game over") == 2
    assert text.count("deal 1 ") == 2


def test_agents_and_seat_are_checked_before_play() -> None:
    with pytest.raises(RuleOptionError):
        TerminalTable("hearts", agents=["rule", "random"], input=io.StringIO(""))
    assert main(["play", "hearts", "--agents", "nosuchagent"]) == 2
    assert main(["play", "hearts", "--seat", "4"]) == 2
    assert main(["play"]) == 2
    assert main(["play", "hearts", "--option", "target"]) == 2
    assert main(["play", "hearts", "--option", "target=-5"]) == 2


def test_the_human_may_sit_at_any_seat_against_named_agents() -> None:
    text = _run(
        "holdem", "1\n" * 300 + "n\n", seat=2, agents=["random", "calling_station", "random"]
    )
    assert "your hand (seat 2)" in text
    assert "seat 1 (calling_station)" in text


def test_cards_are_shown_with_suit_symbols() -> None:
    assert card_text("play Th Th 3s BJ").plain == "play 10♥ 10♥ 3♠ BJ"
    assert card_text("bid 3").plain == "bid 3"


def test_replay_steps_forward_back_and_jumps(tmp_path: Path) -> None:
    save = tmp_path / "dd.json"
    _run("doudizhu", "1\n" * 200 + "n\n", seed=3, save=save)
    moves = len(json.loads(save.read_text())["history"])
    out = io.StringIO()
    assert replay_file(save, input=io.StringIO("\n\nb\n" + f"{moves}\n" + "q\n"), output=out) == 0
    text = out.getvalue()
    for step in (0, 1, 2, moves):
        assert f"move {step} of {moves}" in text
    assert "returns:" in text
    out = io.StringIO()
    replay_file(save, seat=1, input=io.StringIO(""), output=out)
    assert "seat 1:" in out.getvalue()
    assert "seat 0:" not in out.getvalue()


def test_a_bad_replay_file_is_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["play", "--replay", str(bad)]) == 2
    assert main(["play", "--replay", str(tmp_path / "missing.json")]) == 2


def test_cardkit_play_reads_stdin_in_a_child_process(tmp_path: Path) -> None:
    save = tmp_path / "z.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardkit.cli",
            "play",
            "zhengshangyou",
            "--seed",
            "4",
            "--save",
            save,
        ],
        input="1\n" * 200 + "n\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "game over" in done.stdout
    assert games.make("zhengshangyou").state_from_json(save.read_text()).is_terminal


def test_a_game_registered_at_run_time_plays_too() -> None:
    games.register(
        "short_hearts", lambda **options: games.make("hearts", **{"match": False, **options})
    )
    try:
        text = _run("short_hearts", "1\n" * 80 + "n\n", agents=["random"])
    finally:
        games.unregister("short_hearts")
    assert "score breakdown:" in text
