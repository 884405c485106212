//! `cannonade spsa` end to end through the binary: a few game pairs at tiny node counts leave
//! a state with that many iterations, the trajectory and the plot, and print the values as
//! options; the same command again finds the run finished; other settings are refused.

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_cannonade");

fn spsa(state: &PathBuf, iterations: u32, extra: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args(["spsa", "--variant", "chess", "--params", "RfpMargin"])
        .args(["--nodes", "200", "--hash", "1", "--concurrency", "2"])
        .args(["--iterations", &iterations.to_string()])
        .arg("--state")
        .arg(state)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_short_run_leaves_its_state_trajectory_and_plot() {
    let dir = std::env::temp_dir().join(format!("cannonade-spsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("run.state");
    let out = spsa(&state, 3, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.lines().any(|l| l == "iteration 3"), "{text}");
    assert!(text.contains("setting params RfpMargin\n"), "{text}");
    let theta: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("theta RfpMargin "))
        .unwrap()
        .parse()
        .unwrap();
    assert!((20.0..=250.0).contains(&theta), "{theta}");
    let csv = std::fs::read_to_string(dir.join("run.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        4,
        "a header and one line per pair: {csv}"
    );
    assert!(std::fs::read_to_string(dir.join("run.svg"))
        .unwrap()
        .starts_with("<svg"));
    let line = stdout
        .lines()
        .find(|l| l.starts_with("--option RfpMargin="))
        .unwrap_or_else(|| panic!("no tuned value in {stdout}"));
    assert_eq!(line, format!("--option RfpMargin={}", theta.round()));

    // Finished: the same command plays nothing more.
    let again = spsa(&state, 3, &[]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&state).unwrap(), text);

    // Another schedule in the same state is refused, and the state is left alone.
    let other = spsa(&state, 5, &[]);
    assert!(!other.status.success());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("iterations = '3', not '5'"), "{err}");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), text);

    let bad = spsa(&dir.join("x.state"), 3, &["--params", "NoSuchMargin"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown search parameter"));
    std::fs::remove_dir_all(&dir).unwrap();
}
