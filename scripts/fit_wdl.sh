#!/bin/bash
# Fits every game's win-chance model (nets/NAME.wdl) and draws its picture (docs/wdl/NAME.svg)
# from self-play data, as docs/wdl.md describes. With no data directory given, the data is made
# first: `cannonade datagen` at 2000 nodes a move, 80000 positions a game (hours on one core).
#
#   scripts/fit_wdl.sh [DATA_DIR]     # DATA_DIR holds VARIANT.bin for every variant
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
bin=target/release/cannonade
data=${1:-}
if [ -z "$data" ]; then
    data=target/wdl-data
    mkdir -p "$data"
    for v in $($bin variants | awk '/^[a-z]/ {print $1}'); do
        # Running it again resumes a file that is not complete yet.
        $bin datagen --variant "$v" --positions 80000 --nodes 2000 --out "$data/$v.bin"
    done
fi
mkdir -p docs/wdl
for v in $($bin variants | awk '/^[a-z]/ {print $1}'); do
    # Every data file of the game: VARIANT.bin and any shards VARIANT.*.bin.
    files=()
    for f in "$data/$v.bin" "$data/$v".*.bin; do
        [ -e "$f" ] && files+=(--data "$f")
    done
    $bin wdl --variant "$v" "${files[@]}" --out "nets/$v.wdl" --svg "docs/wdl/$v.svg"
done
