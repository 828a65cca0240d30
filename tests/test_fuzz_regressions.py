"""Minimal reproducers of what the fuzz targets (fuzz/targets.py) found beyond the
bugs already listed in issue 13. Each test states the contract the input broke;
findings not fixed yet would be strict xfails."""

from __future__ import annotations

import warnings

import pytest

from cardkit import CardkitError, phh


def test_malformed_phh_value_is_a_typed_error_without_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(CardkitError, match="PHH line 1: cannot read the value"):
            phh.loads("variant = 1in []")
    assert [str(w.message) for w in caught] == []
