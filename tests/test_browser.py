"""The browser table in a real browser: Playwright drives Debian's Chromium (headless,
installed by ``.ci/run`` with apt-get) against a real ``cardkit serve`` process on a
SQLite file. A person plays a whole Dou Dizhu deal and a whole Hold'em hand against
agents by clicking the page, every registered game opens and takes a move, and the
labels switch to Chinese."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from cardkit import games

from .server_harness import GAME_TIMEOUT, Server

ROOT = Path(__file__).resolve().parent.parent
# Debian's package puts the browser here (/usr/bin/chromium is a shell wrapper).
_CHROMIUM = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")


def _chromium() -> str:
    for path in (os.environ.get("CARDKIT_CHROMIUM", ""), *_CHROMIUM):
        if path and os.access(path, os.X_OK):
            return path
    found = shutil.which("chromium")
    if found is None:
        raise RuntimeError("Chromium is missing: .ci/run installs it with apt-get")
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("browser") / "rooms.sqlite")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=_chromium(), headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 1100})
    opened = context.new_page()
    opened.goto(server.url + "/")
    opened.wait_for_selector("body[data-lobby=ready]", state="attached")
    yield opened
    context.close()


def _sit(page: Page, game: str, options: dict[str, Any] | None = None) -> None:
    """Create a room of ``game`` with the page's default seats (you at seat 0)."""
    page.select_option("#game", game)
    if options is not None:
        current = page.input_value("#options")
        page.fill("#options", json.dumps({**json.loads(current), **options}))
    page.click("#create-button")
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_function("() => document.querySelector('#status').textContent.length > 0")


def _play_to_the_end(page: Page, pick: str = "first") -> None:
    """Click an action button whenever there is one, until the score shows."""
    deadline = time.monotonic() + GAME_TIMEOUT
    while time.monotonic() < deadline:
        if page.is_visible("#end") and page.inner_text("#score").strip():
            return
        buttons = page.locator("#actions button:not([disabled])")
        if buttons.count():
            # The buttons go when the table moves on; the loop looks again then.
            with contextlib.suppress(PlaywrightTimeoutError):
                (buttons.first if pick == "first" else buttons.last).click(timeout=2000)
        page.wait_for_timeout(30)
    raise AssertionError("the game did not finish in the browser")


def _screenshot(page: Page, name: str, tmp: Path) -> None:
    # CARDKIT_SCREENSHOTS=docs refreshes the pictures the docs page shows.
    folder = ROOT / os.environ.get("CARDKIT_SCREENSHOTS", str(tmp))
    page.screenshot(path=str(folder / name))


def test_a_person_plays_a_doudizhu_deal_in_the_browser(page: Page, tmp_path: Path) -> None:
    _sit(page, "doudizhu")
    assert page.locator("#hand .card").count() == 17
    _play_to_the_end(page, pick="last")
    assert page.inner_text("#status") == "Game over"
    assert "multiplier" in page.inner_text("#score")
    assert page.locator("#history li").count() > 10
    _screenshot(page, "play-doudizhu.png", tmp_path)


def test_a_person_plays_a_holdem_hand_in_the_browser(page: Page, tmp_path: Path) -> None:
    _sit(page, "holdem", {"match": False})
    assert page.locator("#hand .card").count() == 2
    _play_to_the_end(page, pick="first")
    assert "stacks" in page.inner_text("#score")
    _screenshot(page, "play-holdem.png", tmp_path)


def test_every_game_opens_at_its_table_and_takes_a_click(page: Page) -> None:
    for name in games.available():
        if page.is_visible("#leave"):
            page.click("#leave")
        page.wait_for_selector("body[data-lobby=ready]", state="attached")
        _sit(page, name)
        page.wait_for_function(
            "() => document.querySelector('#actions button') || "
            "!document.querySelector('#end').hidden"
        )
        before = page.locator("#history li").count()
        if page.locator("#actions button").count():
            page.locator("#actions button").first.click()
            try:
                page.wait_for_function(
                    "n => document.querySelectorAll('#history li').length > n", arg=before
                )
            except PlaywrightTimeoutError:
                # Say which table stalled and what it showed, not only that one did.
                shown = {
                    key: page.locator(key).inner_text() for key in ("#status", "#error", "#actions")
                }
                raise AssertionError(f"{name}: no new history after a click; {shown}") from None
        assert page.locator("#error").inner_text() == ""


def test_the_labels_switch_to_chinese_and_a_reload_resumes_the_seat(page: Page) -> None:
    _sit(page, "hearts")
    hand = page.inner_text("#hand")
    page.click("#lang")
    assert page.inner_text("h2 >> nth=0") in ("新房间", "你的手牌")
    assert "你的手牌" in page.inner_text("#table")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#hand") == hand
    assert "你的手牌" in page.inner_text("#table")
