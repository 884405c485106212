//! The PGN reader on the games players have: XBoard 4.9.1's saved games of every variant
//! (tests/data/pgn/xboard, made by scripts/xboard_pgns.sh: XBoard's file, and the position the
//! engine had at the end), a Cannon Shogi game in pychess-variants' export form
//! (tests/data/pgn/pychess: Fairy-Stockfish's SAN, as its server writes PGN), games of
//! `cannonade match` (tests/data/pgn/match, with the referee's last position, from the
//! engines' last `position` command and move), and the short forms of each.

use cannonade_core::engine::registry::{self, VariantInfo};
use cannonade_core::engine::Session;
use cannonade_core::games::{GameError, Notation};
use cannonade_core::pgn::{self, find_move, BlackNumbers, Movetext, PgnGame};
use std::path::Path;

/// The games of test-data folder `dir`, each read to its last position, which must be the one
/// its `.fen` file holds, every word a move: the file's name, the game and the position.
fn read_to_the_end(dir: &str) -> Vec<(String, PgnGame, Box<dyn Session>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pgn")
        .join(dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let game = pgn::read_games(&std::fs::read_to_string(&path).unwrap()).remove(0);
        let fen = std::fs::read_to_string(path.with_extension("fen")).unwrap();
        let start = variant_of(&game).new_session();
        let (end, moves) = game
            .play(start.as_ref(), None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(end.fen(), fen.trim(), "{name}");
        assert_eq!(moves.len(), game.move_words().len(), "{name}: every word");
        out.push((name, game, end));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn variant_of(game: &PgnGame) -> &'static VariantInfo {
    registry::find(game.tag("Variant").unwrap_or("chess")).expect("a known variant")
}

/// The moves of the first game of `text`, read from `start`.
fn moves_of(start: &dyn Session, text: &str) -> Result<Vec<String>, GameError> {
    pgn::read_games(text)[0].moves(start, None)
}

/// Checks that the first game of `text`, read from `start`, is the moves `want` (UCI).
fn assert_reads(start: &dyn Session, text: &str, want: &[&str]) {
    let moves = moves_of(start, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(moves, want, "{text}");
}

/// A copy of `game` at position `fen`.
fn at(game: &dyn Session, fen: &str) -> Box<dyn Session> {
    let mut s = game.clone_session();
    s.set_position(Some(fen), &[], Notation::Uci).unwrap();
    s
}

/// Every game XBoard saved (two of every variant) reads back, move by move, to the position
/// the engine had.
#[test]
fn xboard_s_saved_games_read_to_the_engine_s_last_position() {
    let games = read_to_the_end("xboard");
    for v in registry::VARIANTS {
        let of_v = games
            .iter()
            .filter(|(_, g, _)| variant_of(g).game.name == v.game.name);
        assert_eq!(of_v.count(), 2, "{}", v.game.name);
    }
}

/// pychess-variants' export: Fairy-Stockfish's SAN, promotions named by the promoted piece
/// (`Axe7=W+`), promoted pieces moving under that name (`We8`), the FEN as Fairy-Stockfish
/// writes it, and the variant's name capitalised.
#[test]
fn a_pychess_cannon_shogi_export_reads_to_the_engine_s_last_position() {
    let games = read_to_the_end("pychess");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].1.tag("Variant"), Some("Cannonshogi"));
}

/// `cannonade match`'s own PGN (cutechess-style comments, XBoard's ranks for Whitcher's
/// Cannon, Cannon Shogi's coordinates) reads to the referee's last position.
#[test]
fn the_match_runner_s_games_read_to_the_referee_s_last_position() {
    let games = read_to_the_end("match");
    assert_eq!(games.len(), 3);
    for (name, _, end) in games {
        assert!(end.outcome().is_some(), "{name}: the game is over");
    }
}

/// The same game with a promoted piece's letter that no promotion has named yet reads when
/// only one promoted piece can make the move, and a letter that fits nothing is refused.
#[test]
fn fairy_stockfish_s_promoted_letters_are_read_by_what_can_move() {
    let shogi = registry::find("cannonshogi").unwrap();
    // White's promoted gold cannon on d7 (Fairy-Stockfish calls it W).
    let fen = "lnsgkgsnl/1r1+U1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BA2ICR1/LNSGK1SNL[] w - - 0 1";
    let s = at(shogi.new_session().as_ref(), fen);
    assert_eq!(find_move(s.as_ref(), "Wc8").as_deref(), Some("d8c8"));
    assert_eq!(find_move(s.as_ref(), "Zc8").as_deref(), Some("d8c8"));
    assert_eq!(find_move(s.as_ref(), "Wb1"), None);
}

/// Cannon Shogi as XBoard's PGN writes it: SAN with the FEN's letters (a soldier without
/// one), `+` for a promotion and `=` for one declined, a check after either, drops with `@`.
#[test]
fn xboard_s_cannon_shogi_san_reads_as_coordinates() {
    let shogi = registry::find("cannonshogi").unwrap().new_session();
    assert_reads(
        shogi.as_ref(),
        "1. c4 c6 2. Rh3 g6 *\n",
        &["c3c4", "c7c6", "h2h3", "g7g6"],
    );
    let s = at(shogi.as_ref(), "l3k3l/P7L/9/9/9/9/9/3U5/4K4[G] w - - 0 1");
    let find = |w: &str| find_move(s.as_ref(), w);
    assert_eq!(find("Ud7+").as_deref(), Some("d2d7+"));
    assert_eq!(find("Ud7=").as_deref(), Some("d2d7"));
    assert_eq!(
        find("Ud7").as_deref(),
        Some("d2d7"),
        "no mark: not promoting"
    );
    assert_eq!(
        find("Ud7=+").as_deref(),
        Some("d2d7"),
        "declined, with a check"
    );
    assert_eq!(
        find("Ud7++").as_deref(),
        Some("d2d7+"),
        "promoted, with a check"
    );
    assert_eq!(find("Ud3").as_deref(), Some("d2d3"));
    assert_eq!(find("Li9").as_deref(), Some("i8i9+"), "a forced promotion");
    // docs/xboard.md's example: the soldier takes the lance and stays a soldier.
    assert_eq!(find("axa9=").as_deref(), Some("a8a9"));
    assert_eq!(find("axa9+").as_deref(), Some("a8a9+"));
    assert_eq!(find("axb9"), None, "no soldier move goes there");
    assert_eq!(find("G@e5").as_deref(), Some("G@e5"));
}

/// A Scorpion is drawn as a pawn, and XBoard writes its moves as a pawn's: without a letter.
#[test]
fn xboard_s_scorpion_moves_have_no_letter() {
    let scorpion = registry::find("cannonriderscorpion").unwrap().new_session();
    assert_reads(
        scorpion.as_ref(),
        "1. d4 e5 2. dxe5 *\n",
        &["d2d4", "e7e5", "d4e5"],
    );
    // A letter the game does not have is no pawn's.
    assert!(moves_of(scorpion.as_ref(), "1. Zd4 *").is_err());
}

/// XBoard writes a Swedish cannon's entry as gating, the pawn's move then the cannon coming
/// in behind it, and a pawn's moves (XBoard's lance) with their whole origin.
#[test]
fn xboard_s_swedish_cannon_moves_read() {
    let sc = registry::find("swedishcannon").unwrap().new_session();
    assert_reads(
        sc.as_ref(),
        "1. Pe2e4=C e5 2. Pd2d4=C+ *\n",
        &["C@e2", "e7e5", "C@d2"],
    );
    // A pawn that cannot make that move, or a piece not in hand, is no entry.
    assert!(moves_of(sc.as_ref(), "1. Pe2e5=C *\n").is_err());
    let one = registry::find("swedishcannon1").unwrap().new_session();
    let twice = pgn::read_games("1. Pe2e4=C e5 2. Pd2d4=C *\n");
    assert!(twice[0].moves(one.as_ref(), None).is_err());
    // Pawns with their origin: a capture, en passant, a promotion.
    let s = at(sc.as_ref(), "4k3/P7/8/3pP3/8/8/8/4K3[] w - d6 0 1");
    assert_eq!(find_move(s.as_ref(), "Pe5xd6+").as_deref(), Some("e5d6"));
    assert_eq!(find_move(s.as_ref(), "Pe5e6").as_deref(), Some("e5e6"));
    assert_eq!(find_move(s.as_ref(), "Pa7a8=Q+").as_deref(), Some("a7a8q"));
    assert_eq!(
        find_move(s.as_ref(), "Pa7a8"),
        None,
        "a promotion names its piece"
    );
    assert_eq!(find_move(s.as_ref(), "Pe5xe6"), None, "no capture there");
}

/// Cannonrider as XBoard's PGN writes a cannon's move: the whole origin (`Cd8e6+`), where
/// the engine's SAN says `Ce6+`.
#[test]
fn xboard_s_full_origin_moves_read_as_coordinates() {
    let rider = registry::find("cannonrider").unwrap().new_session();
    let fen = "nrbckqcbrn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NRBCKQCBRN w KQkq - 0 1";
    let games = pgn::read_games(&format!(
        "[Variant \"cannonrider\"]\n[FEN \"{fen}\"]\n\n1. d4 g5 2. Nb3 Cd8e6+ *\n"
    ));
    let moves = games[0].moves(rider.as_ref(), None).unwrap();
    assert_eq!(moves.last().map(String::as_str), Some("d8e6"));
    // An origin with no piece of that letter on it is no move.
    let bad = pgn::read_games(&format!("[FEN \"{fen}\"]\n\n1. d4 g5 2. Nb3 Cc8e6 *\n"));
    assert!(bad[0].moves(rider.as_ref(), None).is_err());
}

/// XBoard's Cannon PGN: soldiers' origins only as far as XBoard's one-step soldier needs them
/// (a rank alone too: `S0b1`), `#` on every move, and what `cannonade match` writes (XBoard's
/// 0-based ranks).
#[test]
fn cannon_short_forms_read() {
    let cannon = registry::find("cannon").unwrap().new_session();
    let read = |text: &str| moves_of(cannon.as_ref(), text);
    assert_eq!(
        read("1. T@b0 T@c9# 2. Se1d2 *").unwrap(),
        ["T@b1", "T@c10", "e2d3"]
    );
    assert_eq!(
        read("1. T@b0# T@c9# 2. Sa4# Sfe5# 3. Se3xe5-e3# Sb5# 4. Se4# Sxa4# *").unwrap(),
        ["T@b1", "T@c10", "a4a5", "f7e6", "e4e6", "b7b6", "e4e5", "b6a5"]
    );
    // The file of the origin (a1 or c1 could step to b2), and cannon shifts, which XBoard's
    // soldier cannot make, written in full.
    assert_eq!(
        read("1. T@b0 T@c9 2. Sab2 Sd8d5 3. Sc1c4 *").unwrap(),
        ["T@b1", "T@c10", "a2b3", "d9d6", "c2c5"]
    );
    // Too little of the origin for one step: c1 or e1 to d2.
    assert!(read("1. T@b0 T@c9 2. Sd2 *").is_err());
}

/// A Cannon Shogi game in Fairy-Stockfish's shogi numbers (older pychess-variants pages).
#[test]
fn fairy_stockfish_s_shogi_numbers_read() {
    let text = "[Variant \"Cannonshogi\"]\n\n1. U-66 A-35 2. U-67 Ux49+ 3. K-58 G*55 4. P-36 \
                R-87+ 5. A-74 S-42 6. P-47 P-54 7. P-16 P-44 8. L-18 I-84 9. P36-46 +Ux79 \
                10. U-63+ S*56 11. +U-62 +R-96 12. G-59 +R-95 13. K-69 +U-78 14. P-36 S-67= \
                15. +U-65 S-56+ *\n";
    let game = &pgn::read_games(text)[0];
    let moves = game
        .moves(variant_of(game).new_session().as_ref(), None)
        .unwrap();
    assert_eq!(
        moves.join(" "),
        "d2d4 g8g5 d4d3 f8f1+ e1e2 G@e5 g3g4 b8b3+ c2c6 g9f8 e3f3 e7e6 i3i4 e6f6 i1i2 d8b6 \
         g4f4 f1c1 d3d7+ S@e4 d7d8 b3a4 d1e1 a4a5 e2d1 c1c2 f4g4 e4d3 d8d5 d3e4+"
    );
}

/// The engine's own SAN with check marks, glyphs and zeros, and a bad move named with its
/// position; `plies` stops early.
#[test]
fn san_reads_and_bad_moves_are_named() {
    let chess = registry::find("chess").unwrap().new_session();
    let games = pgn::read_games(
        "[Event \"x\"]\n\n1. e4 e5 2. Qh5?! Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n\n\
         [FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 1\"]\n\n1... 0-0-0+ *\n\n[Event \"z\"]\n\n1. e4 e4 *\n",
    );
    assert_eq!(
        games[0].moves(chess.as_ref(), Some(3)).unwrap(),
        ["e2e4", "e7e5", "d1h5"]
    );
    assert_eq!(games[1].moves(chess.as_ref(), None).unwrap(), ["e8c8"]);
    match games[2].moves(chess.as_ref(), None) {
        Err(GameError::IllegalMove(e)) => {
            assert_eq!(e.text, "e4");
            assert_eq!(
                e.fen,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// What the writer writes, the reader reads: a game of every variant written with its moves'
/// SAN, comments and a variation reads back to the same moves.
#[test]
fn written_games_read_back() {
    for v in registry::VARIANTS {
        let mut s = v.new_session();
        let mut text = Movetext::from_fen(Some(&s.fen()), BlackNumbers::AtStart);
        let mut played = Vec::new();
        for ply in 0..12 {
            let Some(m) = s.legal_moves(Notation::Uci).into_iter().nth(ply * 7 % 5) else {
                break;
            };
            let t = s.move_text(&m, Notation::Uci).unwrap();
            text.push_move(&t.pgn);
            text.comment("{+0.10/3 0.1s} [%eval 0.1]");
            if ply == 3 {
                text.variation(std::slice::from_ref(&t.pgn));
            }
            s.play(&m, Notation::Uci).unwrap();
            played.push(m);
        }
        let tags = [("Variant", v.game.name), ("Result", "*")];
        let written = pgn::write_game(&tags, &text.finish("*"));
        let game = &pgn::read_games(&written)[0];
        let read = game.moves(v.new_session().as_ref(), None);
        assert_eq!(read.unwrap(), played, "{}:\n{written}", v.game.name);
    }
}

/// A short form that fits two moves (`Nd2` with knights on b1 and f3) is read as the one
/// after which the rest of the game reads; where both readings read on, the game is refused
/// rather than read one way at random.
#[test]
fn an_ambiguous_short_form_is_read_by_the_rest_of_the_game() {
    let chess = registry::find("chess").unwrap().new_session();
    let read = |text: &str| moves_of(chess.as_ref(), text);
    assert_eq!(
        read("1. d3 e6 2. Nf3 e5 3. Nd2 h6 4. Nc3 *").unwrap(),
        ["d2d3", "e7e6", "g1f3", "e6e5", "f3d2", "h7h6", "b1c3"]
    );
    match read("1. d3 e6 2. Nf3 e5 3. Nd2 h6 *") {
        Err(GameError::IllegalMove(e)) => assert_eq!(e.text, "Nd2"),
        other => panic!("{other:?}"),
    }
    assert_eq!(find_move(chess.as_ref(), "Nd2"), None);
}
