"""The rooms server's ASGI app (Starlette): an HTTP API for games and rooms, one
WebSocket per player or spectator, and the browser table as static files.

The HTTP API and the WebSocket protocol are described in ``docs/play.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Mapping
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardkit.server.rooms import Client, Room, RoomError, Rooms, ServerConfig, log
from cardkit.server.store import Store

__all__ = ["create_app"]

# A first message must come this soon after the WebSocket opens.
_HELLO_TIMEOUT = 30.0
# WebSocket close codes: the 4000 range is the application's own.
_CLOSE_REFUSED = 4403
_CLOSE_NOT_FOUND = 4404
# The page runs only its own script and talks only to its own server: even a name
# that slipped into markup could not load or send anything elsewhere.
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _error(exc: RoomError) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, exc.status)


def _frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


class _RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of twice that."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = 2 * rate
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server as an ASGI app; run it with uvicorn (``cardkit serve`` does)."""
    config = config or ServerConfig()
    static = resources.files("cardkit.server") / "static"
    holder: dict[str, Rooms] = {}

    def rooms() -> Rooms:
        return holder["rooms"]

    async def read_json(request: Request) -> Any:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > config.max_message_bytes:
                raise RoomError(
                    "too_large", f"a request body is at most {config.max_message_bytes} bytes", 413
                )
        if not body:
            return {}
        try:
            return json.loads(body)
        except (ValueError, RecursionError) as exc:
            raise RoomError("bad_json", f"the body is not JSON: {exc}") from exc

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), headers=_PAGE_HEADERS)

    async def list_games(request: Request) -> Response:
        return JSONResponse({"games": Rooms.games()})

    async def list_rooms(request: Request) -> Response:
        return JSONResponse({"rooms": rooms().public()})

    async def create_room(request: Request) -> Response:
        try:
            body = await read_json(request)
            if not isinstance(body, dict):
                raise RoomError("bad_request", "the body is a JSON object")
            unknown = set(body) - {"game", "options", "seats", "private"}
            if unknown:
                raise RoomError("bad_request", f"unknown fields: {', '.join(sorted(unknown))[:80]}")
            room = await rooms().create(
                body.get("game"), body.get("options"), body.get("seats"), body.get("private", False)
            )
        except RoomError as exc:
            return _error(exc)
        return JSONResponse(room.info(), 201)

    async def get_room(request: Request) -> Response:
        try:
            return JSONResponse(rooms().get(request.path_params["code"]).info())
        except RoomError as exc:
            return _error(exc)

    async def join_room(request: Request) -> Response:
        try:
            room = rooms().get(request.path_params["code"])
            body = await read_json(request)
            if not isinstance(body, dict):
                raise RoomError("bad_request", "the body is a JSON object")
            seat, token = await rooms().join(room, body.get("seat"), body.get("name", ""))
        except RoomError as exc:
            return _error(exc)
        return JSONResponse({"code": room.code, "seat": seat, "token": token})

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        send_lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with send_lock:
                await websocket.send_text(json.dumps(message))

        try:
            room = rooms().get(websocket.path_params["code"])
        except RoomError as exc:
            await send(_frame(exc.code, str(exc)))
            await websocket.close(_CLOSE_NOT_FOUND)
            return
        try:
            client = await _hello(websocket, room, send)
        except (RoomError, WebSocketDisconnect, TimeoutError) as exc:
            if isinstance(exc, RoomError):
                await send(_frame(exc.code, str(exc)))
            with contextlib.suppress(Exception):
                await websocket.close(_CLOSE_REFUSED)
            return
        limit = _RateLimit(config.rate_limit)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                await _handle(message, room, client, limit, send)
        except WebSocketDisconnect:
            return
        finally:
            await rooms().disconnect(room, client)

    async def _hello(websocket: WebSocket, room: Room, send: Any) -> Client:
        message = await asyncio.wait_for(websocket.receive(), _HELLO_TIMEOUT)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect()
        data = _parse(message, config.max_message_bytes)
        if data.get("type") != "hello":
            raise RoomError("hello_first", 'the first message is {"type": "hello"}')
        token = data.get("token")
        seat = None if token is None else rooms().seat_of(room, token)
        client = Client(send, seat)
        await rooms().connect(room, client)
        return client

    async def _handle(
        message: Mapping[str, Any], room: Room, client: Client, limit: _RateLimit, send: Any
    ) -> None:
        try:
            if not limit.allow():
                raise RoomError("rate_limited", f"at most {config.rate_limit:g} messages a second")
            data = _parse(message, config.max_message_bytes)
            kind = data.get("type")
            if kind == "act":
                await rooms().act(room, client, data.get("action"), data.get("ply"))
            elif kind == "restart":
                await rooms().restart(room, client)
            elif kind == "ping":
                await send({"type": "pong"})
            else:
                raise RoomError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
        except RoomError as exc:
            await send(_frame(exc.code, str(exc)))
        except WebSocketDisconnect:
            raise
        except Exception:
            # A bug must cost one error frame, not the connection or the server.
            log.exception("message of a client of room %s failed", room.code)
            await send(_frame("internal_error", "the server could not handle this message"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(config.db)
        manager = holder["rooms"] = Rooms(store, config)
        manager.load()
        manager.expire()

        async def expire_loop() -> None:
            while True:
                await asyncio.sleep(min(60.0, max(0.05, config.idle_expiry / 4)))
                manager.expire()

        expiry = asyncio.get_running_loop().create_task(expire_loop())
        try:
            yield
        finally:
            expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await expiry
            await manager.close()
            store.close()

    routes = [
        Route("/", index),
        Route("/api/games", list_games),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", get_room),
        Route("/api/rooms/{code}/join", join_room, methods=["POST"]),
        WebSocketRoute("/ws/{code}", play),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _parse(message: Mapping[str, Any], max_bytes: int) -> dict[str, Any]:
    """A client's WebSocket message as a JSON object, else a typed error."""
    text = message.get("text")
    if text is None:
        raise RoomError("bad_json", "messages are JSON text frames")
    if len(text.encode("utf-8", "replace")) > max_bytes:
        raise RoomError("too_large", f"a message is at most {max_bytes} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RoomError("bad_json", f"not JSON: {str(exc)[:80]}") from exc
    if not isinstance(data, dict):
        raise RoomError("bad_json", "a message is a JSON object with a type")
    return data
