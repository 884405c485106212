//! The schedule (round-robin or gauntlet, colours, openings, game pairs), the worker threads
//! that play it, and the running scores, SPRT and final table printed as games finish.

use super::args::{OpeningFormat, Openings, Settings, SprtPrior, TournamentKind};
use super::game::{play_game, GameRecord, GameResult, GameSetup};
use super::pgn::{pgn_date, write_game, PgnContext};
use super::process::{EngineProcess, StartError};
use super::stats::{llr, sprt_bounds, EloEstimate, Pentanomial, Trinomial};
use crate::openings::{read_epd, read_pgn, Opening, OpeningError};
use crate::progress::Progress;
use cannonade_core::board::zobrist::SplitMix64;
use cannonade_core::engine::options::OptionError;
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::games::Notation;
use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// Why a match could not be played (or its record written). `file` is a path as given.
#[derive(thiserror::Error, Debug)]
pub enum MatchError {
    #[error(transparent)]
    UnknownVariant(#[from] crate::UnknownVariant),
    #[error(transparent)]
    Start(#[from] StartError),
    /// An engine that does not list the match's variant among those it plays.
    #[error("{engine} does not announce the variant {variant}")]
    VariantNotAnnounced {
        engine: String,
        variant: &'static str,
    },
    /// The opening file cannot be read.
    #[error("cannot read {file}: {error}")]
    Read { file: String, error: std::io::Error },
    #[error("{file}: {error}")]
    Openings { file: String, error: OpeningError },
    #[error("{0} has no openings")]
    NoOpenings(String),
    #[error("cannot open {file}: {error}")]
    OpenPgn { file: String, error: std::io::Error },
    #[error("cannot write the PGN file: {0}")]
    WritePgn(std::io::Error),
    /// A `-rule` the game does not have or a bad value.
    #[error("-rule: {0}")]
    Rule(#[from] OptionError),
}

/// One game of the schedule.
#[derive(Clone, Debug)]
pub struct Job {
    /// 1-based, in schedule order.
    pub number: usize,
    pub round: u32,
    pub white: usize,
    pub black: usize,
    /// The encounter's first engine (scores are from its point of view) and second.
    pub pairing: (usize, usize),
    pub opening: Arc<Opening>,
    /// Games with the same pair id share an opening with colours reversed.
    pub pair: Option<usize>,
}

/// A finished game with its place in the schedule.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub job: Job,
    pub record: GameRecord,
    /// Wall-clock time when the worker started the game (engines started, first command
    /// sent), and how long it took until the result.
    pub started: SystemTime,
    pub duration: Duration,
}

/// What a worker tells the main thread, in the order it happens: the main thread prints both,
/// so with one worker "Started game N+1" always follows "Finished game N".
enum Event {
    Started(Job),
    Finished(FinishedGame),
}

/// Engines that report (or were given) the same name get `-2`, `-3`... in the order of the
/// command line, so that scores, tables and PGN tags all tell them apart the same way.
pub fn unique_names(reported: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(reported.len());
    for (i, n) in reported.iter().enumerate() {
        let earlier = reported[..i].iter().filter(|m| *m == n).count();
        let mut name = if earlier == 0 {
            n.clone()
        } else {
            format!("{n}-{}", earlier + 1)
        };
        // "X-2" may itself be an engine's own name: count on until the name is free.
        let mut k = earlier + 1;
        while out.contains(&name) {
            k += 1;
            name = format!("{n}-{k}");
        }
        out.push(name);
    }
    out
}

/// The SPRT's verdict when it stopped the match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    H0,
    H1,
}

/// What a match produced.
#[derive(Debug)]
pub struct MatchSummary {
    pub names: Vec<String>,
    /// In the order they finished.
    pub games: Vec<FinishedGame>,
    pub sprt: Option<SprtDecision>,
}

/// Where openings come from while the schedule is built.
struct OpeningSource {
    /// The game at its start with the match's rule switches.
    start: Box<dyn cannonade_core::engine::Session>,
    list: Vec<Opening>,
    next: usize,
    random_plies: Option<usize>,
    rng: SplitMix64,
}

impl OpeningSource {
    fn new(settings: &Settings, variant: &'static VariantInfo) -> Result<Self, MatchError> {
        let mut rng = SplitMix64::new(settings.seed ^ 0x6d61_7463_6821);
        let mut src = OpeningSource {
            start: super::game::referee(variant, &settings.rules)?,
            list: Vec::new(),
            next: 0,
            random_plies: None,
            rng: rng.clone(),
        };
        match &settings.openings {
            Openings::None => {}
            Openings::Random { plies } => src.random_plies = Some(*plies),
            Openings::File {
                path,
                format,
                random_order,
                plies,
                start,
            } => {
                let file = path.display().to_string();
                let text = std::fs::read_to_string(path).map_err(|error| MatchError::Read {
                    file: file.clone(),
                    error,
                })?;
                let mut list = match format {
                    OpeningFormat::Epd => read_epd(&text, variant),
                    OpeningFormat::Pgn => read_pgn(&text, variant, *plies),
                }
                .map_err(|error| MatchError::Openings {
                    file: file.clone(),
                    error,
                })?;
                if list.is_empty() {
                    return Err(MatchError::NoOpenings(file));
                }
                if *random_order {
                    // Fisher-Yates with the match seed, so a seed replays the same order.
                    for i in (1..list.len()).rev() {
                        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                        list.swap(i, j);
                    }
                }
                src.next = (start - 1) % list.len();
                src.list = list;
            }
        }
        src.rng = rng;
        Ok(src)
    }

