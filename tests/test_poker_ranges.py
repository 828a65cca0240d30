"""Ranges, batch evaluation and the ``cardkit equity`` command (issue 3)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardkit import Card, InvalidCardError, deck
from cardkit.cli import main
from cardkit.errors import CardkitError, RuleOptionError
from cardkit.poker import InvalidRangeError, Range, evaluate, evaluate_batch


@pytest.mark.parametrize(
    ("text", "combos"),
    [
        ("QQ+", 18),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("A5s-A2s", 16),
        ("KQo", 12),
        ("T9s+", 4),
        ("A9s+", 20),
        ("AhKh", 1),
        ("22-55", 24),
        ("JTs-76s", 20),
        ("random", 1326),
        ("*", 1326),
        ("QQ+, AKs, A5s-A2s, KQo, T9s+, AhKh, 22-55", 78),
    ],
)
def test_range_sizes(text: str, combos: int) -> None:
    r = Range(text)
    assert len(r) == combos
    assert r.text == text
    assert str(r) == text
    assert repr(r) == f"Range({text!r})"


def test_weights_dead_cards_and_combos() -> None:
    r = Range("AKs:0.5, AhKh, QQ")
    combos = r.combos()
    weights = {f"{a}{b}": w for a, b, w in combos}
    assert weights["AhKh"] == 1.0
    assert weights["AsKs"] == 0.5
    assert weights["QsQh"] == 1.0
    assert all(isinstance(a, Card) and a > b for a, b, _ in combos)
    live = r.combos(dead="Ah Qs")
    assert len(live) == len(combos) - 1 - 3
    assert len(Range("AA").combos(dead=[Card("As"), "Ad"])) == 1
    assert len(Range("AKs:0, QQ")) == 6


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("QQ+, AKx", "AKx"),
        ("AAs", "AAs"),
        ("AKs:2", "AKs:2"),
        ("AKs:x", "AKs:x"),
        ("AhAh", "AhAh"),
        ("22-A5o", "22-A5o"),
        ("", ""),
    ],
)
def test_bad_range_names_the_token(text: str, token: str) -> None:
    with pytest.raises(InvalidRangeError, match=f'"{token}"') as info:
        Range(text)
    assert isinstance(info.value, CardkitError)
    assert isinstance(info.value, ValueError)


def random_rows(n: int, width: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(52)[:width] for _ in range(n)], dtype=np.uint8)


@pytest.mark.parametrize("width", [5, 6, 7])
def test_batch_matches_evaluate(width: int) -> None:
    rows = random_rows(3000, width, seed=width)
    values = evaluate_batch(rows)
    assert values.dtype == np.uint32
    assert values.shape == (3000,)
    cards = deck("standard52")
    expected = [evaluate([cards[i] for i in row]).value for row in rows]
    assert values.tolist() == expected
    assert evaluate_batch(rows, threads=1).tolist() == expected
    assert evaluate_batch(rows.astype(np.int64), threads=3).tolist() == expected
    assert evaluate_batch(np.asfortranarray(rows)).tolist() == expected
    out = np.zeros(3000, dtype=np.uint32)
    assert evaluate_batch(rows, threads=2, out=out) is out
    assert out.tolist() == expected


def test_batch_out_must_fit() -> None:
    rows = random_rows(10, 7, seed=1)
    frozen = np.zeros(10, dtype=np.uint32)
    frozen.flags.writeable = False
    strided = np.zeros(20, dtype=np.uint32)[::2]
    for bad in (
        np.zeros(9, dtype=np.uint32),
        np.zeros(10, dtype=np.int64),
        np.zeros((10, 1), dtype=np.uint32),
        frozen,
        strided,
        [0] * 10,
    ):
        with pytest.raises(RuleOptionError, match="out must be"):
            evaluate_batch(rows, out=bad)  # type: ignore[arg-type]
    assert not frozen.any()


@pytest.mark.exhaustive
@pytest.mark.parametrize("suits", [4, 2])
def test_batch_matches_evaluate_million(suits: int) -> None:
    # Random 7-card rows from the whole pack, and from two suits (mostly flushes),
    # through the vector path of evaluate_batch and its flush fix-up.
    pack = np.array([c for c in range(52) if c % 4 < suits], dtype=np.uint8)
    order = np.argsort(np.random.default_rng(suits).random((1_000_000, len(pack))), axis=1)
    rows = pack[order[:, :7]]
    cards = deck("standard52")
    expected = [evaluate([cards[i] for i in row]).value for row in rows.tolist()]
    assert evaluate_batch(rows, threads=1).tolist() == expected
    assert evaluate_batch(rows, threads=2).tolist() == expected


def test_batch_rejects_bad_input() -> None:
    with pytest.raises(InvalidCardError, match="row 1"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]], dtype=np.uint8))
    with pytest.raises(InvalidCardError, match="row 0"):
        evaluate_batch(np.array([[0, 1, 2, 3, 52]], dtype=np.uint8))
    with pytest.raises(InvalidCardError, match=r"0\.\.51"):
        evaluate_batch(np.array([[0, 1, 2, 3, -1]]))
    with pytest.raises(InvalidCardError, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(InvalidCardError, match="integers"):
        evaluate_batch(np.zeros((3, 5), dtype=np.float64))
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


def test_cli_equity_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhAs", "KdKc", "--board", "Ts9s2h", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "AhAs" in out and "KdKc" in out
    assert "exact: 990 boards" in out


def test_cli_equity_json_and_samples(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["equity", "QQ+,AKs", "random", "--samples", "20000", "--seed", "3", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False
    assert data["samples"] == 20000
    assert sum(data["equity"]) == pytest.approx(1.0)


def test_cli_equity_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AA", "KQx"]) == 2
    assert "KQx" in capsys.readouterr().err
    assert main(["deal", "standard52", "--players", "2", "--cards", "2"]) == 0
