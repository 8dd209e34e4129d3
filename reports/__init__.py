"""reports: view models -> Jinja2 templates -> one self-contained HTML file.

`rebuild_report(folder)` rebuilds any folder's report as the kind of folder it
is (what `balance report FOLDER` does), by the table `FOLDER_KINDS`: the first
entry whose kind file the folder holds renders it. A comparison played with
`compare --game` is also a sweep folder (manifest.json); its comparison.json
comes first, so it stays a comparison. A new kind (impact, ladder...) is one
more entry, before manifest.json.

`render_run_report(run_dir, spec)` reads only the run folder (manifest, parts,
summary.json) and writes `report.html` beside them; a folder holding several
variants (a sweep) gets the sweep report (`render_sweep_report`).

`render_compare_report`, `render_tuning_report` and `render_campaign_report`
lay out comparison.json's, tuning.json's and campaign.json's typed results
(analysis.compare_result, analysis.tuning_result, analysis.campaign_result),
writing `report.html` into the folder given.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from jinja2 import Environment, PackageLoader, select_autoescape

from balance.simcore.errors import BalanceError

if TYPE_CHECKING:
    from balance.analysis.campaign_result import CampaignResult
    from balance.analysis.compare_result import ComparisonResult
    from balance.analysis.ladder_result import LadderAnalysis
    from balance.analysis.summary_result import SummaryResult
    from balance.analysis.tuning_result import TuningResult

from .views import RunReport, build_run_report

REPORT_FILE = "report.html"


def environment() -> Environment:
    return Environment(loader=PackageLoader("balance.reports", "templates"),
                       autoescape=select_autoescape(["html", "jinja2"], default=True),
                       trim_blocks=True, lstrip_blocks=True)


def render_html(view: RunReport) -> str:
    return environment().get_template("run.html.jinja2").render(r=view)


def _summary_for(run_dir: Path, spec) -> SummaryResult:
    """summary.json as its schema (analysis.summary_result), recomputed from the parts (and rewritten) when
    missing, older than a part, or refused by its schema (made by another balance, damaged): a run folder's
    report is made from its games, as `balance report FOLDER` makes it."""
    from balance.analysis.frames import part_files
    from balance.analysis.summary import SUMMARY_FILE, write_summary
    from balance.analysis.summary_result import SummaryResult

    path = run_dir / SUMMARY_FILE
    parts = [p for kind in ("games", "seats", "cards") for p in part_files(run_dir, kind)]
    newest = max((p.stat().st_mtime for p in parts), default=0.0)
    if not path.exists() or path.stat().st_mtime < newest:
        write_summary(run_dir, spec)
    try:
        return SummaryResult.read(run_dir)
    except BalanceError:
        write_summary(run_dir, spec)
        return SummaryResult.read(run_dir)


def write_report(folder: str | Path, view: RunReport) -> Path:
    """Render a view into `folder/report.html` (atomically) and return its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / REPORT_FILE
    tmp = out.with_suffix(".html.tmp")
    tmp.write_text(render_html(view), encoding="utf-8")
    tmp.replace(out)
    return out


def render_run_report(run_dir: str | Path, spec) -> Path:
    """Write `report.html` for a run folder and return its path (the sweep
    report when the folder holds several variants)."""
    from balance.analysis.frames import load_manifest

    run_dir = Path(run_dir)
    summary = _summary_for(run_dir, spec)
    if summary.folder_kind == "impact":  # balance impact's folder: its own report (reports.impact)
        return render_impact_report(run_dir, spec, summary)
    if summary.sweep:
        return render_sweep_report(run_dir, spec, summary)
    return write_report(run_dir, build_run_report(summary, load_manifest(run_dir), run_dir, spec))


def render_sweep_report(run_dir: str | Path, spec, summary: SummaryResult | None = None) -> Path:
    """Write the sweep report of a run folder with several variants; return its path."""
    from balance.analysis.frames import load_manifest

    from .sweep import build_sweep_report

    run_dir = Path(run_dir)
    summary = summary if summary is not None else _summary_for(run_dir, spec)
    return write_report(run_dir, build_sweep_report(summary, load_manifest(run_dir), run_dir, spec))