    fn next(&mut self) -> Opening {
        if let Some(plies) = self.random_plies {
            return self.random_opening(plies);
        }
        if self.list.is_empty() {
            return Opening {
                fen: None,
                moves: Vec::new(),
            };
        }
        let o = self.list[self.next].clone();
        self.next = (self.next + 1) % self.list.len();
        o
    }

    /// `plies` random legal moves that do not end the game; tried again if they do.
    fn random_opening(&mut self, plies: usize) -> Opening {
        for _ in 0..100 {
            let mut s = self.start.clone_session();
            let mut moves = Vec::new();
            while moves.len() < plies && s.outcome().is_none() {
                let legal = s.legal_moves(Notation::Uci);
                let m = legal[(self.rng.next_u64() % legal.len() as u64) as usize].clone();
                s.play(&m, Notation::Uci).expect("legal move");
                moves.push(m);
            }
            if s.outcome().is_none() {
                return Opening { fen: None, moves };
            }
        }
        Opening {
            fen: None,
            moves: Vec::new(),
        }
    }
}

/// Every game of the match, in order.
pub fn schedule(
    settings: &Settings,
    variant: &'static VariantInfo,
) -> Result<Vec<Job>, MatchError> {
    let n = settings.engines.len();
    let encounters: Vec<(usize, usize)> = match settings.tournament {
        TournamentKind::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        TournamentKind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    };
    let mut openings = OpeningSource::new(settings, variant)?;
    let mut jobs = Vec::new();
    let mut pair_id = 0;
    let mut opening = Arc::new(openings.next());
    for round in 0..settings.rounds {
        for &(a, b) in &encounters {
            for g in 0..settings.games {
                let first_of_pair = !settings.repeat || g % 2 == 0;
                if first_of_pair && !(jobs.is_empty() && round == 0 && g == 0) {
                    opening = Arc::new(openings.next());
                }
                if settings.repeat && g % 2 == 0 {
                    pair_id += 1;
                }
                // A pair is only whole if its second game is scheduled.
                let pair =
                    (settings.repeat && (g % 2 == 1 || g + 1 < settings.games)).then_some(pair_id);
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: jobs.len() + 1,
                    round: round + 1,
                    white,
                    black,
                    pairing: (a, b),
                    opening: opening.clone(),
                    pair,
                });
            }
        }
    }
    Ok(jobs)
}

/// The first game (1-based) whose opening an earlier pair already played, when the openings come
/// from a file: past the file's end the schedule starts it over, as cutechess does, and at a
/// fixed node count or depth such a game replays an earlier one move for move, so a match that
/// counts it counts the same game twice. Random openings and the start position are not checked:
/// there a repeat is chance or the user's choice.
pub fn first_reused_opening(settings: &Settings, jobs: &[Job]) -> Option<usize> {
    if !matches!(settings.openings, Openings::File { .. }) {
        return None;
    }
    let mut seen: HashSet<&Opening> = HashSet::new();
    let mut current: Option<&Arc<Opening>> = None;
    for job in jobs {
        // The games of one pair share their opening (the same Arc): only a new one is looked up.
        if current.is_some_and(|c| Arc::ptr_eq(c, &job.opening)) {
            continue;
        }
        current = Some(&job.opening);
        if !seen.insert(job.opening.as_ref()) {
            return Some(job.number);
        }
    }
    None
}

