"""Every error answered as JSON with ``detail`` and ``reason``, in the request's language.

Every :class:`~inarow.base.errors.InarowError` becomes a 4xx with its message (404 an unknown game or
student, 409 a stale move or a name another student has claimed, 503 a full queue), a request that is not
what the route reads a 422 whose ``detail`` names the field, routing's own answers (404, 405 with
``Allow``) the same JSON; a bug is a 500 whose words say so.
"""

from __future__ import annotations

from concurrent.futures import BrokenExecutor

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from inarow.base import i18n
from inarow.base.errors import (
    InarowError,
    NameTakenError,
    ServerBusyError,
    StaleMoveError,
    StoppedError,
    UnknownGameError,
    UnknownStudentError,
)
from inarow.base.i18n import N_
from inarow.sessions.workers import ClientGone
from inarow.web.schemas import validation_message


def answer(
    request: Request, status: int, error: InarowError | str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The error in the request's language (``Accept-Language``; English by default)."""
    if isinstance(error, str):
        error = InarowError("{text}", text=error)  # words from elsewhere (routing), as they are
    with i18n.language(i18n.from_accept_language(request.headers.get("accept-language"))):
        detail, reason = error.said(), error.reason_said()
    return JSONResponse({"detail": detail, "reason": reason}, status_code=status, headers=headers)


async def bad_input(request: Request, error: InarowError) -> JSONResponse:
    if isinstance(error, ServerBusyError):
        return answer(request, 503, error, {"Retry-After": str(error.retry_after)})
    if isinstance(error, StaleMoveError | NameTakenError):
        return answer(request, 409, error)
    if isinstance(error, UnknownGameError | UnknownStudentError):
        return answer(request, 404, error)
    if isinstance(error, StoppedError):
        return answer(request, 503, error, {"Retry-After": "5"})
    return answer(request, 400, error)


async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
    return answer(request, 422, validation_message(error))


async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
    # Routing's own answers (no such path, a method the path does not take, a body that cannot be read) in
    # the same JSON as every other error; a 405 lists every method the path takes.
    headers = dict(error.headers or {})
    if error.status_code == 405:
        methods = {
            method
            for route in request.app.routes
            if isinstance(route, APIRoute) and route.path_regex.match(request.url.path)
            for method in route.methods or ()
        }
        headers["Allow"] = ", ".join(sorted(methods))
    return answer(request, error.status_code, str(error.detail), headers)


async def unreadable(request: Request, error: ValueError) -> JSONResponse:
    # A value the parsers refused without an InarowError of their own: still the input's fault.
    return answer(request, 400, InarowError(N_("invalid input: {error}"), error=str(error)))


async def failed(request: Request, error: Exception) -> JSONResponse:
    # A bug, not the input: JSON like every other answer (the log has the traceback).
    return answer(
        request, 500, InarowError(N_("internal error: the server failed on this request; its log says why"))
    )


async def broken_pool(request: Request, error: BrokenExecutor) -> JSONResponse:
    said = InarowError(N_("the search workers stopped while answering: try again"))
    return answer(request, 503, said, {"Retry-After": "1"})


async def client_gone(request: Request, error: ClientGone) -> Response:
    return Response(status_code=499)  # nobody reads it: the client has gone


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` as the module's docstring says."""
    app.add_exception_handler(InarowError, bad_input)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, bad_request)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(ValueError, unreadable)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, failed)
    app.add_exception_handler(BrokenExecutor, broken_pool)  # type: ignore[arg-type]
    app.add_exception_handler(ClientGone, client_gone)  # type: ignore[arg-type]
