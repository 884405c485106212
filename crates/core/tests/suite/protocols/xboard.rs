//! XBoard (CECP v2) transcripts, in-process. `ping`/`pong` marks the point where every earlier
//! command has been answered, so a test can also check that some answer did *not* come.

use super::support::{fen_in, Engine};

fn is_move(l: &str) -> bool {
    l.starts_with("move ")
}

impl Engine {
    /// Waits for the engine's `move` line (thinking lines and others are skipped).
    fn xb_move(&mut self) -> String {
        let lines = self.until(is_move);
        lines.last().unwrap()["move ".len()..].to_string()
    }

    /// Sends commands that start a search and waits for its move.
    fn xb_play(&mut self, cmds: &[&str]) -> String {
        for c in cmds {
            self.send(c);
        }
        self.xb_move()
    }
}

/// A thinking line: (depth, time in centiseconds).
fn thinking(line: &str) -> Option<(u32, u64)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 5 || w[1..4].iter().any(|x| x.parse::<i64>().is_err()) {
        return None;
    }
    Some((w[0].parse().ok()?, w[2].parse().ok()?))
}

#[test]
fn protover_announces_the_features_variants_and_options() {
    let (_e, lines) = Engine::xboard_features();
    let all = lines.join("\n");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "memory=1",
        "smp=1",
        "analyze=1",
        "exclude=1",
        "highlight=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "san=0",
        "reuse=1",
        "myname=\"Cannonade ",
        "feature option=\"CannonClearShot -check 0\"",
    ] {
        assert!(all.contains(f), "missing {f} in {all}");
    }
    let variants = all
        .split("variants=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("variants feature");
    let names: Vec<&str> = variants.split(',').collect();
    for v in ["normal", "cannon", "cannonrider", "swedishcannon"] {
        assert!(names.contains(&v), "{v} not in {names:?}");
    }
    assert!(!names.contains(&"chess"), "orthodox chess is 'normal'");
    assert_eq!(lines.first().unwrap(), "feature done=0");
    assert_eq!(lines.last().unwrap(), "feature done=1");
}

#[test]
fn unknown_games_get_setup_and_piece_lines() {
    let mut e = Engine::xboard();
    let out = e.run(&["variant cannon"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("setup (") && out[0].contains(") 10x10+1_"),
        "{out:?}"
    );
    assert!(out[0].ends_with("S1S1S1S1S1/10[Tt] w - - 0 1"), "{out:?}");

    let out = e.run(&["variant cannonriderscorpion"]);
    assert!(
        out[0].contains(" 10x8+0_fairy nrbckqcbrn/*ssssssss*/"),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.starts_with("piece S& ")), "{out:?}");

    // Cannon Shogi: 9 ranks and 11 kinds in hand, and the moves of the pieces XBoard's shogi
    // does not move as the game does (the soldier, the cannons and their flying forms).
    let out = e.run(&["variant cannonshogi"]);
    assert!(out[0].contains(") 9x9+11_shogi lnsgkgsnl/"), "{out:?}");
    let pieces: Vec<&str> = out[1..]
        .iter()
        .filter_map(|l| l.strip_prefix("piece ")?.split_once("& ").map(|(p, _)| p))
        .collect();
    assert_eq!(
        pieces,
        ["P", "U", "A", "C", "I", "+U", "+A", "+C", "+I"],
        "{out:?}"
    );
    assert!(out.contains(&"piece U& mRcpR".to_string()), "{out:?}");

    // XBoard knows orthodox chess: nothing to describe.
    assert!(e.run(&["variant normal"]).is_empty());
    assert_eq!(
        e.run(&["variant nosuchgame"]),
        vec!["Error (unknown variant): nosuchgame"]
    );
}

