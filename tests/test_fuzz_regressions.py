"""Minimal reproducers of what the fuzz targets (fuzz/targets.py, rust/fuzz) found beyond the
bugs already listed in issue 13. Each test states the contract the input broke;
findings not fixed yet would be strict xfails."""

from __future__ import annotations

import warnings

import pytest

from cardkit import CardkitError, games, phh


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
