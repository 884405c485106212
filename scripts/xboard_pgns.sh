#!/usr/bin/env bash
# Plays one game of every variant in the real XBoard (under Xvfb, as scripts/xboard_smoke.sh
# plays them: its --play-one) and keeps, for each, the game as XBoard saved it (VARIANT.pgn)
# and the engine's own final position (VARIANT.fen): the moves XBoard exchanged with the first
# engine, taken from XBoard's debug log in the engine's notation, played again in a fresh
# engine, whose `d` prints its FEN. The PGN reader must read each game to that position
# (crates/core/tests/suite/pgn.rs); these are the files in crates/core/tests/data/pgn/xboard/.
#
# Usage: scripts/xboard_pgns.sh OUT_DIR [ENGINE_BINARY]
#   ENGINE_BINARY defaults to target/release/cannonade (built if missing).
# Environment: SMOKE_VARIANTS="a b" plays only those variants; SMOKE_GAME_SECONDS (default 120)
# bounds each game. Needs xboard, xvfb and imagemagick (scripts/xboard_smoke.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: scripts/xboard_pgns.sh OUT_DIR [ENGINE_BINARY]}"
ENGINE="${2:-${CARGO_TARGET_DIR:-target}/release/cannonade}"
[[ -x "$ENGINE" ]] || cargo build --release --quiet
ENGINE="$(realpath "$ENGINE")"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# The moves of the first game as the first engine sent and received them, one a line: its
# own (`move X`) and its opponent's (`usermove X`, which XBoard logs in two writes, sometimes on
# two lines), up to the first `result`.
engine_moves() {
    awk '
        />first *: *result/ { exit }
        /<first *: *move / { print $NF; next }
        />first *: *usermove *$/ { pending = 1; next }
        />first *: *usermove / { print $NF; next }
        pending && />first *: / { print $NF; pending = 0 }
    ' "$1"
}

mapfile -t VARIANTS < <("$ENGINE" variants | sed -n 's/^\([a-z0-9]*\) .*XBoard: \([a-z0-9]*\)).*/\1 \2/p')
if [[ -n "${SMOKE_VARIANTS:-}" ]]; then
    mapfile -t VARIANTS < <(printf '%s\n' "${VARIANTS[@]}" | grep -E "^($(tr ' ' '|' <<<"$SMOKE_VARIANTS")) ")
fi
status=0
for entry in "${VARIANTS[@]}"; do
    read -r variant xbname <<<"$entry"
    legality=false
    [[ "$xbname" == normal ]] && legality=true
    dir="$WORK/$variant"
    mkdir -p "$dir"
    timeout -k 10 $((${SMOKE_GAME_SECONDS:-120} + 90)) xvfb-run -a -s "-screen 0 1280x1024x24" \
        bash scripts/xboard_smoke.sh --play-one "$variant" "$xbname" "$legality" "$dir" \
        "$dir/shot.png" /usr/games/xboard "$ENGINE" || true
    if ! grep -qE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$dir/game.pgn" 2>/dev/null; then
        echo "$variant: no finished game saved"
        status=1
        continue
    fi
    mapfile -t moves < <(engine_moves "$dir/xboard.debug")
    fen=$({
        printf 'xboard\nprotover 2\nvariant %s\nforce\n' "$xbname"
        printf 'usermove %s\n' "${moves[@]}"
        printf 'd\nquit\n'
    } | timeout 20 "$ENGINE" | sed -n 's/^# Fen: //p')
    if [[ -z "$fen" ]]; then
        echo "$variant: the engine gave no final position"
        status=1
        continue
    fi
    cp "$dir/game.pgn" "$OUT/$variant.pgn"
    echo "$fen" >"$OUT/$variant.fen"
    echo "$variant: ${#moves[@]} plies, $(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$dir/game.pgn"): $fen"
done
exit $status