#[test]
fn illegal_moves_and_unknown_commands_are_refused() {
    let mut e = Engine::xboard();
    assert_eq!(
        e.run(&["force", "usermove e2e5"]),
        vec!["Illegal move: e2e5"]
    );
    // The position did not change: e2e4 is still White's move, then e7e5 Black's.
    assert!(e.run(&["usermove e2e4", "usermove e7e5"]).is_empty());
    assert_eq!(e.run(&["usermove e7e5"]), vec!["Illegal move: e7e5"]);
    assert_eq!(
        e.run(&["frobnicate 3"]),
        vec!["Error (unknown command): frobnicate"]
    );
    let bad = e.run(&["setboard this is no position"]);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("tellusererror") || bad[0].starts_with("Error ("),
        "{bad:?}"
    );
    // A bad setboard leaves the game as it was: Black's e7e5 was refused, White's move now.
    assert!(e.run(&["usermove g1f3"]).is_empty());
    assert_eq!(
        e.run(&["undo", "undo", "undo", "undo"]),
        vec!["Error (no move to take back): undo"],
        "three moves to take back, the fourth undo is an error"
    );
    assert_eq!(
        e.run(&["usermove"]),
        vec!["Error (no move given): usermove"]
    );
}

#[test]
fn a_bare_illegal_move_is_an_illegal_move() {
    let mut e = Engine::xboard();
    assert_eq!(e.run(&["force", "g6g7"]), vec!["Illegal move: g6g7"]);
    assert_eq!(e.run(&["e7e8q"]), vec!["Illegal move: e7e8q"]);
    // A legal bare move is played; a word is still an unknown command.
    assert!(e.run(&["e2e4"]).is_empty());
    assert_eq!(
        e.run(&["frobnicate"]),
        vec!["Error (unknown command): frobnicate"]
    );
    assert!(e.fen().contains("4P3"));
}

#[test]
fn pong_comes_after_the_answers_of_earlier_commands() {
    let mut e = Engine::xboard();
    let out = e.run(&["force", "usermove e2e4", "perft 3"]);
    // perft 3 after 1.e4 (Black to move): 20 replies, each with its count, then the total.
    assert_eq!(out.last().unwrap(), "perft 3: 13160");
    assert_eq!(out.len(), 21, "{out:?}");
}

#[test]
fn ten_rank_boards_use_zero_based_ranks() {
    let mut e = Engine::xboard();
    e.run(&["variant cannon", "force"]);
    // b1 is the second rank in XBoard's numbering: not a town square.
    assert_eq!(e.run(&["usermove T@b1"]), vec!["Illegal move: T@b1"]);
    assert!(e.run(&["usermove T@b0", "usermove T@c9"]).is_empty());
    let mv = e.xb_play(&["sd 2", "go"]);
    // A white soldier's move from ranks 1-3 (0-based), written with single-digit ranks.
    let ranks: Vec<u32> = mv
        .chars()
        .filter(|c| c.is_ascii_digit())
        .map(|c| c.to_digit(10).unwrap())
        .collect();
    assert_eq!(ranks.len(), 2, "{mv}");
    assert!((1..=3).contains(&ranks[0]), "{mv}");
}

#[test]
fn shots_are_moves_in_two_legs_and_one_leg_is_refused() {
    // White soldiers on e1-e3 (XBoard ranks), e4 empty, black soldiers on e5 and a8.
    let fen = "4t5/s9/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1";
    let mut e = Engine::xboard();
    e.run(&["variant cannon", "force", &format!("setboard {fen}")]);
    // XBoard reads `e3e5` as the soldier going to e5 and draws it there: taking it as the
    // shot would leave the two boards apart, so it is refused (XBoard then takes it back).
    assert_eq!(
        e.run(&["usermove e3e5"]),
        vec!["Illegal move (only the first leg of e3e5,e5e3): e3e5"]
    );
    assert!(e.run(&["usermove e3e5,e5e3"]).is_empty());
    // The shot removed the black soldier, which therefore cannot step to e4; the shooter
    // stayed on e3.
    assert_eq!(e.run(&["usermove e5e4"]), vec!["Illegal move: e5e4"]);
    assert!(e.run(&["usermove a8a7", "usermove e3e4"]).is_empty());
    e.run(&[&format!("setboard {fen}")]);
    assert_eq!(
        e.run(&["usermove e3e5,e5e4"]),
        vec!["Illegal move: e3e5,e5e4"]
    );
}

