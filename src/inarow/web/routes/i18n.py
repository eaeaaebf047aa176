"""The page's words: the catalog of a language (``/i18n/{tags}.json``) and the glossary page."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from inarow.base import i18n
from inarow.web.catalog import catalog_answer, glossary_page

router = APIRouter(include_in_schema=False)


@router.get("/i18n/{tags}.json")
def catalog(tags: str, request: Request) -> Response:
    # The page's words in the language negotiated from ``tags`` (see inarow.web.catalog); the browser keeps
    # the answer and asks again with its ETag, answered 304 while the catalog is the same.
    body, etag = catalog_answer(tags[:200])
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.get("/glossary")
def glossary(request: Request, lang: str = "") -> HTMLResponse:
    # The page's own language: ?lang= (its switch), else the browser's (Accept-Language).
    language = lang[:20] or i18n.from_accept_language(request.headers.get("accept-language"))
    return HTMLResponse(glossary_page(language), headers={"Cache-Control": "no-cache"})
