//! One property for every registered variant: random legal games from the start and from
//! hand-picked middle games, checking after every make and every unmake that the position, its
//! key (incremental == computed from scratch) and its FEN round-trip are as they should be, and
//! that no legal move leaves the mover's own king attacked (in the games with check), that
//! the check a move gives is the one found from scratch and never denied by `may_give_check`,
//! and that the tactical moves are the legal moves `is_tactical` accepts.
//!
//! A second property checks the NNUE's incremental update the same way: along random games
//! with null moves, the accumulators updated from what each move reports
//! (`last_move_delta`) equal accumulators built from scratch, and every position's features
//! are in range and distinct.
//!
//! The variants come from the registry; the test knows only the game types. A new variant of
//! an existing type is checked as soon as it is registered (and its middle games listed below);
//! a new game type must be added to `check_variant`, which fails the test until it is.

use cannonade_core::board::Color;
use cannonade_core::engine::registry::{GameVisitor, VariantInfo, VARIANTS};
use cannonade_core::games::{Game, Notation};
use cannonade_core::nnue::{
    Accumulator, FeatureList, FloatNetwork, KingBuckets, KingView, Network, DEFAULT_QA, DEFAULT_QB,
    DEFAULT_SCALE,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Positions with the game's machinery in play (captures, promotions, pieces in hand,
/// cannons on the board), picked by hand from each game's tests or from `cannonade openings`
/// (24 random plies kept when a shallow search finds them roughly level).
fn middle_games(variant: &str) -> &'static [&'static str] {
    match variant {
        "chess" => &[
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ],
        "cannon" => &[
            "3t6/1s1s3s1s/1s1s1s4/3s1S1s2/2S1s1S3/s2S2S3/S3S1S1S1/S1S3S3/S1S1s5/6T3[] w - - 0 12",
            "5t4/1s5sss/1s2ss1s1s/2s2s4/s1s2s4/1S1S2SSs1/1S1S6/4S1S2S/S1S1S1S2S/8T1[] w - - 2 13",
            "2t7/5s1s1s/1ss2s1s2/1ss1s2sSs/2S1s1s1s1/7S2/SS2SSS1S1/S1S2S2S1/6S3/1T8[] w - - 6 13",
        ],
        "cannonrider" => &[
            "n2rk1cr1n/*pp1pp1Cp*/*4bpq1*/*2p5*/*1cPB1Q2*/*8*/*PPBPP1PP*/NR1C1K1R1N w - - 3 13",
            "nrb1kq1br1/*1pppppnp*/*p7*/*Q7*/*4PcpP*/*N2PC3*/*PPP2BP1*/1RBCK2cR1 w kq - 1 13",
        ],
        "cannonriderscorpion" => &[
            "n1bk4rn/*1rsssqss*/*2ss4*/*2S2cRs*/*1cb4S*/*1S2SC2*/*S1SS1S2*/NRBCKQ1B1N w Q - 1 13",
            "nrbckc2rn/*2ss3s*/*7s*/*1s2S1sq*/*s3S3*/*1S1b4*/*SNKCS2S*/1RBC1Q1BRN w kq - 0 13",
        ],
        "swedishcannon" => &[
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPCPPP/RNBQKBNR[Ccc] b KQkq - 0 1",
            "r1bqkr2/p2p1cb1/n1p2n2/1p2Pppp/4cPP1/NQ6/PPP1P2P/1RBK1BNR[CC] w q - 0 13",
            "2bqkbr1/1cpp1pp1/r1np1n2/p1P5/PP3B1p/3P3N/C2QPPPP/R3KB1R[Cc] w KQ - 1 13",
        ],
        "swedishcannon1" => &[
            "r1b1k2r/1ppcqp1p/n4n2/p1Cpp1p1/P1PbP1P1/1P5P/3PKP2/RNBQ1BNR[] w kq - 3 13",
            "2bqkb1r/1pppppcp/8/P4n1P/Q1P2p2/8/nP1PP3/RNB1KBNR[] w Kk - 0 13",
        ],
        "cannonshogi" => &[
            "lnsgkg1nl/2ci1uas1/p1p1p1+B1p/9/9/4P4/P+rP3P1P/1BAU1IC2/LNSGKGSNL[PR] b - - 0 4",
            "lns2gsnl/3+Uk3a/p1p1pp2p/2G6/6i2/1r3u3/PcbKP1P1P/1BA1GIC2/LNSG2SNL[pr] w - - 3 13",
            "ln1gk1snl/C1c1g2b1/s1ppBup1p/3Up2R1/p8/3R5/PP2P1P1i/2A3+a2/LNSGKG1NL[is] w - - 0 13",
        ],
        "chesstonia" => &[
            "s*r2qkb1r**/**ppp1pppp**/p4pb1w2S/1c5n2C1/f3P1P1P2W/2PQ3P1P1P/**2nPK3**/**RNB2BNR*F w kq - 3 13",
            "p*rn1q1r2**/**2p1bkpp**/1c5p1n1S/w1ppPp5F/f2P2p1bPCW/s8B1P/**P1QPPP1R**/**RNB1K1N1*1 w Q - 2 13",
        ],
        _ => &[],
    }
}

