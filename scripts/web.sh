#!/usr/bin/env bash
# The page in the browser: build it, serve it, test it.
#
#   scripts/web.sh build          the engine (scripts/build-wasm.sh) and the page into web/dist/
#   scripts/web.sh page           the page only (the engine's files in web/dist/ are kept)
#   scripts/web.sh serve [PORT]   serves web/dist/ at http://localhost:PORT (default 8080), with
#                                 the headers that let the engine stop a search at once
#   scripts/web.sh test           the engine's tests (test-engine), then the page's browser
#                                 test (Debian's /usr/bin/chromium), on a built web/dist/
#   scripts/web.sh test-engine    the engine's tests: the browser build in Node against the
#                                 native program (rules, PGN, review, perft, bench, answers
#                                 during a search, bad input), then in Chromium (perft, bench,
#                                 stop with and without shared memory); builds the native
#                                 program if target/release/cannonade is missing
#
# Everything installs from the project's own files: `npm ci` from web/package-lock.json, the
# Rust target and the wasm-bindgen CLI (scripts/build-wasm.sh). web/dist/ is a plain static
# folder: copy it to any static host to publish the page.
set -euo pipefail
cd "$(dirname "$0")/.."

npm_ci() {
  # node_modules is reinstalled when the lockfile is newer than the last install
  if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    (cd web && npm ci --no-audit --no-fund)
  fi
}

build_page() {
  npm_ci
  # the page's types against chessgroundx's and the rules API's, then the bundle
  (cd web && node_modules/.bin/tsc --noEmit -p . && node build.mjs)
}

case "${1:-build}" in
  build)
    bash scripts/build-wasm.sh
    build_page
    ;;
  page)
    build_page
    ;;
  serve)
    [ -f web/dist/index.html ] || { echo "web/dist/ is not built: run scripts/web.sh build first" >&2; exit 1; }
    exec node web/serve.mjs "${2:-8080}"
    ;;
  test)
    "$0" test-engine
    npm_ci
    (cd web && node test/page.spec.mjs "${@:2}")
    ;;
  test-engine)
    [ -f web/dist/cannonade.wasm ] || { echo "web/dist/ is not built: run scripts/web.sh build first" >&2; exit 1; }
    [ -x target/release/cannonade ] || cargo build --release
    npm_ci
    (cd web && node --test test/engine.test.js test/rules.test.js test/fuzz.test.js && node test/browser.js)
    ;;
  *)
    echo "usage: scripts/web.sh build | page | serve [PORT] | test | test-engine" >&2
    exit 2
    ;;
esac
