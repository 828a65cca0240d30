"""The rooms server behind ``cardkit serve``: people and cardkit agents at one table,
over WebSockets, with every room kept in SQLite.

Install it with ``pip install 'cardkit[server]'`` (Starlette, uvicorn, websockets,
rich). :func:`create_app` builds the ASGI app, :func:`serve` runs it with uvicorn;
``docs/play.md`` describes the HTTP API, the WebSocket protocol and what the store
guarantees.
"""

from __future__ import annotations

from cardkit.server.app import create_app
from cardkit.server.rooms import RoomError, Rooms, ServerConfig
from cardkit.server.store import Store

__all__ = ["RoomError", "Rooms", "ServerConfig", "Store", "create_app", "serve"]


def serve(config: ServerConfig | None = None, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server with uvicorn until interrupted (loopback unless ``host`` says
    otherwise)."""
    import uvicorn

    config = config or ServerConfig()
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level="warning",
        # Frames past this are refused by uvicorn itself; smaller oversized ones get
        # the app's own "too_large" error frame.
        ws_max_size=16 * config.max_message_bytes,
    )
