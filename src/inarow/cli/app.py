"""The ``inarow`` command itself: its options, its verbs' group, and the one handler of bad input."""

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from typer.core import TyperCommand, TyperGroup

import inarow
from inarow.base import i18n
from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.cli.output import bound_memory, err, fail, out


class VerbGroup(TyperGroup):
    """A group of verbs under ``inarow`` (``inarow book …``) whose help is said in the language of the
    command."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        speak(self)
        for name in self.list_commands(ctx):
            speak(self.get_command(ctx, name))
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        write_usage(self, ctx, formatter)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        write_options(self, ctx, formatter)
        write_verbs(self, ctx, formatter)


class _Verbs(VerbGroup):
    """The verbs of ``inarow``, with the one handler of bad input (``error: …`` on stderr and status 2), in
    the language asked for (``--lang``, else the terminal's locale), help included."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with i18n.language(i18n.current()):  # whatever the command speaks, the caller's language after it
            return super().main(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:  # Any: typer's Context class moves between releases
        try:
            return super().invoke(ctx)
        except InarowError as error:
            fail(error)
        except _USAGE_ERRORS as error:
            raise _said_usage_error(error) from None
        except (KeyboardInterrupt, EOFError, typer.Abort):
            # Ctrl-C or Ctrl-D at a prompt: a line of its own, then the word click would say in English.
            err.print("\n" + i18n.gettext("Aborted."), markup=False, highlight=False)
            raise typer.Exit(1) from None

    def parse_args(self, ctx: Any, args: list[str]) -> Any:
        i18n.set_language(_language_asked(args))  # before --help, which is answered while parsing
        for param in self.get_params(ctx):
            _quick_reading(param)
        try:
            return super().parse_args(ctx, args)
        except _USAGE_ERRORS as error:
            raise _said_usage_error(error) from None

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_arguments(command, ctx)
        return command


class Verb(TyperCommand):
    """A verb whose help is said in the language of the command."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        speak(self)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        write_usage(self, ctx, formatter)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        write_options(self, ctx, formatter)


_UsageError = cast("type[Exception]", typer.BadParameter.__base__)
"""The class of every command line typer cannot read (click's ``UsageError``, the base of the public
``typer.BadParameter``, whichever copy of click typer uses); click documents the attributes read below
(``message``, ``ctx``; ``option_name`` and ``possibilities`` of an unknown option; ``param`` of a bad or
missing value, ``param_type`` of a missing one)."""


class _SaidUsageError(_UsageError):  # type: ignore[misc,valid-type]
    """A command line typer cannot read, said the way inarow says its own errors, in the language of the
    command: the usage, where to look, and ``error: …``."""

    def show(self, file: Any = None) -> None:
        if self.ctx is not None:
            hint = i18n.gettext("Try '{command} --help' for help.").format(command=self.ctx.command_path)
            err.print(f"{self.ctx.get_usage()}\n{hint}\n", markup=False, highlight=False)
        err.print(
            i18n.gettext("error: {message}").format(message=self.message), markup=False, highlight=False
        )


_USAGE_ERRORS = (_UsageError,)


def _said_usage_error(error: Any) -> Exception:
    """``error`` (an unknown option or command, a missing argument, a bad value) in the current language."""
    unknown = re.fullmatch(r"No such command '(.*)'\.", str(error.message))
    param = getattr(error, "param", None)
    if hasattr(error, "option_name") and hasattr(error, "possibilities"):
        message = i18n.gettext("no such option: {option}").format(option=error.option_name)
        if error.possibilities:
            options = ", ".join(sorted(error.possibilities))
            message += " " + i18n.gettext("(did you mean {options}?)").format(options=options)
    elif isinstance(error, typer.BadParameter) and hasattr(error, "param_type") and param is not None:
        message = i18n.gettext("missing {name}").format(name=param.get_error_hint())
    elif isinstance(error, typer.BadParameter) and param is not None:
        message = i18n.gettext("invalid value for {name}: {problem}").format(
            name=param.get_error_hint(), problem=error.message
        )
    elif unknown is not None:
        message = i18n.gettext("no such command: {name}").format(name=unknown[1])
    else:
        message = error.format_message()
    return _SaidUsageError(message, error.ctx)


def write_verbs(group: Any, ctx: Any, formatter: Any) -> None:
    """The verbs of ``group`` with the first sentence of their help, under a heading in the current
    language."""
    rows = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None and not command.hidden:
            rows.append((name, command.short_help or ""))
    with formatter.section(i18n.gettext(N_("Commands"))):
        formatter.write_dl(rows)


def write_usage(command: Any, ctx: Any, formatter: Any) -> None:
    """The usage line, its ``Usage:`` in the current language (typer and click write it in English only)."""
    said = {"[OPTIONS]": N_("[OPTIONS]"), "COMMAND [ARGS]...": N_("COMMAND [ARGS]...")}
    pieces = " ".join(
        i18n.gettext(said[piece]) if piece in said else piece for piece in command.collect_usage_pieces(ctx)
    )
    formatter.write_usage(ctx.command_path, pieces, prefix=i18n.gettext("Usage: "))


def write_options(command: Any, ctx: Any, formatter: Any) -> None:
    """The arguments and options of ``command`` with their help, as typer lists them, in the current language:
    the headings, ``--help``'s own help and the ``[default: …]`` / ``[required]`` notes."""
    sections: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
    for param in command.get_params(ctx):
        if param.name == "help":
            param.help = i18n.gettext("Show this message and exit.")
        record = param.get_help_record(ctx)
        if record is not None and param.param_type_name in sections:
            sections[param.param_type_name].append((record[0], _said_notes(record[1])))
    for kind, heading in (("argument", N_("Arguments")), ("option", N_("Options"))):
        if sections[kind]:
            with formatter.section(i18n.gettext(heading)):
                formatter.write_dl(sections[kind])


def _said_notes(text: str) -> str:
    """typer's ``[default: X; required]`` after a parameter's help, in the current language."""
    notes = re.search(r"\[([^\[\]]*)\]$", text)
    if notes is None:
        return text
    said = []
    for note in notes[1].split("; "):
        if note.startswith("default: "):
            said.append(i18n.gettext("default: {value}").format(value=note.removeprefix("default: ")))
        else:
            said.append(i18n.gettext("required") if note == "required" else note)
    return text[: notes.start()] + "[" + "; ".join(said) + "]"


def speak(command: Any) -> None:
    """Put the help of ``command`` and of its parameters into the current language. The help is written
    in English, marked ``N_``; the English is kept, so that another language can be put in later."""
    for part in (command, *command.params):
        english = part.__dict__.setdefault("_english_help", part.help)
        if english:
            part.help = i18n.gettext(english)
    english = command._english_help
    if english and hasattr(command, "short_help"):
        # a sentence ends at a full stop before a space or the end ("mine.py" goes on), or at "。"
        first = re.split(r"(?<=\.)(?:\s+|$)|(?<=。)", command.help.strip(), maxsplit=1)[0]
        command.short_help = first.rstrip(".。")


def _language_asked(args: list[str]) -> str:
    """The language of ``--lang`` among ``args`` if it names one, else the terminal's."""
    for index, arg in enumerate(args):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and index + 1 < len(args):
            value = args[index + 1]
        if value is not None:
            code = i18n.negotiate([value])
            return (
                code
                if code != i18n.DEFAULT or value.lower().startswith(i18n.DEFAULT)
                else i18n.from_environment()
            )
    return i18n.from_environment()


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
    bool: (bool, N_("yes or no")),
    str: (str, N_("text")),
    int: (int, N_("whole number")),
    float: (float, N_("number")),
    Path: (Path, N_("path")),
}


def _quick_reading(param: Any) -> None:
    """Read a plain ``str``, ``int``, ``float``, ``Path`` or ``list[str]`` parameter with the type itself.

    typer 0.2x builds a pydantic validator for every parameter of the command run: importing pydantic
    and building them took 0.15–0.2 s, most of a 3×3 answer, and its message for a bad value is English.
    typer has no public way to read a value otherwise: this is the one place inarow uses typer's private
    API (``typer._coercion``, the ``_runtime_param`` slot), and only where it finds them as typer 0.29 has
    them (checked by :func:`_reader_class`). Parameters with bounds (``min=``) or a parser keep typer's own
    reading, and so does everything on a typer release whose internals differ: then a command costs 0.1 s
    more and says a bad value in typer's English (``tests/test_cli.py`` runs both ways).
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
        from dataclasses import dataclass, fields, is_dataclass

        from typer._coercion import RuntimeParam
    except ImportError:  # another typer release
        return None
    wanted = {"parameter_info", "annotation"}
    if not (
        is_dataclass(RuntimeParam)
        and callable(getattr(RuntimeParam, "coerce", None))
        and getattr(RuntimeParam, "__abstractmethods__", None) == frozenset({"_coerce_value"})
        and wanted <= {field.name for field in fields(RuntimeParam)}
    ):
        return None  # another typer release: its own reading

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
                said = i18n.gettext("{value!r} is not a {kind}").format(value=value, kind=i18n.gettext(name))
                raise typer.BadParameter(said, ctx=ctx, param=param) from None

    return PlainReading


PLAIN: dict[str, Any] = {
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
}
"""How inarow's typer apps behave: help when no verb is given, no shell-completion options, no rich
tracebacks (every error is inarow's ``error: …`` line), plain help text."""

app = typer.Typer(
    cls=_Verbs,
    help=N_("Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line."),
    **PLAIN,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"inarow {inarow.__version__}")  # read here: the metadata costs 0.1 s to import
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=N_("Print the version and exit.")),
    ] = False,
    memory: Annotated[
        float | None,
        typer.Option(
            "--memory",
            metavar="MB",
            help=N_(
                "The most memory the compiled engine's table may take, in megabytes (default: sized to "
                "the board, at most 128 MB on Connect Four and 192 MB on 5x5)."
            ),
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANGUAGE",
            help=N_(
                "en or zh (简体中文) for the words of the answers; default: the terminal's locale (LANG). "
                "--json is the same in every language."
            ),
        ),
    ] = None,
) -> None:
    """Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line."""
    if (
        lang is not None
        and i18n.negotiate([lang]) == i18n.DEFAULT
        and not lang.lower().startswith(i18n.DEFAULT)
    ):
        raise InarowError(N_("unknown language {lang!r}: expected one of en, zh"), lang=lang)
    if memory is not None:
        bound_memory(memory)
