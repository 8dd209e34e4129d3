"""cli: the `balance` command (Typer), thin commands over simcore/analysis/reports.

cli/app.py holds the app, the options every command shares and the `command` decorator; each command
lives in a module of its own and registers on `cli.app.app` when imported here (any import of cli.app
runs this first), so cli/app.py imports none of them. The order here is the order of `balance --help`.
cli/running.py plays a run folder's games for every command that writes one; cli/api.py lets the Python
API (balance/__init__.py) call the same command functions."""
from . import app as _app  # noqa: F401  (the app and its shared options first)
from . import running as _running  # noqa: F401  (opened_run, run_and_report: shared by the commands below)
from . import simulate as _simulate  # noqa: F401  (`balance games`, `policies`, `simulate`, `sweep`)
from . import compare as _compare  # noqa: F401  (`balance compare`)
from . import tune as _tune  # noqa: F401  (`balance tune`, `campaign`)
from . import replay as _replay  # noqa: F401  (`balance report`, `replay`)
from . import bench as _bench  # noqa: F401  (`balance bench`)
from . import ladder as _ladder  # noqa: F401  (`balance ladder`)
from . import impact as _impact  # noqa: F401  (`balance impact`: cli/impact.py)
from . import play_session as _play  # noqa: F401  (`balance play`: cli/play_session.py, the game in cli/play.py)
from . import playtests as _playtests  # noqa: F401  (`balance playtests`: cli/playtests.py)
from . import cards as _cards  # noqa: F401  (`balance cards export`: cli/cards.py)
from . import export as _export  # noqa: F401  (`balance export`: cli/export.py)

_ladder.register({**vars(_app), **vars(_running)})
