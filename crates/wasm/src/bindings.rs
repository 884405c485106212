//! What JavaScript calls: the wasm-bindgen exports. Answers that are more than a number or a
//! string are JSON text, parsed by web/engine/cannonade.js; errors become JavaScript `Error`s
//! whose message is the native engine's.

use crate::rules::{self, RulesError, RulesGame};
use crate::worker::{self, WorkerEngine};
use std::cell::RefCell;
use std::time::Duration;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The clock of the page or worker, milliseconds since it started (never goes back).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;

    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

thread_local! {
    // The JavaScript functions the worker's engine writes its lines with and reads the page's
    // ring with. A wasm module without threads has one thread; the engine's host and output
    // must be `Send + Sync` (the core does not know there is one thread), so they reach these
    // through the thread's own storage rather than holding them.
    static PRINT: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static READ: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static STARTED: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

fn started() {
    STARTED.with(|s| {
        if let Some(f) = s.borrow().as_ref() {
            let _ = f.call0(&JsValue::NULL);
        }
    });
}

fn print(line: &str) {
    PRINT.with(|p| {
        if let Some(f) = p.borrow().as_ref() {
            // A listener that throws is the page's problem, not the engine's.
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(line));
        }
    });
}

/// The lines the page wrote into the ring, read by the worker's JavaScript (which may wait
/// up to `wait_ms` for them); none when there is no ring or nothing was written.
fn read(wait: bool) -> Vec<String> {
    /// How long a search that only waits for `stop` blocks in one poll.
    const IDLE_WAIT_MS: f64 = 5.0;
    let text = READ.with(|r| {
        let r = r.borrow();
        let f = r.as_ref()?;
        let wait_ms = if wait { IDLE_WAIT_MS } else { 0.0 };
        f.call1(&JsValue::NULL, &JsValue::from_f64(wait_ms))
            .ok()
            .and_then(|v| v.as_string())
    });
    text.map(|t| t.split('\n').map(|l| l.trim_end().to_string()).collect())
        .unwrap_or_default()
}

fn clock() -> Duration {
    Duration::from_secs_f64(performance_now().max(0.0) / 1000.0)
}

/// A panic aborts the module (WebAssembly has no unwinding here): no input should cause one,
/// and if one happens its message goes to the console (and to the engine's output, in the
/// worker) before the trap reaches JavaScript. Run when the module is instantiated.
#[wasm_bindgen(start)]
fn report_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("Cannonade: internal error: {info}");
        console_error(&message);
        print(&format!("info string error: {message}"));
    }));
}

/// The engine, for the Web Worker: UCI lines in (`command`, or `pump` for the ring), UCI
/// lines out through `print`.
#[wasm_bindgen]
pub struct Engine(WorkerEngine);

#[wasm_bindgen]
impl Engine {
    /// `print(line)` gets every line the engine writes. `read(waitMs)`, given where the page
    /// shares a ring of input with the worker, returns the complete lines written into it
    /// since it was last called (joined by newlines), or null; it may wait up to `waitMs`.
    /// A weakened engine's choices start from `seed` (a BigInt the page draws).
    /// `started()`, where given, is called when a line starts a search or a job (see
    /// `WorkerEngine::new`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        print_fn: js_sys::Function,
        read_fn: Option<js_sys::Function>,
        started_fn: Option<js_sys::Function>,
        seed: u64,
    ) -> Engine {
        let has_input = read_fn.is_some();
        let has_started = started_fn.is_some();
        PRINT.with(|p| *p.borrow_mut() = Some(print_fn));
        READ.with(|r| *r.borrow_mut() = read_fn);
        STARTED.with(|s| *s.borrow_mut() = started_fn);
        let input: Option<worker::ReadLines> = has_input.then(|| Box::new(read) as _);
        let on_started: Option<worker::Started> = has_started.then(|| Box::new(started) as _);
        Engine(WorkerEngine::new(clock, print, input, on_started, seed))
    }

    /// Handles one line of UCI (or several, separated by newlines); false once `quit` was
    /// handled.
    pub fn command(&mut self, line: &str) -> bool {
        self.0.command(line)
    }

    /// Handles the lines waiting in the ring; false once `quit` was handled.
    pub fn pump(&mut self) -> bool {
        self.0.pump()
    }

    /// The first legal move of the current position, or undefined when the game is over.
    #[wasm_bindgen(js_name = firstLegalMove)]
    pub fn first_legal_move(&self) -> Option<String> {
        self.0.first_legal_move()
    }
}

