"""The web app's routes, one :class:`~fastapi.APIRouter` per domain, each with what it needs injected (see
:mod:`inarow.web.deps`): ``games`` (play), ``history`` (the games played, the scores, a game's review),
``analysis``, ``teaching`` (explain, compare, the menus), ``health``, ``i18n`` (the page's words and the
glossary) and ``pages`` (the page itself and the API's index)."""
