"""The web client (``client/web``) served by the local stack, on a port of its own.

A browser loads ES modules only over HTTP (not from ``file://``), with a JavaScript content type,
so the local stack serves the client's directory as it is, nothing built:

* ``GET /`` is ``index.html``; ``GET /<path>`` the file at that path under the root (a directory
  its ``index.html``). A path that leaves the root (``..``, a symbolic link pointing outside), a
  hidden name (``.git``) or a file that is not there answers 404; the server starts whether or
  not the root exists yet.
* ``GET /config.json`` is generated (`config`): where the stack is, for the page to find it.
* ``POST /_local/token`` with ``{"name": "ana"}`` (1 to 20 of ``a-z 0-9 -``) signs in a local
  player (`token`, run in a worker thread) and answers ``{"token": <ID token>, "name": "ana"}``;
  a bad body answers 400 ``{"message": ...}``. The local stack's shortcut only: a deployed client
  signs in with Cognito.
* ``POST /_local/pay`` with the player's token in ``Authorization`` and ``{"offerId", "giftTo"?,
  "key"}`` (`pay`, devstack.payments): what the payment provider would send once that checkout was
  paid, delivered to the stack's webhook; its answer (``{"received": true, "handled": ...}``). A
  refusal answers its status with ``{"message": ...}``. Local only: the shop's stand-in for the
  payment page.

Every answer carries ``Cache-Control: no-store``: an edited file shows at the next reload.
"""

from __future__ import annotations

import asyncio
import json
import logging
import mimetypes
import re
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any, Final

from aiohttp import web

__all__ = ["CONTENT_TYPES", "PLAYER_NAME", "LocalWebServer", "static_file"]

logger = logging.getLogger(__name__)

CONTENT_TYPES: Final[Mapping[str, str]] = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    # What an ES module must be served as (the HTML standard's JavaScript MIME type).
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".txt": "text/plain; charset=utf-8",
}
"""Content types by file suffix; others are guessed (`mimetypes`), else octet-stream."""

PLAYER_NAME: Final = re.compile(r"[a-z0-9-]{1,20}")
"""The names `POST /_local/token` signs in."""

CONFIG_PATH: Final = "/config.json"
TOKEN_PATH: Final = "/_local/token"
PAY_PATH: Final = "/_local/pay"
PAY_KEY: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
_NO_STORE: Final = "no-store"
_BODY_LIMIT: Final = 64 * 1024

ConfigSource = Callable[[], Mapping[str, Any]]
"""``config()``: what ``GET /config.json`` answers (a JSON object)."""

TokenSource = Callable[[str], str]
"""``token(name)``: an ID token for the local player `name` (blocking: it may register them)."""

PaySource = Callable[[str, str, str | None, str], Mapping[str, Any]]
"""``pay(token, offer_id, gift_to, key)``: a simulated payment's webhook answer (blocking); raises
devstack.payments.PaymentRefusedError."""


