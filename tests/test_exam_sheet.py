"""``inarow exam --format html``: question sheets to print on A4 (name and seed on each, blank boxes), a
separate answer key that agrees with the exam's own key, and no text under 10 pt."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from inarow.cli import app
from inarow.teaching.exam import make_exam
from inarow.teaching.sheet import exam_sheets

runner = CliRunner()


def sheet_html(*args: str) -> str:
    result = runner.invoke(app, ["--lang", "en", "exam", "--format", "html", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_question_sheet_has_a_name_field_and_its_seed_and_the_key_comes_after_them_all() -> None:
    html = sheet_html("--seed", "7", "--count", "3")
    sheets = re.findall(r'<section class="sheet[^"]*" data-seed="(\d+)">(.*?)</section>', html, re.S)
    assert [seed for seed, _ in sheets] == ["7", "8", "9"]
    for seed, body in sheets:
        assert 'data-field="name"' in body and f"Seed: {seed}" in body
        assert "data-answer" not in body  # no answer on a question sheet
        assert body.count('class="box"') == 13  # a blank box at every inner node of 3 levels of 3
    key_at = html.index('<section class="key">')
    assert key_at > html.rindex('<section class="sheet')
    assert re.findall(r'<div class="answer" data-seed="(\d+)">', html[key_at:]) == ["7", "8", "9"]


def test_the_print_css_is_a4_and_no_text_is_under_10_points() -> None:
    html = sheet_html()
    css = html[html.index("<style>") : html.index("</style>")]
    assert "size: A4" in css
    sizes = [float(size) for size in re.findall(r"font-size:\s*([\d.]+)pt", css)]
    assert sizes and min(sizes) >= 10
    svg_sizes = [float(size) for size in re.findall(r'font-size="([\d.]+)"', html)]
    assert svg_sizes and min(svg_sizes) >= 10 * 25.4 / 72  # the tree's units are millimetres


def test_the_answer_key_agrees_with_the_exams_own_key() -> None:
    for sheet in exam_sheets(7, 3):
        exam = make_exam(3, 3, sheet.exam.seed)
        document = exam.to_json()
        assert sheet.value == exam.result.frame_value
        assert list(sheet.unevaluated) == document["unevaluated_labels"]
        assert sheet.key == document["key"]
    html = sheet_html("--seed", "7")
    assert '<b data-answer="value">17</b>' in html
    assert '<b data-answer="unevaluated">a2.2, a2.3, a3.2, a3.3, b3.1, b3.2, b3.3</b>' in html


def test_an_affine_rescaling_keeps_the_pruning_and_the_best_first_order_prunes_at_least_as_much() -> None:
    for sheet in exam_sheets(1, 10):
        assert sheet.affine_same
        leaves = sum(1 for value in sheet.exam.root.game.values if value is not None)
        assert sheet.best_first_evaluated <= leaves - len(sheet.unevaluated)
    assert not all(sheet.square_same for sheet in exam_sheets(1, 10))  # (v − 10)² is not monotone


def test_the_sheet_speaks_chinese() -> None:
    result = runner.invoke(app, ["--lang", "zh", "exam", "--format", "html", "--seed", "7"])
    assert '<html lang="zh-CN"' in result.stdout and "答案" in result.stdout


def test_a_tree_too_wide_to_print_is_refused() -> None:
    result = runner.invoke(
        app, ["--lang", "en", "exam", "--format", "html", "--depth", "4", "--branching", "3"]
    )
    assert result.exit_code == 2
    assert (
        result.stderr
        == "error: a tree of 81 leaves is too wide to print: at most 41 leaves fit on an A4 page\n"
    )


KEY_LINE = re.compile(r"(root|[a-z][\d.]*)  (?:Max|Min)  α=\S+ β=\S+  ([=≤≥]) ([+-]?[\d∞]+)")
"""A node of the key as ``inarow exam`` prints it: ``├─ a2  Max  α=-∞ β=+12  ≥ +20``."""


def test_the_key_is_numbered_as_the_questions_and_keeps_the_bounds_the_text_says() -> None:
    """Five questions, five answers under the same numbers; every value the text key gives as a bound (≥
    after a β cut-off at Max, ≤ after an α one at Min) is a bound in the printed key too."""
    for seed in (7, 8, 9, 12):
        html = sheet_html("--seed", str(seed))
        key = html[html.index('<section class="key">') :]
        questions = re.findall(r'<li data-question="(\d)">', html[: html.index('<section class="key">')])
        assert questions == ["1", "2", "3", "4", "5"]
        assert re.findall(r'<li data-question="(\d)"', key) == ["1", "2", "3", "4", "5"]
        assert len(re.findall(r"<li[ >]", key)) == 5
        printed = dict(re.findall(r'<tr data-label="([^"]*)">(?:<td>[^<]*</td>){4}<td>([^<]*)</td>', key))
        text = runner.invoke(app, ["--lang", "en", "exam", "--seed", str(seed)]).stdout
        said = {
            ("" if label == "root" else label): (mark, number.lstrip("+"))
            for label, mark, number in KEY_LINE.findall(text)
        }
        inner = {label: value for label, value in said.items() if "." not in label}  # not the leaves (a1.1)
        assert set(printed) == set(inner)
        assert any(mark != "=" for mark, _ in inner.values()), "a seed with a bound"
        for label, (mark, number) in inner.items():
            assert printed[label] == (number if mark == "=" else f"{mark} {number}"), label


def test_the_chinese_sheet_names_alpha_beta_pruning_and_no_heading_ends_a_page() -> None:
    result = runner.invoke(app, ["--lang", "zh", "exam", "--format", "html", "--seed", "7", "--count", "3"])
    assert "用 α-β 剪枝 搜索" in result.stdout and "alphabeta" not in result.stdout
    css = result.stdout[result.stdout.index("<style>") : result.stdout.index("</style>")]
    assert re.search(r"h1, h2 \{[^}]*break-after: avoid", css)
    assert re.search(r"\.answer, li, tr \{[^}]*break-inside: avoid", css)
