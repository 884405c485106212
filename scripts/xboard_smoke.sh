#!/usr/bin/env bash
# Plays one game of every variant in the real XBoard (4.9, under Xvfb), Cannonade against
# itself, and checks from the saved PGN that each game reached a proper end (a result other
# than "*", with moves XBoard accepted), and from XBoard's debug log that neither engine
# refused a move of the other. Takes a screenshot of each final board.
#
# Usage: scripts/xboard_smoke.sh [ENGINE_BINARY] [SCREENSHOT_DIR]
#   ENGINE_BINARY defaults to target/release/cannonade (built if missing);
#   SCREENSHOT_DIR defaults to a temporary directory (docs/screenshots/ keeps the committed ones).
# Environment: SMOKE_VARIANTS="a b" plays only those variants, SMOKE_KEEP=1 keeps the work
# directory (games, XBoard logs), SMOKE_GAME_SECONDS (default 120) bounds each game.
# A game that does not reach an end is reported with XBoard's log and played once more.
# Installs xboard, xvfb and imagemagick with apt-get when they are missing (CI runs as root).
set -euo pipefail
SELF="$(realpath "$0")"
cd "$(dirname "$0")/.."

# One game, run inside Xvfb: a two-game match (whose pause after the first game gives time to
# read the saved game), a screenshot during the game; wait for the saved game, then
# close XBoard.
play_one() {
    local variant="$1" xbname="$2" legality="$3" dir="$4" shot="$5" XBOARD="$6" ENGINE="$7"
    cd "$dir"
    # The Cannonrider games swap the square colours (and drop the textures) so that b1 is
    # dark, as the rules colour the board (docs/xboard.md).
    local colours=()
    if [[ "$xbname" == cannonrider* ]]; then
        colours=(-lightSquareColor "#77A26D" -darkSquareColor "#C8C365"
            -liteBackTextureFile "" -darkBackTextureFile "")
    fi
    "$XBOARD" -fcp "$ENGINE" -fd "$dir" -scp "$ENGINE" -sd "$dir" "${colours[@]}" \
        -variant "$xbname" -testLegality "$legality" -matchGames 2 -matchPause 20000 \
        -tc 5 -inc 0 -depth 3 -adjudicateDrawMoves 250 \
        -saveGameFile "$dir/game.pgn" -saveSettingsFile "$dir/settings" -saveSettingsOnExit false \
        -popupExitMessage false -popupMoveErrors false \
        -debug -size medium >"$dir/xboard.out" 2>&1 &
    local pid=$!
    local deadline=$((SECONDS + ${SMOKE_GAME_SECONDS:-120})) shot_taken=0
    until grep -qE '^\[Result "(1-0|0-1|1/2-1/2|\*)"\]' "$dir/game.pgn" 2>/dev/null; do
        # The screenshot shows the game in progress, after twenty moves by each side.
        local played
        played=$(grep -cE '<(first|second) *: *move ' "$dir/xboard.debug" 2>/dev/null) || true
        if ((!shot_taken && ${played:-0} >= 40)); then
            screenshot "$variant" "$shot"
            shot_taken=1
        fi
        sleep 0.25
        if ((SECONDS > deadline)) || ! kill -0 "$pid" 2>/dev/null; then
            echo "  $variant: no saved game after ${SMOKE_GAME_SECONDS:-120} s; the end of XBoard's log:"
            tail -n 15 "$dir/xboard.debug" 2>/dev/null | sed 's/^/    | /'
            break
        fi
    done
    ((shot_taken)) || screenshot "$variant" "$shot"
    # Every step is bounded: a game that never ends, an XBoard that ignores SIGTERM or an
    # engine that ignores "quit" must fail this test, not hang CI.
    kill "$pid" 2>/dev/null || true
    local grace=$((SECONDS + 10))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < grace)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
        echo "  $variant: XBoard did not exit on SIGTERM; killing it and its engines"
        pkill -KILL -P "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

# A screenshot of the whole screen, given at most 20 seconds.
screenshot() {
    timeout -k 5 20 import -window root -trim +repage "$2" 2>/dev/null ||
        echo "  $1: screenshot failed"
}

if [[ "${1:-}" == --play-one ]]; then
    shift
    play_one "$@"
    exit 0
fi

ENGINE="${1:-}"
if [[ -z "$ENGINE" ]]; then
    target="${CARGO_TARGET_DIR:-target}"
    ENGINE="$target/release/cannonade"
    [[ -x "$ENGINE" ]] || cargo build --release --quiet