def render_impact_report(run_dir: str | Path, spec, summary: SummaryResult | None = None) -> Path:
    """An impact folder (balance impact): impact.json recomputed from its parts
    (analysis.impact), then report.html (reports.impact) from that typed result."""
    from balance.analysis.frames import load_manifest
    from balance.analysis.impact import write_impact

    from .impact import build_impact_report

    run_dir = Path(run_dir)
    if summary is None:
        summary = _summary_for(run_dir, spec)
    res = write_impact(run_dir, spec, summary.margin)
    return write_report(run_dir, build_impact_report(res, summary, load_manifest(run_dir), run_dir, spec))


def render_compare_report(folder: str | Path, result: ComparisonResult) -> Path:
    """Write the comparison report (comparison.json's typed result) into folder/report.html."""
    from .comparison import build_compare_report

    return write_report(Path(folder), build_compare_report(result))


def render_tuning_report(folder: str | Path, result: TuningResult | dict) -> Path:
    """Write the tuning report (tuning.json's typed result; a dict of analysis.tune.tune's result is
    typed first) into folder/report.html."""
    from balance.analysis.tune import tuning_result

    from .tuning import build_tuning_report

    folder = Path(folder)
    if isinstance(result, dict):
        result = tuning_result(result, result.get("command"))
    spec = _spec_of(result.game, folder / "tuning.json", required=False)
    return write_report(folder, build_tuning_report(result, result.command, spec))


def render_campaign_report(folder: str | Path, result: CampaignResult | dict, spec=None) -> Path:
    """Write the campaign report (campaign.json's typed result; a dict of analysis.campaign.run_campaign's
    result is typed first) into folder/report.html."""
    from balance.analysis.campaign import campaign_result

    from .campaign import build_campaign_report

    folder = Path(folder)
    if isinstance(result, dict):
        result = campaign_result(result, result.get("command"))
    if spec is None:
        spec = _spec_of(result.game, folder / "campaign.json", required=False)
    return write_report(folder, build_campaign_report(result, spec, result.command))


def render_ladder_report(folder: str | Path, result: LadderAnalysis | dict, spec=None) -> Path:
    """Write the skill-ladder report (analysis.ladder.analyse's result, typed: LadderAnalysis; a dict is
    typed first) into folder/report.html."""
    from .ladder import build_ladder_report

    from balance.analysis import ladder

    folder = Path(folder)
    if isinstance(result, dict):
        if "verdicts" not in result:  # a ladder analysed before its verdicts were stored
            result = {**result, "verdicts": ladder.verdicts(result.get("ladders") or [], result.get("margin", 0.02))}
        result = ladder.ladder_result(result)
    if spec is None:
        spec = _spec_of(result.game, folder / "summary.json", required=False)
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = None
    return write_report(folder, build_ladder_report(result, spec, _command(folder, "summary.json"),
                                                    manifest if isinstance(manifest, dict) else None, folder))


def _command(folder: Path, name: str) -> str | None:
    """The command line, from the JSON the analysis side writes beside the report."""
    try:
        return json.loads((folder / name).read_text(encoding="utf-8")).get("command")
    except (OSError, ValueError, AttributeError):
        return None


# ---------------------------------------------------------------- any folder, as its kind


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BalanceError(f"{path}: not readable as JSON ({exc.__class__.__name__}); rerun the command that wrote it") \
            from None
    if not isinstance(data, dict):
        raise BalanceError(f"{path}: not a JSON object; rerun the command that wrote it")
    return data


def _spec_of(game, path: Path, required: bool = True):
    from balance.simcore import registry

    if str(game) in registry.names():
        return registry.get(str(game))
    if not required:
        return None
    raise BalanceError(f"{path}: field 'game': {game!r} is not a game of this build; "
                       f"allowed: {', '.join(registry.names())}")


def _result(path: Path) -> dict:
    data = _read_json(path)
    data.pop("command", None)  # written beside the result by the command (read back by _command)
    return data


def _rebuild_run(folder: Path) -> Path:
    """A run or sweep folder: summary.json recomputed from the parts, then its report."""
    from balance.analysis.frames import load_manifest
    from balance.analysis.summary import write_summary

    manifest = load_manifest(folder)
    if manifest.get("kind") == "ladder":  # a ladder folder whose ladder.json was lost
        return _rebuild_ladder(folder)
    game = (manifest.get("config") or {}).get("game")
    spec = _spec_of(game, folder / "manifest.json")
    write_summary(folder, spec)
    return render_run_report(folder, spec)