/// What must agree between a position and the same position reached another way.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    fen: String,
    key: u64,
    moves: Vec<String>,
}

fn snapshot<G: Game>(p: &G) -> Snapshot {
    let mut list = G::Moves::default();
    p.legal_moves(&mut list);
    Snapshot {
        fen: p.to_fen(),
        key: p.key(),
        moves: list
            .iter()
            .map(|&m| p.move_to_string(m, Notation::Uci))
            .collect(),
    }
}

/// Rule switches under which a position keeps, in its key, something its FEN does not carry
/// (Cannon's count of shifts in a row: a FEN starts it at 0).
const STATE_OUTSIDE_FEN: &[&str] = &["CannonShiftLimit"];

/// The incremental key is the key from scratch, and the FEN read back gives the same FEN and
/// key (with `fen_is_all` false, only the same FEN: the key may then differ by what the FEN
/// does not carry).
fn check_consistent<G: Game>(p: &G, fen_is_all: bool) -> Result<(), TestCaseError> {
    let fen = p.to_fen();
    prop_assert_eq!(p.key(), p.compute_key(), "incremental key in {}", fen);
    let reread = p
        .with_fen(&fen)
        .map_err(|e| TestCaseError::fail(format!("own FEN {fen} refused: {e}")))?;
    prop_assert_eq!(reread.to_fen(), fen.clone());
    if fen_is_all {
        prop_assert_eq!(reread.key(), p.key(), "key of the FEN read back: {}", fen);
    } else {
        prop_assert_eq!(reread.key(), reread.compute_key(), "FEN read back: {}", fen);
    }
    Ok(())
}

/// After a move: whether the side that made it left its own king attacked. Asked by passing
/// the turn back, so that the game's own `in_check` answers (false in games without check).
fn mover_in_check<G: Game>(p: &mut G) -> bool {
    p.make_null_move();
    let attacked = p.in_check();
    p.unmake_null_move();
    attacked
}

/// Plays `picks` (indices into the legal moves) from `start`. Every legal move on the way is
/// made and unmade; the picked one is played on. At the end the whole game is taken back.
fn random_game<G: Game>(start: &G, picks: &[u16], fen_is_all: bool) -> Result<(), TestCaseError> {
    let mut p = start.clone();
    check_consistent(&p, fen_is_all)?;
    let mut trail = vec![snapshot(&p)];
    for &pick in picks {
        if p.outcome().is_some() {
            break;
        }
        let mut moves = G::Moves::default();
        p.legal_moves(&mut moves);
        let before = trail.last().unwrap();
        // The tactical moves (a game may generate them by a generator of their own) are the
        // legal moves that `is_tactical` accepts, no more and no fewer.
        let mut tactical = G::Moves::default();
        p.tactical_moves(&mut tactical);
        let mut got: Vec<_> = tactical.iter().map(|m| m.to_bits()).collect();
        let mut expected: Vec<_> = moves
            .iter()
            .filter(|&&m| p.is_tactical(m))
            .map(|m| m.to_bits())
            .collect();
        got.sort_unstable();
        expected.sort_unstable();
        prop_assert_eq!(got, expected, "tactical moves in {}", before.fen);
        for &m in moves.iter() {
            let may_check = p.may_give_check(m);
            p.make_move(m);
            let name = &before.moves[moves.iter().position(|&x| x == m).unwrap()];
            prop_assert!(
                !mover_in_check(&mut p),
                "{} leaves the king attacked in {}",
                name,
                before.fen
            );
            // The check that `make_move` found (perhaps by a shortcut) is the one a position
            // read from scratch finds, and a move said not to give check does not.
            let fresh = p
                .with_fen(&p.to_fen())
                .map_err(|e| TestCaseError::fail(format!("own FEN refused: {e}")))?;
            prop_assert_eq!(
                p.in_check(),
                fresh.in_check(),
                "check after {} in {}",
                name,
                before.fen
            );
            prop_assert!(
                may_check || !p.in_check(),
                "{} gives check in {} but may_give_check said it cannot",
                name,
                before.fen
            );
            prop_assert_eq!(
                p.key(),
                p.compute_key(),
                "key after a move from {}",
                before.fen
            );
            p.unmake_move();
            prop_assert_eq!(p.to_fen(), before.fen.clone());
            prop_assert_eq!(p.key(), before.key);
        }
        p.make_move(moves[pick as usize % moves.len()]);
        check_consistent(&p, fen_is_all)?;
        trail.push(snapshot(&p));
    }
    while trail.len() > 1 {
        p.unmake_move();
        trail.pop();
        prop_assert_eq!(&snapshot(&p), trail.last().unwrap());
        prop_assert_eq!(p.key(), p.compute_key());
    }
    Ok(())
}

