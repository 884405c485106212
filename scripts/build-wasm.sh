#!/usr/bin/env bash
# Builds the browser engine into web/dist/ (see docs/web.md):
#
#   web/dist/cannonade.js         the page's script: Cannonade(), CannonadeRules() and the
#                                 wasm-bindgen glue, as one classic (UMD) script
#   web/dist/cannonade-worker.js  the Web Worker that runs the engine
#   web/dist/cannonade.wasm       the engine (crates/wasm over crates/core), every net inside
#
#   scripts/build-wasm.sh [--dev]
#
# The module is built for wasm32-unknown-unknown with 128-bit SIMD, in the `wasm` profile
# (release, panic = abort, full LTO); --dev builds it unoptimised, quickly, for debugging.
# wasm-bindgen's command line must be the very version Cargo.lock pins for the wasm-bindgen
# crate: it is taken from PATH, from WASM_BINDGEN (a path), or from target/wasm-bindgen-cli/
# where this script installs it from crates.io when it is missing (cargo install --debug:
# about 1.5 minutes on an idle 2-core machine, where an optimised build takes 4; the debug CLI
# writes the same files, byte for byte, in under a second). wasm-opt is run when one is on PATH (and WASM_OPT is not
# 0); the build is complete without it. Builds with CARGO_BUILD_JOBS jobs (default 1: the
# machine may be shared).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

profile=wasm
if [[ "${1:-}" == "--dev" ]]; then
    profile=dev
fi
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"

# The wasm-bindgen version Cargo.lock pins: the command line must be the same.
wbg_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [[ -z "$wbg_version" ]]; then
    echo "build-wasm: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi

find_bindgen() {
    local candidate
    for candidate in "${WASM_BINDGEN:-}" "$(command -v wasm-bindgen || true)" \
        "$root/target/wasm-bindgen-cli/$wbg_version/bin/wasm-bindgen"; do
        if [[ -n "$candidate" && -x "$candidate" ]] &&
            [[ "$("$candidate" --version 2>/dev/null)" == "wasm-bindgen $wbg_version" ]]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

if ! bindgen="$(find_bindgen)"; then
    echo "build-wasm: installing wasm-bindgen-cli $wbg_version into target/wasm-bindgen-cli/" >&2
    # --locked first (the CLI's own lockfile); crates.io may no longer serve a version that
    # lockfile names (wasm-bindgen-cli 0.2.130's locks webpki-roots 1.0.11, which the index
    # lacks: resolution fails within seconds), and then the newest compatible versions of its
    # dependencies are taken. The CLI itself is the pinned version either way.
    install_root="$root/target/wasm-bindgen-cli/$wbg_version"
    if ! cargo install --debug --locked --quiet wasm-bindgen-cli --version "=$wbg_version" --root "$install_root"; then
        echo "build-wasm: the CLI's lockfile does not resolve; installing without --locked" >&2
        cargo install --debug --quiet wasm-bindgen-cli --version "=$wbg_version" --root "$install_root"
    fi
    bindgen="$(find_bindgen)"
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# simd128: the net's inference uses WebAssembly's vector instructions (every current browser
# has them). The stack: a search keeps its move lists on it, up to MAX_PLY plies deep (the
# native search threads get 64 MB; 16 MB is several times what the deepest search needs).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 -C link-arg=-zstack-size=16777216"
cargo build -p cannonade-wasm --target wasm32-unknown-unknown --profile "$profile"
out_dir=release
[[ "$profile" == wasm ]] && out_dir=wasm
[[ "$profile" == dev ]] && out_dir=debug
module="target/wasm32-unknown-unknown/$out_dir/cannonade_wasm.wasm"

work="target/wasm-bindgen-out"
rm -rf "$work"
mkdir -p "$work"
# no-modules: a classic script, which both a page (<script src>) and a Worker (importScripts)
# load; weak refs free the rules API's games when the page lets go of them.
"$bindgen" --target no-modules --no-typescript --weak-refs \
    --out-dir "$work" --out-name cannonade "$module"

wasm="$work/cannonade_bg.wasm"
if [[ "${WASM_OPT:-1}" != 0 ]] && command -v wasm-opt >/dev/null; then
    wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-sign-ext \
        --enable-nontrapping-float-to-int --enable-reference-types --enable-mutable-globals \
        "$wasm" -o "$work/cannonade_opt.wasm"
    wasm="$work/cannonade_opt.wasm"
fi

dist="web/dist"
mkdir -p "$dist"
cp "$wasm" "$dist/cannonade.wasm"
# cannonade.js: the glue goes where the source says, inside its UMD wrapper, so nothing of it
# leaks into the page's global scope.
awk -v glue="$work/cannonade.js" '
    /^ *\/\*@WASM_BINDGEN_GLUE@\*\/ *$/ { while ((getline line < glue) > 0) print line; next }
    { print }
' web/engine/cannonade.js >"$dist/cannonade.js"
if ! grep -q "wasm_bindgen" "$dist/cannonade.js"; then
    echo "build-wasm: the glue marker is missing from web/engine/cannonade.js" >&2
    exit 1
fi
cp web/engine/cannonade-worker.js "$dist/cannonade-worker.js"
echo "build-wasm: $(du -h "$dist/cannonade.wasm" | cut -f1) wasm, profile $profile, wasm-bindgen $wbg_version -> $dist/" >&2
