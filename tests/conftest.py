"""Shared pytest setup: the ``--exhaustive`` flag (the ``rule`` and ``exhaustive``
markers are registered in pyproject.toml)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--exhaustive",
        action="store_true",
        default=False,
        help="run long exhaustive checks (minutes); the default run keeps a fast sample",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--exhaustive"):
        return
    skip = pytest.mark.skip(reason="exhaustive check: run with --exhaustive")
    for item in items:
        if "exhaustive" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def exhaustive(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--exhaustive"))