/// Which property a run checks.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Property {
    /// Make, unmake, key and FEN ([`random_game`]).
    MakeUnmake,
    /// The NNUE accumulators ([`accumulator_game`]).
    Accumulators,
    /// The NNUE accumulators of a net with king buckets, in the games that have them.
    Bucketed(KingBuckets),
}

/// Moves (of any variant) after which a side's king changed bucket and its accumulator was
/// refreshed: the bucketed property must meet some, or it tested no refresh.
static CROSSINGS: AtomicUsize = AtomicUsize::new(0);
/// Variants the bucketed property ran in.
static BUCKETED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// One accumulator per perspective (indexed by `Color::index`), and each perspective's king
/// bucket and mirroring (bucket 0, not mirrored, without them).
type Pair = ([Accumulator; 2], [KingView; 2]);

/// The accumulators of `p` built from its features (in the net's king buckets), after
/// checking that they are in range and distinct.
fn refreshed<G: Game>(p: &G, net: &Network) -> Result<Pair, TestCaseError> {
    let layout = net.king_buckets();
    let mut pair = [Accumulator::new(net), Accumulator::new(net)];
    for c in Color::BOTH {
        let mut f = Vec::new();
        p.bucketed_features(layout, c, &mut f);
        prop_assert!(
            f.iter().all(|&x| (x as usize) < net.input_rows()),
            "a feature out of range in {}: {:?}",
            p.to_fen(),
            f
        );
        // All in the perspective's own bucket.
        let bucket = p.king_bucket(layout, c);
        let n = p.feature_count();
        prop_assert!(f.iter().all(|&x| x as usize / n == bucket));
        // Mirrored exactly when the net mirrors and the king stands on its left half.
        let mut plain = Vec::new();
        p.active_features(c, &mut plain);
        let mirrored = p.king_view(layout, c).mirrored;
        prop_assert_eq!(
            mirrored,
            layout == KingBuckets::Mirror
                && p.nnue_king(c).is_some_and(|k| 2 * k.file + 1 < k.files)
        );
        if mirrored {
            plain.iter_mut().for_each(|x| *x = p.mirror_feature(*x));
        }
        prop_assert!(f
            .iter()
            .zip(&plain)
            .all(|(&x, &y)| x as usize % n == y as usize));
        let mut d = f.clone();
        d.sort_unstable();
        d.dedup();
        prop_assert_eq!(d.len(), f.len(), "a feature twice in {}", p.to_fen());
        pair[c.index()].refresh(net, &f);
    }
    Ok((pair, Color::BOTH.map(|c| p.king_view(layout, c))))
}

/// The parent's accumulators updated with what the last move (or null move) reports it
/// changed. Every move must be able to tell: a position that always answered "refresh" would
/// make the comparison with a refresh pass without testing the update. With king buckets, a
/// perspective whose king changed bucket is refreshed (and only then: the game's own delta
/// must still be there).
fn updated<G: Game>(p: &G, net: &Network, parent: &Pair) -> Result<Pair, TestCaseError> {
    let layout = net.king_buckets();
    let (mut pair, mut buckets) = parent.clone();
    for c in Color::BOTH {
        let (mut added, mut removed) = (FeatureList::new(), FeatureList::new());
        let view = &mut buckets[c.index()];
        if !p.bucketed_delta(layout, c, view, &mut added, &mut removed) {
            let (mut a, mut r) = (FeatureList::new(), FeatureList::new());
            prop_assert!(
                p.last_move_delta(c, &mut a, &mut r),
                "no delta for the move to {}",
                p.to_fen()
            );
            prop_assert!(
                *view != parent.1[c.index()],
                "a refresh without a bucket or wing change in {}",
                p.to_fen()
            );
            CROSSINGS.fetch_add(1, Ordering::Relaxed);
            let mut f = Vec::new();
            p.bucketed_features(layout, c, &mut f);
            pair[c.index()].refresh(net, &f);
            continue;
        }
        for &f in &added {
            pair[c.index()].add(net, f);
        }
        for &f in &removed {
            pair[c.index()].remove(net, f);
        }
    }
    Ok((pair, buckets))
}