/// Whether every engine searches to a fixed node count or depth (no `tc=` or `st=`): then a game
/// from an opening played before replays that game move for move, the engines starting each
/// game afresh.
pub fn without_clock(settings: &Settings) -> bool {
    settings
        .engines
        .iter()
        .all(|e| e.tc.is_none() && e.st.is_none())
}

/// The first game whose opening an earlier pair played (see `first_reused_opening`); without a
/// clock, `jobs` then ends before it: counting a game twice makes a match (an SPRT above all)
/// surer than its games allow.
fn drop_replays(settings: &Settings, jobs: &mut Vec<Job>) -> Option<usize> {
    let game = first_reused_opening(settings, jobs)?;
    if without_clock(settings) {
        jobs.truncate(game - 1);
    }
    Some(game)
}

/// Points of the encounter's first engine in a game.
fn first_points(job: &Job, result: GameResult) -> f64 {
    let white_points = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
    };
    if job.white == job.pairing.0 {
        white_points
    } else {
        1.0 - white_points
    }
}

/// Running statistics of one encounter, from its first engine's point of view.
#[derive(Default)]
struct EncounterStats {
    tri: Trinomial,
    penta: Pentanomial,
    /// First halves of pairs whose second game has not finished.
    half_pairs: HashMap<usize, f64>,
}

impl EncounterStats {
    fn add(&mut self, job: &Job, points: f64) {
        if points == 1.0 {
            self.tri.wins += 1;
        } else if points == 0.0 {
            self.tri.losses += 1;
        } else {
            self.tri.draws += 1;
        }
        if let Some(p) = job.pair {
            match self.half_pairs.remove(&p) {
                Some(other) => self.penta.add(other, points),
                None => {
                    self.half_pairs.insert(p, points);
                }
            }
        }
    }
}

/// `Ptnml(0-2): [a, b, c, d, e], Elo difference: ...`, as cutechess and fastchess print it.
fn fmt_penta(p: &Pentanomial) -> String {
    let c = p.0;
    format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}], {}",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        fmt_elo(&p.elo())
    )
}

fn fmt_elo(e: &EloEstimate) -> String {
    format!(
        "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %",
        e.elo,
        e.error,
        e.los * 100.0
    )
}

fn progress_bar(done: usize, total: usize) -> String {
    const WIDTH: usize = 30;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH);
    format!(
        "[{}{}] {done}/{total}",
        "=".repeat(filled),
        " ".repeat(WIDTH - filled)
    )
}

