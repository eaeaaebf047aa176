"""Run the web app on uvicorn (``inarow serve``), by default on 127.0.0.1:8000 with the games in the user's
data folder.

Start-up checks everything before it creates anything: the port's range, then the port itself (bound
before the database is opened), then the database (locked for this server alone). Each failure is one
:class:`~inarow.base.errors.InarowError`, which the CLI prints as one line. Binding beyond loopback needs a
pair of keys, the teacher's and the class's (:mod:`inarow.web.roles`): they are made and printed in two
links unless ``--token`` and ``--teacher-token`` give them.

Slow clients cannot hold the server: request headers must arrive within :data:`HEADER_TIMEOUT` seconds,
a whole body within ``body_timeout`` (408 otherwise, see :class:`~inarow.web.middleware.ReadBody`), idle
kept-alive connections close after :data:`KEEP_ALIVE`, one client address may hold at most
:data:`MAX_CLIENT_CONNECTIONS` connections (more are closed as they open), and at most
:data:`MAX_CONNECTIONS` connections are open at once (more get 503). So one client, however many slow
connections it opens, cannot take the server from the others.
"""

from __future__ import annotations

import asyncio
import socket
import string
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

import platformdirs
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from inarow.base.errors import InarowError
from inarow.base.i18n import N_, _
from inarow.play.players import DEFAULT_THINK_TIME
from inarow.values.store import Store
from inarow.web.app import Settings, create_app
from inarow.web.middleware import is_loopback
from inarow.web.roles import Keys, make_key

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers once it has connected or begun a request."""

KEEP_ALIVE = 5
"""Seconds an idle kept-alive connection stays open."""

MAX_CONNECTIONS = 256
"""Open connections (and requests in flight) beyond which the server answers 503."""

MAX_CLIENT_CONNECTIONS = 64
"""Open connections one client address may hold; the next one it opens is closed at once. A browser opens
about 6 per server; ``bench/load.py`` 50 players and 4 teaching clients by default."""


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on a request's headers (a client that connects and sends
    nothing, or half a request line, is cut off after :data:`HEADER_TIMEOUT` seconds) and a cap on the
    connections of one client address (:data:`MAX_CLIENT_CONNECTIONS`)."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.client is not None:
            address = self.client[0]
            held = sum(1 for c in self.connections if _client_address(c) == address)
            if held > MAX_CLIENT_CONNECTIONS:
                transport.close()
                return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._header_timer is None and self.cycle is not None and self.cycle.response_complete:
            self._arm()  # the next request on a kept-alive connection begins
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the headers have arrived: the body has its own timeout

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def _client_address(connection: object) -> str | None:
    """The address of the client of one of uvicorn's connections (None when it has none)."""
    client = getattr(connection, "client", None)
    return str(client[0]) if client else None


def default_db_path() -> Path:
    """Where games are kept unless told otherwise: ``<user data dir>/inarow/games.sqlite3``."""
    return Path(platformdirs.user_data_dir("inarow", appauthor=False)) / "games.sqlite3"


SHUTDOWN_GRACE = 3
"""Seconds a server told to stop (SIGTERM, Ctrl-C) waits for open requests before it closes them; the
search workers are killed with it, so it is gone within 5 s."""

TOKEN_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-._~")
"""What a token may be made of: the characters a URL and a cookie carry as they are (``secrets.token_urlsafe``
makes tokens of these)."""


MIN_TOKEN_LENGTH = 16
"""The shortest token a server starts with: 16 characters of the 66 allowed are some 96 bits, out of reach of
guessing at the few tries a minute the guard allows (:data:`inarow.web.middleware.FAILED_TOKENS`)."""


def check_token(token: str | None) -> None:
    """Refuse a token that would let anyone in (the empty one), one short enough to guess (under
    :data:`MIN_TOKEN_LENGTH` characters), or one that a URL or cookie cannot carry as it is (anything but
    ASCII letters, digits and ``-._~``). Raises :class:`InarowError`."""
    if token is None:
        return
    if not token:
        raise InarowError(
            N_("invalid token '': an empty token would let anyone in; leave out --token to have one made")
        )
    if not set(token) <= TOKEN_CHARACTERS:
        raise InarowError(
            N_("invalid token {token!r}: a token is made of ASCII letters, digits and - . _ ~"), token=token
        )
    if len(token) < MIN_TOKEN_LENGTH:
        raise InarowError(
            N_(
                "invalid token {token!r}: a token has at least {least} characters, so that it cannot be "
                "guessed; leave out --token to have one made"
            ),
            token=token,
            least=MIN_TOKEN_LENGTH,
        )