#[test]
fn a_shot_entered_with_the_mouse_is_led_leg_by_leg() {
    // What XBoard sends while a player shoots e3 -> e5 by clicking e3, the victim e5, then e3
    // again (XBoard waits for another leg on a cyan square, and reports it with put + lift).
    let fen = "4t5/10/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1";
    let mut e = Engine::xboard();
    e.run(&["variant cannon", "force", &format!("setboard {fen}")]);
    // Lifting e3: the victim cyan (not red, which would let XBoard end the move there with the
    // soldier on e5), the steps to d4, e4, f4 yellow.
    assert_eq!(
        e.run(&["lift e3"]),
        vec!["highlight 10/10/10/10/4C5/3YYY4/10/10/10/10"]
    );
    // Put on the victim ends the first leg: no answer; the lift there asks for the second,
    // which can only go back to e3.
    assert!(e.run(&["put e5"]).is_empty());
    assert_eq!(
        e.run(&["lift e5"]),
        vec!["highlight 10/10/10/10/10/10/4Y5/10/10/10"]
    );
    assert_eq!(
        e.run(&["put e3"]),
        vec!["highlight 10/10/10/10/10/10/10/10/10/10"]
    );
    assert!(e.run(&["usermove e3e5,e5e3"]).is_empty());
    // A player who changes their mind after the first leg and lifts another soldier starts a
    // new move: e1 steps to d2 or f2, or shifts the cannon to e4.
    e.run(&[&format!("setboard {fen}")]);
    e.run(&["lift e3"]);
    assert!(e.run(&["put e5"]).is_empty());
    assert_eq!(
        e.run(&["lift e1"]),
        vec!["highlight 10/10/10/10/10/4Y5/10/3Y1Y4/10/10"]
    );
    // A put on an ordinary destination ends the entry: a lift on it starts a new one.
    e.run(&["lift e3"]);
    assert_eq!(
        e.run(&["put e4"]),
        vec!["highlight 10/10/10/10/10/10/10/10/10/10"]
    );
    assert_eq!(
        e.run(&["lift e4"]),
        vec!["highlight 10/10/10/10/10/10/10/10/10/10"]
    );
}

#[test]
fn the_engine_claims_mate_and_a_taken_town() {
    let mut e = Engine::xboard();
    e.run(&[
        "force",
        "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "sd 3",
    ]);
    e.send("go");
    let out = e.until(|l| l.contains('{'));
    assert_eq!(out[out.len() - 2], "move a1a8");
    assert_eq!(out.last().unwrap(), "1-0 {White mates}");
    // The game is over: `go` claims it again rather than think, and moves are refused.
    e.send("go");
    assert_eq!(e.until(|l| l.contains('{')), ["1-0 {White mates}"]);

    // A white soldier next to Black's town takes it.
    let mut e = Engine::xboard();
    e.run(&[
        "variant cannon",
        "force",
        "setboard 5t4/4S5/10/10/10/10/10/10/10/4T5[] w - - 0 1",
        "sd 2",
    ]);
    e.send("go");
    let out = e.until(|l| l.contains('{'));
    assert_eq!(out[out.len() - 2], "move e8f9");
    assert_eq!(out.last().unwrap(), "1-0 {Black's town is taken}");
}

#[test]
fn the_engine_plays_its_side_and_ponders_on_the_other() {
    let mut e = Engine::xboard();
    // After `new` the engine plays Black: the user's move is answered with a move.
    let mv = e.xb_play(&["sd 2", "usermove e2e4"]);
    assert!(!mv.is_empty());
    // With pondering on (`hard`), the engine thinks on the user's time after its move; the
    // user's next move ends that search and gets its answer.
    e.run(&["hard"]);
    let fen = e.fen();
    let black_to_move = fen.split_whitespace().nth(1) == Some("b");
    assert!(!black_to_move, "{fen}");
    e.xb_play(&["usermove d2d4"]);
    e.xb_play(&["usermove g1f3"]);
    // `playother`: the engine takes the side not to move, and waits.
    let out = e.run(&["force", "playother"]);
    assert!(out.iter().all(|l| !is_move(l)), "{out:?}");
    let mv = e.xb_play(&["usermove b1c3"]);
    assert!(!mv.is_empty());
    // `easy` stops pondering: the engine is silent until the user moves again.
    let out = e.run(&["easy"]);
    assert!(out.is_empty(), "{out:?}");
    assert!(!e.xb_play(&["usermove a2a3"]).is_empty());
}

