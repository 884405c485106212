//! `cannonade train` end to end on orthodox chess: positions from random games labelled with
//! the hand-written evaluation (a quick stand-in for `cannonade datagen`'s data, also written
//! in its format), trained into a net file that loads for chess and only for chess, the same
//! bytes from the same seed.

use crate::tool_support;

use cannonade_core::engine::registry;
use cannonade_core::games::chess::nnue_features::CHESS_FEATURES;
use cannonade_core::nnue::{KingBuckets, NetError, Network, OutputBuckets};
use cannonade_tools::train::{random_play_records, text_record};
use std::path::{Path, PathBuf};
use std::process::Output;
use tool_support::{cannonade, refused, succeeded};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cannonade-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_chess_data(path: &Path, count: usize) {
    let chess = registry::find("chess").unwrap();
    let text: String = random_play_records(chess, count, 42)
        .iter()
        .map(|r| text_record(r) + "\n")
        .collect();
    std::fs::write(path, text).unwrap();
}

/// A fresh folder for test `name` holding chess.txt, `positions` chess positions of training
/// data: the folder and the file.
fn chess_data(name: &str, positions: usize) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let data = dir.join("chess.txt");
    write_chess_data(&data, positions);
    (dir, data)
}

fn train(args: &[&str]) -> Output {
    cannonade(&[&["train"], args].concat())
}

/// A small chess training through the CLI: `data` into `out`, `epochs` epochs of a 32-unit net
/// in batches of 128, then `extra`.
fn train_small_chess(data: &Path, out: &Path, epochs: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "--variant",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        epochs,
        "--hidden",
        "32",
        "--batch",
        "128",
    ];
    args.extend(extra);
    train(&args)
}

/// The validation losses of the epoch lines, in order.
fn validation_losses(stdout: &str) -> Vec<f64> {
    stdout
        .lines()
        .filter(|l| l.starts_with("epoch "))
        .map(|l| {
            let rest = &l[l.find("validation loss ").unwrap() + 16..];
            rest.split([' ', ',']).next().unwrap().parse().unwrap()
        })
        .collect()
}

