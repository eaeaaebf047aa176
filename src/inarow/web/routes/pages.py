"""The page itself (``/``, its files under ``/static``) and the API's index (``/docs``)."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/docs")
def docs(request: Request) -> HTMLResponse:
    # No Swagger UI from a CDN the machine may not reach: the routes, and the schema itself.
    rows = "".join(
        f"<li><code>{html.escape(method.upper())} {html.escape(path)}</code> — "
        f"{html.escape(operation.get('summary', ''))}</li>"
        for path, item in request.app.openapi()["paths"].items()
        for method, operation in item.items()
    )
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>inarow API</title>'
        '<link rel="stylesheet" href="/static/style.css"></head><body><main>'
        "<h1>inarow HTTP API</h1><p>The whole OpenAPI schema: "
        '<a href="/openapi.json">/openapi.json</a>.</p>'
        f"<ul>{rows}</ul></main></body></html>"
    )
    return HTMLResponse(page)
