"""Who may ask what: the class server's two keys and the role of every route, in one table.

A class server has two keys (:class:`Keys`): the *teacher*'s and the *class*'s (the students'). Either is
taken wherever a key is taken (``?token=`` on any page, the cookie that link sets, the ``X-Inarow-Token``
header, ``Authorization: Bearer``); the teacher's opens everything, the class's what :data:`ROLES` gives
students. A server without keys (loopback, no ``--token``) has one person, who is both.

:data:`ROLES` assigns every route of the app (method and path, as FastAPI writes the path) one role:

- ``public``: no key needed (the page's files, Pyodide, the help pages, the catalogs);
- ``student``: either key (playing, the lab, one's own submissions);
- ``teacher``: the teacher's key alone (the class board with its sources, the CSV, clearing and releasing
  rows, the roster, the teacher's verdicts, exam sheets with their keys, turning the keys over).

``tests/web/test_roles.py`` walks the app's routes: a route missing from the table fails it.
"""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Literal

from starlette.routing import compile_path

Role = Literal["public", "student", "teacher"]

RANK: dict[Role, int] = {"public": 0, "student": 1, "teacher": 2}

ROLES: dict[tuple[str, str], Role] = {
    # the page, its files and its words
    ("GET", "/"): "student",
    ("GET", "/static"): "public",
    ("GET", "/i18n/{tags}.json"): "public",
    ("GET", "/glossary"): "public",
    ("GET", "/help"): "public",
    ("GET", "/help/{path:path}"): "public",
    ("GET", "/docs"): "student",
    ("GET", "/openapi.json"): "student",
    ("GET", "/api/health"): "student",
    ("GET", "/api/menus"): "student",
    # playing
    ("POST", "/api/games"): "student",
    ("GET", "/api/games"): "student",
    ("GET", "/api/games/{game_id}"): "student",
    ("POST", "/api/games/{game_id}/moves"): "student",
    ("POST", "/api/games/{game_id}/undo"): "student",
    ("DELETE", "/api/games/{game_id}"): "student",
    ("GET", "/api/games/{game_id}/review"): "student",
    ("GET", "/api/scores"): "student",
    ("POST", "/api/analyze"): "student",
    ("POST", "/api/positions"): "student",
    # teaching
    ("POST", "/api/explain"): "student",
    ("POST", "/api/explain/tree"): "student",
    ("POST", "/api/compare"): "student",
    ("GET", "/exam"): "teacher",
    # the lab: a student's own work
    ("GET", "/lab/inarow.zip"): "public",
    ("GET", "/lab/pyodide/{name}"): "public",
    ("GET", "/lab/pyodide/{version}/{name}"): "public",
    ("GET", "/lab/sandbox.html"): "public",  # framed with no origin: its requests carry no cookie
    ("GET", "/api/lab/positions"): "student",
    ("POST", "/api/lab/grade"): "student",
    ("POST", "/api/class"): "student",
    ("POST", "/api/class/check"): "student",
    ("POST", "/api/class/mine"): "student",
    ("POST", "/api/class/stuck"): "student",
    ("POST", "/api/class/search"): "student",
    ("GET", "/api/class/ranking"): "student",  # when the teacher shows it; never the sources
    # the class board: the teacher's
    ("GET", "/class"): "teacher",
    ("GET", "/api/class"): "teacher",
    ("DELETE", "/api/class"): "teacher",
    ("GET", "/api/class.csv"): "teacher",
    ("GET", "/api/class/students"): "teacher",
    ("GET", "/api/class/history"): "teacher",
    ("POST", "/api/class/verification"): "teacher",
    ("POST", "/api/class/release"): "teacher",
    ("POST", "/api/class/roster"): "teacher",
    ("GET", "/api/class/settings"): "teacher",
    ("POST", "/api/class/settings"): "teacher",
    ("GET", "/api/keys"): "teacher",
    ("POST", "/api/keys"): "teacher",
}
"""The role of every route: (method, path as the route is declared) → role. HEAD is asked as GET."""


def make_key() -> str:
    """A new key: 24 random bytes from ``secrets`` (192 bits), as 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


@dataclass
class Keys:
    """A server's keys: ``teacher`` and ``student`` (the class's), both None on a server without keys
    (everyone is the teacher). :meth:`turn_over` makes new ones; the old ones open nothing after."""

    student: str | None = None
    teacher: str | None = None

    @classmethod
    def of(cls, student: str | None, teacher: str | None) -> Keys:
        """The keys of a server given ``student`` and ``teacher`` (either may be None): none when neither
        is given, else the one not given is made."""
        if student is None and teacher is None:
            return cls()
        return cls(student or make_key(), teacher or make_key())

    @property
    def open(self) -> bool:
        """Whether the server has no keys: anyone who reaches it is the teacher."""
        return self.teacher is None

    def role_of(self, given: str) -> Role | None:
        """The role ``given`` opens: ``teacher``, ``student``, or None for a wrong key. Compared as UTF-8
        bytes in constant time (any string a client sends can be compared: none raises)."""
        sent = given.encode("utf-8", "surrogatepass")
        if self.teacher is not None and hmac.compare_digest(sent, self.teacher.encode("utf-8")):
            return "teacher"
        if self.student is not None and hmac.compare_digest(sent, self.student.encode("utf-8")):
            return "student"
        return None

    def turn_over(self) -> None:
        """New keys for both roles (on a server that has keys)."""
        if not self.open:
            self.student, self.teacher = make_key(), make_key()


MOUNTS = frozenset({"/static"})
"""The paths of :data:`ROLES` that are mounts: every path under them is theirs."""


def _compiled() -> list[tuple[str, re.Pattern[str], Role]]:
    found = []
    for (method, path), role in ROLES.items():
        pattern = compile_path(path + "/{rest:path}" if path in MOUNTS else path)[0]
        found.append((method, pattern, role))
    return found


_PATTERNS = _compiled()


def route_role(method: str, path: str) -> Role:
    """The role :data:`ROLES` gives a request for ``path`` with ``method`` (HEAD asked as GET): the route's
    own; for a method the path's routes do not take (answered 405), the strictest of the path's roles;
    ``student`` for a path no route has (answered 404: a stranger learns nothing of what exists)."""
    method = "GET" if method == "HEAD" else method
    own = [role for wanted, pattern, role in _PATTERNS if wanted == method and pattern.match(path)]
    other = [role for _, pattern, role in _PATTERNS if pattern.match(path)]
    roles = own or other or ["student"]
    return max(roles, key=RANK.__getitem__)
