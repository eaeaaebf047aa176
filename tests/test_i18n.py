"""Translations: every message marked in the code has a Chinese translation, languages are negotiated as
browsers and terminals ask, and a third language is a catalog dropped in."""

from __future__ import annotations

import ast
import gettext
import re
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from inarow.base import errors, i18n
from inarow.rules.notation import parse_game, parse_position
from inarow.words.glossary import TERMS

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\{(\w*)[^}]*\}")


def messages_in_the_code() -> set[str]:
    """Every message the code marks, extracted the way ``pybabel extract -F babel.cfg`` does."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "t": None}
    found = set()
    for _filename, _line, message, _comments, _context in extract_from_dir(
        ROOT / "src", method_map, options_map, keywords=keywords
    ):
        found.update([message] if isinstance(message, str) else [m for m in message if m])
    return found


def test_every_message_in_the_code_has_a_chinese_translation() -> None:
    messages = messages_in_the_code()
    assert {term.name for term in TERMS} <= messages  # the extraction sees the marked messages
    with i18n.catalog_path("zh_CN").open("rb") as po:
        catalog = read_po(po, locale="zh_CN")
    translated: dict[str, str] = {}
    for entry in catalog:
        ids = [str(part) for part in (entry.id if isinstance(entry.id, tuple) else (entry.id,))]
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.id and all(strings) and not entry.fuzzy:
            translated.update(dict.fromkeys(ids, str(strings[0])))  # Chinese has one plural form
    assert sorted(messages - set(translated)) == []
    for message in messages:
        text = translated[message]
        assert isinstance(text, str)
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(message)), message


def error_messages_not_in_the_catalog() -> list[str]:
    """Every place in the code that raises an inarow error with a message made on the spot (an f-string, a
    concatenation) instead of a catalog entry with parameters, as ``file:line``."""
    names = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.InarowError)
    }
    found = []
    for path in sorted((ROOT / "src" / "inarow").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            callee = node.func
            named = callee.id if isinstance(callee, ast.Name) else None
            if named in names and isinstance(node.args[0], ast.JoinedStr | ast.BinOp):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.slow
def test_every_error_message_is_a_catalog_entry_with_parameters() -> None:
    assert error_messages_not_in_the_catalog() == []


def test_an_error_is_said_in_the_language_of_the_context_and_is_english_as_a_string() -> None:
    with pytest.raises(errors.InarowError) as caught:
        parse_position("b2 b2")
    error = caught.value
    assert str(error) == "move 2 of 'b2 b2': illegal move 'b2' in '.../.x./...': cell is taken"
    assert error.reason == "cell is taken"
    with i18n.language("zh_CN"):
        assert error.said() == "'b2 b2' 的第 2 步：局面 '.../.x./...' 中的非法走法 'b2'：该格已有棋子"
        assert error.reason_said() == "该格已有棋子"
        assert str(error).startswith("move 2")  # programs and logs keep the English
    with pytest.raises(errors.InvalidGameError) as caught:
        parse_game("30x3:3")
    with i18n.language("zh_CN"):
        assert caught.value.said() == "游戏 '30x3:3' 有 30 列：棋盘的行列数应在 1 到 19 之间"


def test_the_glossary_speaks_the_language_of_the_context() -> None:
    alpha_beta = next(term for term in TERMS if term.key == "alpha-beta")
    assert alpha_beta.said()[0] == "α-β pruning"
    with i18n.language("zh_CN"):
        assert alpha_beta.said()[0] == "α-β 剪枝"
        assert dict(term.said() for term in TERMS)["倒推值"].startswith("节点由其子节点的值得到的值")
    assert i18n.current() == "en"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh_CN"),
        ("en-US,en;q=0.9,zh-CN;q=0.8", "en"),
        ("zh", "zh_CN"),
        ("fr-FR, de;q=0.5", "en"),
        ("fr;q=0.9, zh-CN;q=0.5", "zh_CN"),
        ("zh-CN;q=0, en", "en"),
        ("", "en"),
        (None, "en"),
        ("*", "en"),
        ("zh-CN;q=bad, en", "en"),
    ],
)
def test_the_language_of_a_request_follows_accept_language(header: str | None, language: str) -> None:
    assert i18n.from_accept_language(header) == language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({}, "en"),
        ({"LANGUAGE": "fr:zh_CN", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ],
)
def test_the_language_of_the_terminal_follows_the_environment(environ: dict[str, str], language: str) -> None:
    assert i18n.from_environment(environ) == language


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"no catalog for language 'xx': expected one of en, zh_CN"):
        i18n.set_language("xx")


def compiled(po: Path, language: str) -> bytes:
    """The ``.mo`` that ``pybabel compile`` makes of ``po``."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=language, domain=i18n.DOMAIN)
    out = BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def test_every_compiled_catalog_is_its_po_compiled() -> None:
    """inarow reads the .mo files (Babel is a tool of the build): each must say what its .po says, or
    ``pybabel compile -d src/inarow/locale -D inarow`` was forgotten after an edit."""
    for language in i18n.available()[1:]:
        shipped = i18n.translations(language)
        fresh = gettext.GNUTranslations(BytesIO(compiled(i18n.catalog_path(language), language)))
        assert shipped._catalog == fresh._catalog, f"{language}: run pybabel compile"  # type: ignore[attr-defined]