#[test]
fn move_now_plays_the_move_being_thought_about() {
    let mut e = Engine::xboard();
    e.run(&["post", "level 0 600 0", "time 99999999"]);
    e.send("usermove e2e4");
    // The engine thinks (its thinking lines come), and moves on `?` only.
    e.until(|l| thinking(l).is_some_and(|(d, _)| d >= 3));
    e.send("?");
    // `?` returns once the move is out.
    assert!(e.lines_now().iter().any(|l| is_move(l)));
    // The end of input stops a search as `?` does, and its move is played.
    e.send("usermove d2d4");
    e.until(|l| thinking(l).is_some());
    let out = e.finish();
    assert!(out.iter().any(|l| is_move(l)), "{out:?}");
}

#[test]
fn analyze_prints_thinking_lines_and_stat01() {
    let mut e = Engine::xboard();
    e.send("force");
    e.send("analyze");
    let lines = e.until(|l| thinking(l).is_some_and(|(d, _)| d >= 3));
    let f: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    // depth score time(cs) nodes pv...
    assert!(
        f[1].parse::<i64>().is_ok() && f[2].parse::<u64>().is_ok(),
        "{f:?}"
    );
    assert!(f[3].parse::<u64>().unwrap() > 0, "{f:?}");
    assert!(f[4].len() >= 4, "{f:?}");
    e.send(".");
    e.until(|l| l.starts_with("stat01: "));
    e.send("exit");
    // After `exit` the search is over: nothing after the pong, even once the engine had all
    // the time it wanted (another pong later finds nothing in between).
    e.sync();
    assert!(e.run(&["d"]).iter().all(|l| thinking(l).is_none()));
    assert!(e.lines_now().is_empty());
    // Not analysing: `.` says nothing.
    assert!(e.run(&["."]).is_empty());
}

#[test]
fn exclude_limits_the_root_moves() {
    let mut e = Engine::xboard();
    assert!(e
        .run(&["force", "exclude all", "include g1h3", "sd 3"])
        .is_empty());
    assert_eq!(e.xb_play(&["go"]), "g1h3");
    assert_eq!(e.run(&["exclude e2e5"]), vec!["Illegal move: e2e5"]);
}

#[test]
fn lift_highlights_the_legal_destinations() {
    let mut e = Engine::xboard();
    e.run(&["force"]);
    assert_eq!(e.run(&["lift e2"]), vec!["highlight 8/8/8/8/4Y3/4Y3/8/8"]);
    assert_eq!(e.run(&["lift g1"]), vec!["highlight 8/8/8/8/8/5Y1Y/8/8"]);
    assert_eq!(e.run(&["put e4"]), vec!["highlight 8/8/8/8/8/8/8/8"]);
}