fi
ENGINE="$(realpath "$ENGINE")"

XBOARD=/usr/games/xboard
if [[ ! -x "$XBOARD" ]] || ! command -v xvfb-run >/dev/null || ! command -v import >/dev/null; then
    echo "== installing xboard, xvfb, imagemagick"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq xboard xvfb xauth imagemagick >/dev/null
fi

WORK="$(mktemp -d)"
[[ -n "${SMOKE_KEEP:-}" ]] || trap 'rm -rf "$WORK"' EXIT
echo "work directory $WORK"
SHOTS="${2:-$WORK/screenshots}"
mkdir -p "$SHOTS"
SHOTS="$(realpath "$SHOTS")"

# The variants as XBoard names them, and whether XBoard can test legality itself (only for the
# games it knows; for the others the engine is the arbiter: see docs/xboard.md).
# Lines of `cannonade variants`: "NAME (WxH, XBoard: XBNAME)".
mapfile -t VARIANTS < <("$ENGINE" variants | sed -n 's/^\([a-z0-9]*\) .*XBoard: \([a-z0-9]*\)).*/\1 \2/p')
[[ ${#VARIANTS[@]} -gt 0 ]] || { echo "no variants from '$ENGINE variants'"; exit 1; }
# SMOKE_VARIANTS="a b" plays only those (for reproducing one game).
if [[ -n "${SMOKE_VARIANTS:-}" ]]; then
    mapfile -t VARIANTS < <(printf '%s\n' "${VARIANTS[@]}" | grep -E "^($(tr ' ' '|' <<<"$SMOKE_VARIANTS")) ")
fi


# Plays one game into $2 and prints what it found; returns 2 if the game did not reach an end
# (worth one retry: the X server or XBoard can stall), 1 for any other failure.
play_and_check() {
    local variant="$1" dir="$2" xbname="$3" legality="$4" start=$SECONDS status=0
    mkdir -p "$dir"
    # The outer bound covers what play_one cannot: Xvfb itself not starting or not stopping.
    timeout -k 10 $((${SMOKE_GAME_SECONDS:-120} + 90)) xvfb-run -a -s "-screen 0 1280x1024x24" \
        bash "$SELF" --play-one "$variant" "$xbname" "$legality" "$dir" "$SHOTS/$variant.png" \
        "$XBOARD" "$ENGINE" || true
    local pgn="$dir/game.pgn" result moves ending refused
    result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$pgn" 2>/dev/null | head -1 || true)
    # Moves in the PGN body: move numbers outside {comments}.
    moves=$({ sed '/^\[/d' "$pgn" | tr '\n' ' ' | sed 's/{[^}]*}//g' |
        grep -oE '(^| )[0-9]+\.' || true; } 2>/dev/null | wc -l)
    ending=$(grep -oE '\{[^}]*\} *(1-0|0-1|1/2-1/2)' "$pgn" 2>/dev/null | tail -1 || true)
    refused=$(grep -cE '<(first|second) *: *(Illegal move|Error)' "$dir/xboard.debug" 2>/dev/null || true)
    echo "$variant: result '${result:-none}' after $moves moves ($((SECONDS - start)) s): $ending"
    if [[ -z "$result" || "$result" == "*" ]]; then
        echo "  FAIL: $variant did not reach a proper end"
        status=2
    fi
    if ((moves < 2)); then
        echo "  FAIL: $variant: too few moves in the PGN"
        ((status)) || status=2
    fi
    if [[ "${refused:-0}" != 0 ]]; then
        echo "  FAIL: $variant: an engine refused a move or command:"
        grep -E '<(first|second) *: *(Illegal move|Error)' "$dir/xboard.debug" | head -5
        status=1
    fi
    return $status
}

fail=0
for entry in "${VARIANTS[@]}"; do
    read -r variant xbname <<<"$entry"
    legality=false
    [[ "$xbname" == normal ]] && legality=true
    status=0
    play_and_check "$variant" "$WORK/$variant" "$xbname" "$legality" || status=$?
    if ((status == 2)); then
        # A game that stalls once is reported above and played again; twice fails the test.
        # (A refused move is never retried: that is the engine's fault.)
        echo "  RETRY: playing $variant once more"
        status=0
        play_and_check "$variant" "$WORK/$variant-retry" "$xbname" "$legality" || status=$?
    fi
    ((status == 0)) || fail=1
done
echo "screenshots in $SHOTS"
exit $fail
