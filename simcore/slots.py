"""Policy kinds and the slots of a seat's float parameter vector.

A seat's policy is an integer kind plus a vector of N_POLICY_PARAMS floats;
each slot means one thing for every game. Game weights (greedy's) take
P_GAME..21, declared by name in each game's spec (`spec.policy_index`); 22 is
the search's recheck, 23 is free.
Kernels read these as globals (numba freezes them), so this file is one of
the core kernel files (simcore.jit.KERNEL_FILES).
"""

# Policy kinds.
RANDOM = 0
GREEDY = 1
LOOKAHEAD = 2
USER = 3
EXPERT = 4  # information-set search (simcore/search.py)
ORACLE = 5  # the same search told the hidden cards: an open-hand search, not a player and not a bound
BUILTIN_KINDS = frozenset((RANDOM, GREEDY, LOOKAHEAD, EXPERT, ORACLE))

# Slots.
P_EPSILON = 0  # probability of a uniformly random move (weaker players)
P_ROLLOUTS = 1  # lookahead: rollouts per option
P_HORIZON = 2  # lookahead and search: decisions per rollout before `value` judges the state
P_ROLLOUT_KIND = 3  # lookahead and search: policy of the rollouts (RANDOM or GREEDY)
P_GAME = 4  # game weights: P_GAME .. 21 (22 is recheck's, 23 free)
P_RECHECK = 22  # search: worlds (fresh, not used to choose) on which a challenger's lead over greedy's pick is re-tested (0: none)
P_ITERATIONS = 24  # search: iterations (sampled worlds, one rollout each) per decision
P_DEPTH = 25  # search: most of the seat's own decisions the tree may hold on one path
P_EXPLORATION = 26  # search: UCB1 exploration constant (values are in 0..1)
P_WORLDS = 27  # search: worlds per decision; a root option's k-th visit plays world k mod W (0: all new)
P_WIDEN = 28  # search: progressive widening, at most 1 + widen * sqrt(visits) children (0: no limit)
P_TURNS = 29  # search: judge the state at the turns-th hand-over (the move passing from the seat to another seat, or back; 0: horizon only)
P_FUTILITY = 30  # search: from this iteration on, stop once every option tried shared 2+ worlds with greedy's pick and is not ahead on them (0: never)
N_POLICY_PARAMS = 32
P_CONFIDENCE = N_POLICY_PARAMS - 1  # lookahead and search: z a challenger must beat greedy's pick by
