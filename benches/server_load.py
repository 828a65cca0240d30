"""A bounded load test of the rooms server on loopback.

    python benches/server_load.py [--rooms 100] [--game hearts] [--agent random]

Starts ``cardkit serve`` in a child process on a fresh SQLite file (agents without
delay), creates ``--rooms`` rooms at once, each with one person's seat (seat 0, a
client of this script that always plays its first legal action) and agents in the
other seats, plus one spectator per room, and plays every room's game (one deal)
to the end concurrently. Reports the moves per second the server committed (every
move written to SQLite with ``synchronous=FULL`` before it is acknowledged, agents'
moves included) and the p50/p99 latency of the people's moves: from sending ``act``
to receiving ``accepted``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

# Liveness only: a room that has not finished by then fails the run.
_TIMEOUT = 600.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _person(url: str, code: str, token: str, latencies: list[float]) -> int:
    """Play seat 0 of a room to the end; the room's final move count."""
    async with connect(f"{url}/ws/{code}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "accepted" and sent_at is not None:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["type"] != "view":
                continue
            if message["terminal"]:
                return int(message["ply"])
            if message["legal_actions"] and sent_at is None:
                sent_at = time.perf_counter()
                action = message["legal_actions"][0]
                await ws.send(json.dumps({"type": "act", "action": action, "ply": message["ply"]}))


async def _spectator(url: str, code: str) -> int:
    """Watch a room to the end; the number of messages received."""
    received = 0
    async with connect(f"{url}/ws/{code}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while True:
            message = json.loads(await ws.recv())
            received += 1
            if message["type"] == "view" and message["terminal"]:
                return received


async def _load(base: str, rooms: int, game: str, agent: str) -> dict[str, Any]:
    players = None
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for entry in (await http.get("/api/games")).json()["games"]:
            if entry["name"] == game:
                players = entry["players"]
        if players is None:
            raise SystemExit(f"unknown game {game!r}")
        seats = ["human"] + [agent] * (players - 1)
        options = {"match": False} if game in ("hearts", "spades", "guandan", "holdem") else {}
        codes, tokens = [], []
        for _ in range(rooms):
            room = await http.post(
                "/api/rooms", json={"game": game, "seats": seats, "options": options}
            )
            room.raise_for_status()
            code = room.json()["code"]
            joined = (await http.post(f"/api/rooms/{code}/join", json={})).json()
            codes.append(code)
            tokens.append(joined["token"])
    ws_url = base.replace("http", "ws")
    latencies: list[float] = []
    start = time.perf_counter()
    results = await asyncio.wait_for(
        asyncio.gather(
            *(_person(ws_url, c, t, latencies) for c, t in zip(codes, tokens, strict=True)),
            *(_spectator(ws_url, c) for c in codes),
        ),
        _TIMEOUT,
    )
    seconds = time.perf_counter() - start
    moves = sum(results[:rooms])
    ordered = sorted(latencies)
    return {
        "rooms": rooms,
        "game": game,
        "moves": moves,
        "seconds": seconds,
        "moves_per_second": moves / seconds,
        "person_moves": len(ordered),
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "spectator_messages": sum(results[rooms:]),
    }


def run(rooms: int = 100, game: str = "hearts", agent: str = "random") -> dict[str, Any]:
    """Run the load test against a fresh server process; the measurements."""
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        db = Path(folder) / "load.sqlite"
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "cardkit.cli", "serve", "--port", str(port)),
                *("--db", str(db), "--agent-delay", "0", "--max-rooms", str(max(rooms, 1000))),
            ],
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(base + "/api/games", timeout=5).raise_for_status()
                    break
                except httpx.HTTPError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            return asyncio.run(_load(base, rooms, game, agent))
        finally:
            server.terminate()
            server.wait(timeout=30)


def main() -> None:
    """Command-line entry: run and print one line of results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--game", default="hearts")
    parser.add_argument("--agent", default="random")
    args = parser.parse_args()
    result = run(args.rooms, args.game, args.agent)
    print(
        f"{result['rooms']} {result['game']} rooms, {result['moves']} moves in "
        f"{result['seconds']:.1f} s on {os.cpu_count()} cores: "
        f"{result['moves_per_second']:.0f} moves/s; people's moves "
        f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms; "
        f"{result['spectator_messages']} messages to spectators"
    )


if __name__ == "__main__":
    main()
