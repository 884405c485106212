//! The state of a tuning run on disk, in plain text, rewritten whole (temporary file, then
//! rename) after every finished game pair, so an interrupted run resumes from its last pair:
//!
//! ```text
//! # cannonade spsa state
//! setting variant chess
//! setting params RfpMargin,LmrBase
//! iteration 57
//! theta RfpMargin 81.25
//! theta LmrBase 49.5
//! ```
//!
//! The `setting` lines are what the run was started with; a resume with other settings is
//! refused, because its iterations would follow another schedule. Beside it a CSV holds the
//! trajectory: theta after every pair.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

const HEADER: &str = "# cannonade spsa state";

#[derive(Error, Debug)]
pub enum StateError {
    #[error("{file}: {error}")]
    Io { file: String, error: std::io::Error },
    #[error("{file} line {line}: {why}")]
    Malformed {
        file: String,
        line: usize,
        why: String,
    },
    #[error(
        "{file} was started with {key} = '{was}', not '{now}': run with the same settings to \
         resume, or give another --state to start a new run"
    )]
    OtherSettings {
        file: String,
        key: String,
        was: String,
        now: String,
    },
}

/// What a run has done so far.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// `(key, value)` of the settings the run was started with, in order.
    pub settings: Vec<(String, String)>,
    /// Game pairs finished.
    pub iteration: u64,
    /// The current values, by parameter name, in the run's order.
    pub theta: Vec<(String, f64)>,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StateError + '_ {
    move |error| StateError::Io {
        file: path.display().to_string(),
        error,
    }
}

impl State {
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for (k, v) in &self.settings {
            out += &format!("setting {k} {v}\n");
        }
        out += &format!("iteration {}\n", self.iteration);
        // Rust writes the shortest text that reads back to the same f64.
        for (name, t) in &self.theta {
            out += &format!("theta {name} {t}\n");
        }
        out
    }

    /// Reads a state written by [`State::to_text`]; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<State, StateError> {
        let bad = |line: usize, why: String| StateError::Malformed {
            file: file.to_string(),
            line,
            why,
        };
        let mut state = State {
            settings: Vec::new(),
            iteration: 0,
            theta: Vec::new(),
        };
        let mut saw_iteration = false;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            match word {
                "setting" => {
                    let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
                    if k.is_empty() {
                        return Err(bad(n, "a setting without a name".into()));
                    }
                    state.settings.push((k.to_string(), v.to_string()));
                }
                "iteration" => {
                    state.iteration = rest
                        .trim()
                        .parse()
                        .map_err(|_| bad(n, format!("'{rest}' is not an iteration count")))?;
                    saw_iteration = true;
                }
                "theta" => {
                    let mut f = rest.split_whitespace();
                    let (Some(name), Some(value), None) = (f.next(), f.next(), f.next()) else {
                        return Err(bad(n, "want 'theta NAME VALUE'".into()));
                    };
                    let v: f64 = value
                        .parse()
                        .ok()
                        .filter(|v: &f64| v.is_finite())
                        .ok_or_else(|| bad(n, format!("'{value}' is not a number")))?;
                    state.theta.push((name.to_string(), v));
                }
                _ => return Err(bad(n, format!("unknown entry '{word}'"))),
            }
        }
        if !saw_iteration {
            return Err(bad(0, "no iteration line".into()));
        }
        Ok(state)
    }

    /// Reads the state at `path`; `None` when there is none (a new run).
    pub fn load(path: &Path) -> Result<Option<State>, StateError> {
        match fs::read_to_string(path) {
            Ok(text) => State::parse(&text, &path.display().to_string()).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(path)(e)),
        }
    }

    /// Writes the state to `path` whole: a temporary file beside it, then a rename, so an
    /// interruption leaves the old state or the new, never half of one.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let tmp = sibling(path, "tmp");
        let mut f = fs::File::create(&tmp).map_err(io_error(&tmp))?;
        f.write_all(self.to_text().as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(io_error(&tmp))?;
        fs::rename(&tmp, path).map_err(io_error(path))
    }

    /// Refuses to resume a run started with other settings than `now`.
    pub fn check_settings(&self, now: &[(String, String)], file: &str) -> Result<(), StateError> {
        let get = |list: &[(String, String)], key: &str| {
            list.iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let keys = self.settings.iter().chain(now).map(|(k, _)| k.as_str());
        for key in keys {
            let (was, is) = (get(&self.settings, key), get(now, key));
            if was != is {
                return Err(StateError::OtherSettings {
                    file: file.to_string(),
                    key: key.to_string(),
                    was,
                    now: is,
                });
            }
        }
        Ok(())
    }
}

