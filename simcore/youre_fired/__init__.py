"""You're Fired! (Button Shy): 2 players, 3-4 free-for-all, 4 in two teams.

Declarative header first (players, turn cap, parameters, columns, end
reasons, policies); the rules are in `engine`, knowledge and the belief
arithmetic in `knowledge`, the scripted policy in `policies`, the card file
loader in `cards`, the transcript in `transcript`.
"""
from __future__ import annotations

from ..runner import P_GAME
from ..spec import Column, GameSpec, Kernels, PolicyParam, common_policies
from . import constants as K
from .cards import CARDS_FILE, PARAMS, RULES_FILE, card_list_hash, card_names, compile_tables, resolve_params
from .invariants import INVARIANTS, check
from .engine import card_counts, legal, new_game, outcome, step, to_move
from .knowledge import determinise
from .policies import greedy, value
from .state import clone
from .transcript import decode_trace

GREEDY_HELP = (
    "card counter: estimates from what its seat has seen (own cards, public zones, Secretary reveals, "
    "the fixed make-up of each company) how likely each card is in each opponent's hand; guesses the "
    "most likely card worth firing, names a Boss only above boss_guess_threshold, plays its own Boss only "
    "above boss_play_threshold or when forced; otherwise plays the card whose effect gains most over its "
    "worth in hand; off-turn cancels what threatens its Boss and lets a Manager take the fall"
)

GREEDY_PARAMS = (
    PolicyParam("boss_guess_threshold", P_GAME + 0, 0.55, "min chance the target holds its Boss to name it with a guessing card", 0.0, 1.0),
    PolicyParam("boss_play_threshold", P_GAME + 1, 0.9, "min chance the target holds its Boss to play one's own Boss", 0.0, 1.0),
    PolicyParam("fire_weight", P_GAME + 2, 1.0, "value of firing an ordinary card, times its worth", 0.0, 100.0),
    PolicyParam("reveal_weight", P_GAME + 3, 0.35, "value of each unknown card a Secretary reveals", 0.0, 100.0),
    PolicyParam("reshuffle_weight", P_GAME + 4, 0.2, "value per break-room card a Fall Guy reshuffles", 0.0, 100.0),
    PolicyParam("keep_reactive", P_GAME + 5, 2.0, "worth of holding a reactive card (Manager, Lawyer)", 0.0, 100.0),
    PolicyParam("draw_weight", P_GAME + 6, 0.5, "value per extra card drawn", 0.0, 100.0),
    PolicyParam("hold_cost", P_GAME + 7, 0.5, "share of a card's worth its play costs", 0.0, 10.0),
)


def headline(games, seats, params: dict) -> dict:
    """Guess hit rates, length, how games end, and team win rates."""
    import polars as pl

    from analysis.stats import mean_ci, rate

    games = games if isinstance(games, pl.DataFrame) else pl.DataFrame(games)
    seats = seats if isinstance(seats, pl.DataFrame) else pl.DataFrame(seats)
    out: dict = {}
    g = int(seats["guesses"].sum()) if "guesses" in seats.columns else 0
    h = int(seats["guesses_hit"].sum()) if "guesses_hit" in seats.columns else 0
    out["guess_hit_rate"] = {"label": "guessing cards (Axe Man) that hit", **rate(h, g)}
    if "boss_attempts" in seats.columns:
        out["boss_attempt_hit_rate"] = {"label": "attempts on a Boss (guess or Boss play) that fired it",
                                        **rate(int(seats["boss_hits"].sum()), int(seats["boss_attempts"].sum()))}
    if "turns" in games.columns and games.height:
        out["turns"] = {"label": "game length in turns", **mean_ci(games["turns"].to_numpy())}
    if "end_reason" in games.columns and games.height:
        counts = games["end_reason"].cast(pl.Utf8).value_counts()
        dist = {str(r): int(n) for r, n in zip(counts[counts.columns[0]], counts[counts.columns[1]])}
        out["end_reasons"] = {"label": "how games end", "distribution": dist,
                              "rates": {k: rate(v, games.height) for k, v in dist.items()}}
    if "failed_firings" in games.columns and games.height:
        out["failed_firings"] = {"label": "failed Boss firings (reshuffles) per game",
                                 **mean_ci(games["failed_firings"].to_numpy())}
    if params.get("teams") and "team" in seats.columns and "seat" in seats.columns and seats["seat"].max() == 3:
        n_games = seats.filter(pl.col("seat") == 0).height
        teams = {}
        for team in (0, 1):
            wins = seats.filter((pl.col("seat") == team) & (pl.col("won") > 0)).height
            teams[f"team {team + 1} (players {team + 1} and {team + 3})"] = rate(wins, n_games)
        out["team_win_rates"] = {"label": "win rate by team", "teams": teams,
                                 "distribution": {k: v["value"] for k, v in teams.items()}}
    return out


SPEC = GameSpec(
    name="youre-fired",
    title="You're Fired!",
    version="1",
    modes=("duel", "ffa", "teams"),
    min_players=2,
    max_players=4,
    default_players=2,
    cooperative=False,
    max_decisions=800,
    max_options=512,
    params=PARAMS,
    end_reasons=K.END_REASONS,
    game_columns=(
        Column("turns", "turns started (a seat with no cards passes its turn)"),
        Column("eliminations", "players knocked out (free-for-all)"),
        Column("bosses_fired", "Bosses fired by a guess or a Boss play"),
        Column("bosses_forced_out", "Bosses played or discarded because nothing else was left, without firing the target's"),
        Column("failed_bluffs", "Bosses played by choice that failed to fire the target's Boss"),
        Column("failed_firings", "failed attempts on a Boss (the owner reshuffled)"),
        Column("winning_team", "team variant: 0 or 1; -1 otherwise", "int8"),
    ),
    seat_columns=(
        Column("team", "team (team variant) or the seat itself", "int8"),
        Column("place", "1 = winner; free-for-all: order out, later is better", "int8"),
        Column("cards_fired", "own cards fired by opponents"),
        Column("fired_others", "opponents' cards this seat fired"),
        Column("guesses", "guessing cards played (Axe Man)"),
        Column("guesses_hit", "guesses that found the named card"),
        Column("boss_attempts", "attempts on a Boss: Axe Man naming it, or a Boss play"),
        Column("boss_hits", "Bosses this seat fired"),
        Column("reshuffles", "failed-firing reshuffles this seat got"),
        Column("turns_played", "turns this seat started"),
    ),
    card_counters=K.COUNTER_NAMES,
    policies=common_policies(GREEDY_HELP, GREEDY_PARAMS, rollouts=4, horizon=40, expert_iterations=48, expert_horizon=20),
    kernels=Kernels(new_game, to_move, legal, step, outcome, clone, determinise, value, greedy, card_counts,
                    check=check),
    compile_tables=compile_tables,
    card_names=card_names,
    card_list_hash=card_list_hash,
    decode_trace=decode_trace,
    resolve_params=resolve_params,
    headline=headline,
    data_files=(str(RULES_FILE.relative_to(RULES_FILE.parent.parent.parent)),
                str(CARDS_FILE.relative_to(CARDS_FILE.parent.parent.parent))),
    notes="Card list reconstructed (see data/youre-fired/cards.toml). Teams: set teams=true with 4 players; "
          "mode is duel with 2 players, ffa with 3-4, teams with 4 and teams=true.",
    invariants=INVARIANTS,
)