def test_a_third_language_is_a_catalog_dropped_in(tmp_path: Path) -> None:
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "inarow.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "game tree"\nmsgstr "arbre de jeu"\n',
        encoding="utf-8",
    )
    assert i18n.available(tmp_path) == ("en",), "a catalog not compiled is not read"
    i18n.available.cache_clear()
    (folder / "inarow.mo").write_bytes(compiled(folder / "inarow.po", "fr"))
    assert i18n.available(tmp_path) == ("en", "fr")
    assert i18n.translations("fr", tmp_path).gettext("game tree") == "arbre de jeu"


def test_the_docs_glossary_is_the_catalogs() -> None:
    readme = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for term in TERMS:
        name, meaning = term.said()
        with i18n.language("zh_CN"):
            chinese_name, chinese_meaning = term.said()
        assert f"| {name} | {chinese_name} | {meaning} | {chinese_meaning} |" in readme, term.key


def test_the_command_line_speaks_chinese_with_lang_zh_or_the_locale_and_its_json_does_not_change() -> None:
    from typer.testing import CliRunner

    from inarow.cli import app
    from inarow.engines.exact.compiled import forget

    runner = CliRunner()
    assert runner.invoke(app, ["--lang", "zh", "best", "b2 a2"]).output == "b1 — 双方最佳走法下 3 步后获胜\n"
    chinese = runner.invoke(app, ["best", "x.o/.x./..o"], env={"LANG": "zh_CN.UTF-8", "LANGUAGE": ""})
    assert chinese.output == "c2 — 双方最佳走法下和棋\n"
    english = runner.invoke(app, ["--lang", "en", "best", "b2 a2"]).output
    assert english == "b1 — wins in 3 moves with best play\n"
    table = runner.invoke(app, ["--lang", "zh", "analyze", "b2 a1 c3"]).output.splitlines()
    assert table[0] == "b2 a1 c3  （井字棋，轮到 o 走）"
    assert table[5] == "局面值  双方最佳走法下和棋  （分数 +0，精确）"
    assert table[6:8] == ["最佳    a3 c1", "主变    a3 a2 c2 b1 b3 c1"]
    assert table[8].split() == ["走法", "对走棋方", "分数", "层数"]
    assert table[9].split() == ["a3", "和棋", "+0", "6"]
    assert table[11].split() == ["a2", "2", "步后告负", "-2", "4"]
    forget()  # both from an empty table, as two processes would search, whatever ran before
    zh_json = runner.invoke(app, ["--lang", "zh", "analyze", "b2 a1", "--json"]).output
    forget()
    en_json = runner.invoke(app, ["--lang", "en", "analyze", "b2 a1", "--json"]).output
    drop = re.compile(r'"seconds": [0-9.e-]+|"load_seconds": [0-9.e-]+')
    assert drop.sub("", zh_json) == drop.sub("", en_json)
    assert '"description": "draw with best play"' in zh_json
    refused = runner.invoke(app, ["--lang", "fr", "best", ""])
    assert refused.exit_code == 2 and "unknown language 'fr': expected one of en, zh" in refused.output
    assert i18n.current() == "en", "a command's language ends with the command"