/// `path` with its extension replaced by `ext` (the trajectory, the plot, the temporary file).
pub fn sibling(path: &Path, ext: &str) -> PathBuf {
    let mut p = path.to_path_buf();
    let name = match path.extension() {
        Some(e) if e == ext => format!("{}.{ext}.{ext}", path.display()),
        _ => String::new(),
    };
    if name.is_empty() {
        p.set_extension(ext);
        p
    } else {
        PathBuf::from(name)
    }
}

/// Appends theta after iteration `iteration` to the trajectory CSV, writing its header first
/// when the file is new.
pub fn append_trajectory(
    path: &Path,
    iteration: u64,
    theta: &[(String, f64)],
) -> Result<(), StateError> {
    let new = !path.exists();
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_error(path))?;
    let mut text = String::new();
    if new {
        text += "iteration";
        for (name, _) in theta {
            text += &format!(",{name}");
        }
        text += "\n";
    }
    text += &iteration.to_string();
    for (_, t) in theta {
        text += &format!(",{t:.3}");
    }
    text += "\n";
    f.write_all(text.as_bytes()).map_err(io_error(path))
}

/// The trajectory CSV as read back: the parameter names and, per line, the iteration and theta.
pub type Trajectory = (Vec<String>, Vec<(u64, Vec<f64>)>);

/// Reads the trajectory CSV back.
pub fn read_trajectory(path: &Path) -> Result<Trajectory, StateError> {
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    let mut lines = text.lines();
    let names: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split(',')
        .skip(1)
        .map(String::from)
        .collect();
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let mut f = line.split(',');
        let it = f.next().and_then(|s| s.parse().ok());
        let values: Option<Vec<f64>> = f.map(|s| s.parse().ok()).collect();
        match (it, values) {
            (Some(it), Some(v)) if v.len() == names.len() => rows.push((it, v)),
            _ => {
                return Err(StateError::Malformed {
                    file: path.display().to_string(),
                    line: i + 2,
                    why: "not an iteration and one number per parameter".into(),
                })
            }
        }
    }
    Ok((names, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> State {
        State {
            settings: vec![
                ("variant".into(), "chess".into()),
                ("params".into(), "RfpMargin,LmrBase".into()),
            ],
            iteration: 57,
            theta: vec![
                ("RfpMargin".into(), 81.123_456_789),
                ("LmrBase".into(), 0.1),
            ],
        }
    }

    #[test]
    fn a_state_reads_back_exactly() {
        let s = sample();
        assert_eq!(State::parse(&s.to_text(), "x").unwrap(), s);
        let dir = std::env::temp_dir().join(format!("spsa-state-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.state");
        assert_eq!(State::load(&path).unwrap(), None);
        s.save(&path).unwrap();
        assert_eq!(State::load(&path).unwrap(), Some(s));
        assert!(
            !sibling(&path, "tmp").exists(),
            "the temporary file is renamed"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_states_are_errors_that_say_where() {
        for (text, want) in [
            ("iteration x\n", "line 1: 'x' is not an iteration count"),
            ("iteration 3\ntheta A\n", "line 2: want 'theta NAME VALUE'"),
            (
                "iteration 3\ntheta A nan\n",
                "line 2: 'nan' is not a number",
            ),
            ("iteration 3\nbogus\n", "line 2: unknown entry 'bogus'"),
            ("theta A 1\n", "no iteration line"),
            ("\u{0}\u{1}garbage", "unknown entry"),
        ] {
            let e = State::parse(text, "s.state").unwrap_err().to_string();
            assert!(e.starts_with("s.state line ") && e.contains(want), "{e}");
        }
    }

    #[test]
    fn other_settings_are_refused_by_name() {
        let s = sample();
        assert!(s.check_settings(&s.settings, "f").is_ok());
        let mut other = s.settings.clone();
        other[0].1 = "cannon".into();
        let e = s.check_settings(&other, "f").unwrap_err().to_string();
        assert!(e.contains("variant = 'chess', not 'cannon'"), "{e}");
        // A setting the state does not have counts as a difference too.
        other = s.settings.clone();
        other.push(("nodes".into(), "200".into()));
        assert!(s.check_settings(&other, "f").is_err());
    }

    #[test]
    fn siblings_replace_the_extension() {
        assert_eq!(
            sibling(Path::new("a/spsa-chess.state"), "csv"),
            PathBuf::from("a/spsa-chess.csv")
        );
        assert_eq!(sibling(Path::new("run"), "svg"), PathBuf::from("run.svg"));
        // The temporary file of a file already named .tmp is not the file itself.
        assert_ne!(sibling(Path::new("x.tmp"), "tmp"), PathBuf::from("x.tmp"));
    }
}
