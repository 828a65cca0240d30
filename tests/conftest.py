"""Shared pytest setup: the ``--exhaustive`` flag (the ``rule`` and ``exhaustive``
markers are registered in pyproject.toml), and Python's own Ctrl-C handler for
the run and the interpreters its tests start."""

from __future__ import annotations

import signal

import pytest

# The Ctrl-C tests send SIGINT to child interpreters. A run started in the
# background by a non-interactive shell inherits an ignored SIGINT, its children
# inherit that across exec, and an interpreter that starts with SIGINT ignored
# never raises KeyboardInterrupt: those tests would then fail on the shell, not on
# cardkit. A handled signal is reset to the default across exec, so with Python's
# handler here every child starts with its own.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
