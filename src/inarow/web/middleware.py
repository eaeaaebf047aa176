"""ASGI middleware of the web app."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class LimitBody:
    """ASGI middleware that answers 413 to a body over ``limit`` bytes, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        received, too_large, refused = 0, False, False

        async def counted_receive() -> Message:
            # Past the limit the app gets an empty end of body, and its answer is replaced by a 413.
            nonlocal received, too_large
            if too_large:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                too_large = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal refused
            if not too_large:
                await send(message)
            elif not refused:
                refused = True
                await self._refuse(send)

        await self.app(scope, counted_receive, guarded_send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(
            {
                "detail": f"request body too large: at most {self.limit} bytes",
                "reason": "request body too large",
            },
            status_code=413,
        )
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:  # pragma: no cover - a JSONResponse never reads
    return {"type": "http.disconnect"}
