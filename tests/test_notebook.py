"""The lab guide as a notebook (``docs/lab.ipynb``, Chinese and English), run cell by cell the way a student
runs it in Jupyter, so that it never goes stale: its trees draw as SVG, its analysis as an HTML table, and
its printed values are what the guide says."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "lab.ipynb"


def test_the_lab_notebook_runs_and_draws_its_trees_and_analysis_inline(tmp_path: Path) -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), "kept clean"
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    printed = "".join(output.get("text", "") for output in outputs if output.output_type == "stream")
    assert printed == "b2 1.0\n"  # the textbook e(P) two plies deep: the centre, worth +1 to Max
    shown = [output["data"] for output in outputs if output.output_type == "execute_result"]
    # e(P) at b2 a1, minimax after b2 a1, α-β on the textbook's tree, the horizon without and with quiescence
    assert ["image/svg+xml" in data for data in shown] == [True, True, True, True, True, False]
    assert shown[2]["image/svg+xml"].startswith("<svg") and "✂" in shown[2]["image/svg+xml"]
    assert "+1" in shown[0]["image/svg+xml"]  # the hand-worked e(P) = 5 - 4
    without, with_quiescence = shown[3]["image/svg+xml"], shown[4]["image/svg+xml"]
    assert without != with_quiescence
    table = shown[5]["text/html"]
    assert "<th>move</th>" in table and "<td>a2</td>" in table
