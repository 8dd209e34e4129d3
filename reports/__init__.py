"""reports: view models -> Jinja2 templates -> one self-contained HTML file.

`render_run_report(run_dir, spec)` reads only the run folder (manifest, parts,
summary.json) and writes `report.html` beside them; a folder holding several
variants (a sweep) gets the sweep report (`render_sweep_report`).

`render_compare_report`, `render_tuning_report` and `render_campaign_report`
lay out the result dicts of analysis.compare, analysis.tune and
analysis.campaign, writing `report.html` into the folder given.
"""
from __future__ import annotations

import json
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from .views import RunReport, build_run_report

REPORT_FILE = "report.html"


def environment() -> Environment:
    return Environment(loader=PackageLoader("reports", "templates"),
                       autoescape=select_autoescape(["html", "jinja2"], default=True),
                       trim_blocks=True, lstrip_blocks=True)


def render_html(view: RunReport) -> str:
    return environment().get_template("run.html.jinja2").render(r=view)


def _summary_for(run_dir: Path, spec) -> dict:
    """summary.json, recomputed (and rewritten) when missing or older than a part."""
    from analysis.frames import part_files
    from analysis.summary import SUMMARY_FILE, write_summary

    path = run_dir / SUMMARY_FILE
    parts = [p for kind in ("games", "seats", "cards") for p in part_files(run_dir, kind)]
    newest = max((p.stat().st_mtime for p in parts), default=0.0)
    if not path.exists() or path.stat().st_mtime < newest:
        write_summary(run_dir, spec)
    return json.loads(path.read_text(encoding="utf-8"))


def write_report(folder: str | Path, view: RunReport) -> Path:
    """Render a view into `folder/report.html` (atomically) and return its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / REPORT_FILE
    tmp = out.with_suffix(".html.tmp")
    tmp.write_text(render_html(view), encoding="utf-8")
    tmp.replace(out)
    return out


def is_sweep(summary: dict) -> bool:
    return len(summary.get("variants") or []) > 1


def render_run_report(run_dir: str | Path, spec) -> Path:
    """Write `report.html` for a run folder and return its path (the sweep
    report when the folder holds several variants)."""
    from analysis.frames import load_manifest

    run_dir = Path(run_dir)
    summary = _summary_for(run_dir, spec)
    if is_sweep(summary):
        return render_sweep_report(run_dir, spec, summary)
    return write_report(run_dir, build_run_report(summary, load_manifest(run_dir), run_dir))


def render_sweep_report(run_dir: str | Path, spec, summary: dict | None = None) -> Path:
    """Write the sweep report of a run folder with several variants; return its path."""
    from analysis.frames import load_manifest

    from .sweep import build_sweep_report

    run_dir = Path(run_dir)
    summary = summary if summary is not None else _summary_for(run_dir, spec)
    return write_report(run_dir, build_sweep_report(summary, load_manifest(run_dir), run_dir))


def render_compare_report(folder: str | Path, result: dict) -> Path:
    """Write the comparison report (analysis.compare.compare_runs' result) into folder/report.html."""
    from .comparison import build_compare_report

    folder = Path(folder)
    return write_report(folder, build_compare_report(result, _command(folder, "comparison.json")))


def render_tuning_report(folder: str | Path, result: dict) -> Path:
    """Write the tuning report (analysis.tune.tune's result) into folder/report.html."""
    from .tuning import build_tuning_report

    folder = Path(folder)
    return write_report(folder, build_tuning_report(result, _command(folder, "tuning.json")))


def render_campaign_report(folder: str | Path, result: dict, spec=None) -> Path:
    """Write the campaign report (analysis.campaign.run_campaign's result) into folder/report.html."""
    from .campaign import build_campaign_report

    folder = Path(folder)
    return write_report(folder, build_campaign_report(result, spec, _command(folder, "campaign.json")))


def _command(folder: Path, name: str) -> str | None:
    """The command line, from the JSON the analysis side writes beside the report."""
    try:
        return json.loads((folder / name).read_text(encoding="utf-8")).get("command")
    except (OSError, ValueError, AttributeError):
        return None


__all__ = ["render_run_report", "render_sweep_report", "render_compare_report", "render_tuning_report",
           "render_campaign_report", "render_html", "build_run_report", "write_report", "REPORT_FILE"]
