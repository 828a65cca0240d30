"""Minimal reproducers of what the fuzz targets (fuzz/targets.py) found beyond the
bugs already listed in issue 13. Each test states the contract the input broke;
findings whose fix lies outside the fuzzing work are strict xfails until fixed."""

from __future__ import annotations

import warnings

import pytest

from cardkit import CardkitError, phh


@pytest.mark.xfail(
    strict=True,
    reason="phh.parse_phh hands PHH values to ast.literal_eval, whose compile step warns "
    "on text such as '1in []' before the typed error is raised",
)
def test_malformed_phh_value_is_a_typed_error_without_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(CardkitError, match="cannot read PHH value"):
            phh.loads("variant = 1in []")
    assert [str(w.message) for w in caught] == []