#[test]
fn train_writes_a_net_for_chess_the_same_from_the_same_seed() {
    let (dir, data) = chess_data("nnue-train", 3000);
    let run = |out: &str, threads: &str| {
        let out = dir.join(out);
        let extra = [
            "--lr",
            "0.005",
            "--wdl",
            "0",
            "--seed",
            "5",
            "--threads",
            threads,
        ];
        let o = train_small_chess(&data, &out, "4", &extra);
        let stdout = succeeded(&o);
        (std::fs::read(out).unwrap(), stdout)
    };
    let (one, stdout) = run("a.nnue", "1");
    let (two, _) = run("b.nnue", "2");
    assert_eq!(
        one, two,
        "the same seed must give the same net on 1 and 2 threads"
    );

    assert!(stdout.contains("read 3000 positions of chess"), "{stdout}");
    assert!(stdout.contains("epoch 4/4: train loss"), "{stdout}");
    assert!(stdout.contains("0 clipped"), "{stdout}");
    let losses = validation_losses(&stdout);
    assert_eq!(losses.len(), 5, "{stdout}");
    assert!(
        losses[4] < losses[0] * 0.8,
        "the validation loss must fall: {losses:?}"
    );

    let path = dir.join("a.nnue");
    let net = Network::load_for(&path, "chess", CHESS_FEATURES).unwrap();
    assert_eq!((net.hidden(), net.variant()), (32, "chess"));
    assert!(matches!(
        Network::load_for(&path, "cannonshogi", CHESS_FEATURES),
        Err(NetError::WrongVariant { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_writes_a_net_with_king_buckets() {
    let (dir, data) = chess_data("nnue-buckets", 2000);
    let out = dir.join("halves.nnue");
    let o = train_small_chess(
        &data,
        &out,
        "3",
        &["--lr", "0.005", "--king-buckets", "halves"],
    );
    let stdout = succeeded(&o);
    assert!(
        stdout.contains("768 features in 2 king buckets (halves)"),
        "{stdout}"
    );
    let losses = validation_losses(&stdout);
    assert!(losses[3] < losses[0] * 0.8, "{losses:?}");
    let net = Network::load_for(&out, "chess", CHESS_FEATURES).unwrap();
    assert_eq!(net.king_buckets(), KingBuckets::Halves);
    assert_eq!(net.input_rows(), 2 * CHESS_FEATURES);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--output-buckets 4` writes a chess net of 4 output layers of 8 men each (the 32 men of the
/// start shared out), and that net starts only a training of the same buckets.
#[test]
fn train_writes_a_net_with_output_buckets_and_keeps_them() {
    let (dir, data) = chess_data("nnue-outputs", 1000);
    let out = dir.join("four.nnue");
    let run = |out: &Path, extra: &[&str]| train_small_chess(&data, out, "2", extra);
    let o = run(&out, &["--output-buckets", "4"]);
    let stdout = succeeded(&o);
    assert!(stdout.contains("4 output buckets of 8 men"), "{stdout}");
    let net = Network::load_for(&out, "chess", CHESS_FEATURES).unwrap();
    assert_eq!(net.output_buckets(), OutputBuckets::for_game(4, 32));
    assert_eq!(std::fs::read(&out).unwrap()[62..64], [4, 8]);
    // Going on from it with its own buckets works; with others it is refused, and says why.
    let again = dir.join("again.nnue");
    let init = out.to_str().unwrap();
    let o = run(&again, &["--output-buckets", "4", "--init", init]);
    succeeded(&o);
    let o = run(&again, &["--output-buckets", "2", "--init", init]);
    refused(
        &o,
        "has 4 output buckets of 8 men, the training 2 output buckets of 16 men",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_refuses_what_it_cannot_use_and_says_why() {
    let dir = scratch("nnue-refuse");
    let out = dir.join("x.nnue");
    let out = out.to_str().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -30 | 0\n";
    let shogi = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w 0 1 | 0 | 0\n";
    let bad_line = file("bad.txt", &format!("{good}x | 1\n"));
    let other_game = file("shogi.txt", &format!("{good}{good}{shogi}"));
    let one = file("one.txt", good);
    let cases: [(Vec<&str>, &str); 10] = [
        (
            vec!["--variant", "nosuchgame", "--data", "x"],
            "unknown variant 'nosuchgame'",
        ),
        (
            // Every game has features now; Cannon Shogi's FEN reader refuses a chess FEN.
            vec!["--variant", "cannonshogi", "--data", &one],
            "record 1 (rnbqkbnr",
        ),
        (
            vec!["--variant", "chess", "--data", "/nonexistent/data.txt"],
            "/nonexistent/data.txt",
        ),
        (
            vec!["--variant", "chess", "--data", &bad_line],
            "bad.txt line 2: expected 'FEN | score | result'",
        ),
        (
            vec!["--variant", "chess", "--data", &other_game],
            "record 3 (lnsgkgsnl",
        ),
        (
            vec!["--variant", "chess", "--data", &one, "--hidden", "24"],
            "--hidden 24",
        ),
        (
            vec![
                "--variant",
                "cannon",
                "--data",
                &one,
                "--king-buckets",
                "halves",
            ],
            "variant 'cannon' has no king buckets",
        ),
        (
            vec![
                "--variant",
                "chess",
                "--data",
                &one,
                "--king-buckets",
                "quarters",
            ],
            "unknown king-bucket layout 'quarters'",
        ),
        (
            vec![
                "--variant",
                "chess",
                "--data",
                &one,
                "--output-buckets",
                "0",
            ],
            "--output-buckets",
        ),
        (
            vec![
                "--variant",
                "chess",
                "--data",
                &one,
                "--output-buckets",
                "17",
            ],
            "--output-buckets",
        ),
    ];
    for (args, says) in cases {
        let mut args = args;
        args.extend(["--out", out, "--epochs", "1"]);
        let o = train(&args);
        refused(&o, says);
        assert!(!Path::new(out).exists(), "{args:?} wrote a net");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `cannonade datagen` file's bytes: `count` positions of random games of `variant` (ten to
/// a game), labelled as [`random_play_records`] labels them.
fn datagen_bytes(variant: &str, count: usize, seed: u64) -> Vec<u8> {
    use cannonade_tools::datagen::{GameResult, Header, Record};
    let info = registry::find(variant).unwrap();
    let mut bytes = Header {
        variant: variant.into(),
        settings: "test".into(),
    }
    .encode()
    .unwrap();
    for (i, r) in random_play_records(info, count, seed)
        .into_iter()
        .enumerate()
    {
        Record {
            fen: r.fen,
            score: r.score,
            result: GameResult::from_i8(r.result).unwrap(),
            game: i as u32 / 10,
            game_end: i % 10 == 9,
        }
        .encode_into(&mut bytes)
        .unwrap();
    }
    bytes
}

#[test]
fn train_reads_datagen_files() {
    use cannonade_tools::datagen::Header;
    let dir = scratch("nnue-datagen");
    let header = |variant: &str| Header {
        variant: variant.into(),
        settings: "test".into(),
    };
    let bytes = datagen_bytes("chess", 500, 3);
    let data = dir.join("chess.data");
    std::fs::write(&data, &bytes).unwrap();
    let out = dir.join("d.nnue");
    let o = train_small_chess(&data, &out, "1", &[]);
    let stdout = succeeded(&o);
    assert!(stdout.contains("read 500 positions of chess"), "{stdout}");
    // A data file of another variant is refused by name.
    let mut other = header("cannonshogi").encode().unwrap();
    other.extend_from_slice(&bytes[header("chess").encode().unwrap().len()..]);
    let wrong = dir.join("shogi.data");
    std::fs::write(&wrong, &other).unwrap();
    let o = train(&[
        "--variant",
        "chess",
        "--data",
        wrong.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    refused(&o, "for variant 'cannonshogi', not 'chess'");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shared_net_trains_on_the_data_of_every_variant_that_shares_it() {
    // swedishcannon1 shares swedishcannon's nets: the data of both trains one net, named for
    // swedishcannon, each file read by its own game (the one-cannon game refuses a second
    // cannon, so the two-cannon data must not go through its reader). Chess data is refused.
    let dir = scratch("nnue-shared-data");
    let file = |variant: &str, count: usize, seed: u64| {
        let path = dir.join(format!("{variant}.data"));
        std::fs::write(&path, datagen_bytes(variant, count, seed)).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (two, one, chess) = (
        file("swedishcannon", 300, 5),
        file("swedishcannon1", 200, 6),
        file("chess", 100, 7),
    );
    let out = dir.join("shared.nnue");
    let train_on = |variant: &str, data: &[&str]| {
        let mut args = vec!["--variant", variant];
        for d in data {
            args.extend(["--data", d]);
        }
        let out = out.to_str().unwrap();
        args.extend([
            "--out", out, "--epochs", "1", "--hidden", "16", "--batch", "64",
        ]);
        train(&args)
    };
    // The two-cannon data holds positions the one-cannon game refuses.
    let first = &random_play_records(registry::find("swedishcannon").unwrap(), 1, 5)[0];
    let mut one_cannon = registry::find("swedishcannon1").unwrap().new_session();
    assert!(one_cannon
        .set_position(Some(&first.fen), &[], cannonade_core::games::Notation::Uci)
        .is_err());
    for trainer in ["swedishcannon1", "swedishcannon"] {
        let o = train_on(trainer, &[&one, &two]);
        let stdout = succeeded(&o);
        assert!(stdout.contains("read 500 positions"), "{stdout}");
        let net = Network::load(&out).unwrap();
        assert_eq!(net.variant(), "swedishcannon");
        for v in ["swedishcannon", "swedishcannon1"] {
            let info = registry::find(v).unwrap();
            let features = info.new_session().nnue_feature_count();
            assert!(net.check_for(info.net_name(), features).is_ok(), "{v}");
        }
        std::fs::remove_file(&out).unwrap();
    }
    let o = train_on("swedishcannon1", &[&one, &chess]);
    refused(&o, "for variant 'chess', not 'swedishcannon1'");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_swedish_cannon_net_can_start_from_the_chess_net() {
    // `--init` with the chess net: every chess feature's weights go to the Swedish feature of
    // the same piece on the same square, the cannons and the reserve counts start at zero, so
    // the starting net evaluates a position without cannons exactly as the chess net does.
    use cannonade_core::nnue::FloatNetwork;
    use cannonade_tools::train::trainer::TrainConfig;
    use cannonade_tools::train::{features_for, starting_net};
    let dir = scratch("nnue-init");
    let chess_net = dir.join("chess.nnue");
    std::fs::write(&chess_net, registry::find("chess").unwrap().net.unwrap()).unwrap();
    let swedish = registry::find("swedishcannon").unwrap();
    let target = features_for(swedish).unwrap();
    let hidden = Network::load(&chess_net).unwrap().hidden();
    // The chess net's output buckets: Swedish Cannon Chess starts with the same 32 men on the
    // board (its cannons wait in reserve), so the same layout fits it.
    let cfg = |hidden| TrainConfig {
        hidden,
        scale: 400,
        seed: 1,
        buckets: KingBuckets::None,
        outputs: Network::load(&chess_net).unwrap().output_buckets(),
        ..TrainConfig::default()
    };
    let (start, said) = starting_net(&chess_net, swedish, target.as_ref(), &cfg(hidden)).unwrap();
    assert!(said.contains("768 of 912 features"), "{said}");
    let chess = features_for(registry::find("chess").unwrap()).unwrap();
    let float_chess = FloatNetwork::from_quantised(&Network::load(&chess_net).unwrap(), 400);
    for board in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let (mut a, mut b, mut c, mut d) = (vec![], vec![], vec![], vec![]);
        let men = chess.features(board, &mut a, &mut b).unwrap();
        let bucket = start.outputs.bucket(men);
        let (fields, rest) = board.split_once(' ').unwrap();
        target
            .features(&format!("{fields}[] {rest}"), &mut c, &mut d)
            .unwrap();
        let (want, got) = (
            float_chess.evaluate_cp(&a, &b, bucket, 400.0),
            start.evaluate_cp(&c, &d, bucket, 400.0),
        );
        assert!((want - got).abs() < 0.01, "{board}: {want} vs {got}");
        assert!(
            want.abs() > 1.0,
            "{board}: a zero evaluation would prove nothing"
        );
    }
    // A net of the wrong hidden size is refused with the size to use.
    let e = starting_net(&chess_net, swedish, target.as_ref(), &cfg(hidden * 2))
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("--hidden {hidden}")), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
