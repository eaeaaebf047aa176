"""The ``inarow`` command itself: its options, its verbs' group, and the one handler of bad input."""

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from inarow import __version__
from inarow.cli.output import fail, out
from inarow.errors import InarowError


class _Verbs(TyperGroup):
    """The verbs of ``inarow``, with the one handler of bad input: ``error: …`` on stderr and status 2."""

    def invoke(self, ctx: Any) -> Any:  # Any: typer's Context class moves between releases
        try:
            return super().invoke(ctx)
        except InarowError as error:
            fail(error)

    def parse_args(self, ctx: Any, args: list[str]) -> Any:
        for param in self.get_params(ctx):
            _quick_reading(param)
        return super().parse_args(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_arguments(command, ctx)
        return command


def _plain_arguments(command: Any, ctx: Any) -> None:
    """Arguments in help as a person reads them: ``POSITION`` in the usage line and no ``<str>`` type
    placeholder after its name (typer writes ``{POSITION}`` and ``POSITION <str>``); and every parameter
    read without building a pydantic validator (see :func:`_quick_reading`)."""
    for param in command.get_params(ctx):
        _quick_reading(param)
        if param.param_type_name != "argument":
            continue
        name = param.display_name_raw
        usage = name if param.required else f"[{name}]"
        usage += "..." if param.nargs != 1 else ""
        param.display_type_rich = lambda ctx: None
        param._usage_display_name = lambda usage=usage: usage


_KINDS: dict[Any, tuple[Callable[[Any], Any], str]] = {
    bool: (bool, "yes or no"),
    str: (str, "text"),
    int: (int, "whole number"),
    float: (float, "number"),
    Path: (Path, "path"),
}


def _quick_reading(param: Any) -> None:
    """Read a plain ``str``, ``int``, ``float``, ``Path`` or ``list[str]`` parameter with the type itself.

    typer 0.2x builds a pydantic validator for every parameter of the command run: importing pydantic
    and building them took 0.15–0.2 s, most of a 3×3 answer. Parameters with bounds (``min=``) or a
    parser keep typer's own reading, and so does everything where typer's internals are not what this
    expects (another typer release): then it only costs time.
    """
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", True) is not None:
        return
    info = descriptor.parameter_info
    if getattr(info, "min", None) is not None or getattr(info, "max", None) is not None or info.parser:
        return
    annotation = descriptor.annotation
    if annotation == list[str]:
        kind = _KINDS[str]
    elif annotation in _KINDS:
        kind = _KINDS[annotation]
    else:
        return
    reader = _reader_class()
    if reader is not None:
        param._runtime_param = reader(parameter_info=info, annotation=annotation, kind=kind)


@cache
def _reader_class() -> Any:
    """typer's RuntimeParam with the reading of :func:`_quick_reading` (None if typer has no such class)."""
    try:
        from dataclasses import dataclass

        from typer._coercion import RuntimeParam
    except ImportError:  # pragma: no cover - another typer release
        return None

    @dataclass(frozen=True)
    class PlainReading(RuntimeParam):
        kind: tuple[Callable[[Any], Any], str]

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            convert, name = self.kind
            if isinstance(value, tuple | list):
                return [self._coerce_value(item, param, ctx) for item in value]
            if isinstance(value, bool) or value is None:
                return value
            try:
                return convert(value)
            except (TypeError, ValueError):
                raise typer.BadParameter(f"{value!r} is not a {name}", ctx=ctx, param=param) from None

    return PlainReading


app = typer.Typer(
    cls=_Verbs,
    help="Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"inarow {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    memory: Annotated[
        float | None,
        typer.Option(
            "--memory",
            metavar="MB",
            help="The most memory the compiled engine's table may take, in megabytes (default: sized to "
            "the board, at most 128 MB on Connect Four and 192 MB on 5x5).",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANGUAGE",
            help="en or zh (简体中文) for the words of the answers; default: the terminal's locale (LANG). "
            "--json is the same in every language.",
        ),
    ] = None,
) -> None:
    """Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line."""
    from inarow import i18n

    if lang is None:
        code = i18n.from_environment()
    else:
        code = i18n.negotiate([lang])
        if code == i18n.DEFAULT and not lang.strip().lower().startswith(i18n.DEFAULT):
            raise InarowError(f"unknown language {lang!r}: expected one of en, zh")
    ctx.with_resource(i18n.language(code))  # for this command only: the language is restored after it
    if memory is not None:
        if not memory > 0:
            raise InarowError(f"invalid memory {memory!r}: expected a positive number of megabytes")
        os.environ["INAROW_MEMORY"] = repr(memory)
