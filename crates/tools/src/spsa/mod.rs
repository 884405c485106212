//! `cannonade spsa`: tunes the search's parameters (`search/params.rs`) by SPSA in self-play,
//! as fishtest does: every game pair plays the engine with the values nudged one way ("+")
//! against the engine nudged the other way ("-"), and the values move towards the winner.
//!
//! - [`args`]: the command line, and the settings a run is known by.
//! - [`math`]: the gain sequences, the perturbations and the update.
//! - [`state`]: the state file (resume) and the trajectory CSV.
//! - [`runner`]: one game pair, refereed by `cannonade match`'s machinery.
//! - [`plot`]: the trajectories as an SVG.

pub mod args;
pub mod math;
pub mod plot;
pub mod runner;
pub mod state;

pub use args::SpsaArgs;

use crate::openings::{read_epd, Opening};
use crate::progress::Progress;
use cannonade_core::engine::registry;
use math::{Perturbation, Spsa};
use runner::PairSetup;
use state::{State, StateError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use thiserror::Error;

#[derive(Error, Debug)]
pub enum SpsaError {
    #[error(transparent)]
    UnknownVariant(#[from] crate::UnknownVariant),
    #[error("unknown search parameter '{0}' (see `cannonade spsa --list`)")]
    UnknownParam(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{file}: {why}")]
    Openings { file: String, why: String },
    #[error(transparent)]
    State(#[from] StateError),
    #[error("{file} holds other parameters ({was}) than this run tunes ({now})")]
    OtherParams {
        file: String,
        was: String,
        now: String,
    },
    /// A game pair that could not be played (an engine that does not start or crashes): the
    /// run stops, keeping every pair finished before it.
    #[error("game pair {k}: {why}; the {done} pairs finished are kept in the state")]
    Pair { k: u64, why: String, done: u64 },
    #[error("plot {file}: {why}")]
    Plot { file: String, why: String },
}

/// Plays the pairs of `spsa` from where `state` stopped to the end, `concurrency` at a time,
/// each with its own iteration and directions (as fishtest does, theta moves as each result
/// arrives). `play` plays one pair and gives the "+" engine's points minus the "-" engine's;
/// `finished` is told of each finished pair, with the new state, before the next result is
/// taken (it saves it). The first error stops the run after the pairs in flight.
pub fn drive(
    spsa: &Spsa,
    state: &mut State,
    concurrency: usize,
    play: &(dyn Fn(&Perturbation) -> Result<f64, String> + Sync),
    finished: &mut (dyn FnMut(&State, f64) -> Result<(), SpsaError> + Send),
) -> Result<(), SpsaError> {
    struct Shared<'a> {
        next_k: u64,
        state: &'a mut State,
        error: Option<SpsaError>,
        finished: &'a mut (dyn FnMut(&State, f64) -> Result<(), SpsaError> + Send),
    }
    let shared = Mutex::new(Shared {
        next_k: state.iteration + 1,
        state,
        error: None,
        finished,
    });
    let stop = AtomicBool::new(false);
    let worker = || loop {
        let pert = {
            let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
            if stop.load(Ordering::SeqCst) || s.next_k > spsa.iterations {
                return;
            }
            let k = s.next_k;
            s.next_k += 1;
            let theta: Vec<f64> = s.state.theta.iter().map(|t| t.1).collect();
            spsa.perturb(&theta, k)
        };
        let result = play(&pert);
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        if s.error.is_some() {
            return;
        }
        match result {
            Ok(r) => {
                let mut theta: Vec<f64> = s.state.theta.iter().map(|t| t.1).collect();
                spsa.update(&mut theta, &pert, r);
                for (t, v) in s.state.theta.iter_mut().zip(theta) {
                    t.1 = v;
                }
                s.state.iteration += 1;
                let Shared {
                    state, finished, ..
                } = &mut *s;
                if let Err(e) = finished(state, r) {
                    s.error = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            Err(why) => {
                let done = s.state.iteration;
                s.error = Some(SpsaError::Pair {
                    k: pert.k,
                    why,
                    done,
                });
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(worker);
        }
    });
    match shared.into_inner().unwrap_or_else(|e| e.into_inner()).error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The run's state: the one in `path` when it is a run with these settings, else a new one
/// at `start` (the values the variant is played with).
pub fn open_state(
    path: &Path,
    settings: Vec<(String, String)>,
    spsa: &Spsa,
    start: &cannonade_core::search::SearchParams,
) -> Result<State, SpsaError> {
    let file = path.display().to_string();
    let fresh = || State {
        settings: settings.clone(),
        iteration: 0,
        theta: spsa
            .params
            .iter()
            .map(|p| {
                let i =
                    cannonade_core::search::params::index_of(&p.name).expect("a known parameter");
                (p.name.clone(), f64::from(start.get(i)))
            })
            .collect(),
    };
    let Some(state) = State::load(path)? else {
        return Ok(fresh());
    };
    state.check_settings(&settings, &file)?;
    let names = |t: &[(String, f64)]| t.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
    let want = names(&fresh().theta);
    if names(&state.theta) != want {
        return Err(SpsaError::OtherParams {
            file,
            was: names(&state.theta).join(","),
            now: want.join(","),
        });
    }
    Ok(state)
}

fn read_openings(
    path: Option<&PathBuf>,
    variant: &'static registry::VariantInfo,
) -> Result<Vec<Opening>, SpsaError> {
    let Some(path) = path else {
        return Ok(vec![Opening {
            fen: None,
            moves: Vec::new(),
        }]);
    };
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| SpsaError::Openings {
        file: file.clone(),
        why: e.to_string(),
    })?;
    let list = read_epd(&text, variant).map_err(|e| SpsaError::Openings {
        file: file.clone(),
        why: e.to_string(),
    })?;
    if list.is_empty() {
        return Err(SpsaError::Openings {
            file,
            why: "no positions".into(),
        });
    }
    Ok(list)
}

/// Runs `cannonade spsa`.
pub fn run(args: &SpsaArgs) -> Result<(), String> {
    if args.list {
        print!("{}", args::list());
        return Ok(());
    }
    run_spsa(args).map_err(|e| e.to_string())
}

fn run_spsa(args: &SpsaArgs) -> Result<(), SpsaError> {
    let name = args.variant.clone().unwrap_or_default();
    let variant = crate::variant(&name)?;
    let tuned = args.tuned()?;
    if args.iterations == 0 {
        return Err(SpsaError::Invalid("--iterations must be at least 1".into()));
    }
    let limit = args.limit()?;
    let engine = match &args.engine {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map_err(|e| SpsaError::Invalid(format!("cannot find this program: {e}")))?,
    };
    let setup = PairSetup {
        variant,
        engine,
        limit,
        hash_mb: args.hash.max(1),
        options: args.engine_options()?,
        names: tuned.iter().map(|t| t.name.clone()).collect(),
    };
    let openings = read_openings(args.openings.as_ref(), variant)?;
    let path = args
        .state
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("spsa-{}.state", variant.game.name)));
    let csv = state::sibling(&path, "csv");
    let svg = state::sibling(&path, "svg");
    let spsa = Spsa::new(tuned, args.iterations, args.seed);
    let mut state = open_state(
        &path,
        args.settings(variant.game.name, &spsa.params),
        &spsa,
        &variant.search_params(),
    )?;
    if state.iteration > 0 {
        println!(
            "resuming {} at pair {} of {}",
            path.display(),
            state.iteration,
            spsa.iterations
        );
    }

    let template = "[{bar:30.cyan/blue}] {pos}/{len} pairs, {msg}, {elapsed_precise}, ETA {eta}";
    let progress = Progress::new(false, spsa.iterations, template);
    if let Some(b) = progress.bar() {
        b.set_position(state.iteration);
    }
    // The "+" engine's points minus the "-" engine's, over the pairs of this session.
    let mut score = 0.0;
    let mut pairs = 0u64;
    let every = (spsa.iterations / 100).max(1);
    let mut finished = |s: &State, r: f64| -> Result<(), SpsaError> {
        s.save(&path)?;
        state::append_trajectory(&csv, s.iteration, &s.theta)?;
        score += r;
        pairs += 1;
        let msg = format!("+ minus -: {score:+} in {pairs} pairs this session");
        match progress.bar() {
            Some(b) => {
                b.set_position(s.iteration);
                b.set_message(msg);
            }
            None if s.iteration.is_multiple_of(every) || s.iteration == spsa.iterations => {
                progress.say(&format!("pair {}/{}: {msg}", s.iteration, spsa.iterations));
            }
            None => {}
        }
        Ok(())
    };
    let play = |p: &Perturbation| {
        let opening = &openings[((p.k - 1) % openings.len() as u64) as usize];
        runner::play_pair(&setup, opening, &p.plus, &p.minus)
    };
    let result = drive(&spsa, &mut state, args.concurrency, &play, &mut finished);
    progress.clear();
    result?;

    println!("tuned values after {} pairs:", state.iteration);
    for (name, t) in &state.theta {
        println!("--option {name}={}", t.round() as i64);
    }
    if csv.exists() {
        let (names, rows) = state::read_trajectory(&csv)?;
        let ranges: Vec<(f64, f64)> = spsa.params.iter().map(|p| (p.min, p.max)).collect();
        if names.len() == ranges.len() {
            let title = format!("SPSA, {}: the search's parameters", variant.full_name);
            plot::draw(&svg, &title, &names, &ranges, &rows).map_err(|why| SpsaError::Plot {
                file: svg.display().to_string(),
                why,
            })?;
            println!("trajectories: {} (plot {})", csv.display(), svg.display());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::math::Tuned;
    use super::*;
    use std::collections::BTreeSet;

    fn spsa(iterations: u64) -> Spsa {
        let p = |name: &str| Tuned {
            name: name.into(),
            min: 0.0,
            max: 300.0,
            c_end: 10.0,
            r_end: 0.002,
        };
        Spsa::new(vec![p("RfpMargin"), p("RazorBase")], iterations, 9)
    }

    fn settings(iterations: u64) -> Vec<(String, String)> {
        vec![("iterations".into(), iterations.to_string())]
    }

    /// A pair "+" wins when its first value is the larger (so theta's first value climbs) and
    /// draws otherwise; `fail_at` makes that pair fail, as an interrupted run.
    fn play_until(fail_at: Option<u64>) -> impl Fn(&Perturbation) -> Result<f64, String> + Sync {
        move |p: &Perturbation| {
            if Some(p.k) == fail_at {
                return Err("interrupted".into());
            }
            Ok(if p.plus[0] > p.minus[0] { 2.0 } else { 0.0 })
        }
    }

    fn temp_state(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("spsa-drive-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("run.state")
    }

    fn run_to_end(
        s: &Spsa,
        path: &Path,
        concurrency: usize,
        fail_at: Option<u64>,
    ) -> Result<State, SpsaError> {
        let mut state = open_state(path, settings(s.iterations), s, &Default::default())?;
        let csv = state::sibling(path, "csv");
        let mut save = |st: &State, _: f64| -> Result<(), SpsaError> {
            st.save(path)?;
            state::append_trajectory(&csv, st.iteration, &st.theta)?;
            Ok(())
        };
        drive(s, &mut state, concurrency, &play_until(fail_at), &mut save)?;
        Ok(state)
    }

    #[test]
    fn an_interrupted_run_resumes_where_it_stopped() {
        let s = spsa(40);
        let whole_path = temp_state("whole");
        let whole = run_to_end(&s, &whole_path, 1, None).unwrap();
        assert_eq!(whole.iteration, 40);
        assert!(
            whole.theta[0].1 > 80.0,
            "the winning direction pulled it up"
        );

        let path = temp_state("resumed");
        let e = run_to_end(&s, &path, 1, Some(16)).unwrap_err();
        assert!(
            e.to_string()
                .contains("game pair 16: interrupted; the 15 pairs"),
            "{e}"
        );
        let stopped = State::load(&path).unwrap().unwrap();
        assert_eq!(stopped.iteration, 15);
        assert!(stopped.theta[0].1 > 80.0 && stopped.theta[0].1 < whole.theta[0].1);
        let resumed = run_to_end(&s, &path, 1, None).unwrap();
        assert_eq!(
            resumed, whole,
            "the same run as one without the interruption"
        );
        let (names, rows) = state::read_trajectory(&state::sibling(&path, "csv")).unwrap();
        assert_eq!(names, ["RfpMargin", "RazorBase"]);
        let its: Vec<u64> = rows.iter().map(|r| r.0).collect();
        assert_eq!(its, (1..=40).collect::<Vec<_>>());
        // Another run in the same file is refused, not mixed in.
        let e = run_to_end(&spsa(50), &path, 1, None).unwrap_err();
        assert!(e.to_string().contains("iterations = '40', not '50'"), "{e}");
        for p in [whole_path, path] {
            std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
        }
    }

    #[test]
    fn concurrent_pairs_play_every_iteration_once() {
        let s = spsa(30);
        let mut state = open_state(
            Path::new("/nonexistent/spsa.state"),
            settings(30),
            &s,
            &Default::default(),
        )
        .unwrap();
        let seen = Mutex::new(Vec::new());
        let play = |p: &Perturbation| {
            seen.lock().unwrap().push(p.k);
            std::thread::sleep(std::time::Duration::from_millis(1));
            Ok(0.0)
        };
        let mut count = 0;
        let mut finished = |_: &State, _: f64| -> Result<(), SpsaError> {
            count += 1;
            Ok(())
        };
        drive(&s, &mut state, 4, &play, &mut finished).unwrap();
        assert_eq!(state.iteration, 30);
        assert_eq!(count, 30);
        let ks: BTreeSet<u64> = seen.into_inner().unwrap().into_iter().collect();
        assert_eq!(ks, (1..=30).collect());
    }

    #[test]
    fn a_state_of_other_parameters_is_refused() {
        let path = temp_state("params");
        let mut other = open_state(&path, settings(40), &spsa(40), &Default::default()).unwrap();
        other.theta.pop();
        other.save(&path).unwrap();
        let e = open_state(&path, settings(40), &spsa(40), &Default::default()).unwrap_err();
        assert!(
            e.to_string().contains("holds other parameters (RfpMargin)"),
            "{e}"
        );
        std::fs::write(&path, "iteration many\n").unwrap();
        let e = open_state(&path, settings(40), &spsa(40), &Default::default()).unwrap_err();
        assert!(e.to_string().contains("line 1: 'many' is not"), "{e}");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