#[test]
fn cannon_shogi_promotion_choices_are_magenta() {
    // XBoard's shogi offers a promotion choice only for pieces on its first seven slots and
    // promotes a pawn-slot piece on the last rank by force; magenta (a promotion choice) makes
    // it ask the player for any piece, and the answer comes as `+` or `=`.
    let mut e = Engine::xboard();
    e.run(&["variant cannonshogi", "force"]);
    // The gold cannon on d2 slides up to d7, in the zone, or hops the iron cannon on d8 to
    // take the gold on d9: a choice on both; plain slides below the zone and to e2.
    assert_eq!(
        e.run(&["lift d2"]),
        vec!["highlight 3M5/9/3M5/3Y5/3Y5/3Y5/3Y5/4Y4/9"]
    );
    // The pointer entering the square gets the same board again: XBoard restores the marks it
    // saved when the piece was picked up, which miss the engine's if the pointer left the
    // piece's square without a motion event on it.
    assert_eq!(
        e.run(&["hover d7"]),
        vec!["highlight 3M5/9/3M5/3Y5/3Y5/3Y5/3Y5/4Y4/9"]
    );
    // The put on a promotion square is not answered: XBoard (with sweep promotions) sends it on
    // the press and looks at the square's colour again on the release.
    assert!(e.run(&["put d7"]).is_empty());
    assert!(e.run(&["put d7"]).is_empty());
    assert!(e.run(&["usermove d2d7="]).is_empty());
    assert!(e.fen().starts_with("lnsgkgsnl/1rci1uab1/p1pUp1p1p/"));
    e.run(&["undo"]);
    assert!(e.run(&["usermove d2d7+"]).is_empty());
    assert!(e.fen().starts_with("lnsgkgsnl/1rci1uab1/p1p+Up1p1p/"));
    // A soldier taking on the last rank may stay a soldier (it can still move sideways); its
    // sideways step, starting in the zone, may promote too.
    e.run(&["setboard lnsgkgsnl/P8/9/9/9/9/9/9/4K4[] w - - 0 1"]);
    assert_eq!(e.run(&["lift a8"]), vec!["highlight M8/1M7/9/9/9/9/9/9/9"]);
    assert!(e.run(&["usermove a8a9="]).is_empty());
    assert!(e.fen().starts_with("Pnsgkgsnl/"));
}

#[test]
fn a_declined_promotion_is_sent_so_that_xboard_keeps_the_piece() {
    // XBoard (4.9.1) takes Cannon Shogi's soldier (on its pawn slot) reaching Black's last
    // rank for a pawn that must promote there: it relayed an engine's bare `g2g1` to the other
    // engine as `g2g1+` (the two engines' games parted, scripts/xboard_smoke.sh), and told
    // `g2g1=` it emptied g1 on its own board. Told `g2g1p`, the soldier's letter, it keeps the
    // soldier. Other declined promotions carry XBoard's own mark, `=`.
    let fen = "4k4/9/9/9/9/9/9/6p2/K8[] b - - 0 1";
    let mut e = Engine::xboard();
    let only = |e: &mut Engine, mv: &str| {
        e.run(&[
            "force",
            &format!("setboard {fen}"),
            "exclude all",
            &format!("include {mv}"),
            "sd 2",
        ]);
        e.xb_play(&["go"])
    };
    e.run(&["variant cannonshogi"]);
    assert_eq!(only(&mut e, "g2g1"), "g2g1p");
    assert_eq!(only(&mut e, "g2g1+"), "g2g1+");
    // A sideways step in the zone may promote too; the king has no promotion to decline.
    assert_eq!(only(&mut e, "g2f2"), "g2f2=");
    assert_eq!(only(&mut e, "e9d9"), "e9d9");
    // XBoard passes `g2g1p` on to the other engine as it is: the declined move.
    e.run(&["force", &format!("setboard {fen}")]);
    assert!(e.run(&["usermove g2g1p"]).is_empty());
    assert!(e.fen().starts_with("4k4/9/9/9/9/9/9/9/K5p2[] w"));
    // With the mouse that square offers no choice (yellow, not magenta): XBoard promotes the
    // soldier there by itself, as it would show it anyway. The zone's sideways steps do.
    e.run(&[&format!("setboard {fen}")]);
    assert_eq!(
        e.run(&["lift g2"]),
        vec!["highlight 9/9/9/9/9/9/9/5M1M1/6Y2"]
    );
    assert_eq!(e.run(&["put g1"]), vec!["highlight 9/9/9/9/9/9/9/9/9"]);
    assert!(e.run(&["usermove g2g1+"]).is_empty());
    assert!(e.fen().starts_with("4k4/9/9/9/9/9/9/9/K5+p2[] w"));
}

#[test]
fn swedish_cannon_entry_is_written_as_gating() {
    let mut e = Engine::xboard();
    e.run(&["variant swedishcannon", "force"]);
    // XBoard's form of C@e2 (cannon on e2, pawn to e4) and the engine's own form.
    assert!(e.run(&["usermove e2e4c", "usermove C@d7"]).is_empty());
    // d7's pawn went to d5 with Black's entry.
    assert_eq!(e.run(&["usermove d7d5"]), vec!["Illegal move: d7d5"]);
    // XBoard's "no promotion" mark is understood.
    assert!(e.run(&["usermove g1f3="]).is_empty());
    // A gating suffix on a move that is no entry is refused.
    assert_eq!(e.run(&["usermove g8f6c"]), vec!["Illegal move: g8f6c"]);
}