/// Plays `picks` from `start` as [`random_game`] does, with a null move before every fifth
/// pick where the game allows one, keeping a stack of accumulators updated move by move: after
/// every make (of every legal move, and of the picked one) the update equals a refresh, and
/// after every unmake the stack's top (the parent's accumulators, kept) equals a refresh.
fn accumulator_game<G: Game>(start: &G, picks: &[u16], net: &Network) -> Result<(), TestCaseError> {
    let mut p = start.clone();
    let mut stack = vec![refreshed(&p, net)?];
    let mut nulls = Vec::new();
    for (i, &pick) in picks.iter().enumerate() {
        if p.outcome().is_some() {
            break;
        }
        if i % 5 == 4 && p.null_move_ok() {
            p.make_null_move();
            let pair = updated(&p, net, stack.last().unwrap())?;
            prop_assert_eq!(
                &pair,
                stack.last().unwrap(),
                "a null move changed the board"
            );
            stack.push(pair);
            nulls.push(true);
            if p.outcome().is_some() {
                break;
            }
        }
        let mut moves = G::Moves::default();
        p.legal_moves(&mut moves);
        for &m in moves.iter() {
            p.make_move(m);
            let pair = updated(&p, net, stack.last().unwrap())?;
            prop_assert_eq!(pair, refreshed(&p, net)?, "after a move to {}", p.to_fen());
            p.unmake_move();
        }
        p.make_move(moves[pick as usize % moves.len()]);
        let pair = updated(&p, net, stack.last().unwrap())?;
        prop_assert_eq!(
            &pair,
            &refreshed(&p, net)?,
            "after a move to {}",
            p.to_fen()
        );
        stack.push(pair);
        nulls.push(false);
    }
    while let Some(null) = nulls.pop() {
        if null {
            p.unmake_null_move();
        } else {
            p.unmake_move();
        }
        stack.pop();
        prop_assert_eq!(stack.last().unwrap(), &refreshed(&p, net)?);
    }
    Ok(())
}

/// A random net for `G`'s features with weights large enough (about ±200 after quantisation)
/// that a feature added or removed wrongly shows in every accumulator value.
fn test_net<G: Game>(start: &G, name: &str, layout: KingBuckets) -> Network {
    let mut float = FloatNetwork::new_random(start.feature_count() * layout.count(), 32, 7);
    float.buckets = layout;
    for w in &mut float.ft_weights {
        *w *= 0.8 * (start.feature_count() as f32).sqrt();
    }
    float
        .quantise(name, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .unwrap()
        .0
}

/// Runs the property for `info` if game type `G` plays it: `G` accepts the variant, starts at
/// its registered FEN and has the registered session's moves there (so a type that merely
/// reads the FEN is not mistaken for the one that plays the game). True if it ran. A variant
/// with rule switches runs the make/unmake property a second time with every switch turned
/// from its default.
fn check_as<G: Game>(info: &'static VariantInfo, cases: u32, property: Property) -> bool {
    let Ok(start) = info.new_game::<G>() else {
        return false;
    };
    let session = info.new_session();
    let mut moves = session.legal_moves(Notation::Uci);
    let mut own = snapshot(&start).moves;
    moves.sort();
    own.sort();
    if start.to_fen() != info.game.start_fen || own != moves {
        return false;
    }
    let name = info.game.name;
    let mut starts = vec![start.clone()];
    for fen in middle_games(name) {
        starts.push(
            start
                .with_fen(fen)
                .unwrap_or_else(|e| panic!("{name}: {fen}: {e}")),
        );
    }
    let strategy = (0..starts.len(), vec(any::<u16>(), 0..40));
    let runner = || {
        TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        })
    };
    let net = match property {
        Property::MakeUnmake => None,
        Property::Accumulators => Some(test_net(&start, name, KingBuckets::None)),
        Property::Bucketed(_) if !start.has_king_buckets() => return true,
        Property::Bucketed(layout) => {
            BUCKETED_RUNS.fetch_add(1, Ordering::Relaxed);
            Some(test_net(&start, name, layout))
        }
    };
    let result = runner().run(&strategy, |(i, picks)| match &net {
        None => random_game(&starts[i], &picks, true),
        Some(net) => accumulator_game(&starts[i], &picks, net),
    });
    if let Err(e) = result {
        panic!("{name} ({}): {e}", std::any::type_name::<G>());
    }
    let switches = info.game.rule_options;
    if property == Property::MakeUnmake && !switches.is_empty() {
        for p in &mut starts {
            for o in switches {
                p.set_rule_option(o.name, !o.default).unwrap();
            }
        }
        let fen_is_all = switches
            .iter()
            .all(|o| !STATE_OUTSIDE_FEN.contains(&o.name));
        let result = runner().run(&strategy, |(i, picks)| {
            random_game(&starts[i], &picks, fen_is_all)
        });
        if let Err(e) = result {
            panic!("{name} with every switch turned: {e}");
        }
    }
    true
}

