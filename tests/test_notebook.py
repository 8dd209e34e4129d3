"""docs/notebooks/designer-tour.ipynb runs from top to bottom (issue 45, item 5).

The notebook is committed without outputs; this test executes it in a fresh
python3 kernel at small n, with its working folder in tmp_path (so nothing is
written into the repository), and checks the folders and the chart it makes.
"""
import json
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "notebooks" / "designer-tour.ipynb"
SMALL = "N = 200\nN_SWEEP = 200\nN_IMPACT = 200\nQUICK = True\nWORK = {work!r}\n"


def test_the_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)
    params = [c for c in code if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and "N = " in params[0].source
    # every code cell follows a markdown cell saying what it is for
    for before, cell in zip(nb.cells, nb.cells[1:]):
        if cell.cell_type == "code":
            assert before.cell_type == "markdown", cell.source[:60]


def test_the_designer_tour_runs_at_small_n(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    work = tmp_path / "work"
    at = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    nb.cells.insert(at + 1, nbformat.v4.new_code_cell(SMALL.format(work=str(work))))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=600,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=env)  # a cell that raises fails the test with its traceback

    assert json.loads((work / "first" / "summary.json").read_text())["n_games"] == 200
    sweep = json.loads((work / "rounds-sweep" / "summary.json").read_text())
    assert [v["params"]["rounds"] for v in sweep["variants"]] == [6, 7, 8, 9, 10]
    assert (work / "rounds-sweep.png").stat().st_size > 1000
    assert (work / "power-outage-2" / "comparison.json").is_file()
    assert 'name = "Power Outage"' in (work / "my-cards.toml").read_text()
    impact = json.loads((work / "impact" / "impact.json").read_text())
    assert {r["card"] for r in impact["rows"]} == {"Power Outage", "Watchful Eye"}
    assert not (tmp_path / "runs").exists()  # everything under the working folder

    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the sweep's chart is not shown inline"