#[test]
fn a_position_set_up_is_described_again_with_the_setup() {
    // XBoard 4.9.1 resets its board to the position of any `setup` whose format differs from
    // its board's, and with Cannon Shogi's hand (11 kinds, 9 ranks) they always differ: the
    // `setup` answering the `variant` it sends before a pasted position put its board back at
    // the start. The same `setup` with the position set puts both boards there.
    let mut e = Engine::xboard();
    let setup = e.run(&["variant cannonshogi"]).remove(0);
    let (head, start) = setup.split_once(" 9x9+11_shogi ").unwrap();
    assert!(start.starts_with("lnsgkgsnl/1rci1uab1/"), "{setup}");
    // As XBoard sends it: an empty hand as `[-]`, no castling or en-passant field.
    let pasted = "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/4P4/9/P1P3P1P/1BAU1ICR1/LNSGKGSNL[-] w 0 1";
    assert_eq!(
        e.run(&["force", &format!("setboard {pasted}")]),
        vec![format!(
            "{head} 9x9+11_shogi \
             lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/4P4/9/P1P3P1P/1BAU1ICR1/LNSGKGSNL[] w - - 0 1"
        )]
    );
    // Pieces in hand and Black to move are written as the engine writes them.
    let fen = "lnsgkgsnl/1rci1ua2/p2+Up1b1p/2p6/9/2P6/P3P1P1P/2A2ICR1/LNSGKGSNL[Pb] b - - 0 3";
    assert_eq!(
        e.run(&[&format!("setboard {fen}")]),
        vec![format!("{head} 9x9+11_shogi {fen}")]
    );
    // A refused position gets its refusal alone.
    let out = e.run(&["setboard lnsgkgsnl/9/9/9/9/9/9/9/9[] w - - 0 1"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("tellusererror Illegal position"),
        "{out:?}"
    );
    // Games XBoard knows get no `setup`.
    e.run(&["new"]);
    assert!(e
        .run(&["setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"])
        .is_empty());
}

#[test]
fn a_swedish_cannon_is_brought_in_with_the_mouse() {
    // What XBoard (4.9.1) sends while a player clicks the cannon in hand, the pawn, then the
    // pawn's square two ahead. Holdings squares are named off the board (`j5` right of it
    // for White, `_4` left of it for Black).
    let mut e = Engine::xboard();
    e.run(&["variant swedishcannon", "force"]);
    // The cannon in hand: no square marked. (XBoard cannot drop onto the pawn: a marked pawn
    // would take the click as such a drop and do nothing.)
    assert_eq!(e.run(&["lift j5"]), vec!["highlight 8/8/8/8/8/8/8/8"]);
    // The pawn clicked next is lifted (XBoard's change of mind): where it goes when the cannon
    // comes in, blue. On a blue square XBoard asks for the move's last letter.
    assert_eq!(e.run(&["lift e2"]), vec!["highlight 8/8/8/8/4B3/8/8/8"]);
    assert_eq!(e.run(&["put e4"]), vec!["choice c"]);
    assert!(e.run(&["usermove e2e4c"]).is_empty());
    // Black the same way, from its holdings at the left.
    assert_eq!(e.run(&["lift _4"]), vec!["highlight 8/8/8/8/8/8/8/8"]);
    assert_eq!(e.run(&["lift d7"]), vec!["highlight 8/8/8/3B4/8/8/8/8"]);
    assert_eq!(e.run(&["put d5"]), vec!["choice c"]);
    assert!(e.run(&["usermove d7d5c"]).is_empty());
    // A pawn lifted alone keeps its plain moves; a piece that no cannon can come in on,
    // lifted after the cannon, too.
    assert_eq!(e.run(&["lift d2"]), vec!["highlight 8/8/8/8/3Y4/3Y4/8/8"]);
    e.run(&["put d2"]);
    e.run(&["lift j5"]);
    assert_eq!(e.run(&["lift g1"]), vec!["highlight 8/8/8/8/8/5Y1Y/8/8"]);
    assert_eq!(e.run(&["put f3"]), vec!["highlight 8/8/8/8/8/8/8/8"]);
    // Both entries were played: d7's pawn is on d5, its cannon on d7.
    let fen = e.fen();
    assert!(
        fen.starts_with("rnbqkbnr/pppcpppp/8/3p4/4P3/8/PPPPCPPP/RNBQKBNR[Cc] w"),
        "{fen}"
    );
}

#[test]
fn options_and_takebacks() {
    let mut e = Engine::xboard();
    assert!(e.run(&["option CannonClearShot=1"]).is_empty());
    assert_eq!(
        e.run(&["option NoSuchOption=1"]),
        vec!["Error (unknown option): NoSuchOption"]
    );
    assert!(e
        .run(&["force", "usermove e2e4", "usermove e7e5", "remove"])
        .is_empty());
    // Back at the start: e2e4 is legal again.
    assert!(e.run(&["usermove e2e4"]).is_empty());
    assert!(e
        .run(&[
            "memory 8",
            "cores 1",
            "level 40 5 0",
            "st 1",
            "time 1000",
            "otim 1000"
        ])
        .is_empty());
    // Bad clocks are refused in XBoard's error form.
    for (cmd, says) in [
        ("level 40 x 0", "Error (bad base time 'x'): level 40 x 0"),
        ("st -1", "Error (bad time per move): st -1"),
        ("sd 0", "Error (bad depth): sd 0"),
        ("nps x", "Error (bad nps): nps x"),
        ("time soon", "Error (bad clock value): time soon"),
    ] {
        assert_eq!(e.run(&[cmd]), vec![says], "{cmd}");
    }
}

#[test]
fn an_option_without_a_name_says_what_is_missing() {
    let mut e = Engine::xboard();
    for cmd in ["option", "option =1"] {
        let out = e.run(&[cmd]);
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("Error (option needs a name"), "{out:?}");
    }
}

