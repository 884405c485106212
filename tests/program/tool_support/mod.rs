//! What the tests of the tools (`analyse`, `epd`, `datagen`, `match`, the command line) share
//! when they run the program as a user runs it: the program, a fresh folder per test, and
//! output as text.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The program built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_cannonade");

/// Runs the program with `args` and waits for it.
pub fn cannonade(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder for one test of one tool, removed at the end of the test (kept when the
/// test fails, to look into).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tool: &str, test: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("cannonade-{tool}-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }

    /// Writes file `name` with `contents` and returns its path.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, contents).expect("a file in the temporary folder");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The run's stdout, after checking that it succeeded (showing what it said if not).
pub fn succeeded(o: &Output) -> String {
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    stdout
}

/// The run's stderr, after checking that it failed with a message saying `says`, not a panic.
pub fn refused(o: &Output, says: &str) -> String {
    let stderr = text(&o.stderr);
    assert!(!o.status.success(), "succeeded: {}", text(&o.stdout));
    assert!(stderr.contains(says), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}
