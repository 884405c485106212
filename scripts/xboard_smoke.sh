#!/usr/bin/env bash
# Plays one game of every variant in the real XBoard (4.9, under Xvfb), Cannonade against
# itself, and checks from the saved PGN that each game reached a proper end (a result other
# than "*", with moves XBoard accepted), and from XBoard's debug log that neither engine
# refused a move of the other. Takes a screenshot of each final board. Then a player (xdotool
# clicking in XBoard) shoots with a Cannon soldier, and the check is that XBoard and the
# engine keep the same board (the shooter stays, the victim goes); a player promotes a
# Cannon Shogi cannon and declines a soldier's promotions, with sweep promotions and with the
# dialog; a player brings Swedish cannons in by mouse (gating, `e2e4c`); and in every game a
# position is pasted (Edit > Paste Position), after which XBoard's board (Edit > Copy
# Position) must hold it and, after the engine's move from it, be the engine's.
#
# Usage: scripts/xboard_smoke.sh [ENGINE_BINARY] [SCREENSHOT_DIR]
#   ENGINE_BINARY defaults to target/release/cannonade (built if missing);
#   SCREENSHOT_DIR defaults to a temporary directory (docs/screenshots/ keeps the committed ones).
# Environment: SMOKE_VARIANTS="a b" plays only those variants, SMOKE_KEEP=1 keeps the work
# directory (games, XBoard logs), SMOKE_GAME_SECONDS (default 120) bounds each game,
# SMOKE_HUMAN_ONLY=1 skips the engine games and plays only the players' mouse games (the
# Cannon shot, the Cannon Shogi promotions, the Swedish cannon entries) and the pasted
# positions of the variants chosen.
# A game that does not reach an end is reported with XBoard's log and played once more.
# Installs xboard, xvfb, xdotool, xclip and imagemagick with apt-get when they are missing (CI
# runs as root).
set -euo pipefail
SELF="$(realpath "$0")"
cd "$(dirname "$0")/.."

# XBoard's options for how a game looks (into the array LOOK): the Cannonrider games swap the
# square colours (and drop the textures) so that b1 is dark, as the rules colour the board
# (docs/xboard.md); Swedish Cannon Chess keeps its pawns on XBoard's lance slot (for the
# cannon's entry, see docs/xboard.md), and a piece directory in DIR holding the pawn images
# under the lance's names draws them as pawns (XBoard takes every other image from its own set).
look_options() {
    local xbname="$1" dir="$2"
    LOOK=()
    if [[ "$xbname" == cannonrider* ]]; then
        LOOK=(-lightSquareColor "#77A26D" -darkSquareColor "#C8C365"
            -liteBackTextureFile "" -darkBackTextureFile "")
    fi
    if [[ "$xbname" == swedishcannon* ]]; then
        local svg=/usr/share/games/xboard/themes/default
        mkdir -p "$dir/pieces"
        cp "$svg/WhitePawn.svg" "$dir/pieces/WhiteLance.svg"
        cp "$svg/BlackPawn.svg" "$dir/pieces/BlackLance.svg"
        LOOK=(-pieceImageDirectory "$dir/pieces")
    fi
}

# One game, run inside Xvfb: a two-game match (whose pause after the first game gives time to
# read the saved game), a screenshot during the game; wait for the saved game, then
# close XBoard.
play_one() {
    local variant="$1" xbname="$2" legality="$3" dir="$4" shot="$5" XBOARD="$6" ENGINE="$7"
    cd "$dir"
    local LOOK
    look_options "$xbname" "$dir"
    "$XBOARD" -fcp "$ENGINE" -fd "$dir" -scp "$ENGINE" -sd "$dir" "${LOOK[@]}" \
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
    stop_xboard "$pid" "$variant"
}

