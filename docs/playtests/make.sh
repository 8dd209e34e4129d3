#!/bin/sh
# Remake the synthetic sample logs of this folder (docs/playtests/README.md says what made each).
# Run from the repository root: sh docs/playtests/make.sh
set -e
here=docs/playtests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Sick Days solo: one player, greedy with 30% of its moves random, 40 games at level 1 and 40 at level 3
balance playtests "$tmp/l1.csv" --game sickdays-solo --synthesize -p 1 --level 1 --policy greedy --policy-param epsilon=0.3 -n 40 --seed 4401
balance playtests "$tmp/l3.csv" --game sickdays-solo --synthesize -p 1 --level 3 --policy greedy --policy-param epsilon=0.3 -n 40 --seed 4402
{ cat "$tmp/l1.csv"; tail -n +2 "$tmp/l3.csv"; } > "$here/sickdays-solo.csv"

# You're Fired! duel whose seats differ from the simulation's: seat 1 greedy, seat 2 greedy with 60% random moves
balance playtests "$here/youre-fired.csv" --game youre-fired --synthesize -p 2 --policy greedy,greedy --policy-param 2:epsilon=0.6 -n 40 --seed 4403

# Overtime, 4 players, every seat greedy with 20% random moves, 6 rounds instead of 8
balance playtests "$here/overtime.csv" --game overtime --synthesize -p 4 --set rounds=6 --policy greedy --policy-param epsilon=0.2 -n 30 --seed 4404

# Four Day Weekend, 3 players, every seat greedy with 50% random moves
balance playtests "$here/four-day-weekend.csv" --game four-day-weekend --synthesize -p 3 --policy greedy --policy-param epsilon=0.5 -n 30 --seed 4405

# Sick Days party, 5 players, greedy, quick players: reaction_median 2.0 s (the default is 2.5 s); the
# behaviour profile is not written to the settings column (a log says what was played, not how)
balance playtests "$here/sickdays-party.csv" --game sickdays-party --synthesize -p 5 --set reaction_median=2.0 --policy greedy -n 60 --seed 4406
