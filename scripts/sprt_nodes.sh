#!/bin/bash
# A fixed-node SPRT of one engine binary against another: how every search and evaluation
# change is tested (docs/log/search-changes.md, "the same conditions").
#
# Usage: [NEW_OPTIONS="NAME=VALUE ..."] scripts/sprt_nodes.sh DIR VARIANT NODES NEW OLD SEED [ELO0 ELO1 [PRIOR]]
#
# Writes into DIR: openings.epd (3,000 of OLD's `openings` for VARIANT with SEED), match.log and
# games.pgn. Each opening is played with both colours, two games at a time, 1 thread and 16 MB
# of hash each, NODES nodes a move, SPRT [ELO0, ELO1] (default [0, 5]) with alpha = beta = 0.05.
# PRIOR (five pentanomial counts, `a,b,c,d,e`) continues a test stopped earlier.
# NEW_OPTIONS (environment, `NAME=VALUE ...`) sets UCI options of the new side only: a hidden
# search parameter is tested with one binary as both NEW and OLD (docs/search.md). The match
# runner is OLD's own `match`. Both binaries should be built outside the repository's target
# folder, so that a rebuild during the test does not change them.
#
# Progress: grep -a -E "Score of|Ptnml|SPRT" DIR/match.log | tail -3
set -euo pipefail
if [ $# -lt 6 ]; then
    sed -n '5,15p' "$0" >&2
    exit 2
fi
# The binaries by absolute path: the match runs inside DIR.
dir=$1 variant=$2 nodes=$3 new=$(realpath "$4") old=$(realpath "$5") seed=$6
elo0=${7:-0} elo1=${8:-5} prior=${9:-}
mkdir -p "$dir"
cd "$dir"
"$old" openings --variant "$variant" --count 3000 --seed "$seed" > openings.epd
sprt=(-sprt "elo0=$elo0" "elo1=$elo1" alpha=0.05 beta=0.05)
[ -n "$prior" ] && sprt+=("prior=$prior")
new_opts=()
for opt in ${NEW_OPTIONS:-}; do new_opts+=("option.$opt"); done
exec "$old" match -engine "cmd=$new" name=new "${new_opts[@]}" -engine "cmd=$old" name=old \
    -each "nodes=$nodes" option.Hash=16 option.Threads=1 -variant "$variant" \
    -openings file=openings.epd format=epd order=sequential -repeat -games 2 -rounds 3000 \
    -concurrency 2 "${sprt[@]}" -pgnout games.pgn > match.log 2>&1
