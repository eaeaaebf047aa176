"""A student's search file checked in a child process of its own, contained as an ``--eval`` file is.

The parent (:func:`check_file`, which ``inarow check`` calls) starts ``python -m
inarow.teaching.checking.child`` through :class:`inarow.evaluation.sandbox.Child`: the same process group
killed whole, the same memory, file-size and no-new-process limits, the same wall clock for each request.
The child runs the file, wraps its functions (:func:`~inarow.teaching.checking.interface.instrument`) and
checks one case a request, answering the case's verdict as JSON (data, never code, crosses back). A case
that runs past its time, a process that ends, and a search that raises or returns no value end the check
with :class:`SearchFileError`, whose fields say what and where (the sentence is made at the edge:
``search_error``).
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from inarow.engines.textbook import Algorithm, algorithm_named
from inarow.evaluation.sandbox import Answer, Child, Limits, Reply, main
from inarow.teaching.checking.cases import cases
from inarow.teaching.checking.interface import SearchCodeError
from inarow.teaching.checking.verdict import StudentSearch, check_case

CASE_SECONDS = 5.0
"""The wall-clock time one case may take in the child (a correct search takes milliseconds)."""

LIMITS = Limits(seconds=CASE_SECONDS)


class SearchFileError(Exception):
    """Why a search file could not be checked: ``kind`` and ``fields`` of the sentence ``search_error``."""

    def __init__(self, kind: str, **fields: str) -> None:
        super().__init__(kind, fields)
        self.kind = kind
        self.fields = fields


@dataclass(frozen=True)
class Checked:
    """What the child answered for every case: the verdicts as JSON, and what the search printed."""

    verdicts: tuple[dict[str, Any], ...]
    printed: tuple[str, ...]


def check_file(
    path: str,
    name: str,
    algorithm: Algorithm,
    seed: int = 1,
    seconds: float | None = None,
    progress: Callable[[int, str], None] | None = None,
) -> Checked:
    """The search ``name`` of the file at ``path`` checked against ``algorithm`` on every case of ``seed``
    in a child process, each case within ``seconds`` (:data:`CASE_SECONDS` unless given). Raises
    :class:`SearchFileError`."""
    limits = replace(LIMITS, seconds=CASE_SECONDS if seconds is None else seconds)
    child = Child(path, name, limits, module=__name__)
    printed: list[str] = []
    verdicts: list[dict[str, Any]] = []
    try:
        started = child.start()
        _refuse_load(started, name, limits)
        printed.append(started.printed)
        for index, case in enumerate(cases(seed, algorithm)):
            if progress is not None:
                progress(index, case.name)
            reply = child.ask({"algorithm": algorithm.name, "seed": seed, "case": index})
            printed.append(reply.printed)
            if reply.kind == "verdict":
                verdicts.append(json.loads(reply.fields["verdict"]))
                continue
            where = {"function": name, "case": case.name, "node": ""}
            if reply.kind == "error":
                fields = dict(reply.fields)
                kind = fields.pop("kind")
                raise SearchFileError(kind, **{**where, **fields})
            if reply.kind == "timeout":
                raise SearchFileError("timeout", **where, seconds=f"{limits.seconds:g}")
            if reply.kind == "flooded":
                raise SearchFileError("flooded", **where, bytes=reply.fields.get("bytes", "?"))
            raise SearchFileError("ended", **where, status=_status(reply))
    finally:
        child.stop()
    return Checked(tuple(verdicts), tuple(text for text in printed if text))


def _status(reply: Reply) -> str:
    """How the child's process ended: the signal's name (``SIGKILL``) or its exit status."""
    return reply.fields.get("signal") or reply.fields.get("status", "?")


def _refuse_load(reply: Reply, name: str, limits: Limits) -> None:
    """Raise :class:`SearchFileError` unless the file loaded (``ready``)."""
    fields = reply.fields
    if reply.kind == "ready":
        return
    if reply.kind == "no-function":
        raise SearchFileError("no-function", function=name, known=fields.get("known", "-"))
    if reply.kind == "raised":
        raise SearchFileError("load", error=fields.get("error", "?"), line=fields.get("line", ""))
    if reply.kind == "timeout":
        raise SearchFileError("load-timeout", seconds=f"{limits.load_seconds:g}")
    raise SearchFileError("load-ended", status=_status(reply))


def _load(namespace: dict[str, Any], name: str, path: str) -> tuple[Reply, Answer | None]:
    """The child's side: the search ``name`` the file defined, checked one case a request."""
    if not callable(namespace.get(name)):
        known = sorted(key for key, value in namespace.items() if inspect.isfunction(value))
        return Reply("no-function", fields={"known": ", ".join(known) or "-"}), None
    search = StudentSearch(namespace, name, path)

    def answer(request: dict[str, Any]) -> Reply:
        algorithm = algorithm_named(str(request["algorithm"]))
        case = cases(int(request["seed"]), algorithm)[int(request["case"])]
        try:
            search.takes(algorithm)
            verdict = check_case(search, case, algorithm)
        except SearchCodeError as error:
            return Reply("error", fields={"kind": error.kind, **error.fields})
        return Reply("verdict", fields={"verdict": json.dumps(verdict.to_json())})

    return Reply("ready"), answer


if __name__ == "__main__":
    main(sys.argv[1:], load=_load)
