"""The rooms server's SQLite store: rooms, seats, matches and every action.

The database runs in WAL mode with ``synchronous=FULL``: a write returns once it
is on disk, so an action the server has acknowledged survives the process being
killed at any moment (and a power cut). A room is rebuilt from its rows by
replaying its current match's actions from the match's seed.

One connection serves every thread (rooms move in worker threads); a lock keeps
each transaction whole.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["RoomRecord", "SeatRecord", "Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    private INTEGER NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    agent TEXT,
    token_hash TEXT,
    name TEXT NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS matches (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    match INTEGER NOT NULL,
    seed TEXT NOT NULL,
    PRIMARY KEY (code, match)
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    match INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, match, ply)
);
"""


@dataclass
class SeatRecord:
    """One seat as stored: an agent's short name, or a person's seat (``agent`` is
    ``None``) with the SHA-256 of its token once someone has taken it."""

    agent: str | None
    token_hash: str | None = None
    name: str = ""


@dataclass
class RoomRecord:
    """One room as stored, with its current match's seed and actions."""

    code: str
    game: str
    options: dict[str, Any]
    private: bool
    seats: list[SeatRecord]
    match: int = 0
    # Seeds are unsigned 64-bit, wider than SQLite's INTEGER: they are kept as text.
    seed: int = 0
    history: list[str] = field(default_factory=list)
    created: float = 0.0
    touched: float = 0.0


class Store:
    """The SQLite file at ``path`` (created with its tables when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        with self._lock:
            self._db.close()

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    self._db.execute(sql, params)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_room(self, room: RoomRecord) -> None:
        """Write a new room, its seats and its first match."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?)",
                (
                    room.code,
                    room.game,
                    json.dumps(room.options),
                    int(room.private),
                    room.created,
                    room.touched,
                ),
            ),
            ("INSERT INTO matches VALUES (?, ?, ?)", (room.code, room.match, str(room.seed))),
        ]
        statements += [
            (
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                (room.code, i, s.agent, s.token_hash, s.name),
            )
            for i, s in enumerate(room.seats)
        ]
        self._transaction(statements)

    def take_seat(self, code: str, seat: int, token_hash: str, name: str) -> None:
        """Record that a person took ``seat`` with the token hashing to ``token_hash``."""
        self._transaction(
            [
                (
                    "UPDATE seats SET token_hash = ?, name = ? WHERE code = ? AND seat = ?",
                    (token_hash, name, code, seat),
                ),
                ("UPDATE rooms SET touched = ? WHERE code = ?", (time.time(), code)),
            ]
        )

    def append_action(self, code: str, match: int, ply: int, action: str) -> None:
        """Write action number ``ply`` of the room's match; it is on disk on return."""
        self._transaction(
            [
                ("INSERT INTO actions VALUES (?, ?, ?, ?)", (code, match, ply, action)),
                ("UPDATE rooms SET touched = ? WHERE code = ?", (time.time(), code)),
            ]
        )

    def new_match(self, code: str, match: int, seed: int) -> None:
        """Start match ``match`` of the room from ``seed`` (earlier matches are kept)."""
        self._transaction(
            [
                ("INSERT INTO matches VALUES (?, ?, ?)", (code, match, str(seed))),
                ("UPDATE rooms SET touched = ? WHERE code = ?", (time.time(), code)),
            ]
        )

    def delete_room(self, code: str) -> None:
        """Remove a room with its seats, matches and actions."""
        self._transaction([("DELETE FROM rooms WHERE code = ?", (code,))])

    def history(self, code: str, match: int) -> list[str]:
        """Every action of one match of the room, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT action FROM actions WHERE code = ? AND match = ? ORDER BY ply",
                (code, match),
            ).fetchall()
        return [r[0] for r in rows]

    def load_rooms(self) -> list[RoomRecord]:
        """Every room with its seats and its current match, as written."""
        with self._lock:
            rooms = self._db.execute(
                "SELECT code, game, options, private, created, touched FROM rooms"
            ).fetchall()
            seats = self._db.execute(
                "SELECT code, agent, token_hash, name FROM seats ORDER BY code, seat"
            ).fetchall()
            matches = self._db.execute(
                "SELECT code, match, seed FROM matches ORDER BY code, match"
            ).fetchall()
        by_code: dict[str, RoomRecord] = {}
        for code, game, options, private, created, touched in rooms:
            by_code[code] = RoomRecord(
                code, game, json.loads(options), bool(private), [], created=created, touched=touched
            )
        for code, agent, token_hash, name in seats:
            by_code[code].seats.append(SeatRecord(agent, token_hash, name))
        for code, match, seed in matches:
            by_code[code].match, by_code[code].seed = match, int(seed)
        for room in by_code.values():
            room.history = self.history(room.code, room.match)
        return list(by_code.values())
