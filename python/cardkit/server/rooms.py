"""Rooms: one game being played, its seats (people or agents) and its watchers.

A :class:`Rooms` manager holds every room in memory, backed by a
:class:`~cardkit.server.store.Store`. Every move goes through the game engine and is
written to the store before anyone is told of it; agents move in a task per room;
every connected client is sent only its own seat's view
(:func:`cardkit.tables.seat_view`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cardkit.agents import agent_names
from cardkit.api import Agent, State
from cardkit.errors import CardkitError, IllegalActionError, RuleOptionError, shown
from cardkit.games import available, make
from cardkit.server.store import RoomRecord, SeatRecord, Store
from cardkit.tables import default_agent, eliminated, make_agent, seat_view

__all__ = [
    "MAX_NAME_CHARS",
    "Client",
    "Room",
    "RoomError",
    "Rooms",
    "ServerConfig",
    "hash_token",
]

log = logging.getLogger("cardkit.server")

#: The longest player name a seat takes.
MAX_NAME_CHARS = 40
# Room codes: 10 characters of an alphabet without look-alikes (0/O, 1/I/L), about
# 49 bits, so a private room's code cannot be guessed.
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_CODE_LENGTH = 10


class RoomError(CardkitError):
    """A request the rooms server refuses; ``code`` names the reason for clients
    (``room_not_found``, ``seat_taken``, ``not_your_turn``, ``illegal_action`` ...) and
    ``status`` is the HTTP status it maps to."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass(frozen=True)