#[test]
fn long_input_is_echoed_short() {
    let long = "x".repeat(1 << 20);
    let mut e = Engine::xboard();
    let out = e.run(&[
        &long,
        &format!("usermove {long}"),
        &format!("setboard {long}"),
    ]);
    assert_eq!(out.len(), 3);
    for l in &out {
        assert!(l.len() < 400, "{} chars", l.len());
    }
}

// ---- Clocks that arithmetic once broke --------------------------------------------------

#[test]
fn a_huge_level_does_not_kill_the_search() {
    let mut e = Engine::xboard();
    e.run(&["post", "level 1 99999999999999999:0 0", "usermove e2e4"]);
    // It thinks (several iterations shown) and moves when told.
    e.until(|l| thinking(l).is_some_and(|(d, _)| d >= 4));
    e.send("?");
    assert!(e.lines_now().iter().any(|l| is_move(l)));
}

#[test]
fn a_huge_time_value_is_not_a_tiny_one() {
    let mut e = Engine::xboard();
    // 1844674407370955162 centiseconds times ten wraps to 4 ms in 64-bit arithmetic.
    e.run(&[
        "post",
        "level 0 5 0",
        "time 1844674407370955162",
        "otim 30000",
        "usermove e2e4",
    ]);
    // Still thinking after 40 centiseconds by its own count: no move before that line.
    let lines = e.until(|l| thinking(l).is_some_and(|(_, cs)| cs >= 40));
    assert!(
        !lines.iter().any(|l| is_move(l)),
        "moved at once: {lines:?}"
    );
    e.send("?");
    assert!(e.lines_now().iter().any(|l| is_move(l)));
}

// ---- Commands while the engine thinks: the move is never lost ----------------------------

/// The engine thinks about White's first move of the cannon game; `cmd` arrives meanwhile;
/// the move must still come (and `cmd` be answered before it where it answers at all).
fn move_survives(cmd: &str) -> Vec<String> {
    let mut e = Engine::xboard();
    e.run(&["variant cannon", "st 1"]);
    e.send("go");
    e.send(cmd);
    let lines = e.until(is_move);
    assert!(is_move(lines.last().unwrap()), "{cmd}: {lines:?}");
    lines
}