def _rebuild_impact(folder: Path) -> Path:
    """An impact folder: summary.json and impact.json recomputed from the parts, then its report."""
    return _rebuild_run(folder)  # render_run_report dispatches on the manifest's kind


def _rebuild_compare(folder: Path) -> Path:
    """A comparison folder: its report from comparison.json alone (an older or damaged file refused)."""
    from balance.analysis.compare_result import ComparisonResult

    return render_compare_report(folder, ComparisonResult.read(folder))


def _rebuild_tune(folder: Path) -> Path:
    """A tuning folder: its report from tuning.json alone (an older or damaged file refused)."""
    from balance.analysis.tuning_result import TuningResult

    return render_tuning_report(folder, TuningResult.read(folder))


def _rebuild_campaign(folder: Path) -> Path:
    """A campaign folder: its report from campaign.json alone (an older or damaged file refused)."""
    from balance.analysis.campaign_result import CampaignResult

    return render_campaign_report(folder, CampaignResult.read(folder))


def _rebuild_ladder(folder: Path) -> Path:
    """A ladder folder (`balance ladder`): ladder.json and summary.json recomputed from the parts, then its
    report. A run folder that merely holds a copied ladder.json is a run folder."""
    from balance.analysis import ladder
    from balance.analysis.frames import load_manifest

    manifest = load_manifest(folder)
    if manifest.get("kind") != ladder.KIND:
        return _rebuild_run(folder)
    spec = _spec_of((manifest.get("config") or {}).get("game"), folder / "manifest.json")
    old = ladder.read_summary(folder)
    margin = old.get("margin") if isinstance(old.get("margin"), (int, float)) else 0.02
    result = ladder.write(folder, ladder.analyse(folder, manifest, spec, margin),
                          old.get("command") or manifest.get("command"))
    return render_ladder_report(folder, result, spec)


def _rebuild_playtests(folder: Path) -> Path:
    """A playtests folder (`balance playtests`): its report from playtests.json (the simulation it holds)."""
    from .playtests import render_playtests_report

    return render_playtests_report(folder, _result(folder / "playtests.json"))


@dataclass(frozen=True)
class FolderKind:
    kind: str  # what `balance` calls it
    file: str  # the file that makes a folder this kind
    rebuild: Callable[[Path], Path]  # folder -> the report written


# First match wins: the specific result files before manifest.json (a `compare --game`
# folder holds both and is a comparison). A new kind is one entry here.
FOLDER_KINDS: list[FolderKind] = [
    FolderKind("compare", "comparison.json", _rebuild_compare),
    FolderKind("tune", "tuning.json", _rebuild_tune),
    FolderKind("campaign", "campaign.json", _rebuild_campaign),
    FolderKind("impact", "impact.json", _rebuild_impact),  # also a run folder: the manifest's kind is "impact"
    FolderKind("ladder", "ladder.json", _rebuild_ladder),  # before manifest.json: a ladder folder holds both
    FolderKind("playtests", "playtests.json", _rebuild_playtests),
    FolderKind("run", "manifest.json", _rebuild_run),  # run and sweep (the manifest's kind says which)
]


def folder_kind(folder: str | Path) -> FolderKind:
    """The kind of a folder `balance` wrote, from the file that marks it (FOLDER_KINDS)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise BalanceError(f"{folder}: no such folder; give a folder written by simulate, sweep, compare, tune, ladder, "
                           f"campaign or playtests")
    for k in FOLDER_KINDS:
        if (folder / k.file).is_file():
            return k
    files = ", ".join(k.file for k in FOLDER_KINDS)
    kinds = ", ".join(dict.fromkeys(k.kind for k in FOLDER_KINDS))
    raise BalanceError(f"{folder}: not a folder balance wrote (none of {files}); allowed: a {kinds} folder")


def rebuild_report(folder: str | Path) -> Path:
    """Rebuild `folder/report.html` as the kind of folder it is; return its path."""
    folder = Path(folder)
    return folder_kind(folder).rebuild(folder)


__all__ = ["render_run_report", "render_sweep_report", "render_compare_report", "render_impact_report", "render_tuning_report",
           "render_campaign_report", "render_ladder_report", "render_html", "build_run_report", "write_report", "rebuild_report",
           "folder_kind", "FOLDER_KINDS", "FolderKind", "REPORT_FILE"]
