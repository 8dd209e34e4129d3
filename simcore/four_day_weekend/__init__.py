"""Four Day Weekend (`--game four-day-weekend`, 2-6 players): set collection
over several rounds. See GAMES.md and docs/assumptions.md (Four Day Weekend)."""
from ..spec import GameSpec, Kernels, common_policies
from . import constants as K
from .cards import PARAMS, load_data
from .engine import card_counts, clone, determinise, legal, new_game, outcome, step, to_move, value
from .metrics import METRICS
from .invariants import INVARIANTS, check
from .policies import GREEDY_PARAMS, greedy
from .transcript import decode_trace

SPEC = GameSpec(
    name="four-day-weekend",
    title="Four Day Weekend",
    version="2",
    modes=("standard",),
    min_players=2,
    max_players=6,
    default_players=4,
    cooperative=False,
    max_decisions=K.MAX_DECISIONS,
    max_options=K.MAX_OPTIONS,
    params=PARAMS,
    end_reasons=("completed",),
    game_columns=K.GAME_COLUMNS,
    seat_columns=K.SEAT_COLUMNS,
    card_counters=K.CARD_COUNTERS,
    hand_counters=K.HAND_COUNTERS,
    policies=common_policies(
        "rates cards by use to its active set: keeps what completes or doubles, takes from other rows when "
        "a card is worth it, plays the best Activity/Necessity/Bonus, locks scoring sets, declares Back To "
        "Work-ish when ahead",
        GREEDY_PARAMS,
        rollouts=8,
        horizon=8,
        # the search judges every option when the move comes back to the player (turns=2: after the
        # other players' turns, which take from its Personal Discard row), over flat greedy rollouts
        # (depth 1: a deeper tree explored this turn's later choices and was weaker), and replaces
        # greedy's pick at 1.5 paired standard errors (docs/assumptions.md, session 10); 12 iterations
        # with futility 1 (stop once nothing tried is ahead of greedy's pick on the worlds it shared, one
        # or more): the budget that plays 100 games/s with every seat expert on 2 cores (session 16: 107;
        # 16 iterations 95.5, and 2.1 points stronger as one seat among greedy on fresh deals, so
        # `--policy-param iterations=16` is the stronger, slower expert)
        expert_iterations=12,
        expert_futility=1,
        expert_horizon=200,
        expert_turns=2,
        expert_depth=1,
        expert_confidence=1.5,
    ),
    kernels=Kernels(new_game, to_move, legal, step, outcome, clone, determinise, value, greedy, card_counts,
                    check=check),
    decode_trace=decode_trace,
    load_data=load_data,
    metrics=METRICS,
    length_column="turns",
    rounds_column="rounds",
    invariants=INVARIANTS,
)
