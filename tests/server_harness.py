"""Test helpers for the rooms server: a real uvicorn process on a real SQLite file,
and a person at a seat speaking the WebSocket protocol."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

# Generous liveness limits: a child process that does not come up, or a game that
# does not finish, fails the test instead of hanging it.
START_TIMEOUT = 60.0
GAME_TIMEOUT = 120.0


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``cardkit serve`` in a child process on ``db`` (agents move at once)."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        args = ["--db", str(db), "--port", str(self.port), "--agent-delay", "0", *extra]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardkit.cli", "serve", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                httpx.get(f"{self.url}/api/games", timeout=5).raise_for_status()
                return
            except httpx.HTTPError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def post(self, path: str, body: Any) -> httpx.Response:
        """POST ``body`` as JSON."""
        return httpx.post(self.url + path, json=body, timeout=30)

    def get(self, path: str) -> httpx.Response:
        """GET a path of the API."""
        return httpx.get(self.url + path, timeout=30)

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush or close anything."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """Stop the process if it still runs."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process.stderr is not None:
            self.process.stderr.close()


class Person:
    """One WebSocket client of a room: a seat (with its token) or a spectator."""

    def __init__(self, server: Server, code: str, token: str | None = None) -> None:
        self._connection = connect(f"{server.ws_url}/ws/{code}", max_size=None)
        self.ws: ClientConnection = self._connection.__enter__()
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        self.ws.send(json.dumps(hello))
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or ``None`` if none comes within ``timeout``."""
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        self.messages.append(message)
        if message["type"] == "view":
            if message["reset"]:
                self.events = []
            self.events += message["events"]
            self.view = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def pump(self, timeout: float = 0.02) -> None:
        """Read every message that arrives without a pause of ``timeout``."""
        while self.receive(timeout) is not None:
            pass

    def wait_for(self, *kinds: str, timeout: float = GAME_TIMEOUT) -> dict[str, Any]:
        """Read until a message of one of the types ``kinds`` arrives."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(0.5)
            if message is not None and message["type"] in kinds:
                return message
        raise AssertionError(f"no {kinds} message within {timeout} s")

    def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        self.ws.send(json.dumps(message))

    def my_turn(self) -> bool:
        """Whether the latest view asks this seat for a move."""
        return bool(self.view.get("legal_actions"))

    def close(self) -> None:
        """Close the connection."""
        self._connection.__exit__(None, None, None)


def play_out(people: list[Person], pick: int = 0, timeout: float = GAME_TIMEOUT) -> None:
    """Play the room to the end: each person, when asked, plays legal action ``pick``
    (the last one for ``-1``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for person in people:
            person.pump()
        if any(p.view.get("terminal") for p in people):
            return
        for person in people:
            if person.my_turn():
                view = person.view
                action = view["legal_actions"][pick]
                person.send({"type": "act", "action": action, "ply": view["ply"]})
                person.wait_for("accepted", "error")
                person.pump()
    raise AssertionError("the game did not finish")