# The board's place on the screen: "X0 Y0 PITCH_X PITCH_Y" (the top-left corner of the top-left
# square, and the distance between squares), found in a screenshot from the two square colours
# (XBoard's default colours, textures off). The fullest row of those colours in the middle
# third of the board spans the whole board (and the holdings beside it, when they reach the
# middle); the fullest column in its middle third spans it from top to bottom.
LIGHT="#C8C365" DARK="#77A26D"
board_geometry() {
    convert "$1" -crop 800x800+0+0 +repage txt:- | awk -v files="$2" -v ranks="$3" \
        -v light="$LIGHT" -v dark="$DARK" '
        NR > 1 {
            split($1, xy, /[,:]/); x = xy[1] + 0; y = xy[2] + 0; c = toupper($3)
            if (c == light || c == dark) {
                row[y]++; col[x]++
                if (!(y in lo) || x < lo[y]) lo[y] = x; if (!(y in hi) || x > hi[y]) hi[y] = x
                if (!(x in top) || y < top[x]) top[x] = y; if (!(x in bot) || y > bot[x]) bot[x] = y
                if (n++ == 0) { miny = maxy = y }
                if (y < miny) miny = y; if (y > maxy) maxy = y
            }
        }
        END {
            if (!n) exit 1
            t = (maxy - miny) / 3; best = -1
            for (y = int(miny + t); y <= maxy - t; y++) if (row[y] > best) { best = row[y]; ry = y }
            a = lo[ry]; b = hi[ry]; t = (b - a) / 3; best = -1
            for (x = int(a + t); x <= b - t; x++) if (col[x] > best) { best = col[x]; cx = x }
            # The squares are square; the row may include holdings on both sides (shogi fills
            # them to the middle), which XBoard places symmetrically about the board.
            p = (bot[cx] - top[cx] + 1) / ranks
            printf "%d %d %.3f %.3f\n", (a + b + 1) / 2 - files * p / 2, top[cx], p, p
        }'
}

# XBoard in Edit Game mode for a player's game, in the background (its pid in $!): the first
# engine, the square colours board_geometry finds, and the arguments given (the second engine,
# the variant, a game file...).
edit_game() {
    local dir="$1"
    shift
    "$XBOARD" -fcp "$ENGINE" -fd "$dir" "$@" \
        -testLegality false -initialMode EditGame -tc 5 -inc 0 -depth 3 \
        -lightSquareColor "$LIGHT" -darkSquareColor "$DARK" -liteBackTextureFile "" \
        -darkBackTextureFile "" -saveSettingsFile "$dir/settings" -saveSettingsOnExit false \
        -popupExitMessage false -popupMoveErrors false \
        -debug -size medium >"$dir/xboard.out" 2>&1 &
}

# The board's place on the screen (as board_geometry prints it) once XBoard's debug log in DIR
# shows PATTERN (the engine set up), from a screenshot start.png of a FILES x RANKS board.
board_at_start() {
    local dir="$1" pattern="$2" files="$3" ranks="$4" i
    for ((i = 0; i < 80; i++)); do
        grep -q "$pattern" "$dir/xboard.debug" 2>/dev/null && break
        sleep 0.25
    done
    sleep 1
    import -window root "$dir/start.png"
    board_geometry "$dir/start.png" "$files" "$ranks"
}

# Waits (at most SMOKE_GAME_SECONDS) for the game the engines play out to be saved in
# DIR/game.pgn with a result, then ends XBoard (pid PID).
play_out() {
    local dir="$1" pid="$2" deadline=$((SECONDS + ${SMOKE_GAME_SECONDS:-120}))
    until grep -qE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$dir/game.pgn" 2>/dev/null; do
        ((SECONDS < deadline)) && kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    stop_xboard "$pid"
}

