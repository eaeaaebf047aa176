"""ASGI middleware of the web app: the trust boundary (:class:`Guard`) and whole bodies read up front
(:class:`ReadBody`)."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import math
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fastapi.responses import JSONResponse
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The names a server bound to loopback answers to: a page elsewhere cannot reach it through DNS
rebinding, since its requests carry that page's host name."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback name or address (only this machine can connect)."""
    if host.lower() in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


TOKEN_COOKIE = "inarow_token"
TOKEN_HEADER = b"x-inarow-token"

WRONG_TOKENS = "10/minute"
"""How many wrong tokens one client address may send in a moving window before its guarded requests get
429 until the window has moved past them (a ``limits`` rate)."""

SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def host_name(value: str) -> str:
    """The host of a ``Host`` header or an origin's netloc, lowercased, without port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") > 1:  # a bare IPv6 address
        return value
    return value.rsplit(":", 1)[0] if ":" in value else value


def _is_own_address(host: str, server: Any) -> bool:
    """Whether ``host`` (a ``Host`` header's name) is the address the request came in on, ``server`` in the
    ASGI scope: a client that names the server by the address it reached it at (an IPv4 address seen
    through a dual-stack socket as ``::ffff:a.b.c.d`` too)."""
    if not server:
        return False
    try:
        named, local = ipaddress.ip_address(host), ipaddress.ip_address(str(server[0]).split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(local, ipaddress.IPv6Address) and local.ipv4_mapped is not None:
        local = local.ipv4_mapped
    return named == local


async def _answer(
    send: Send, status: int, detail: str, reason: str, headers: Iterable[tuple[str, str]] = ()
) -> None:
    response = JSONResponse({"detail": detail, "reason": reason}, status_code=status, headers=dict(headers))
    await response({"type": "http"}, _no_receive, send)


def _client_address(scope: Scope) -> str:
    """The address a request came from (the key its wrong tokens are counted under)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def _without_token(query: str) -> str:
    """A URL's query string as it came, less its ``token`` parameters."""
    return "&".join(part for part in query.split("&") if part and part.split("=", 1)[0] != "token")


class Guard:
    """The trust boundary, like Jupyter's.

    - A request whose ``Host`` is not one of ``hosts``, nor the address the request came in on (the
      machine's own address, when the server listens on every address), gets 403 (DNS rebinding: a page
      elsewhere reaches this server under its own host name).
    - A state-changing request (POST…) whose ``Origin`` is not the server itself gets 403 (another site's
      page posting to this one).
    - With a ``token``, every API request must carry it: the ``X-Inarow-Token`` header, an
      ``Authorization: Bearer`` header, or the cookie set when the page was opened with ``?token=``;
      tokens are compared as bytes in constant time, whatever characters a client sends.
      A client address that sent :data:`WRONG_TOKENS` wrong tokens gets 429 with ``Retry-After`` on every
      guarded request for a while (other clients, and the right token from them, are not held up).
    - Every answer carries a content-security policy that forbids framing and scripts from elsewhere.
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str], token: str | None = None) -> None:
        self.app = app
        self.hosts = frozenset(host_name(h) for h in hosts)
        self.token = token
        self._wrong = MovingWindowRateLimiter(MemoryStorage())
        self._wrong_limit = parse(WRONG_TOKENS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        host = headers.get(b"host", "")
        if host_name(host) not in self.hosts and not _is_own_address(host_name(host), scope.get("server")):
            await _answer(
                secured_send,
                403,
                f"host {host!r} is not allowed: this server answers to {', '.join(sorted(self.hosts))}; "
                "start inarow serve with --allow-host NAME to add a name",
                "host not allowed",
            )
            return
        origin = headers.get(b"origin")
        if scope["method"] in STATE_CHANGING and origin is not None:
            netloc = urlsplit(origin).netloc.lower()
            if origin == "null" or netloc != host.strip().lower():
                await _answer(
                    secured_send,
                    403,
                    f"origin {origin!r} is not allowed: only pages served by this server may change games",
                    "origin not allowed",
                )
                return
        path: str = scope.get("path", "")
        if self.token is not None:
            given = self._token_of(scope, headers)
            guarded = path.startswith(("/api/", "/docs", "/openapi")) or path == "/"
            client = _client_address(scope)
            if guarded and not self._wrong.test(self._wrong_limit, client):
                reset = self._wrong.get_window_stats(self._wrong_limit, client).reset_time
                seconds = max(1, math.ceil(reset - time.time()))
                await _answer(
                    secured_send,
                    429,
                    f"too many wrong tokens from this address: try again in {seconds} s",
                    "too many wrong tokens",
                    [("retry-after", str(seconds))],
                )
                return
            if path == "/" and given is None:
                raw = scope.get("query_string", b"").decode("latin-1")
                from_url = parse_qs(raw).get("token", [None])[0]
                if from_url is not None:
                    if self._is_token(from_url):
                        await self._set_cookie(secured_send, _without_token(raw))
                        return
                    self._wrong.hit(self._wrong_limit, client)
            elif guarded and given is not None and not self._is_token(given):
                self._wrong.hit(self._wrong_limit, client)
            if guarded and (given is None or not self._is_token(given)):
                await _answer(
                    secured_send,
                    403,
                    "this server needs its token: open the URL inarow serve printed (with ?token=…), or send "
                    "the header X-Inarow-Token",
                    "token required",
                )
                return
        await self.app(scope, receive, secured_send)

    def _is_token(self, given: str) -> bool:
        """Whether ``given`` is the token, compared as UTF-8 bytes in constant time (any string a client
        sends can be compared: none raises)."""
        assert self.token is not None
        return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), self.token.encode("utf-8"))

    @staticmethod
    def _token_of(scope: Scope, headers: dict[bytes, str]) -> str | None:
        if TOKEN_HEADER in headers:
            return headers[TOKEN_HEADER]
        authorization = headers.get(b"authorization", "")
        if authorization.lower().startswith("bearer "):
            return authorization[7:].strip()
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get(b"cookie", ""))
        except Exception:  # a malformed cookie header is no token
            return None
        return cookie[TOKEN_COOKIE].value if TOKEN_COOKIE in cookie else None

    async def _set_cookie(self, send: Send, query: str) -> None:
        # The token moves from the URL to a cookie the page's requests carry, and the URL loses it (and
        # keeps every other parameter: a link to a tree or a position opens it).
        location = "/" + (f"?{query}" if query else "")
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", location.encode("latin-1")),
                    (
                        b"set-cookie",
                        f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode("latin-1"),
                    ),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


class ReadBody:
    """ASGI middleware that reads a request's whole body before the app sees it: a body over ``limit``
    bytes (declared or streamed in chunks) gets 413 and a body that has not arrived whole ``timeout``
    seconds after its headers gets 408 (however it trickles in), both before any route runs — so a refused
    body never changed anything, and a client sending a byte now and then holds a connection ``timeout``
    seconds at most."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._too_large(send)
                return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.limit:
                        await self._too_large(send)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _answer(
                send,
                408,
                f"the request body did not arrive in time: a body must arrive whole within "
                f"{self.timeout:g} seconds",
                "the request body did not arrive in time",
                [("Connection", "close")],
            )
            return
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            # The body once, then whatever the server sends (a disconnect, when the client goes away).
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        await _answer(
            send,
            413,
            f"request body too large: at most {self.limit} bytes",
            "request body too large",
        )


async def _no_receive() -> Message:  # pragma: no cover - a JSONResponse never reads
    return {"type": "http.disconnect"}