def test_a_command_interrupted_with_ctrl_c_says_so_in_its_language_and_exits_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    import inarow.engines.policy
    from inarow.cli import app

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(inarow.engines.policy, "analyze", interrupted)
    runner = CliRunner()
    chinese = runner.invoke(app, ["--lang", "zh", "analyze", "b2"])
    assert (chinese.exit_code, chinese.output) == (1, "\n已中止。\n")
    english = runner.invoke(app, ["--lang", "en", "analyze", "b2"])
    assert (english.exit_code, english.output) == (1, "\nAborted.\n")


def test_the_terminal_game_speaks_chinese_with_lang_zh() -> None:
    from typer.testing import CliRunner

    from inarow.cli import app

    answers = "\n".join(["o", "computer", "perfect", "hello", "h", "5", "q"]) + "\n"
    played = CliRunner().invoke(app, ["--lang", "zh", "play", "--seed", "3"], input=answers)
    assert played.exit_code == 0
    said = played.output
    assert "你执 [x/o] (x)" in said and "谁先走 [你/电脑/随机] (你)" in said
    assert "轮到你走：输入 a1 到 c3 之间的格子，或按数字小键盘的 1-9；h 提示，u 悔棋，q 退出。" in said
    assert "电脑思考中…" in said and "电脑走 b2（双方最佳走法下和棋）" in said
    assert "'hello' 不是格子：请输入 a1 到 c3 之间的格子" in said
    assert "提示：" in said
    assert said.rstrip().endswith("再见 — 你 胜 0 · 和 0 · 负 0")


def test_every_verb_speaks_chinese_its_help_and_its_errors_too() -> None:
    from typer.testing import CliRunner

    from inarow.cli import app

    runner = CliRunner()

    def zh(*args: str) -> str:
        return runner.invoke(app, ["--lang", "zh", *args], env={"COLUMNS": "120"}, prog_name="inarow").output

    tree = zh("tree", "--leaves", "[[3,12,8],[2,4,6]]").splitlines()
    assert tree[0] == "在树 [[3,12,8],[2,4,6]] 上的 alphabeta；根节点轮到极大方走：值从极大方的立场给出"
    assert tree[1].startswith("e= 为叶节点上估价函数 e(P) 的值；= 为倒推值；α 剪枝发生在极小节点")
    assert tree[2] == "根  极大节点  α=-∞ β=+∞  = +3  最佳 a"
    assert tree[-3:] == [
        "   └─ ✂ 剪掉 b2 (4) b3 (6)（α 剪枝：α=+3 ≥ β=+2）",
        "值 +3；最佳走法 a；节点数 7",
        "剪掉：叶节点 4 6（b2 b3），从未被估值",
    ]
    solved = zh("solve").splitlines()
    assert solved[0] == "井字棋：双方完美下法下和棋（分数 +0）"
    assert solved[5].split() == ["x", "胜的对局数", "131,184"]
    compared = zh("compare", "x.o/.x./...", "--depth", "2").splitlines()
    assert compared[0] == "x.o/.x./...  （tictactoe，轮到 o 走），深度 2，估价函数 open-lines"
    assert compared[1].split() == ["算法", "节点", "秒", "b*", "局面值", "走法"]
    assert compared[2].split()[0] == "极大极小" and compared[-1].startswith("值从极大方（o）的立场给出")
    matched = zh("match", "random", "perfect", "-n", "2", "--seed", "1").splitlines()
    assert matched[0] == "random 对 perfect，井字棋：2 局（种子 1）"
    assert matched[1].split() == ["棋手", "胜", "和", "负", "分数", "95%", "置信区间"]
    assert (
        zh("best", "b2 b2") == "错误：'b2 b2' 的第 2 步：局面 '.../.x./...' 中的非法走法 'b2'：该格已有棋子\n"
    )
    assert zh("best", "--depth", "x", "b2").endswith(
        "错误：--depth / -d 的值无效：'x' 不是整数\n".replace("--depth / -d", "'--depth' / '-d'")
    )
    assert zh("bogus").endswith("错误：没有这个命令：bogus\n")
    helped = zh("best", "--help")
    assert helped.startswith(
        "用法：inarow best [选项] POSITION\n\n  该走的一步及其理由，从走棋方的立场给出。"
    )
    assert "显示此帮助并退出。" in helped and "[默认：tictactoe]" in helped and "[必填]" in helped
    listed = zh("--help")
    assert "  tree     教科书算法的博弈树：每个节点的值和 α/β，以及 α-β 剪掉了什么\n" in listed
    assert "Show this message" not in listed and "Usage" not in listed
    assert listed.startswith("用法：inarow [选项] 命令 [参数]...\n") and "COMMAND" not in listed
    english = runner.invoke(
        app, ["best", "--help"], env={"LANG": "C", "LANGUAGE": ""}, prog_name="inarow"
    ).output
    assert english.startswith("Usage: inarow best [OPTIONS] POSITION\n\n  The move to play and why")


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "x.o/.x./...", "--format", "json"],
        ["compare", "x.o/.x./...", "--depth", "2", "--json"],
        ["analyze", "x.o/.x./...", "--algo", "minimax", "--depth", "2", "--json"],
        ["match", "random", "rules", "-n", "2", "--seed", "4", "--json"],
    ],
)
def test_json_is_the_same_in_every_language(args: list[str]) -> None:
    from typer.testing import CliRunner

    from inarow.cli import app

    timings = re.compile(r'"(seconds|load_seconds|time)": [0-9.e-]+')
    english = CliRunner().invoke(app, ["--lang", "en", *args])
    chinese = CliRunner().invoke(app, ["--lang", "zh", *args])
    assert english.exit_code == chinese.exit_code == 0
    assert timings.sub("", chinese.output) == timings.sub("", english.output)
    assert not re.search(r"[\u4e00-\u9fff]", chinese.output)