/// What each UCI command means to a running search, by the core's rule, as JSON:
/// `{"isready": "done", "stop": "stop", "go": "stopThenHandle", "d": "handle", ...}`.
#[wasm_bindgen(js_name = interimTableJson)]
pub fn interim_table_json() -> String {
    let table: serde_json::Map<String, serde_json::Value> = worker::interim_table()
        .into_iter()
        .map(|(word, kind)| (word.to_string(), serde_json::Value::from(kind)))
        .collect();
    json(&table)
}

fn js_error(e: RulesError) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: serde::Serialize>(value: &T) -> String {
    // Serialising these plain structs of strings, numbers and lists cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

/// The registry's variants, as JSON (see `rules::VariantJson`).
#[wasm_bindgen(js_name = variantsJson)]
pub fn variants_json() -> String {
    json(&rules::variants())
}

/// A game played through the rules API.
#[wasm_bindgen(js_name = RulesGame)]
pub struct JsRulesGame(RulesGame);

#[wasm_bindgen(js_class = RulesGame)]
impl JsRulesGame {
    /// A new game of `variant`, from its start or from `fen`.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str, fen: Option<String>) -> Result<JsRulesGame, JsError> {
        RulesGame::new(variant, fen.as_deref())
            .map(JsRulesGame)
            .map_err(js_error)
    }

    pub fn variant(&self) -> String {
        self.0.variant().to_string()
    }

    pub fn fen(&self) -> String {
        self.0.fen()
    }

    #[wasm_bindgen(js_name = sideToMove)]
    pub fn side_to_move(&self) -> String {
        self.0.side_to_move().to_string()
    }

    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        self.0.in_check()
    }

    #[wasm_bindgen(js_name = legalMovesJson)]
    pub fn legal_moves_json(&self) -> String {
        json(&self.0.legal_moves())
    }

    /// Plays a UCI move; its facts as JSON.
    #[wasm_bindgen(js_name = playJson)]
    pub fn play_json(&mut self, mv: &str) -> Result<String, JsError> {
        self.0.play(mv).map(|m| json(&m)).map_err(js_error)
    }

    /// Takes back the last move; the move taken back, or undefined at the start.
    pub fn undo(&mut self) -> Result<Option<String>, JsError> {
        self.0.undo().map_err(js_error)
    }

    #[wasm_bindgen(js_name = movesJson)]
    pub fn moves_json(&self) -> String {
        json(&self.0.moves())
    }

    #[wasm_bindgen(js_name = outcomeJson)]
    pub fn outcome_json(&self) -> String {
        json(&self.0.outcome())
    }

    /// The game as PGN; `headers` is JSON text (an object of tag names and values, or null).
    pub fn pgn(&self, headers: &str) -> Result<String, JsError> {
        let headers: serde_json::Value = serde_json::from_str(headers)
            .map_err(|e| js_error(RulesError::Headers(e.to_string())))?;
        self.0.pgn(&headers).map_err(js_error)
    }
}

/// Every game of a PGN text, as JSON (see `pgn::PgnGameJson`); games without a `Variant` tag
/// are of `default_variant` (else chess).
#[wasm_bindgen(js_name = readPgnJson)]
pub fn read_pgn_json(text: &str, default_variant: Option<String>) -> Result<String, JsError> {
    crate::pgn::read(text, default_variant.as_deref())
        .map(|games| json(&games))
        .map_err(js_error)
}

/// The review of a searched game: the request and the answer as JSON (see `review`).
#[wasm_bindgen(js_name = reviewJson)]
pub fn review_json(request: &str) -> Result<String, JsError> {
    crate::review::review_json(request)
        .map(|r| json(&r))
        .map_err(js_error)
}
