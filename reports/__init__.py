"""reports: view models -> Jinja2 templates -> one self-contained HTML file.

`render_run_report(run_dir, spec)` reads only the run folder (manifest, parts,
summary.json) and writes `report.html` beside them.
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


def render_run_report(run_dir: str | Path, spec) -> Path:
    """Write `report.html` for a run folder and return its path."""
    from analysis.frames import load_manifest

    run_dir = Path(run_dir)
    summary = _summary_for(run_dir, spec)
    view = build_run_report(summary, load_manifest(run_dir), run_dir)
    out = run_dir / REPORT_FILE
    tmp = out.with_suffix(".html.tmp")
    tmp.write_text(render_html(view), encoding="utf-8")
    tmp.replace(out)
    return out


__all__ = ["render_run_report", "render_html", "build_run_report", "REPORT_FILE"]