/// Runs the property with the game type the registry names for `info` (the registry's
/// `GameType` is the one list of types: a new type reaches this test through it).
fn check_variant(info: &'static VariantInfo, cases: u32, property: Property) -> bool {
    struct Check(u32, Property);
    impl GameVisitor for Check {
        type Output = bool;
        fn visit<G: Game>(self, info: &'static VariantInfo) -> bool {
            check_as::<G>(info, self.0, self.1)
        }
    }
    info.visit(Check(cases, property))
}

#[test]
fn make_unmake_key_and_fen_agree_in_every_registered_variant() {
    for info in VARIANTS {
        let name = info.game.name;
        assert!(
            middle_games(name).len() >= 2,
            "{name}: list a few middle games for it in middle_games"
        );
        assert!(
            check_variant(info, 48, Property::MakeUnmake),
            "{name}: its registered game type does not play it as its session does"
        );
    }
}

#[test]
fn incremental_nnue_accumulators_equal_a_refresh_in_every_registered_variant() {
    for info in VARIANTS {
        assert!(
            check_variant(info, 24, Property::Accumulators),
            "{}: its registered game type does not play it as its session does",
            info.game.name
        );
    }
}

#[test]
fn incremental_nnue_accumulators_equal_a_refresh_with_king_buckets() {
    for info in VARIANTS {
        let crossings = CROSSINGS.load(Ordering::Relaxed);
        for layout in [
            KingBuckets::Halves,
            KingBuckets::Zones4,
            KingBuckets::Mirror,
        ] {
            assert!(
                check_variant(info, 16, Property::Bucketed(layout)),
                "{}: its registered game type does not play it as its session does",
                info.game.name
            );
        }
        let has_buckets = info.new_session().nnue_has_king_buckets();
        assert!(
            !has_buckets || CROSSINGS.load(Ordering::Relaxed) > crossings,
            "{}: no king changed bucket: the refresh went untested",
            info.game.name
        );
    }
    // The chess family (chess, both Cannonriders, both Swedish games, Chesstonia) and Cannon
    // Shogi; each ran three times (three layouts).
    assert!(BUCKETED_RUNS.load(Ordering::Relaxed) >= 21);
}

/// Checks `G`'s [`NnueFeatures::mirror_feature`] for `info`: one to one on the features, its
/// own inverse, and, where the game says what a feature stands for, the same piece on the same
/// rank with the file mirrored on the board. False if `G` does not play `info` or the game has no
/// king buckets (no net mirrors it).
struct MirrorCheck;

impl GameVisitor for MirrorCheck {
    type Output = bool;
    fn visit<G: Game>(self, info: &'static VariantInfo) -> bool {
        let Ok(start) = info.new_game::<G>() else {
            return false;
        };
        if !start.has_king_buckets() {
            return false;
        }
        let name = info.game.name;
        let n = start.feature_count();
        let files = start
            .nnue_king(Color::White)
            .expect("a king at the start")
            .files;
        let mut seen = vec![false; n];
        for f in 0..n as u32 {
            let m = start.mirror_feature(f);
            assert!((m as usize) < n, "{name}: {f} mirrors to {m}");
            assert_eq!(
                start.mirror_feature(m),
                f,
                "{name}: not its own inverse at {f}"
            );
            seen[m as usize] = true;
            if let (Some(a), Some(b)) = (start.feature_meaning(f), start.feature_meaning(m)) {
                assert_eq!(
                    (a.theirs, a.piece, a.rank),
                    (b.theirs, b.piece, b.rank),
                    "{name}"
                );
                assert_eq!(a.file + b.file + 1, files, "{name}: {a:?} mirrors to {b:?}");
            }
        }
        assert!(seen.iter().all(|&s| s), "{name}: not one to one");
        true
    }
}

#[test]
fn mirroring_swaps_files_one_to_one_in_every_game_with_king_buckets() {
    let games = VARIANTS
        .iter()
        .filter(|info| info.visit(MirrorCheck))
        .count();
    // The chess family (chess, both Cannonriders, both Swedish games, Chesstonia) and Cannon
    // Shogi.
    assert!(games >= 7, "{games}");
}
