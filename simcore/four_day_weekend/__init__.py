"""Four Day Weekend (`--game four-day-weekend`, 2-6 players): set collection
over several rounds. See GAMES.md and docs/assumptions.md (Four Day Weekend)."""
from ..spec import Column, GameSpec, Kernels, PolicyParam, common_policies
from . import constants as K
from .cards import CARDS_FILE, PARAMS, RULES_FILE, card_list_hash, card_names, compile_tables, resolve_params
from .engine import card_counts, clone, determinise, legal, new_game, outcome, step, to_move, value
from .headline import headline
from .invariants import INVARIANTS, check
from .policies import W_BONUS, W_DECLARE, W_DENY, W_KEEP, W_LOCK, W_TAKE, greedy
from .transcript import decode_trace

GREEDY_PARAMS = (
    PolicyParam("keep_threshold", W_KEEP, 1.6, "discard the least useful card while its use is below this", 0.0, 20.0),
    PolicyParam("take_threshold", W_TAKE, 4.0, "take from another player's row when the card's use is at least this", 0.0, 20.0),
    PolicyParam("declare_margin", W_DECLARE, 3.0, "declare Back To Work-ish when ahead by at least this many points", -50.0, 50.0),
    PolicyParam("lock_necessities", W_LOCK, 3.0, "lock a scoring set with a new Excuse once it holds this many Necessities", 1.0, 4.0),
    PolicyParam("bonus_min_gain", W_BONUS, 2.0, "play a Bonus when it adds at least this many points", 0.0, 50.0),
    PolicyParam("deny_weight", W_DENY, 0.0, "weight of what a card is worth to opponents (discard less, take more of it)", 0.0, 5.0),
)

SPEC = GameSpec(
    name="four-day-weekend",
    title="Four Day Weekend",
    version="1",
    modes=("standard",),
    min_players=2,
    max_players=6,
    default_players=4,
    cooperative=False,
    max_decisions=60_000,
    max_options=K.MAX_OPTIONS,
    params=PARAMS,
    end_reasons=("completed",),
    game_columns=(
        Column("turns", "turns played over all rounds"),
        Column("rounds", "rounds played"),
        Column("winners", "seats sharing the most points (1: a sole winner)"),
        Column("tie", "1 when the win is shared", "int8"),
        Column("rounds_btw", "rounds ended by Back To Work-ish"),
        Column("rounds_exhausted", "rounds ended because the Draw and Really Discarded piles ran out"),
        Column("rounds_turn_limit", "rounds ended by the round turn limit safeguard"),
        Column("reshuffles", "times the Really Discarded pile was reshuffled into the Draw pile"),
    ),
    seat_columns=(
        Column("points_per_round", "points per round played", "float32"),
        Column("sets_completed", "scoring sets over the game"),
        Column("sets_started", "sets started (Excuses played)"),
        Column("taken_from_rows", "cards taken from other players' Personal Discard rows"),
        Column("drawn_from_pile", "cards drawn from the Draw pile while refilling (deals not counted)"),
        Column("declared", "times this seat declared Back To Work-ish"),
        Column("best_round", "most points in one round"),
        Column("rounds_won", "rounds in which this seat scored the most (ties count)"),
        Column("turns", "turns taken"),
    ),
    card_counters=K.CARD_COUNTERS,
    policies=common_policies(
        "rates cards by use to its active set: keeps what completes or doubles, takes from other rows when "
        "a card is worth it, plays the best Activity/Necessity/Bonus, locks scoring sets, declares Back To "
        "Work-ish when ahead",
        GREEDY_PARAMS,
        rollouts=8,
        horizon=8,
        expert_iterations=8,
    ),
    kernels=Kernels(new_game, to_move, legal, step, outcome, clone, determinise, value, greedy, card_counts,
                    check=check),
    compile_tables=compile_tables,
    card_names=card_names,
    card_list_hash=card_list_hash,
    decode_trace=decode_trace,
    resolve_params=resolve_params,
    headline=headline,
    data_files=(str(CARDS_FILE), str(RULES_FILE)),
    notes="Card list is a reconstruction (data/four-day-weekend/cards.toml says so).",
    invariants=INVARIANTS,
)
