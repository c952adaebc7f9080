#!/bin/sh
# Fails when a hot path (publish, resolve, warm listing, an isolated call, a
# JSON parse, list's start-up) costs more than 10% more instructions than the
# figures checked in as tools/instructions-baseline.json. Instruction counts
# under callgrind repeat to a fraction of a percent on a loaded machine, where
# wall time moves severalfold. Small N: a few minutes, most of it valgrind.
#
# Needs valgrind and objcopy (apt-get install valgrind binutils) and cc.
# After a change that makes a path faster (or a slower one that is meant),
# rewrite the figures with: tools/instructions-check.sh --update
set -eu
cd "$(dirname "$0")/.."
for tool in valgrind objcopy cc; do
    command -v "$tool" >/dev/null || { echo "instructions-check: $tool is missing (apt-get install valgrind binutils gcc)" >&2; exit 2; }
done
figures=tools/instructions-baseline.json
swift build -c release >/dev/null
bench=.build/release/widget-host-bench
case "${1:-}" in
    --update)
        "$bench" --instructions-only --quick --json > "$figures.tmp"
        mv "$figures.tmp" "$figures"
        echo "instructions-check: wrote $figures" ;;
    "") exec "$bench" --instructions-only --quick --check "$figures" ;;
    *) echo "usage: tools/instructions-check.sh [--update]" >&2; exit 2 ;;
esac