/// Plays the whole match and prints as it goes.
pub fn run_match(settings: &Settings) -> Result<MatchSummary, MatchError> {
    let variant = crate::variant(&settings.variant)?;
    super::game::referee(variant, &settings.rules)?;
    // Each engine must start and know the variant before any game is played.
    let mut names = Vec::new();
    for spec in &settings.engines {
        let e = EngineProcess::start(spec, settings.debug)?;
        if !e.supports(variant) {
            let n = e.name.clone();
            e.quit();
            return Err(MatchError::VariantNotAnnounced {
                engine: n,
                variant: variant.game.name,
            });
        }
        names.push(e.name.clone());
        e.quit();
    }
    let names = unique_names(&names);
    let mut jobs = schedule(settings, variant)?;
    if let Some(game) = drop_replays(settings, &mut jobs) {
        if without_clock(settings) {
            eprintln!(
                "warning: the openings file runs out at game {game}; with no clock the games \
                 after it would repeat earlier ones move for move, so the match ends after game \
                 {} (give a longer file, fewer -rounds or another start=)",
                game - 1
            );
        } else {
            eprintln!(
                "warning: the openings file runs out at game {game}, and its openings are played \
                 again from there (give fewer -rounds, a later start= or a longer file)"
            );
        }
    }
    let total = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>()));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<Event>();
    let mut workers = Vec::new();
    for _ in 0..settings.concurrency.min(total.max(1)) {
        let queue = queue.clone();
        let stop = stop.clone();
        let tx = tx.clone();
        let settings = settings.clone();
        let names = names.clone();
        workers.push(std::thread::spawn(move || {
            worker(&settings, variant, &names, &queue, &stop, &tx)
        }));
    }
    drop(tx);

    let mut pgn_file = match &settings.pgnout {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|error| MatchError::OpenPgn {
                    file: p.display().to_string(),
                    error,
                })?,
        ),
        None => None,
    };
    let date = pgn_date();
    let time_control = settings.engines[0]
        .tc
        .map(|tc| tc.pgn())
        .or_else(|| {
            settings.engines[0]
                .st
                .map(|st| format!("{}/move", st.as_secs_f64()))
        })
        .unwrap_or_else(|| "-".to_string());
    let mut encounters: HashMap<(usize, usize), EncounterStats> = HashMap::new();
    let mut standings = vec![Trinomial::default(); names.len()];
    let mut summary = MatchSummary {
        names: names.clone(),
        games: Vec::new(),
        sprt: None,
    };
    let quiet = settings.quiet;
    // On a terminal a bar with the estimated time left; otherwise (a file, a pipe) one plain
    // line per finished game.
    let mut progress = Progress::new(
        quiet,
        total as u64,
        "[{bar:30.cyan/blue}] {pos}/{len} games, {elapsed_precise} played, ETA {eta}",
    )
    .with_plain_lines(Duration::ZERO);
    for event in rx {
        if stop.load(Ordering::SeqCst) {
            continue;
        }
        let done = match event {
            Event::Started(job) => {
                progress.say(&format!(
                    "Started game {} of {total} ({} vs {})",
                    job.number, names[job.white], names[job.black]
                ));
                continue;
            }
            Event::Finished(done) => done,
        };
        let job = &done.job;
        let rec = &done.record;
        let (a, b) = job.pairing;
        let points = first_points(job, rec.result);
        let enc = encounters.entry((a, b)).or_default();
        enc.add(job, points);
        for (e, p) in [(a, points), (b, 1.0 - points)] {
            let t = &mut standings[e];
            if p == 1.0 {
                t.wins += 1;
            } else if p == 0.0 {
                t.losses += 1;
            } else {
                t.draws += 1;
            }
        }
        if let Some(f) = pgn_file.as_mut() {
            let ctx = PgnContext {
                event: &settings.event,
                site: "?",
                date: &date,
                round: job.number as u32,
                variant,
                time_control: time_control.clone(),
                times: Some((done.started, done.duration)),
            };
            f.write_all(write_game(&ctx, rec).as_bytes())
                .map_err(MatchError::WritePgn)?;
        }
        let played = summary.games.len() + 1;
        if !quiet {
            let t = enc.tri;
            progress.say(&format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                job.number,
                names[job.white],
                names[job.black],
                rec.result.pgn(),
                rec.reason
            ));
            progress.say(&format!(
                "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                names[a],
                names[b],
                t.wins,
                t.losses,
                t.draws,
                t.score(),
                t.games()
            ));
            if settings.repeat && enc.penta.pairs() > 0 {
                progress.say(&fmt_penta(&enc.penta));
            } else {
                progress.say(&format!(
                    "{}, DrawRatio: {:.1} %",
                    fmt_elo(&t.elo()),
                    100.0 * t.draws as f64 / t.games() as f64
                ));
            }
        }
        if let Some(sprt) = settings.sprt {
            // The whole test: this match's counts and those of its earlier parts (`prior=`;
            // the arguments made sure the prior counts the same kind of unit).
            let (dist, whole) = match sprt.prior {
                Some(SprtPrior::Pairs(q)) => {
                    let p = enc.penta.plus(&q);
                    let line = format!("With the prior: {}", fmt_penta(&p));
                    (p.distribution(), Some(line))
                }
                Some(SprtPrior::Games(q)) => {
                    let t = enc.tri.plus(&q);
                    let line = format!(
                        "With the prior: {} - {} - {}, {}",
                        t.wins,
                        t.losses,
                        t.draws,
                        fmt_elo(&t.elo())
                    );
                    (t.distribution(), Some(line))
                }
                None if settings.repeat => (enc.penta.distribution(), None),
                None => (enc.tri.distribution(), None),
            };
            if let (Some(line), false) = (whole, quiet) {
                progress.say(&line);
            }
            let have = dist.iter().any(|(_, c)| *c > 0.0);
            let l = if have {
                llr(&dist, sprt.elo0, sprt.elo1)
            } else {
                0.0
            };
            let (lo, hi) = sprt_bounds(sprt.alpha, sprt.beta);
            if !quiet {
                let pct = if l >= 0.0 { l / hi } else { l / lo } * 100.0;
                progress.say(&format!(
                    "SPRT: llr {l:.3} ({pct:.1}%), lbound {lo:.2}, ubound {hi:.2}{}",
                    if l >= hi {
                        " - H1 was accepted"
                    } else if l <= lo {
                        " - H0 was accepted"
                    } else {
                        ""
                    }
                ));
            }
            if l >= hi || l <= lo {
                summary.sprt = Some(if l >= hi {
                    SprtDecision::H1
                } else {
                    SprtDecision::H0
                });
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress.update(played as u64, None, || progress_bar(played, total));
        summary.games.push(done);
    }
    for w in workers {
        let _ = w.join();
    }
    progress.finish();
    if !quiet && names.len() > 2 {
        print_table(&names, &standings);
    }
    if !quiet {
        println!("Finished match");
    }
    Ok(summary)
}

