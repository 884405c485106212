//! What JavaScript calls: the wasm-bindgen exports. Answers that are more than a number or a
//! string are JSON text, parsed by web/engine/cannonade.js; errors become JavaScript `Error`s
//! whose message is the native engine's.

use crate::rules::{self, RulesError, RulesGame};
use wasm_bindgen::prelude::*;

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
}