def own_names() -> tuple[str, ...]:
    """The names of this machine (its host name and fully qualified name), which a server listening on
    every address answers to besides its addresses."""
    return tuple(sorted({name for name in (socket.gethostname(), socket.getfqdn()) if name}))


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening. Raises :class:`InarowError` for a port outside
    1–65535 or one that cannot be had (in use, not allowed)."""
    if not 1 <= port <= 65535:
        raise InarowError(N_("invalid port {port}: expected 1 to 65535"), port=port)
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise InarowError(
            N_("cannot listen on {host}:{port}: {strerror}"), host=host, port=port, strerror=error.strerror
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == 98:
            raise InarowError(
                N_("cannot listen on {host}:{port}: {reason}"),
                reason=N_("the port is in use"),
                host=host,
                port=port,
            ) from None
        raise InarowError(
            N_("cannot listen on {host}:{port}: {reason}"),
            reason="{why}",
            host=host,
            port=port,
            why=error.strerror or str(error),
        ) from None
    sock.set_inheritable(True)
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: Path | None = None,
    open_browser: bool = False,
    *,
    think_time: float = DEFAULT_THINK_TIME,
    workers: int | None = None,
    seed: int | None = None,
    allow_hosts: tuple[str, ...] = (),
    token: str | None = None,
    teacher_token: str | None = None,
) -> None:
    """Serve the app until interrupted; with ``open_browser``, open the page once the server listens.

    ``allow_hosts`` are host names the server answers to besides loopback's, the address it is bound to,
    and when bound to every address (``0.0.0.0``) the machine's names (:func:`own_names`) and the address
    each request came in on; ``token`` the class's key (the students'), ``teacher_token`` the teacher's
    (:mod:`inarow.web.roles`): both made up when binding beyond loopback without them, the one not given
    made up when the other is (an empty one, a short one, one of other characters than
    :data:`TOKEN_CHARACTERS`, or the same key for both, is refused). It prints a link for each.
    """
    check_token(token)
    check_token(teacher_token)
    if token is not None and token == teacher_token:
        raise InarowError(
            N_(
                "invalid keys: --token and --teacher-token are the same; the students' key must not open "
                "the board"
            )
        )
    sock = listen(host, port)
    try:
        path = db or default_db_path()
        store = Store(path, exclusive=True)
    except BaseException:
        sock.close()
        raise
    local = is_loopback(host)
    if not local or token is not None or teacher_token is not None:
        keys = Keys.of(token, teacher_token) if token or teacher_token else Keys(make_key(), make_key())
        token, teacher_token = keys.student, keys.teacher
    hosts = tuple(allow_hosts)
    everywhere = host in ("0.0.0.0", "::", "")
    hosts = (*hosts, *own_names()) if everywhere else (*hosts, host)
    settings = Settings(
        db=path,
        think_time=think_time,
        workers=workers,
        seed=seed,
        hosts=hosts,
        token=token,
        teacher_token=teacher_token,
    )
    config: dict[str, Any] = {
        "log_level": "info",
        "access_log": False,
        "http": GuardedH11Protocol,
        "timeout_keep_alive": KEEP_ALIVE,
        "limit_concurrency": MAX_CONNECTIONS,
        "h11_max_incomplete_event_size": 16 * 1024,
        # SIGTERM: stop waiting for open connections (a page's keep-alive, a slow search) after this.
        "timeout_graceful_shutdown": SHUTDOWN_GRACE,
    }
    server = uvicorn.Server(uvicorn.Config(create_app(settings, store), **config))
    shown = "127.0.0.1" if everywhere else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    if not local:
        warning = _(
            "warning: inarow serve listens on {host}, beyond this machine: anyone who can reach it and has "
            "the class's key can play, see every game and change it. Share the class's link below only with "
            "your students, and keep the teacher's to yourself; other host names are refused unless given "
            "with --allow-host."
        )
        print(warning.format(host=host), file=sys.stderr, flush=True)
    print(_("inarow: games kept in {path}").format(path=path), flush=True)
    if token is not None and teacher_token is not None:
        teacher = f"{url}class?token={teacher_token}"
        print(_("inarow: the class opens {url}").format(url=f"{url}?token={token}"), flush=True)
        print(_("inarow: the teacher opens {url}").format(url=teacher), flush=True)
        url = teacher
    else:
        print(_("inarow: open {url}").format(url=url), flush=True)
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    threading.Thread(target=_import_book, name="inarow-book-import", daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def _import_book() -> None:
    """Import Connect Four's opening book into the user's data folder when it is missing (on first use,
    as every command does), beside the server: until it is there, early positions are searched."""
    from inarow.base.errors import BookError
    from inarow.engines.books import bitbully

    def starting() -> None:
        print(_("inarow: importing Connect Four's opening book (once per install, about 5 s)…"), flush=True)

    try:
        imported = bitbully.import_missing(bitbully.CONNECT4, starting=starting)
    except (BookError, OSError) as error:  # OSError: a data folder that cannot be written, a full disk
        said = error.said() if isinstance(error, BookError) else str(error)
        print(_("inarow: going on without Connect Four's opening book: {error}").format(error=said))
        return
    if imported is not None:
        print(_("inarow: Connect Four's opening book is imported into {path}").format(path=imported[0]))


def _open_when_started(server: uvicorn.Server, url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started and not server.should_exit and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)