def test_the_installed_command_follows_the_terminals_locale() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "LANG": "zh_CN.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    done = subprocess.run(
        [sys.executable, "-m", "inarow", "best", "x.o/.x./..o"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "c2 — 双方最佳走法下和棋\n"


def test_inarow_play_speaks_chinese_in_a_real_terminal() -> None:
    """The terminal game in a pseudo-terminal, as a student types it: rich draws for a terminal there."""
    import os
    import select
    import subprocess
    import sys

    leader, follower = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "40", "LANG": "C.UTF-8"}
    argv = [sys.executable, "-m", "inarow", "--lang", "zh", "play", "--seed", "3", "--you", "x"]
    game = subprocess.Popen(
        [*argv, "--first", "you", "--level", "easy"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    screen = ""

    def read_until(text: str) -> None:
        nonlocal screen
        while text not in screen:
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, f"no {text!r} on the screen after a minute:\n{screen}"
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the game has ended and closed the terminal
                chunk = b""
            assert chunk, f"the game ended before {text!r}:\n{screen}"
            screen += chunk.decode("utf-8", errors="replace")

    try:
        read_until("h 提示，u 悔棋，q 退出。")
        os.write(leader, b"5\r")
        read_until("电脑走 ")
        os.write(leader, b"q\r")
        read_until("再见")
    finally:
        game.kill()
        game.wait()
        os.close(leader)
    assert "井字棋，难度 简单。" in screen
    assert "错误" not in screen and "Traceback" not in screen


def test_speaking_chinese_needs_no_babel_at_run_time() -> None:
    """Babel is a tool of the build: a command in Chinese and the page's catalog read the compiled .mo."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from inarow.cli import app\n"
        "from inarow.web.catalog import messages\n"
        "said = CliRunner().invoke(app, ['--lang', 'zh', 'best', 'b2 a2']).output\n"
        "assert said == 'b1 — 双方最佳走法下 3 步后获胜\\n', said\n"
        "assert messages('zh_CN')['Restart']\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'babel'))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "[]\n", run.stdout + run.stderr
