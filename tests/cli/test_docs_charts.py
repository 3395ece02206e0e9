"""The charts in docs/charts/ are what `taxpro chart` draws today (scripts/docs-charts writes them), and they show
what they claim: one slice or bar per part, with the figures the terminal chart prints."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def load_script():
    from importlib.machinery import SourceFileLoader
    loader = SourceFileLoader("docs_charts", str(REPO / "scripts" / "docs-charts"))
    spec = importlib.util.spec_from_loader("docs_charts", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


DOCS_CHARTS = load_script()


@pytest.mark.parametrize("name", sorted(DOCS_CHARTS.CHARTS))
def test_docs_chart_is_current(taxpro, name):
    committed = DOCS_CHARTS.DOCS / name
    assert committed.exists(), f"docs/charts/{name} is missing: run scripts/docs-charts"
    assert DOCS_CHARTS.render(taxpro.path, name) == committed.read_text(encoding="utf-8"), (
        f"docs/charts/{name} is out of date: run scripts/docs-charts")


@pytest.mark.parametrize("name", sorted(DOCS_CHARTS.CHARTS))
def test_docs_chart_shows_the_parts_the_terminal_prints(taxpro, name):
    root = ET.parse(DOCS_CHARTS.DOCS / name).getroot()
    slices = [element for element in root.iter() if element.get("class") == "slice"]
    terminal = taxpro.run("chart", *DOCS_CHARTS.CHARTS[name])
    assert terminal.returncode == 0, terminal.stderr
    for element in slices:
        assert f"{element.get('data-amount')}" in terminal.stdout
        label_line = next(line for line in terminal.stdout.splitlines() if line.startswith(element.get("data-label")))
        assert element.get("data-amount") in label_line and element.get("data-share") in label_line
    assert len(slices) == len(terminal.stdout.splitlines()) - (3 if "budget" in name else 2)
