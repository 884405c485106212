#!/usr/bin/env bash
# Runs the protocol fuzzer (tests/program/protocol_fuzz.rs) for as long as you like.
#
#   scripts/protocol_fuzz.sh [SECONDS] [SEED]
#
# SECONDS (default 300) bounds the run; SEED (default: from the clock) picks the commands, so
# a failure is repeated by running again with the seed it prints. FUZZ_LINES bounds the number
# of protocol lines instead (default: no bound but the time). Builds with one job, as the
# machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
seed="${2:-${FUZZ_SEED:-$(date +%s)}}"
echo "protocol fuzz: seed $seed, up to $seconds s" >&2
FUZZ_SEED="$seed" FUZZ_SECONDS="$seconds" FUZZ_LINES="${FUZZ_LINES:-18446744073709551615}" \
    CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" \
    cargo test --release --test program protocol_fuzz -- --nocapture