#[test]
fn an_illegal_usermove_while_thinking_keeps_the_move() {
    let lines = move_survives("usermove a0a9");
    assert_eq!(lines[0], "Illegal move: a0a9");
}

#[test]
fn memory_while_thinking_keeps_the_move() {
    move_survives("memory 32");
}

#[test]
fn perft_while_thinking_keeps_the_move() {
    let lines = move_survives("perft 2");
    assert!(
        lines.iter().any(|l| l.starts_with("perft 2: ")),
        "{lines:?}"
    );
}

#[test]
fn undo_with_nothing_to_undo_while_thinking_keeps_the_move() {
    let lines = move_survives("undo");
    assert_eq!(lines[0], "Error (no move to take back): undo");
}

#[test]
fn a_rule_option_while_thinking_keeps_the_move() {
    move_survives("option CannonClearShot=1");
}

#[test]
fn a_bad_option_while_thinking_is_refused_at_once_and_keeps_the_move() {
    let lines = move_survives("option CannonClearShot=maybe");
    assert!(
        lines[0].starts_with("Error (option CannonClearShot: 'maybe' is not true or false)"),
        "{lines:?}"
    );
}

#[test]
fn a_rule_option_sent_while_thinking_applies_after_the_move() {
    let mut e = Engine::xboard();
    e.run(&["variant cannon", "st 0.3"]);
    e.send("go");
    e.send("option CannonClearShot=1");
    e.send("memory 32");
    let lines = e.until(is_move);
    // Nothing was said about them before the move; both were applied after it and the game
    // goes on.
    assert_eq!(lines.len(), 1, "{lines:?}");
    let out = e.run(&["force", "d"]);
    assert!(fen_in(&out).is_some(), "{out:?}");
}

// ---- Long jobs ---------------------------------------------------------------------------

/// Both protocols run the same long jobs: XBoard's `bench` counts what UCI's counts, and its
/// `pong` waits for the count; `perft` in both gives the same total.
#[test]
fn both_protocols_run_the_same_bench_and_perft() {
    let mut u = Engine::uci();
    u.send("bench 2");
    let uci_lines = u.until(|l| l.starts_with("Nodes/second"));
    let nodes = |lines: &[String], prefix: &str| -> u64 {
        let l = lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("{lines:?}"));
        l.trim().parse().unwrap()
    };
    let uci_nodes = nodes(&uci_lines, "Nodes searched:");
    let mut x = Engine::xboard();
    let xb_lines = x.run(&["bench 2"]);
    assert_eq!(nodes(&xb_lines, "# Nodes searched:"), uci_nodes);
    let out = x.run(&["perft 3"]);
    assert_eq!(out.last().map(String::as_str), Some("perft 3: 8902"));
    u.send("go perft 3");
    let out = u.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(out.last().map(String::as_str), Some("Nodes searched: 8902"));
    let out = x.run(&["bench 0"]);
    assert_eq!(
        out,
        vec!["Error (bench: expected a depth from 1 to 64): bench 0"]
    );
}

#[test]
fn move_now_stops_a_perft_and_its_pongs_follow() {
    let mut e = Engine::xboard();
    e.send("perft 9");
    e.send("ping 41");
    e.send("?");
    let out = e.lines_now();
    assert_eq!(out, ["Error (perft stopped): perft 9", "pong 41"]);
}

/// Where the host has no thread the search for the engine's move runs inside the command that
/// starts it, and the move is played before that command returns.
#[test]
fn without_threads_the_move_comes_before_the_command_returns() {
    let mut e = Engine::xboard_without_threads();
    e.send("sd 3");
    e.send("usermove e2e4");
    let lines = e.lines_now();
    assert!(lines.last().is_some_and(|l| is_move(l)), "{lines:?}");
    e.run(&["force", "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"]);
    e.send("go");
    assert_eq!(e.lines_now(), ["move a1a8", "1-0 {White mates}"]);
}
