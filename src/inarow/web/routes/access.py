"""The class server's keys, for the teacher: the links to give out, and turning the keys over when one has
leaked (``GET`` and ``POST /api/keys``; both the teacher's, see :mod:`inarow.web.roles`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from typing_extensions import TypedDict

from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.web.deps import responses
from inarow.web.middleware import cookie_header
from inarow.web.roles import Keys

router = APIRouter(tags=["class"])


class KeysAnswer(TypedDict):
    """The server's keys and the links that carry them: ``student_link`` opens the lab for the class,
    ``teacher_link`` the class board (both as paths: the page puts its own address before them); all
    None on a server without keys."""

    student: str | None
    teacher: str | None
    student_link: str | None
    teacher_link: str | None


def _answer(keys: Keys) -> KeysAnswer:
    return {
        "student": keys.student,
        "teacher": keys.teacher,
        "student_link": None if keys.open else f"/?student=1&token={keys.student}",
        "teacher_link": None if keys.open else f"/class?token={keys.teacher}",
    }


@router.get("/api/keys", responses=responses(403))
def links(request: Request) -> KeysAnswer:
    """The server's two keys and the links to give out (the teacher's alone)."""
    keys: Keys = request.app.state.keys
    return _answer(keys)


@router.post("/api/keys", responses=responses(400, 403))
def turn_over(request: Request, response: Response) -> KeysAnswer:
    """New keys for the teacher and the class: the old ones open nothing from now on (every page opened
    with them is asked for a key again). The answer sets the new teacher's key as this browser's cookie.
    A server without keys has none to turn over: 400."""
    keys: Keys = request.app.state.keys
    if keys.open:
        raise InarowError(
            N_(
                "this server has no keys to turn over: it answers this machine alone; start inarow serve "
                "with --host or --token to have keys"
            ),
            reason=N_("this server has no keys"),
        )
    keys.turn_over()
    assert keys.teacher is not None
    response.headers["set-cookie"] = cookie_header(keys.teacher).decode("latin-1")
    return _answer(keys)
