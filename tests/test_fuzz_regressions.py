"""Minimal reproducers of what the fuzz targets (fuzz/targets.py, rust/fuzz) found beyond the
bugs already listed in issue 13. Each test states the contract the input broke;
findings not fixed yet would be strict xfails."""

from __future__ import annotations

import warnings

import pytest

from cardkit import CardkitError, games, phh
from cardkit.bridge import pbn
from cardkit.errors import InvalidNotationError


def test_malformed_phh_value_is_a_typed_error_without_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(CardkitError, match="PHH line 1: cannot read the value"):
            phh.loads("variant = 1in []")
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("text", [", Ah=A", ",\rAh=A\r", ", W=A"])
def test_guandan_junk_beside_a_wild_token_is_not_a_play(text: str) -> None:
    # Found by the engine's climbing_parse target (rust/fuzz): a lone separator read
    # as no cards let the card-naming reading accept a play of the wild alone.
    game = games.make("guandan", level="A")
    with pytest.raises(CardkitError):
        game.parse_action(text)
    assert game.parse_action("Ah=A") == "play W=A"


def test_doudizhu_play_longer_than_any_hand_is_refused_by_the_index() -> None:
    # Found by the engine's climbing_parse target (rust/fuzz): a 24-card airplane is a
    # shape classification reads, but no hand holds 24 cards, so the action index has
    # no id for it and the game refuses it with a typed error (the target assumed
    # every set one pack can hold has an id; it now allows for the 20-card limit).
    from cardkit._core import climbing_classify

    cards = "33444555666777888999TJQQ"
    assert [c.type for c in climbing_classify("doudizhu", cards)] == ["airplane_singles"]
    game = games.make("doudizhu")
    with pytest.raises(CardkitError, match="is not a doudizhu action"):
        game.action_to_id("play " + cards)
    assert game.action_to_id("play 444555666777TJQQ") >= 0


@pytest.mark.parametrize(
    "text",
    [
        '[Play "N"]\n',
        '[Auction "?"]\n[Play "?"]\n',
        '[Board "?"]\n[Contract ""]\n\n[Event "x"]\n',
    ],
)
def test_a_pbn_tag_group_that_gives_nothing_is_no_board(text: str) -> None:
    # Found by the pbn_loads target: such a group read as an empty Board, which
    # dumps writes as nothing, so a board was lost on the way back.
    boards = pbn.loads(text)
    assert all(b != pbn.Board() for b in boards)
    assert pbn.loads(pbn.dumps(boards)) == boards


def test_an_empty_pbn_section_still_names_a_seat() -> None:
    # The fuzzer's own input (pbn_loads): an empty Play section after junk. Its
    # first seat is no seat, which is refused like any other bad seat, section or not.
    with pytest.raises(InvalidNotationError, match="first seat"):
        pbn.loads('% PB.KJTass A5s\n[Play ")\x00\x00 DJ KJT.8632 AQT = z seed"]\n')


def test_pbn_text_after_a_tag_reads_as_a_line_of_its_own() -> None:
    # Found by the pbn_loads target: a "%" after a tag was kept as a table line,
    # which dumps writes on its own line, where it reads back as a comment; a
    # second tag on the line was kept as data and read back as a tag.
    for text in ['[Vl "S:62"]% \nE% [e\n', '[Event "a"][Site "b"] 1 2\n', '[X "1"] % c\n']:
        boards = pbn.loads(text)
        assert pbn.loads(pbn.dumps(boards)) == boards
    assert pbn.loads('[Event "a"][Site "b"] 1 2\n')[0].tags == {"Event": "a", "Site": "b"}
    assert pbn.loads('[X "1"] % c\n')[0].tables == {}


def test_a_pbn_claim_before_the_first_card_round_trips() -> None:
    # Found by the pbn_loads target: "[Play ...]" followed by only "*" read as a
    # claim, which dumps dropped because no card had been played.
    text = '[Contract "4S"]\n[Declarer "N"]\n[Play "E"]\n*\n'
    (board,) = pbn.loads(text)
    assert board.claimed and board.play == []
    assert pbn.loads(pbn.dumps([board])) == [board]
    with pytest.raises(CardkitError, match="needs a Contract"):
        pbn.loads('[Play "S"]* ac\n')


@pytest.mark.parametrize(
    "value", ["a\\\\b", "a\\", "\\", '\\"', 'say "hi"\\', "Result\\2R", "\\\\2"]
)
def test_a_pbn_tag_value_with_backslashes_round_trips(value: str) -> None:
    # Found by the pbn_loads target: the reader takes a doubled backslash for one
    # backslash, but dumps wrote backslashes as they were, so a value holding two
    # (or ending in one) changed on the way back.
    board = pbn.Board(board=1, tags={"Note": value})
    assert pbn.loads(pbn.dumps([board])) == [board]
    assert pbn.loads(pbn.dumps(pbn.loads(pbn.dumps([board])))) == [board]


def test_a_pbn_comment_after_a_value_ending_in_an_escaped_backslash_is_a_comment() -> None:
    # The quote after an escaped backslash closes the value, so what follows on the
    # line is outside it (here a ";" comment), not more of the value.
    (board,) = pbn.loads('[Board "1"]\n[Note "a\\\\"] ; a comment\n')
    assert board.tags == {"Note": "a\\"}
    assert board.tables == {}
