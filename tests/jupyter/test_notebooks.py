"""The example notebooks run headless with nbclient on the TaxPro kernel, and their figures are `taxpro eval`'s.

A code cell may carry `{"taxpro": {"checks": [EXPR, …]}}` in its metadata: one expression per value the cell shows,
written with the standard library only, so that `taxpro eval` can compute it on its own. The values the notebook
shows (its results, in order, and the value an explanation ends on) must be exactly what `taxpro eval` prints.
A cell tagged `raises-exception` must fail; every other cell must succeed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from jupyter_support import EXAMPLES, eval_taxpro

NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
EXPLANATION = "application/vnd.taxpro.explanation+json"


def test_there_are_a_teaching_and_an_experimenting_notebook() -> None:
    names = [notebook.name for notebook in NOTEBOOKS]
    assert any(name.startswith("teaching") for name in names), names
    assert any(name.startswith("experimenting") for name in names), names


def shown_values(cell: dict[str, Any]) -> list[str]:
    """The values a cell shows, in order: results and displayed values, and the value each explanation ends on."""
    values = []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if EXPLANATION in data:
            values.append(data[EXPLANATION]["value"]["text"])
        elif output.get("output_type") in ("execute_result", "display_data") and "taxpro-value" in data.get(
            "text/html", ""
        ):
            values.append(data["text/plain"])
    return values


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[notebook.name for notebook in NOTEBOOKS])
def test_notebook_runs_headless_and_its_figures_are_taxpro_evals(
    path: Path, jupyter_environment, taxpro: str
) -> None:
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata["kernelspec"]["name"] == "taxpro"
    client = NotebookClient(
        notebook, kernel_name="taxpro", timeout=120, resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    year = "2025"
    checked = 0
    for cell in code_cells:
        errors = [output for output in cell.outputs if output.output_type == "error"]
        if "raises-exception" in cell.metadata.get("tags", []):
            assert errors, f"expected an error from:\n{cell.source}"
            continue
        assert not errors, f"{cell.source}\n{errors}"
        if match := re.search(r"^:year (\d{4})", cell.source, re.MULTILINE):
            year = match.group(1)
        checks = cell.metadata.get("taxpro", {}).get("checks", [])
        if not checks:
            continue
        expected = [eval_taxpro(taxpro, expression, "--year", year) for expression in checks]
        assert shown_values(cell) == expected, cell.source
        checked += len(checks)
    assert checked >= 5, "the notebook checks too few of its figures against taxpro eval"
    # Every chart is an SVG image.
    images = [
        output for cell in code_cells for output in cell.outputs if "image/svg+xml" in output.get("data", {})
    ]
    assert images, "the notebook draws no chart"
    assert all(output.data["image/svg+xml"].lstrip().startswith("<?xml") for output in images)
