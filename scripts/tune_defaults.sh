#!/usr/bin/env bash
# How the `default` heuristics' weights were tuned (docs/tuning.md, "How the default weights were
# tuned"): for one game,
# SPSA self-play at the course's depth, an SPRT of the tuned weights against the current
# defaults, and the 400-game margins against `seed` and `test`.
#
#   scripts/tune_defaults.sh GAME [STEP]
#     GAME: connect4 | connect4boom | mancala | parchis
#     STEP: tune (SPSA, writes $OUT/GAME.jsonl, resumable), sprt (needs the tune file: the
#           final θ rounded, against the built-in defaults), margins (the binary's own
#           defaults against seed and test), or all (default)
#   TABLERO (default target/release/tablero), OUT (default tune-out), CONCURRENCY (default 2).
#
# The runs are deterministic (depth limits, seeded openings): the same binary and flags give the
# same files. Parchís is tuned at depth 4 (about 1.2 CPU s a game at depth 6) and tested at 6.
set -euo pipefail

game=${1:?usage: scripts/tune_defaults.sh GAME [tune|sprt|margins|all]}
step=${2:-all}
T=${TABLERO:-target/release/tablero}
out=${OUT:-tune-out}
conc=${CONCURRENCY:-2}
mkdir -p "$out"

# NAME=START,MIN,MAX,C_END (R_END is per game below). Starting points are the hand-set
# weights; Connect Four's and BOOM's small integers are scaled ×10 (an evaluation scaled by a
# constant plays identically) so that SPSA's steps are not lost to rounding.
case $game in
connect4)
  depth=8 tune_depth=8 openings=random:6 seed=11 iterations=2000 r_end=0.015
  params="window=30,0,300,3 centre=30,0,400,3 near=10,0,200,2 good_threat=600,0,4000,60
          threat=250,0,3000,25 tempo=50000,0,500000,5000"
  prefix=Connect4W_ ;;
connect4boom)
  depth=8 tune_depth=8 openings=random:4 seed=12 iterations=2000 r_end=0.015
  params="window=30,0,300,3 centre=30,0,400,3 near=10,0,200,2 threat=200,0,3000,20
          bomb=150,0,2000,15 bomb_victim=80,0,1000,8 hot=100,0,1000,10 tempo=30000,0,300000,3000"
  prefix=BoomW_ ;;
mancala)
  depth=10 tune_depth=10 openings=random:4 seed=13 iterations=2000 r_end=0.015
  params="side=10,-100,200,2 extra_mover=200,0,1000,20 extra_waiting=60,-200,600,10
          capture_mover=150,0,1000,15 capture_waiting=60,-200,600,10"
  prefix=MancalaW_ ;;
parchis)
  depth=6 tune_depth=4 openings=random:8 seed=14 iterations=1500 r_end=0.006
  params="goal=250,0,2000,25 home=300,0,2000,30 danger=200,0,2000,20 colour_best=18,0,50,2
          colour_other=5,0,50,2 state_star=60,-500,1000,6 state_boo=30,-500,1000,3
          state_mega=50,-500,1000,5 state_mini=-40,-1000,500,4 state_bananed=-30,-1000,500,3
          item_star=750,0,3000,75 item_boo=625,0,3000,62 item_bullet=950,0,3000,95
          item_redshell=550,0,3000,55 item_blueshell=750,0,3000,75 item_mushroom=225,0,3000,22
          item_megamushroom=700,0,3000,70 item_shock=625,0,3000,62 item_horn=450,0,3000,45
          item_banana=150,0,3000,15 bonus20=400,0,3000,40 bonus10=200,0,3000,20"
  prefix=ParchisW_ ;;
*) echo "tune_defaults.sh: unknown game '$game' (connect4, connect4boom, mancala, parchis)" >&2; exit 2 ;;
esac

file=$out/$game.jsonl
# Openings of the SPRT and the margins (Parchís: longer random starts, as in its earlier tests).
[ "$game" = parchis ] && open=random:8 || open=random:4
if [ "$step" = tune ] || [ "$step" = all ]; then
  args=()
  for p in $params; do args+=(--param "$prefix$p,$r_end"); done
  if [ -e "$file" ]; then mode=(--resume "$file"); else mode=(--out "$file"); fi
  "$T" tune --game "$game" --engine "$T" "${args[@]}" --iterations "$iterations" \
    --pairs-per-iteration 4 --depth "$tune_depth" --openings "$openings" --seed "$seed" \
    --concurrency "$conc" "${mode[@]}"
fi

if [ "$step" = sprt ] || [ "$step" = all ]; then
  # The last iteration's θ, rounded, against the binary's defaults on fresh openings.
  opts=$(python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
names = [p["name"] for p in lines[0]["settings"]["params"]]
theta = lines[-1]["theta_after"]
print(" ".join(f"--option1 {n}={round(v)}" for n, v in zip(names, theta)))' "$file")
  # shellcheck disable=SC2086
  "$T" match --game "$game" --engine1 "$T" --engine2 "$T" --name1 tuned --name2 default $opts \
    --depth "$depth" --games 30000 --openings "$open" --seed 99 --concurrency "$conc" \
    --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --records "$out/$game-sprt.jsonl"
fi

if [ "$step" = margins ] || [ "$step" = all ]; then
  for h in seed test; do
    "$T" match --game "$game" --engine1 "$T" --engine2 "$T" --name1 default --name2 "$h" \
      --option2 "Heuristic=$h" --depth "$depth" --games 400 --openings "$open" --seed 2026 \
      --concurrency "$conc"
  done
fi
