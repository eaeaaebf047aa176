"""The page itself (``/``, its files under ``/static``) and the API's index (``/docs``)."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

STATIC = Path(__file__).parent.parent / "static"
HELP = Path(__file__).parent.parent / "help"
"""The docs site, built there by ``mkdocs build`` (scripts/start.sh runs it in the background, scripts/test.sh
before the tests)."""

NOT_BUILT = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>inarow help</title>'
    '<link rel="stylesheet" href="/static/style.css"></head><body><main>'
    "<h1>The help pages are not built yet</h1>"
    "<p><code>bash scripts/start.sh</code> builds them in the background a few minutes after the app "
    "starts; reload this page then. Without it, build them once with "
    "<code>pip install -e '.[docs]' &amp;&amp; mkdocs build</code> in the repository.</p>"
    '<p lang="zh-CN">帮助文档尚未生成：<code>bash scripts/start.sh</code> '
    "会在网页启动后的几分钟内于后台生成，届时刷新本页即可；没有用它启动时，在仓库目录下运行一次 "
    "<code>pip install -e '.[docs]' &amp;&amp; mkdocs build</code>。</p>"
    "</main></body></html>"
)

router = APIRouter(include_in_schema=False)


@router.get("/")
def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/help")
def help_index() -> RedirectResponse:
    return RedirectResponse("/help/index.html")


@router.get("/help/{path:path}")
def help_page(path: str) -> Response:
    """A file of the built docs site, or a page saying how to build it (404) when it is not built."""
    if not (HELP / "index.html").is_file():
        return HTMLResponse(NOT_BUILT, status_code=404)
    root = HELP.resolve()
    file = (root / path).resolve()
    if file.is_dir():
        file = file / "index.html"
    if root not in file.parents or not file.is_file():
        return HTMLResponse((root / "404.html").read_text(encoding="utf-8"), status_code=404)
    return FileResponse(file, headers={"Cache-Control": "no-cache"})


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
