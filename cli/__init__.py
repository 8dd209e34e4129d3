"""cli: the `balance` command (Typer), thin commands over simcore/analysis/reports.

Commands kept in modules of their own register on `cli.app.app` when imported
here (any import of cli.app runs this first), so cli/app.py does not import them."""
from . import app as _app  # noqa: F401  (the app and its shared options first)
from . import impact as _impact  # noqa: F401  (`balance impact`: cli/impact.py)
from . import play_session as _play  # noqa: F401  (`balance play`: cli/play_session.py, the game in cli/play.py)
from . import playtests as _playtests  # noqa: F401  (`balance playtests`: cli/playtests.py)
from . import cards as _cards  # noqa: F401  (`balance cards export`: cli/cards.py)
from . import export as _export  # noqa: F401  (`balance export`: cli/export.py)