def content_type(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def static_file(root: Path, request_path: str) -> Path | None:
    """The file under `root` that `request_path` (a URL path, percent-decoded) names, or None.

    None when a segment is ``..``, ``.``, hidden (starts with a dot) or holds a backslash or a NUL,
    when the path resolved (symbolic links followed) leaves the resolved root, and when there is
    no such file. A directory (``/`` the root) stands for its ``index.html``.
    """
    parts = [part for part in request_path.split("/") if part]
    if any(part.startswith(".") or "\\" in part or "\0" in part for part in parts):
        return None
    base = root.resolve()
    candidate = base.joinpath(*PurePosixPath(*parts).parts) if parts else base
    try:
        resolved = candidate.resolve(strict=True)
        if resolved.is_dir():
            resolved = (resolved / "index.html").resolve(strict=True)
    except (OSError, RuntimeError):  # missing, a loop of links, a name too long
        return None
    if not resolved.is_relative_to(base) or not resolved.is_file():
        return None
    return resolved


def _json_message(status: int, message: str) -> web.Response:
    return web.json_response({"message": message}, status=status)


class LocalWebServer:
    """Serves `root` (static files), ``/config.json`` (`config`) and ``/_local/token`` (`token`)
    on ``http://host:port/``; ``port=0`` takes a free one. ``await start()`` / ``await stop()``
    on a running loop (the local stack runs it on its gateway's)."""

    def __init__(
        self,
        root: Path,
        *,
        config: ConfigSource,
        token: TokenSource,
        pay: PaySource | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.root = root
        self.config = config
        self.token = token
        self.pay = pay
        self.host = host
        self.requested_port = port
        self._runner: web.AppRunner | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The bound port (after `start`)."""
        if self._port is None:
            raise RuntimeError("the web server is not started")
        return self._port

    @property
    def url(self) -> str:
        """``http://host:port/``, the page's address."""
        return f"http://{self.host}:{self.port}/"

    @property
    def running(self) -> bool:
        return self._runner is not None

    async def start(self) -> None:
        """Bind the port and serve; returns once listening."""
        if self._runner is not None:
            raise RuntimeError("the web server is already started")
        app = web.Application(client_max_size=_BODY_LIMIT)
        app.on_response_prepare.append(self._no_store)
        app.router.add_get(CONFIG_PATH, self._config)
        app.router.add_post(TOKEN_PATH, self._token)
        if self.pay is not None:
            app.router.add_post(PAY_PATH, self._pay)
        app.router.add_get("/{path:.*}", self._file)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.requested_port, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="local-web")
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        if not (self.root / "index.html").is_file():
            logger.warning("no %s yet: the web client answers 404", self.root / "index.html")
        logger.info("local web client at %s (from %s)", self.url, self.root)

    async def stop(self) -> None:
        """Unbind; a sign-in under way is left to its worker thread."""
        if self._runner is None:
            return
        await self._runner.cleanup()
        self._runner = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._port = None
        logger.info("local web client stopped")

    # ---------------------------------------------------------------------------- handlers

    @staticmethod
    async def _no_store(request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Cache-Control"] = _NO_STORE
        response.headers.setdefault("X-Content-Type-Options", "nosniff")

    async def _blocking[T](self, function: Callable[..., T], *args: Any) -> T:
        if self._executor is None:
            raise web.HTTPServiceUnavailable(text="the web server is stopping")
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    async def _file(self, request: web.Request) -> web.StreamResponse:
        path = static_file(self.root, request.match_info["path"])
        if path is None:
            return web.Response(status=404, text="404: Not Found")
        try:
            body = await self._blocking(path.read_bytes)
        except OSError:  # gone since
            return web.Response(status=404, text="404: Not Found")
        return web.Response(body=body, headers={"Content-Type": content_type(path)})

    async def _config(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(dict(self.config()))

    async def _token(self, request: web.Request) -> web.StreamResponse:
        try:
            body = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            return _json_message(400, 'the body is JSON: {"name": "ana"}')
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str) or not PLAYER_NAME.fullmatch(name):
            return _json_message(400, "name: 1 to 20 of a-z, 0-9 and -")
        try:
            token = await self._blocking(self.token, name)
        except web.HTTPException:
            raise
        except Exception as error:
            logger.exception("no token for local player %s", name)
            return _json_message(500, f"no token for {name}: {error}")
        return web.json_response({"token": token, "name": name})

    async def _pay(self, request: web.Request) -> web.StreamResponse:
        assert self.pay is not None
        token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not token:
            return _json_message(401, "sign in first: the Authorization header holds your token")
        try:
            body = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            body = None
        offer = body.get("offerId") if isinstance(body, dict) else None
        gift_to = body.get("giftTo") if isinstance(body, dict) else None
        key = body.get("key") if isinstance(body, dict) else None
        if (
            not isinstance(offer, str)
            or not (gift_to is None or isinstance(gift_to, str))
            or not isinstance(key, str)
            or not PAY_KEY.fullmatch(key)
        ):
            return _json_message(400, 'the body is JSON: {"offerId": "pack-500", "key": "k1"}')
        # Loaded only when asked: the web server itself needs no payment code.
        from devstack.payments import PaymentRefusedError  # noqa: PLC0415

        try:
            answer = await self._blocking(self.pay, token, offer, gift_to or None, key)
        except PaymentRefusedError as refused:
            return _json_message(refused.status, str(refused))
        return web.json_response(dict(answer))
