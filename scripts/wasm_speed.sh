#!/usr/bin/env bash
# The browser build's speed against the native program's (docs/performance.md): the same
# `bench` (the bench positions of every game, one thread) run by the native binary and by the
# WebAssembly build in Debian's Chromium, one after the other, ROUNDS times; prints each
# round's nodes per second and the ratio Chromium/native over all rounds.
#
#   scripts/wasm_speed.sh [ROUNDS] [DEPTH]      (defaults: 3 rounds, depth 11)
#
# Needs web/dist/ built (scripts/web.sh build) and target/release/cannonade (built here if
# missing). Nodes per second are wall-clock measures: run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f web/dist/cannonade.wasm ] || { echo "web/dist/ is not built: run scripts/web.sh build first" >&2; exit 1; }
[ -x target/release/cannonade ] || cargo build --release
[ -d web/node_modules/playwright-core ] || (cd web && npm ci --no-audit --no-fund)
exec node web/test/browser.js --speed --rounds "${1:-3}" --depth "${2:-11}"