class ServerConfig:
    """How a rooms server runs: its database, limits and pacing."""

    #: The SQLite file holding rooms, seats and histories.
    db: str = "cardkit.sqlite"
    #: Seconds after the last move or seat taken at which an unwatched room is deleted.
    idle_expiry: float = 24 * 3600.0
    #: Seconds an agent waits before each move, so people can follow the table.
    agent_delay: float = 0.6
    #: The most rooms the server holds at once.
    max_rooms: int = 1000
    #: The most clients (seats and spectators) connected to one room.
    max_clients_per_room: int = 32
    #: The longest WebSocket message or HTTP body accepted, in bytes.
    max_message_bytes: int = 4096
    #: Messages one connection may send per second (a burst of twice this is allowed).
    rate_limit: float = 20.0

    def __post_init__(self) -> None:
        if not isinstance(self.db, str) or not self.db:
            raise RuleOptionError(f"db is a file name, got {shown(self.db)}")
        for name in ("idle_expiry", "agent_delay", "rate_limit"):
            value = getattr(self, name)
            low = 0.0 if name == "agent_delay" else 1e-3
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= low:
                raise RuleOptionError(f"{name} must be a number >= {low:g}, got {shown(value)}")
        for name in ("max_rooms", "max_clients_per_room", "max_message_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RuleOptionError(f"{name} must be a positive int, got {shown(value)}")


def hash_token(token: str) -> str:
    """The SHA-256 hex digest a seat token is stored as (the token itself is not)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _new_code(taken: Callable[[str], bool]) -> str:
    while True:
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))
        if not taken(code):
            return code


@dataclass(eq=False)
class Client:
    """One WebSocket connection to a room: a seat's (``seat`` set) or a spectator's.

    ``send`` delivers one JSON-ready message; ``sent`` counts the events of the
    current match already sent, so each update carries only the new ones.
    """

    send: Callable[[dict[str, Any]], Awaitable[None]]
    seat: int | None = None
    match: int = -1
    sent: int = 0


@dataclass(eq=False)
class Room:
    """A room in memory: its stored record, the live state and the agents."""

    record: RoomRecord
    state: State
    agents: list[Agent | None]
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None

    @property
    def code(self) -> str:
        """The room code (join and watch with it)."""
        return self.record.code

    def info(self) -> dict[str, Any]:
        """The public description of the room: game, options, seats, match."""
        connected = {c.seat for c in self.clients if c.seat is not None}
        return {
            "code": self.record.code,
            "game": self.record.game,
            "options": self.state.game.options,
            "private": self.record.private,
            "match": self.record.match,
            "ply": len(self.state.history),
            "terminal": self.state.is_terminal,
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "seats": [
                {
                    "seat": i,
                    "kind": "human" if s.agent is None else "agent",
                    "agent": s.agent,
                    "name": s.name,
                    "taken": s.agent is not None or s.token_hash is not None,
                    "connected": s.agent is not None or i in connected,
                }
                for i, s in enumerate(self.record.seats)
            ],
        }


def _replay(record: RoomRecord) -> tuple[State, list[Agent | None]]:
    game = make(record.game, **record.options)
    state = game.new_state(seed=record.seed)
    for action in record.history:
        state.apply(action)
    agents: list[Agent | None] = [
        None if s.agent is None else make_agent(record.game, s.agent, record.seed, i)
        for i, s in enumerate(record.seats)
    ]
    return state, agents


class Rooms:
    """Every room of a server, kept in memory and in ``store``."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}

    # -- life cycle ------------------------------------------------------------------

    def load(self) -> None:
        """Rebuild every stored room by replaying its current match (at start-up)."""
        for record in self.store.load_rooms():
            try:
                state, agents = _replay(record)
            except CardkitError:
                # A game no longer registered, or rules that changed under a saved
                # history: that room stays in the file, untouched, and is not served.
                log.exception("room %s cannot be replayed; it is not served", record.code)
                continue
            self.rooms[record.code] = Room(record, state, agents)
        for room in self.rooms.values():
            self._drive(room)

    async def close(self) -> None:
        """Stop every agent task (the store keeps everything already acknowledged)."""
        for room in self.rooms.values():
            if room.driver is not None:
                room.driver.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await room.driver

    def expire(self, now: float | None = None) -> list[str]:
        """Delete the rooms nobody is connected to and nothing happened in for
        ``idle_expiry`` seconds; their codes."""
        now = time.time() if now is None else now
        gone = [
            code
            for code, room in self.rooms.items()
            if not room.clients and now - room.record.touched > self.config.idle_expiry
        ]
        for code in gone:
            room = self.rooms.pop(code)
            if room.driver is not None:
                room.driver.cancel()
            self.store.delete_room(code)
        return gone

    # -- rooms and seats ---------------------------------------------------------------

    def get(self, code: object) -> Room:
        """The room with this code, else a ``room_not_found`` error."""
        room = self.rooms.get(code) if isinstance(code, str) else None
        if room is None:
            raise RoomError("room_not_found", f"no room {shown(code)}", 404)
        return room

    def public(self) -> list[dict[str, Any]]:
        """The rooms anyone may list (private rooms are joined by code only)."""
        return [r.info() for r in self.rooms.values() if not r.record.private]

    async def create(
        self,
        game: object,
        options: object = None,
        seats: object = None,
        private: object = False,
    ) -> Room:
        """A new room of ``game`` with rule ``options``; ``seats`` lists each seat as
        ``"human"`` or an agent's short name (default: a person at seat 0 and the
        game's default agent elsewhere)."""
        if len(self.rooms) >= self.config.max_rooms:
            raise RoomError(
                "too_many_rooms", f"the server holds {self.config.max_rooms} rooms", 503
            )
        if not isinstance(game, str) or game not in available():
            raise RoomError("bad_game", f"unknown game {shown(game)}")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RoomError("bad_options", f"options are an object, got {shown(options)}")
        if not isinstance(private, bool):
            raise RoomError("bad_request", f"private is true or false, got {shown(private)}")
        try:
            made = make(game, **options)
        except CardkitError as exc:
            raise RoomError("bad_options", str(exc)) from exc
        except (TypeError, ValueError) as exc:
            raise RoomError("bad_options", f"bad options for {game}: {exc}") from exc
        records = self._seat_records(game, made.num_players, seats)
        now = time.time()
        record = RoomRecord(
            code=_new_code(lambda c: c in self.rooms),
            game=game,
            options=dict(made.options),
            private=private,
            seats=records,
            seed=secrets.randbits(64),
            created=now,
            touched=now,
        )
        # Options go through make(), so the stored ones are the game's canonical form.
        state, agents = _replay(record)
        await asyncio.to_thread(self.store.create_room, record)
        room = self.rooms[record.code] = Room(record, state, agents)
        self._drive(room)
        return room

    @staticmethod
    def _seat_records(game: str, players: int, seats: object) -> list[SeatRecord]:
        if seats is None:
            seats = ["human"] + [default_agent(game)] * (players - 1)
        if not isinstance(seats, list) or len(seats) != players:
            raise RoomError(
                "bad_seats", f"{game} needs a list of {players} seats, got {shown(seats)}"
            )
        names = agent_names(game)
        records = []
        for seat in seats:
            if seat == "human":
                records.append(SeatRecord(None))
            elif isinstance(seat, str) and seat in names:
                records.append(SeatRecord(seat, name=seat))
            else:
                raise RoomError(
                    "bad_seats",
                    f"a seat is 'human' or one of {', '.join(names)}, got {shown(seat)}",
                )
        return records

    async def join(self, room: Room, seat: object = None, name: object = "") -> tuple[int, str]:
        """Give a person an open human seat (``seat``, or the first open one): the seat
        and its token, a secret the person reconnects with (only its hash is kept)."""
        if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
            raise RoomError("bad_name", f"a name is text of at most {MAX_NAME_CHARS} characters")
        async with room.lock:
            seats = room.record.seats
            if seat is None:
                seat = next(
                    (i for i, s in enumerate(seats) if s.agent is None and not s.token_hash), None
                )
                if seat is None:
                    raise RoomError("room_full", f"room {room.code} has no open seat", 409)
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
                raise RoomError(
                    "bad_seat", f"seat must be in 0..{len(seats) - 1}, got {shown(seat)}"
                )
            if seats[seat].agent is not None or seats[seat].token_hash is not None:
                raise RoomError("seat_taken", f"seat {seat} of room {room.code} is taken", 409)
            token = secrets.token_urlsafe(24)
            shown_name = name.strip() or f"player {seat + 1}"
            await asyncio.to_thread(
                self.store.take_seat, room.code, seat, hash_token(token), shown_name
            )
            seats[seat].token_hash, seats[seat].name = hash_token(token), shown_name
            room.record.touched = time.time()
        await self._broadcast_info(room)
        return seat, token

    def seat_of(self, room: Room, token: object) -> int:
        """The seat a token belongs to in ``room``, else a ``bad_token`` error."""
        if isinstance(token, str) and len(token) <= 100:
            digest = hash_token(token)
            for i, s in enumerate(room.record.seats):
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                    return i
        raise RoomError("bad_token", "this token holds no seat of the room", 403)

    # -- clients -----------------------------------------------------------------------

    async def connect(self, room: Room, client: Client) -> None:
        """Add a client: a seat's token is used by one connection at a time."""
        async with room.lock:
            if len(room.clients) >= self.config.max_clients_per_room:
                raise RoomError("room_crowded", f"room {room.code} has too many clients", 503)
            if client.seat is not None and any(c.seat == client.seat for c in room.clients):
                raise RoomError(
                    "seat_in_use", f"seat {client.seat} is connected from another client", 409
                )
            room.clients.add(client)
            await client.send({"type": "welcome", "room": room.info(), "seat": client.seat})
            await self._send_view(room, client)
        await self._broadcast_info(room)

    async def disconnect(self, room: Room, client: Client) -> None:
        """Forget a closed connection."""
        async with room.lock:
            room.clients.discard(client)
        await self._broadcast_info(room)

    async def _send_view(self, room: Room, client: Client) -> None:
        reset = client.match != room.record.match
        if reset:
            client.match, client.sent = room.record.match, 0
        view = seat_view(room.state, client.seat, client.sent)
        client.sent = view["event_count"]
        await client.send({"type": "view", "match": room.record.match, "reset": reset, **view})

    async def _broadcast(self, room: Room) -> None:
        for client in list(room.clients):
            try:
                await self._send_view(room, client)
            except Exception:  # a connection closed under us: its handler cleans up
                room.clients.discard(client)

    async def _broadcast_info(self, room: Room) -> None:
        async with room.lock:
            info = room.info()
            for client in list(room.clients):
                try:
                    await client.send({"type": "room", "room": info})
                except Exception:
                    room.clients.discard(client)

    # -- moves -------------------------------------------------------------------------

    def _commit(self, room: Room, seat: int, action: str) -> int:
        """Check ``action`` on a copy, write it, then make the copy the room's state
        (runs in a worker thread under the room's lock): a refused or unwritten move
        leaves the room as it was."""
        state = room.state
        if state.is_terminal:
            raise RoomError("game_over", "the game is over: restart for a new one", 409)
        if state.current_player != seat:
            raise RoomError(
                "not_your_turn", f"it is seat {state.current_player}'s turn, not {seat}'s"
            )
        after = state.clone()
        try:
            after.apply(action)
        except IllegalActionError as exc:
            raise RoomError("illegal_action", exc.reason) from exc
        except CardkitError as exc:
            raise RoomError("illegal_action", str(exc)) from exc
        ply = len(state.history)
        try:
            self.store.append_action(room.code, room.record.match, ply, str(after.history[-1]))
        except sqlite3.Error as exc:
            # Not on disk, so not played: the room keeps its state and the client is told.
            log.exception("cannot write a move of room %s", room.code)
            raise RoomError("storage_error", f"the move could not be saved: {exc}", 503) from exc
        room.state = after
        room.record.history.append(str(after.history[-1]))
        room.record.touched = time.time()
        return ply

    async def act(self, room: Room, client: Client, action: object, ply: object = None) -> int:
        """Play ``action`` for the client's seat; the ply it was written as.

        ``ply``, when given, is the number of moves the client saw: a move made on a
        stale view is refused (``stale``) instead of landing in another position.
        """
        if client.seat is None:
            raise RoomError("not_a_seat", "spectators cannot play", 403)
        if not isinstance(action, str):
            raise RoomError("bad_action", f"an action is text, got {shown(action)}")
        async with room.lock:
            if ply is not None and ply != len(room.state.history):
                raise RoomError(
                    "stale", f"the table is at move {len(room.state.history)}, not {shown(ply)}"
                )
            done = await asyncio.to_thread(self._commit, room, client.seat, action)
            await client.send({"type": "accepted", "ply": done})
            await self._broadcast(room)
        self._drive(room)
        return done

    async def restart(self, room: Room, client: Client) -> None:
        """Start a new match in the room: allowed once the game is over, or for an
        eliminated person when no other person in the room is still playing."""
        if client.seat is None:
            raise RoomError("not_a_seat", "spectators cannot restart", 403)
        async with room.lock:
            state = room.state
            people = [i for i, s in enumerate(room.record.seats) if s.agent is None]
            alone = all(eliminated(state, p) for p in people)
            if not state.is_terminal and not (eliminated(state, client.seat) and alone):
                raise RoomError(
                    "cannot_restart",
                    "a game in progress restarts only when every person in it is eliminated",
                    409,
                )
            if room.driver is not None:
                room.driver.cancel()
            record = room.record
            match, seed = record.match + 1, secrets.randbits(64)
            await asyncio.to_thread(self.store.new_match, room.code, match, seed)
            record.match, record.seed, record.history = match, seed, []
            record.touched = time.time()
            room.state, room.agents = _replay(record)
            await self._broadcast(room)
        await self._broadcast_info(room)
        self._drive(room)

    def _drive(self, room: Room) -> None:
        """Make sure an agent task runs while an agent is to act."""
        if room.driver is None or room.driver.done():
            room.driver = asyncio.get_running_loop().create_task(self._agents(room))

    def _agent_move(self, room: Room, seat: int) -> None:
        agent = room.agents[seat]
        assert agent is not None  # called for agent seats only
        state = room.state
        legal = state.legal_actions()
        try:
            choice = str(agent.act(state.observation(seat), legal))
        except Exception:
            # An agent bug must not stall the room: it plays its first legal move.
            log.exception("agent %s failed in room %s", room.record.seats[seat].agent, room.code)
            choice = str(legal[0])
        try:
            self._commit(room, seat, choice)
        except RoomError:
            log.exception("agent move %r refused in room %s", choice, room.code)
            self._commit(room, seat, str(legal[0]))

    async def _agents(self, room: Room) -> None:
        while True:
            seat = room.state.current_player
            if seat is None or room.agents[seat] is None:
                return
            if self.config.agent_delay > 0:
                await asyncio.sleep(self.config.agent_delay)
            async with room.lock:
                if room.state.current_player != seat or room.agents[seat] is None:
                    continue
                await asyncio.to_thread(self._agent_move, room, seat)
                await self._broadcast(room)

    @staticmethod
    def games() -> list[dict[str, Any]]:
        """Every registered game with its seats, default options and agents."""
        out = []
        for name in available():
            try:
                game = make(name)
            except CardkitError:
                # A registered game that needs options to be made cannot be offered
                # with defaults; rooms of it are still created with its options.
                continue
            out.append(
                {
                    "name": name,
                    "players": game.num_players,
                    "options": game.options,
                    "agents": agent_names(name),
                    "default_agent": default_agent(name),
                }
            )
        return out