# Ends XBoard (and so its engines), bounded: an XBoard that ignores SIGTERM is killed (and
# said, for game WHO, when given).
stop_xboard() {
    local pid="$1" who="${2:-}" grace=$((SECONDS + 10))
    kill "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < grace)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
        [[ -z "$who" ]] || echo "  $who: XBoard did not exit on SIGTERM; killing it and its engines"
        pkill -KILL -P "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

# A player's Cannon game, run inside Xvfb: XBoard in Edit Game mode, every move clicked with
# the mouse (xdotool), the engine answering each lift with the legal destinations. The player
# first clicks the victim twice (XBoard then sends the one-leg e3e5, which it would draw as the
# soldier moving, and the engine must refuse), then shoots properly: e3, the victim e5, e3
# again; then steps with the shooter from e3, which only works if XBoard kept it there. Two
# engines then play the game out, so that XBoard saves it.
human_shot() {
    local dir="$1" shot="$2" XBOARD="$3" ENGINE="$4"
    cd "$dir"
    edit_game "$dir" -scp "$ENGINE" -sd "$dir" -variant cannon -saveGameFile "$dir/game.pgn"
    local pid=$! x0 y0 px py
    read -r x0 y0 px py < <(board_at_start "$dir" '<first : setup' 10 10) ||
        { echo "  human shot: no board found on the screen"; stop_xboard "$pid"; return; }
    # Clicks square FILE RANK (0-based, rank 0 at the bottom; file -1 and 10 are the holdings,
    # one empty column away from the board), then waits for the engine's highlight answer.
    click() {
        local x y
        x=$(awk -v a="$x0" -v p="$px" -v f="$1" \
            'BEGIN { if (f < 0) f--; if (f > 9) f++; printf "%d", a + (f + 0.5) * p }')
        y=$(awk -v a="$y0" -v p="$py" -v r="$2" 'BEGIN { printf "%d", a + (9 - r + 0.5) * p }')
        xdotool mousemove "$x" "$y" click 1
        sleep 0.7
    }
    sq() { click $(($(printf '%d' "'${1:0:1}") - 97)) "${1:1}"; }
    click 10 0; sq b0 # 1. T@b0 (White's town from the holdings at the right)
    click -1 9; sq c9 # ... T@c9
    sq a3; sq a4      # 2. a3a4
    sq f6; sq e5      # ... f6e5: a black soldier before the white cannon e1-e2-e3
    sq e3; sq e5; sq e5 # the victim clicked twice: a one-leg e3e5, to be refused
    sleep 1
    sq e3             # 3. the shot: the shooter (the victim is marked cyan)...
    screenshot "the lifted shooter" "${shot%.png}_lifted.png"
    sq e5; sq e3      # ... the victim (XBoard waits for another leg), back to the shooter
    sleep 1
    screenshot "the shot" "$shot"
    sq b6; sq b5      # ... b6b5
    sq e3; sq e4      # 4. the shooter steps on
    sleep 1
    xdotool key ctrl+t # Mode > Two Machines: the engines play the game out
    play_out "$dir" "$pid"
}

# A player's Cannon Shogi game, run inside Xvfb: XBoard in Edit Game mode, every move clicked
# with the mouse. The gold cannon (a piece XBoard's shogi would never ask about) enters the
# zone and promotes; a soldier enters the zone and goes on, declining promotion each time. Both
# choices are offered only because the engine marks those squares magenta; on the last rank
# XBoard's shogi would otherwise promote the soldier (its pawn slot) by force. MODE "sweep" is
# Debian's setting (xboard.conf: -sweepPromotions true): XBoard shows the promoted piece on the
# square, and pulling the mouse back before releasing keeps the piece as it is. MODE "dialog"
# (-sweepPromotions false) asks with a Promote/Defer dialog.
human_promotion() {
    local mode="$1" dir="$2" shot="$3" XBOARD="$4" ENGINE="$5"
    cd "$dir"
    local sweep=true
    [[ "$mode" == dialog ]] && sweep=false
    edit_game "$dir" -scp "$ENGINE" -sd "$dir" -variant cannonshogi -saveGameFile "$dir/game.pgn" \
        -sweepPromotions "$sweep"
    local pid=$! x0 y0 px py
    read -r x0 y0 px py < <(board_at_start "$dir" '<first : setup' 9 9) ||
        { echo "  human promotion: no board found on the screen"; stop_xboard "$pid"; return; }
    # The screen position of a square named as XBoard names it (a1 bottom left).
    at() {
        awk -v x0="$x0" -v y0="$y0" -v px="$px" -v py="$py" \
            -v f="$(($(printf '%d' "'${1:0:1}") - 97))" -v r="${1:1}" \
            'BEGIN { printf "%d %d\n", x0 + (f + 0.5) * px, y0 + (9 - r + 0.5) * py }'
    }
    # Clicks a square, then waits for the engine's answer. The pointer rests on the square
    # first, and the button is held a moment, as a player's are: entering a marked square
    # sends `hover`, whose answer (the marks again) comes before the press, and XBoard's
    # answer to the press (a `put`) before the release.
    sq() {
        xdotool mousemove $(at "$1")
        sleep 0.3
        xdotool mousedown 1
        sleep 0.15
        xdotool mouseup 1
        sleep 0.7
    }
    # Puts the lifted piece on a square where it may promote, and keeps it unpromoted: with
    # sweep promotions, presses there, pulls the mouse half a square back toward White (the
    # mover) and releases; with the dialog, clicks there and answers Defer.
    keep() {
        if [[ "$mode" == sweep ]]; then
            local x y
            read -r x y < <(at "$1")
            xdotool mousemove "$x" "$y"
            sleep 0.3
            xdotool mousedown 1
            sleep 0.4
            xdotool mousemove "$x" $((y + 20))
            sleep 0.2
            xdotool mousemove "$x" $((y + 40))
            sleep 0.4
            xdotool mouseup 1
            sleep 0.7
        else
            sq "$1"
            answer "$1" Defer
        fi
    }
    # Puts the lifted piece on a square and promotes it: with sweep promotions a plain click
    # (XBoard shows the promoted piece, the default); with the dialog, Promote.
    promote() {
        sq "$1"
        [[ "$mode" == sweep ]] || answer "$1" Promote "${shot%.png}_open.png"
    }
    # Answers XBoard's promotion dialog: its buttons are Promote, Defer and Cancel in a row.
    answer() {
        local win X Y WIDTH HEIGHT n=0
        until win=$(xdotool search --onlyvisible --name '^Promotion$' 2>/dev/null | head -1) &&
            [[ -n "$win" ]]; do
            ((n++ < 12)) || { echo "  no promotion dialog for $1"; return; }
            sleep 0.25
        done
        eval "$(xdotool getwindowgeometry --shell "$win")"
        echo "dialog for $1: window $win at $X,$Y size ${WIDTH}x$HEIGHT" >>"$dir/clicks.log"
        [[ -n "${3:-}" ]] && screenshot "the promotion dialog" "$3"
        local k=0
        [[ "$2" == Defer ]] && k=1
        xdotool mousemove $((X + WIDTH * (2 * k + 1) / 6)) $((Y + 15)) click 1
        sleep 0.7
    }
    sq d2; promote d7             # 1. d2d7+: the gold cannon promotes
    sq g7; sq g6                  # ... g7g6
    sq a3; sq a4; sq g6; sq g5    # 2. a3a4 g6g5
    sq a4; sq a5; sq e7; sq e6    # 3. a4a5 e7e6
    sq a5; sq a6; sq e6; sq e5    # 4. a5a6 e6e5
    sq a6; keep a7; sq c7; sq c6  # 5. a6xa7 (no promotion) c7c6
    sq a7; keep a8; sq c6; sq c5  # 6. a7a8 (no promotion) c6c5
    sq a8; keep a9                # 7. a8xa9, on the last rank, still a soldier
    sleep 1
    screenshot "the declined promotion" "$shot"
    xdotool key ctrl+t # Mode > Two Machines: the engines play the game out
    play_out "$dir" "$pid"
}


# A player's Swedish Cannon Chess game, run inside Xvfb: XBoard in Edit Game mode, every move
# clicked. A cannon comes in by mouse as the cannon in hand, then the pawn it comes in on (XBoard
# takes that click as lifting the pawn, since the engine marks no square for the cannon), then
# the pawn's square two ahead, which the engine marks blue: XBoard asks the engine's `choice`
# there (`c`) and sends the move as Seirawan gating, e2e4c. White and Black each bring one in,
# then make a plain move; XBoard's board is then copied (Copy Position) into board.fen.
human_entry() {
    local dir="$1" shot="$2" XBOARD="$3" ENGINE="$4"
    cd "$dir"
    local LOOK x0 y0 px py
    look_options swedishcannon "$dir"
    edit_game "$dir" "${LOOK[@]}" -variant swedishcannon
    local pid=$!
    read -r x0 y0 px py < <(board_at_start "$dir" '<first *: *pong' 8 8) ||
        { echo "  human entry: no board found on the screen"; stop_xboard "$pid"; return; }
    # Clicks square FILE RANK (0-based, rank 0 at the bottom; file -2 and 9 are the holdings,
    # one empty column away from the board), then waits for the engine's answer.
    click() {
        local x y
        x=$(awk -v a="$x0" -v p="$px" -v f="$1" 'BEGIN { printf "%d", a + (f + 0.5) * p }')
        y=$(awk -v a="$y0" -v p="$py" -v r="$2" 'BEGIN { printf "%d", a + (7 - r + 0.5) * p }')
        xdotool mousemove "$x" "$y"
        sleep 0.3
        xdotool mousedown 1
        sleep 0.15
        xdotool mouseup 1
        sleep 0.8
    }
    sq() { click $(($(printf '%d' "'${1:0:1}") - 97)) $((${1:1} - 1)); }
    # The holdings hold N B R Q C from White's side: White's cannon is the fifth square up at
    # the right, Black's the fifth down at the left.
    click 9 4           # White's cannon in hand
    sq e2               # the pawn: XBoard lifts it, the engine marks e4 blue
    screenshot "the pawn lifted for the cannon's entry" "${shot%.png}_lifted.png"
    sq e4               # 1. e2e4c: the cannon on e2, the pawn on e4
    click -2 3          # Black's cannon in hand
    sq d7; sq d5        # ... d7d5c
    sq g1; sq f3        # 2. g1f3, plain moves
    sq e7; sq e5        # ... e7e5
    sleep 1
    screenshot "the cannons brought in" "$shot"
    xdotool key ctrl+shift+c
    sleep 0.5
    timeout 5 xclip -o -selection clipboard >"$dir/board.fen" 2>/dev/null || true
    stop_xboard "$pid"
}

# A position pasted into XBoard, run inside Xvfb: XBoard in Edit Game mode, the FEN put on the
# clipboard (xclip) and pasted with Edit > Paste Position (Ctrl+Shift+V), which sends the
# engine `new`, `variant`, `force` and `setboard`. XBoard's board is then copied with Edit >
# Copy Position (Ctrl+Shift+C) into pasted.fen; the engine moves for the side to move (Mode >
# Machine White or Black), and XBoard's board after that move goes into moved.fen.
human_paste() {
    local variant="$1" xbname="$2" legality="$3" fen="$4" dir="$5" shot="$6" XBOARD="$7" ENGINE="$8"
    cd "$dir"
    local LOOK i
    look_options "$xbname" "$dir"
    "$XBOARD" -fcp "$ENGINE" -fd "$dir" "${LOOK[@]}" -variant "$xbname" \
        -testLegality "$legality" -initialMode EditGame -tc 5 -inc 0 -depth 3 \
        -saveSettingsFile "$dir/settings" -saveSettingsOnExit false \
        -popupExitMessage false -popupMoveErrors false \
        -debug -size medium >"$dir/xboard.out" 2>&1 &
    local pid=$!
    # XBoard's `ping` after the engine's set-up (and its `setup`) is answered.
    for ((i = 0; i < 80; i++)); do
        grep -q '<first *: *pong' "$dir/xboard.debug" 2>/dev/null && break
        sleep 0.25
    done
    sleep 0.5
    # Without a window manager the keyboard goes to the window under the pointer.
    xdotool mousemove 250 300
    printf '%s' "$fen" | xclip -selection clipboard >/dev/null 2>&1
    sleep 0.3
    xdotool key ctrl+shift+v
    for ((i = 0; i < 40; i++)); do
        grep -q '>first *: *setboard' "$dir/xboard.debug" 2>/dev/null && break
        sleep 0.25
    done
    # Time for the engine's answers (a `setup`) to reach XBoard.
    sleep 1.5
    screenshot "$variant: the pasted position" "$shot"
    # XBoard's board, by Copy Position (the clipboard emptied first, so that a copy that
    # fails reads as no board rather than as the FEN pasted).
    copy_position() {
        printf 'none' | xclip -selection clipboard >/dev/null 2>&1
        sleep 0.3
        xdotool key ctrl+shift+c
        sleep 0.5
        timeout 5 xclip -o -selection clipboard >"$1" 2>/dev/null || true
    }
    copy_position "$dir/pasted.fen"
    if [[ "$(cut -d' ' -f2 <<<"$fen")" == b ]]; then
        xdotool key ctrl+b
    else
        xdotool key ctrl+w
    fi
    for ((i = 0; i < 120; i++)); do
        grep -q '<first *: *move ' "$dir/xboard.debug" 2>/dev/null && break
        sleep 0.25
    done
    sleep 1
    copy_position "$dir/moved.fen"
    stop_xboard "$pid"
}

# Runs this script with the arguments after SECONDS under a fresh Xvfb, for at most SECONDS
# (a stalled X server or XBoard fails the check that reads what it left, not the run).
in_xvfb() {
    local secs="$1"
    shift
    timeout -k 10 "$secs" xvfb-run -a -s "-screen 0 1280x1024x24" bash "$SELF" "$@" || true
}

# Whether engine WHO (XBoard's `first`, or a pattern of both) answered with one of WHAT (an
# extended pattern) in XBoard's debug log LOG; says so, with the lines, when it did.
engine_refused() {
    local log="$1" who="$2" what="$3"
    grep -qE "<$who *: *($what)" "$log" 2>/dev/null || return 1
    echo "  FAIL: the engine refused a move or command:"
    grep -E "<$who *: *($what)" "$log" | head -5
}

# A FEN's board, hand (its letters sorted) and side to move, as "BOARD HAND SIDE": what XBoard's
# Copy Position and the engine's FEN must agree on (the other fields are written differently:
# XBoard writes an empty hand as `[-]`, no castling field in shogi, gating rights in castling).
fen_key() {
    local board="${1%% *}" rest="${1#* }" hand=""
    if [[ "$board" == *\[* ]]; then
        hand="${board#*\[}"
        hand="${hand%\]*}"
        board="${board%%\[*}"
    fi
    hand=$(tr -d -- '-' <<<"$hand" | grep -o . | sort | tr -d '\n' || true)
    echo "$board [${hand}] ${rest%% *}"
}

# Runs human_paste under Xvfb for one game and checks that XBoard's board and the engine's hold
# the pasted position, and agree after the engine's move from it: XBoard's board (copied from
# XBoard) against the FEN pasted, then against the engine's own position after the same
# `setboard` and move, asked of another process of the engine (`d`).
check_paste() {
    local variant="$1" xbname="$2" legality="$3" fen="$4"
    local dir="$WORK/$variant-paste" status=0
    mkdir -p "$dir"
    in_xvfb 90 --human-paste "$variant" "$xbname" "$legality" "$fen" "$dir" \
        "$SHOTS/${variant}_paste.png" "$XBOARD" "$ENGINE"
    local log="$dir/xboard.debug" sent mv engine_fen want got
    sent=$(sed -n 's/^.*>first *: *setboard //p' "$log" 2>/dev/null | tail -1)
    mv=$(sed -n 's/^.*<first *: *move //p' "$log" 2>/dev/null | head -1)
    echo "$variant, a pasted position: engine's move $mv"
    want=$(fen_key "$fen")
    got=$(fen_key "$(head -1 "$dir/pasted.fen" 2>/dev/null)")
    if [[ "$got" != "$want" ]]; then
        echo "  FAIL: XBoard's board after the paste is $got, not $want"
        status=1
    fi
    if [[ -z "$sent" || "$(fen_key "$sent")" != "$want" ]]; then
        echo "  FAIL: XBoard sent the engine 'setboard ${sent:-(none)}', not the position pasted"
        status=1
    fi
    if [[ -z "$mv" ]]; then
        echo "  FAIL: the engine did not move from the pasted position"
        return 1
    fi
    engine_fen=$(printf 'xboard\nprotover 2\nvariant %s\nforce\nsetboard %s\nusermove %s\nd\nquit\n' \
        "$xbname" "$sent" "$mv" | timeout 20 "$ENGINE" | sed -n 's/^# Fen: //p')
    want=$(fen_key "$engine_fen")
    got=$(fen_key "$(head -1 "$dir/moved.fen" 2>/dev/null)")
    if [[ -z "$engine_fen" || "$got" != "$want" ]]; then
        echo "  FAIL: after $mv XBoard's board is $got, the engine's $want"
        status=1
    fi
    engine_refused "$log" first 'Illegal move|Error|tellusererror' && status=1
    return $status
}

# Runs human_entry under Xvfb and checks what XBoard sent and shows: the two entries as gating
# moves and the plain moves as they were, and XBoard's board the engine's after them.
check_human_entry() {
    local dir="$WORK/swedishcannon-human" status=0
    mkdir -p "$dir"
    in_xvfb 90 --human-entry "$dir" "$SHOTS/swedishcannon_entry.png" "$XBOARD" "$ENGINE"
    local log="$dir/xboard.debug" sent want engine_fen got
    want="e2e4c d7d5c g1f3 e7e5 "
    sent=$(grep -oE '>first *: *(usermove )?[a-h][1-8][a-h][1-8][a-z]?$' "$log" 2>/dev/null |
        sed -E 's/.* //' | tr '\n' ' ')
    echo "swedishcannon, a player's cannon entries: $sent"
    if [[ "$sent" != "$want" ]]; then
        echo "  FAIL: expected XBoard to send $want"
        status=1
    fi
    engine_fen=$(printf 'xboard\nprotover 2\nvariant swedishcannon\nforce\n%s\nd\nquit\n' \
        "$(printf 'usermove %s\n' $want)" | timeout 20 "$ENGINE" | sed -n 's/^# Fen: //p')
    got=$(fen_key "$(head -1 "$dir/board.fen" 2>/dev/null)")
    if [[ "$got" != "$(fen_key "$engine_fen")" ]]; then
        echo "  FAIL: XBoard's board is $got, the engine's $(fen_key "$engine_fen")"
        status=1
    fi
    engine_refused "$log" first 'Illegal move|Error' && status=1
    return $status
}

# Runs human_promotion under Xvfb in MODE (sweep or dialog) and checks what XBoard sent,
# logged and saved.
check_human_promotion() {
    local mode="$1" dir="$WORK/cannonshogi-human-$1" status=0
    mkdir -p "$dir"
    in_xvfb $((${SMOKE_GAME_SECONDS:-120} + 120)) --human-promotion "$mode" "$dir" \
        "$SHOTS/cannonshogi_promotion_$mode.png" "$XBOARD" "$ENGINE"
    local log="$dir/xboard.debug" moves sent want
    moves=$(sed '/^\[/d' "$dir/game.pgn" 2>/dev/null | tr '\n' ' ' | sed 's/{[^}]*}//g')
    echo "cannonshogi, a player's promotions ($mode): ${moves:0:90}..."
    # The moves as XBoard sent them to the first engine, in order (a deferred promotion may
    # come with XBoard's `=` or without a suffix: both are the move without promotion).
    want="d2d7+ g7g6 a3a4 g6g5 a4a5 e7e6 a5a6 e6e5 a6a7 c7c6 a7a8 c6c5 a8a9 "
    sent=$(grep -oE '>first *: *(usermove )?[a-i][1-9][a-i][1-9][+=]?$' "$log" |
        sed -E 's/.* //; s/=$//' | head -n "$(wc -w <<<"$want")" | tr '\n' ' ')
    echo "  sent: $sent"
    if [[ "$sent" != "$want" ]]; then
        echo "  FAIL: expected XBoard to send $want"
        status=1
    fi
    engine_refused "$log" '(first|second)' 'Illegal move|Error' && status=1
    if ! grep -qE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$dir/game.pgn" 2>/dev/null; then
        echo "  FAIL: the game after the promotions did not reach an end"
        status=1
    fi
    return $status
}

# Runs human_shot under Xvfb and checks what XBoard saved and logged.
check_human_shot() {
    local dir="$WORK/cannon-human" status=0
    mkdir -p "$dir"
    in_xvfb $((${SMOKE_GAME_SECONDS:-120} + 120)) --human-shot "$dir" "$SHOTS/cannon_shot.png" \
        "$XBOARD" "$ENGINE"
    local log="$dir/xboard.debug" moves
    moves=$(sed '/^\[/d' "$dir/game.pgn" 2>/dev/null | tr '\n' ' ' | sed 's/{[^}]*}//g')
    echo "cannon, a player's shot: ${moves:0:90}..."
    # The one-leg shot was refused, and nothing else.
    if ! grep -qE '<first *: *Illegal move \(only the first leg of e3e5,e5e3\): e3e5' "$log"; then
        echo "  FAIL: the one-leg shot e3e5 was not refused"
        status=1
    fi
    if grep -E '<(first|second) *: *(Illegal move|Error)' "$log" | grep -qv 'e3e5,e5e3): e3e5'; then
        echo "  FAIL: an engine refused a move or command:"
        grep -E '<(first|second) *: *(Illegal move|Error)' "$log" | head -5
        status=1
    fi
    # The shot went to the engine in two legs, XBoard recorded it as a shot (the soldier
    # staying on e3), and the shooter then stepped from e3 to e4.
    if ! grep -qE '>first *: *usermove.*e3e5,e5e3' "$log" && ! grep -qE '>first : e3e5,e5e3' "$log"; then
        echo "  FAIL: XBoard never sent the shot e3e5,e5e3"
        status=1
    fi
    if ! grep -qE '3\. Se3xe5-e3[+#]? +Sb5[+#]? +4\. S(e3)?e4[+#]? ' <<<"$moves"; then
        echo "  FAIL: the saved game does not have the shot (3. Se3xe5-e3) and then 4. e3-e4"
        status=1
    fi
    if ! grep -qE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$dir/game.pgn" 2>/dev/null; then
        echo "  FAIL: the game after the shot did not reach an end"
        status=1
    fi
    return $status
}

# A screenshot of the whole screen, given at most 20 seconds.
screenshot() {
    timeout -k 5 20 import -window root -trim +repage "$2" 2>/dev/null ||
        echo "  $1: screenshot failed"
}

# This script runs itself under Xvfb for each game: `--play-one ARGS` runs play_one ARGS, and
# likewise for the players' games.
case "${1:-}" in
--play-one | --human-promotion | --human-entry | --human-paste | --human-shot)
    step="${1#--}"
    shift
    "${step//-/_}" "$@"
    exit 0
    ;;
esac

ENGINE="${1:-}"
if [[ -z "$ENGINE" ]]; then
    target="${CARGO_TARGET_DIR:-target}"
    ENGINE="$target/release/cannonade"
    [[ -x "$ENGINE" ]] || cargo build --release --quiet
fi
ENGINE="$(realpath "$ENGINE")"

XBOARD=/usr/games/xboard
if [[ ! -x "$XBOARD" ]] || ! command -v xvfb-run >/dev/null || ! command -v import >/dev/null ||
    ! command -v xdotool >/dev/null || ! command -v xclip >/dev/null; then
    echo "== installing xboard, xvfb, xdotool, xclip, imagemagick"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq xboard xvfb xauth xdotool xclip imagemagick >/dev/null
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
PLAYED=("${VARIANTS[@]}")


# Plays one game into $2 and prints what it found; returns 2 if the game did not reach an end
# (worth one retry: the X server or XBoard can stall), 1 for any other failure.
play_and_check() {
    local variant="$1" dir="$2" xbname="$3" legality="$4" start=$SECONDS status=0
    mkdir -p "$dir"
    # The outer bound covers what play_one cannot: Xvfb itself not starting or not stopping.
    in_xvfb $((${SMOKE_GAME_SECONDS:-120} + 90)) --play-one "$variant" "$xbname" "$legality" \
        "$dir" "$SHOTS/$variant.png" "$XBOARD" "$ENGINE"
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
# SMOKE_HUMAN_ONLY=1 skips the engine games and plays only the players' games (for the mouse).
[[ -z "${SMOKE_HUMAN_ONLY:-}" ]] || PLAYED=()
for entry in "${PLAYED[@]}"; do
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
# The player's shot, when Cannon is among the games played.
if printf '%s\n' "${VARIANTS[@]}" | grep -q '^cannon '; then
    check_human_shot || fail=1
fi
# The player's promotions, when Cannon Shogi is among them.
if printf '%s\n' "${VARIANTS[@]}" | grep -q '^cannonshogi '; then
    check_human_promotion sweep || fail=1
    check_human_promotion dialog || fail=1
fi
# The player's cannon entries, when Swedish Cannon Chess is among them.
if printf '%s\n' "${VARIANTS[@]}" | grep -q '^swedishcannon '; then
    check_human_entry || fail=1
fi
# A position pasted in every game: a few moves in, White or Black to move, with pieces in hand
# where the game has a hand. (Before the engine sent its `setup` again after `setboard`,
# XBoard 4.9.1 put Cannon Shogi's board back at the start while the engine took the position.)
# The position two plies into a game: the first legal move of each side, in the order of the
# engine's `perft 1` (the `ping` holds `quit` back until the count is printed).
two_plies() {
    local xbname="$1" moves="" m i
    for i in 1 2; do
        m=$(printf 'xboard\nprotover 2\nvariant %s\nforce\n%sperft 1\nping 1\nquit\n' \
            "$xbname" "$moves" | "$ENGINE" | sed -n 's/^\([^ ]*\): [0-9]*$/\1/p' | head -1)
        moves+="usermove $m"$'\n'
    done
    printf 'xboard\nprotover 2\nvariant %s\nforce\n%sd\nquit\n' "$xbname" "$moves" |
        "$ENGINE" | sed -n 's/^# Fen: //p'
}
declare -A PASTE=(
    [chess]="rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    [cannon]="2t7/1s1s1s1s1s/1s1s1s1s1s/1s1s3s1s/4s5/S9/2S1S1S1S1/S1S1S1S1S1/S1S1S1S1S1/1T8[] w - - 2 3"
    [cannonrider]="nrbckqcbrn/*ppp1pppp*/*8*/*3p4*/*3P4*/*8*/*PPP1PPPP*/NRBCKQCBRN w KQkq - 0 2"
    [cannonriderscorpion]="nrbckqcbrn/*sss1ssss*/*8*/*3s4*/*3S4*/*8*/*SSS1SSSS*/NRBCKQCBRN w KQkq - 0 2"
    [swedishcannon]="rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPPCPPP/RNBQKBNR[Ccc] b KQkq - 0 2"
    [swedishcannon1]="rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPPCPPPP/RNBQKBNR[c] w KQkq - 0 2"
    [cannonshogi]="lnsgkgsnl/1rci1ua2/p3p1b1p/2p6/9/2P6/P3P1P1P/2AU1ICR1/LNSGKGSNL[Pb] w - - 0 3"
    [chesstonia]="1*rnbqkbnr**/**pp1ppppp**/pc9S/w3p6F/f3P6W/s9CP/**PP1PPPPP**/**RNBQKBNR*1 w KQkq - 0 2"
)
for entry in "${VARIANTS[@]}"; do
    read -r variant xbname <<<"$entry"
    legality=false
    [[ "$xbname" == normal ]] && legality=true
    fen="${PASTE[$variant]:-}"
    if [[ -z "$fen" ]]; then
        fen=$(two_plies "$xbname")
        echo "$variant: no position to paste in PASTE; pasting $fen"
    fi
    check_paste "$variant" "$xbname" "$legality" "$fen" || fail=1
done
echo "screenshots in $SHOTS"
exit $fail
