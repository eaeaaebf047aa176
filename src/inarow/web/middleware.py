"""ASGI middleware of the web app: the trust boundary (:class:`Guard`) and whole bodies read up front
(:class:`ReadBody`)."""

from __future__ import annotations

import asyncio
import html
import ipaddress
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from fastapi.responses import HTMLResponse, JSONResponse
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from inarow.base import i18n
from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.web.roles import RANK, Keys, route_role

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

CSP_TAIL = (
    b"style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HELP_HEADERS = (
    # The docs site under /help/ is MkDocs Material's, whose pages carry small inline scripts of their own.
    (b"content-security-policy", b"default-src 'self'; script-src 'self' 'unsafe-inline'; " + CSP_TAIL),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

SECURITY_HEADERS = (
    (
        b"content-security-policy",
        # 'wasm-unsafe-eval': the lab's Python (Pyodide) is WebAssembly, compiled by the page's worker.
        b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

SANDBOX = "/lab/sandbox.html"
"""The lab's sandbox (``static/sandbox.html``), which the page loads into an
``<iframe sandbox="allow-scripts">`` to run students' code in an opaque origin: its policy is
:func:`sandbox_headers`'."""

LAB_FILES = ("/lab/pyodide/", "/lab/inarow.zip", "/static/js/lab-worker.js")
"""What the sandbox's worker loads (path prefixes): answered with ``Access-Control-Allow-Origin: *``, since
an opaque origin's requests for module scripts and fetches are cross-origin (and carry no cookie: these
files are public)."""


def sandbox_headers(origin: str) -> tuple[tuple[bytes, bytes], ...]:
    """The headers of the sandbox document for the server at ``origin`` (``http://host:port``): a policy
    that lets it run its own script, start the worker from a blob: and load the lab's files from
    ``origin`` (module scripts, WebAssembly), and nothing else — no request to the API, no other host; a
    worker started from a blob: has its creator's policy. Framed only by the server's own pages."""
    policy = (
        f"default-src 'none'; script-src {origin}/static/js/sandbox.js {origin}/static/js/lab-worker.js "
        f"{origin}/lab/pyodide/ 'wasm-unsafe-eval'; worker-src blob:; "
        f"connect-src {origin}/lab/pyodide/ {origin}/lab/inarow.zip; "
        f"base-uri 'none'; form-action 'none'; frame-ancestors {origin}"
    )
    return (
        (b"content-security-policy", policy.encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    )


def _headers_for(scope: Scope, host: str) -> tuple[tuple[bytes, bytes], ...]:
    """The security headers of an answer to ``scope`` (whose ``Host``, checked, is ``host``)."""
    path: str = scope["path"]
    if path.startswith("/help/"):
        return HELP_HEADERS
    if path == SANDBOX:
        host = host.strip().lower()
        if not re.fullmatch(r"[a-z0-9.:\[\]-]+", host) or scope.get("scheme") not in ("http", "https"):
            return ((b"content-security-policy", b"default-src 'none'"),)  # no origin to name: nothing loads
        return sandbox_headers(f"{scope['scheme']}://{host}")
    if path.startswith(LAB_FILES):
        return (*SECURITY_HEADERS, (b"access-control-allow-origin", b"*"))
    return SECURITY_HEADERS


FAILED_TOKENS = RateLimitItemPerMinute(10)
"""The wrong tokens one client may send in a minute before its requests are answered 429."""

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


KEY_REQUIRED = N_(
    "this server needs its key: open the link inarow serve printed (with ?token=…), or send the header "
    "X-Inarow-Token"
)
TEACHER_ONLY = N_(
    "this is the teacher's: the class link opens the game and the lab, not the class board, its sources, "
    "exam keys or settings; the teacher opens it with the teacher's link inarow serve printed"
)
TOO_MANY = N_("too many wrong keys from this address: retry in {seconds} s")

REFUSAL_PAGE = (
    '<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>inarow — {title}</title>'
    '<link rel="stylesheet" href="/static/style.css"></head><body><main class="refusal">'
    '<h1>{title}</h1><p data-testid="refusal">{detail}</p><p><a href="/">inarow</a></p></main></body></html>'
)


def _language(scope: Scope, headers: dict[bytes, str]) -> str:
    """The language of a refusal: the page's ``?lang=`` when it has one, else the browser's."""
    query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
    wanted = next((value for name, value in query if name == "lang"), "")
    return i18n.from_accept_language(wanted[:35] or headers.get(b"accept-language"))


async def _refuse(
    send: Send,
    scope: Scope,
    headers: dict[bytes, str],
    status: int,
    error: InarowError,
    extra: Iterable[tuple[str, str]] = (),
) -> None:
    """Refuse the request with ``error`` in the reader's language: JSON (``detail``, ``reason``) to the API
    and to programs, a page to a browser opening a page."""
    language = _language(scope, headers)
    with i18n.language(language):
        detail, reason = error.said(), error.reason_said()
    path: str = scope.get("path", "")
    if path.startswith("/api/") or "text/html" not in headers.get(b"accept", ""):
        await _answer(send, status, detail, reason, extra)
        return
    page = REFUSAL_PAGE.format(
        lang="zh-CN" if language.startswith("zh") else "en",
        title=html.escape(reason),
        detail=html.escape(detail),
    )
    response = HTMLResponse(page, status_code=status, headers=dict(extra))
    await response({"type": "http"}, _no_receive, send)


class Guard:
    """The trust boundary, like Jupyter's.

    - A request whose ``Host`` is not one of ``hosts``, nor the address the request came in on (the
      machine's own address, when the server listens on every address), gets 403 (DNS rebinding: a page
      elsewhere reaches this server under its own host name).
    - A state-changing request (POST…) whose ``Origin`` is not the server itself gets 403 (another site's
      page posting to this one).
    - With ``keys`` (:class:`~inarow.web.roles.Keys`), every route needs the role
      :data:`~inarow.web.roles.ROLES` gives it: a key in the ``X-Inarow-Token`` header, an ``Authorization:
      Bearer`` header, or the cookie set when a page was opened with ``?token=`` (any page: the link opens
      it, sets the cookie and loses the key from the address). Keys are compared as bytes in constant time,
      whatever characters a client sends. A request without the role's key gets 403 in the reader's
      language (a page to a browser, JSON to the API): "this server needs its key", or to a student on a
      teacher's route "this is the teacher's".
    - Wrong keys are throttled per client address: past :data:`FAILED_TOKENS` in a minute (a moving window
      of the ``limits`` library), a request carrying a wrong key gets 429. A request carrying a right key
      is never refused for it, whoever else guessed wrong from the same address (forty phones behind one
      classroom's NAT share one): with keys of 96 bits and more, guessing is hopeless anyway, and the
      throttle only keeps a guesser from being answered at full speed.
    - Every answer carries a content-security policy that forbids framing and scripts from elsewhere; the
      lab's sandbox document (:data:`SANDBOX`) has a stricter one of its own, framed by the server's pages.
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str], keys: Keys | None = None) -> None:
        self.app = app
        self.hosts = frozenset(host_name(h) for h in hosts)
        self.keys = keys or Keys()
        self.failures = MovingWindowRateLimiter(MemoryStorage())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = _headers_for(scope, headers.get(b"host", ""))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        host = headers.get(b"host", "")
        if host_name(host) not in self.hosts and not _is_own_address(host_name(host), scope.get("server")):
            said = InarowError(
                N_(
                    "host {host!r} is not allowed: this server answers to {names}; start inarow serve with "
                    "--allow-host NAME to add a name"
                ),
                host=host,
                names=", ".join(sorted(self.hosts)),
                reason=N_("host not allowed"),
            )
            await _refuse(secured_send, scope, headers, 403, said)
            return
        origin = headers.get(b"origin")
        if scope["method"] in STATE_CHANGING and origin is not None:
            netloc = urlsplit(origin).netloc.lower()
            if origin == "null" or netloc != host.strip().lower():
                said = InarowError(
                    N_("origin {origin!r} is not allowed: only pages served by this server may change games"),
                    origin=origin,
                    reason=N_("origin not allowed"),
                )
                await _refuse(secured_send, scope, headers, 403, said)
                return
        if self.keys.open:
            await self.app(scope, receive, secured_send)
            return
        needed = route_role(scope["method"], scope.get("path", ""))
        client = str((scope.get("client") or ("",))[0])
        wrong = False
        if scope["method"] in ("GET", "HEAD"):
            query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
            from_url = next((value for name, value in query if name == "token"), None)
            if from_url is not None and self.keys.role_of(from_url) is not None:
                kept = [(name, value) for name, value in query if name != "token"]
                await self._set_cookie(secured_send, scope, urlencode(kept), from_url)
                return
            wrong = from_url is not None
        given = self._token_of(scope, headers)
        role = self.keys.role_of(given) if given is not None else None
        wrong = wrong or (given is not None and role is None)
        if RANK[role or "public"] >= RANK[needed]:
            await self.app(scope, receive, secured_send)
            return
        if wrong and not self.failures.hit(FAILED_TOKENS, client):
            seconds = FAILED_TOKENS.get_expiry()
            said = InarowError(TOO_MANY, seconds=seconds, reason=N_("too many wrong tokens"))
            await _refuse(secured_send, scope, headers, 429, said, [("Retry-After", str(seconds))])
            return
        if role == "student":
            said = InarowError(TEACHER_ONLY, reason=N_("the teacher's key required"))
        else:
            said = InarowError(KEY_REQUIRED, reason=N_("token required"))
        await _refuse(secured_send, scope, headers, 403, said)

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

    @staticmethod
    async def _set_cookie(send: Send, scope: Scope, query: str, key: str) -> None:
        # The key moves from the URL to a cookie the page's requests carry; the URL loses it and keeps
        # every other parameter (a link to a tree, a position, the student's panel, a class).
        path = quote(scope.get("path", "/") or "/")
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", (path + "?" + query if query else path).encode("latin-1")),
                    (b"set-cookie", cookie_header(key)),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


def cookie_header(key: str) -> bytes:
    """The ``Set-Cookie`` value that keeps ``key`` for the pages of this server. ``SameSite=Lax``, not
    ``Strict``: a class link clicked on another site (a course page, a chat) is a cross-site navigation, and
    the page the link redirects to would not get a strict cookie; another site's POST still gets none
    (besides the ``Origin`` check)."""
    return f"{TOKEN_COOKIE}={key}; Path=/; HttpOnly; SameSite=Lax".encode("latin-1")


class ReadBody:
    """ASGI middleware that reads a request's whole body before the app sees it: a body over ``limit``
    bytes (declared or streamed in chunks) gets 413 and a body that has not arrived whole ``timeout``
    seconds after its headers gets 408 (however it trickles in), both before any route runs — so a refused
    body never changed anything, and a client sending a byte now and then holds a connection ``timeout``
    seconds at most. ``larger`` gives some paths a limit of their own (a submission to the class board
    carries a student's whole source), sized by their routes from their fields' limits."""

    def __init__(
        self, app: ASGIApp, limit: int, timeout: float = 10.0, larger: Mapping[str, int] | None = None
    ) -> None:
        self.app, self.default, self.timeout = app, limit, timeout
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.default)
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await self._too_large(send, limit)
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
                    if size > limit:
                        await self._too_large(send, limit)
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

    async def _too_large(self, send: Send, limit: int) -> None:
        await _answer(
            send,
            413,
            f"request body too large: at most {limit} bytes",
            "request body too large",
        )


async def _no_receive() -> Message:  # pragma: no cover - a JSONResponse never reads
    return {"type": "http.disconnect"}