/// The round-robin table: every engine's score against the field, best first.
fn print_table(names: &[String], standings: &[Trinomial]) {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&x, &y| standings[y].score().total_cmp(&standings[x].score()));
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    println!(
        "Rank {:<width$} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (rank, &i) in order.iter().enumerate() {
        let t = standings[i];
        if t.games() == 0 {
            continue;
        }
        let e = t.elo();
        println!(
            "{:>4} {:<width$} {:>7.0} {:>7.0} {:>7} {:>6.1}% {:>6.1}%",
            rank + 1,
            names[i],
            e.elo,
            e.error,
            t.games(),
            100.0 * t.score(),
            100.0 * t.draws as f64 / t.games() as f64
        );
    }
}

/// One worker thread: takes games from the queue and plays them, keeping its own engine
/// processes between games and restarting any that failed.
fn worker(
    settings: &Settings,
    variant: &'static VariantInfo,
    names: &[String],
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    tx: &std::sync::mpsc::Sender<Event>,
) {
    let mut engines: Vec<Option<EngineProcess>> =
        (0..settings.engines.len()).map(|_| None).collect();
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Some(job) = queue.lock().expect("queue").pop_front() else {
            break;
        };
        if tx.send(Event::Started(job.clone())).is_err() {
            break;
        }
        let started = SystemTime::now();
        let clock = std::time::Instant::now();
        let mut record = play_one(settings, variant, &job, &mut engines);
        let duration = clock.elapsed();
        // The match's names, not each engine's own, so that PGN tags agree with the scores.
        record.white = names[job.white].clone();
        record.black = names[job.black].clone();
        for &b in &record.broken {
            if let Some(mut e) = engines[b].take() {
                e.kill();
            }
        }
        let done = FinishedGame {
            job,
            record,
            started,
            duration,
        };
        if tx.send(Event::Finished(done)).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Starts the two engines if needed and plays one game; an engine that cannot start loses.
fn play_one(
    settings: &Settings,
    variant: &'static VariantInfo,
    job: &Job,
    engines: &mut [Option<EngineProcess>],
) -> GameRecord {
    for (idx, side) in [(job.white, "White"), (job.black, "Black")] {
        if engines[idx].is_none() {
            match EngineProcess::start(&settings.engines[idx], settings.debug) {
                Ok(e) => engines[idx] = Some(e),
                Err(why) => {
                    return GameRecord {
                        white: settings.engines[job.white].display_name(),
                        black: settings.engines[job.black].display_name(),
                        start_fen: job.opening.fen.clone(),
                        moves: Vec::new(),
                        result: if side == "White" {
                            GameResult::BlackWins
                        } else {
                            GameResult::WhiteWins
                        },
                        reason: format!("{side} could not start: {why}"),
                        termination: super::game::Termination::Abandoned,
                        broken: vec![idx],
                    }
                }
            }
        }
    }
    let mut w = engines[job.white].take().expect("started");
    let mut b = engines[job.black].take().expect("started");
    let setup = GameSetup {
        variant,
        rules: &settings.rules,
        start_fen: job.opening.fen.clone(),
        opening: &job.opening.moves,
        players: [job.white, job.black],
        specs: [&settings.engines[job.white], &settings.engines[job.black]],
        draw: settings.draw,
        resign: settings.resign,
        maxmoves: settings.maxmoves,
        stall: settings.stall,
    };
    let record = play_game(&setup, [&mut w, &mut b]);
    engines[job.white] = Some(w);
    engines[job.black] = Some(b);
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_runner::args::parse;
    use cannonade_core::engine::registry;

    fn settings(s: &str) -> Settings {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn round_robin_schedule_pairs_openings_with_colours_reversed() {
        let s = settings(
            "-engine cmd=a -engine cmd=b -engine cmd=c -each depth=1 -games 2 -repeat \
             -rounds 2 -openings random plies=4 -seed 3",
        );
        let chess = registry::find("chess").unwrap();
        let jobs = schedule(&s, chess).unwrap();
        // Three encounters, two games each, two rounds.
        assert_eq!(jobs.len(), 12);
        for pair in jobs.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert!(pair[0].pair.is_some());
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(
                (pair[0].white, pair[0].black),
                (pair[1].black, pair[1].white)
            );
            assert_eq!(pair[0].opening.moves.len(), 4);
        }
        assert_ne!(jobs[0].opening, jobs[2].opening);
        assert_eq!(jobs[11].round, 2);
        // The same seed gives the same openings.
        let again = schedule(&s, chess).unwrap();
        assert_eq!(again[5].opening, jobs[5].opening);
    }

    #[test]
    fn a_file_that_runs_out_is_found_at_its_first_repeated_game() {
        let dir = std::env::temp_dir().join(format!("cannonade-reuse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("three.epd");
        std::fs::write(
            &file,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n",
        )
        .unwrap();
        let chess = registry::find("chess").unwrap();
        let with = |rounds: u32, start: u32| {
            let s = settings(&format!(
                "-engine cmd=a -engine cmd=b -each depth=1 -games 2 -repeat -rounds {rounds} \
                 -openings file={} start={start}",
                file.display()
            ));
            let jobs = schedule(&s, chess).unwrap();
            first_reused_opening(&s, &jobs)
        };
        // Three pairs use the file once: nothing repeats.
        assert_eq!(with(3, 1), None);
        // The fourth pair (games 7 and 8) starts the file over.
        assert_eq!(with(4, 1), Some(7));
        // From the third opening, the second pair wraps to the first, which is still new.
        assert_eq!(with(3, 3), None);
        assert_eq!(with(4, 3), Some(7));
        // Random openings are never reported, even when they coincide.
        let s = settings(
            "-engine cmd=a -engine cmd=b -each depth=1 -games 2 -repeat -rounds 9 \
             -openings random plies=0",
        );
        assert_eq!(
            first_reused_opening(&s, &schedule(&s, chess).unwrap()),
            None
        );
        // At a fixed depth or node count the repeats would be the same games, so the schedule
        // ends before them; on a clock they are kept.
        assert!(without_clock(&s));
        let cut = |each: &str| {
            let s = settings(&format!(
                "-engine cmd=a -engine cmd=b -each {each} -games 2 -repeat -rounds 4 \
                 -openings file={}",
                file.display()
            ));
            let mut jobs = schedule(&s, chess).unwrap();
            let game = drop_replays(&s, &mut jobs);
            (game, jobs.len())
        };
        assert_eq!(cut("depth=1"), (Some(7), 6));
        assert_eq!(cut("tc=1+0.01"), (Some(7), 8));
        assert!(without_clock(&settings(
            "-engine cmd=a nodes=100 -engine cmd=b depth=3"
        )));
        assert!(!without_clock(&settings(
            "-engine cmd=a -engine cmd=b -each tc=1+0.01"
        )));
        assert!(!without_clock(&settings(
            "-engine cmd=a st=0.1 -engine cmd=b nodes=100"
        )));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn gauntlet_plays_only_the_first_engine() {
        let s = settings(
            "-engine cmd=a -engine cmd=b -engine cmd=c -each depth=1 -tournament gauntlet -games 3",
        );
        let jobs = schedule(&s, registry::find("chess").unwrap()).unwrap();
        assert_eq!(jobs.len(), 6);
        assert!(jobs.iter().all(|j| j.white == 0 || j.black == 0));
        assert!(jobs.iter().all(|j| j.pair.is_none()));
    }

    #[test]
    fn same_names_are_numbered_in_command_line_order() {
        let n = |v: &[&str]| unique_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(n(&["A", "B"]), ["A", "B"]);
        assert_eq!(
            n(&["Cannonade 0.1.0", "Cannonade 0.1.0", "X", "Cannonade 0.1.0"]),
            [
                "Cannonade 0.1.0",
                "Cannonade 0.1.0-2",
                "X",
                "Cannonade 0.1.0-3"
            ]
        );
        // A name that is already taken by another engine is skipped.
        assert_eq!(n(&["A", "A-2", "A"]), ["A", "A-2", "A-3"]);
    }

    #[test]
    fn progress_and_date_formats() {
        assert_eq!(progress_bar(0, 3), format!("[{}] 0/3", " ".repeat(30)));
        assert_eq!(progress_bar(3, 3), format!("[{}] 3/3", "=".repeat(30)));
        let d = pgn_date();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
