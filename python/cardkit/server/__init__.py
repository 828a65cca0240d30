"""The rooms server behind ``cardkit serve``: people and cardkit agents at one table,
over WebSockets, with every room kept in SQLite.

Install it with ``pip install 'cardkit[server]'`` (Starlette, uvicorn, websockets,
rich). :func:`create_app` builds the ASGI app, :func:`serve` runs it with uvicorn
until interrupted, :class:`BackgroundServer` runs it in a thread of this process
(notebooks, tests, benchmarks); ``docs/play.md`` describes the HTTP API, the
WebSocket protocol and what the store guarantees.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Any

from cardkit.errors import CardkitError
from cardkit.server.app import create_app
from cardkit.server.rooms import RoomError, Rooms, ServerConfig
from cardkit.server.store import Store

__all__ = [
    "BackgroundServer",
    "RoomError",
    "Rooms",
    "ServerConfig",
    "Store",
    "create_app",
    "serve",
]

# Generous: a loaded machine may take seconds to import the app and bind.
_START_TIMEOUT = 60.0


def _uvicorn_config(config: ServerConfig, host: str, port: int) -> Any:
    import uvicorn

    return uvicorn.Config(
        create_app(config),
        host=host,
        port=port,
        log_level="warning",
        # Frames past this are refused by uvicorn itself; smaller oversized ones get
        # the app's own "too_large" error frame.
        ws_max_size=16 * config.max_message_bytes,
    )


def serve(config: ServerConfig | None = None, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server with uvicorn until interrupted (loopback unless ``host`` says
    otherwise)."""
    import uvicorn

    uvicorn.Server(_uvicorn_config(config or ServerConfig(), host, port)).run()


class BackgroundServer:
    """The server running in a daemon thread of this process, as a context manager:
    ``with BackgroundServer(config) as server: ... server.url ...``.

    ``port=0`` (the default) takes a free port; :attr:`url` is the address it got.
    """

    def __init__(
        self, config: ServerConfig | None = None, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        import uvicorn

        self._server = uvicorn.Server(_uvicorn_config(config or ServerConfig(), host, port))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self.host = host
        self.port = port

    @property
    def url(self) -> str:
        """``http://host:port`` of the running server."""
        return f"http://{self.host}:{self.port}"

    def start(self) -> BackgroundServer:
        """Start the server and wait until it accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise CardkitError(f"the server did not start on {self.host}:{self.port}")
            time.sleep(0.02)
        self.port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        """Ask the server to finish and wait for its thread."""
        self._server.should_exit = True
        self._thread.join()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
