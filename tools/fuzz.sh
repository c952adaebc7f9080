#!/usr/bin/env bash
# Builds the libFuzzer targets (Tests/Fuzz/FuzzTargets.swift) and runs each
# for SECONDS (default 20), starting from its seed corpus in
# Tests/Fuzz/corpus/TARGET. A crash, or one input taking over 2 s (a hang),
# fails the run: the input is kept in .build-fuzz/artifacts and should
# become a regression case (Tests/Fuzz/regressions/TARGET, replayed by
# FuzzRegressionTests). docs/reliability.md explains.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]
#   WIDGET_HOST_FUZZ_TIMEOUT=20 nice -n 19 tools/fuzz.sh 300
#
# The hang limit is wall-clock time: a run at low priority on a crowded
# machine can wait seconds for a core, so a long background run raises it
# (WIDGET_HOST_FUZZ_TIMEOUT, default 2 s); a timeout input is then replayed
# alone (run the fuzzer binary with the input as its argument) to tell a hang
# from a wait.
#
# SwiftPM cannot link a libFuzzer executable (it passes --defsym
# main=<target>_main), so SwiftPM compiles WidgetHostKit instrumented into
# its own scratch directory (.build-fuzz, never touched by `swift build`)
# and swiftc links the targets against those objects.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
timeout=${WIDGET_HOST_FUZZ_TIMEOUT:-2}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(elf json view frames links config)
scratch=.build-fuzz
fuzzer=$scratch/widget-host-fuzz

swift build --scratch-path "$scratch" --target WidgetHostKit \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address >&2
debug=$scratch/debug
objects=$(find "$debug/WidgetHostKit.build" "$debug/PluginKit.build" "$debug/HostShim.build" -name '*.o')
# The linker warns about every ASan symbol it cannot export: shown only if the link fails.
# shellcheck disable=SC2086 # word splitting of the object list is meant
swiftc -sanitize=fuzzer,address -parse-as-library -g -I "$debug/Modules" -I Sources/PluginABI/include \
    -Xcc -fmodule-map-file="$debug/HostShim.build/module.modulemap" Tests/Fuzz/FuzzTargets.swift $objects -o "$fuzzer" \
    >"$scratch/link.log" 2>&1 || { grep -v 'Cannot export local symbol' "$scratch/link.log" >&2; exit 1; }

mkdir -p "$scratch/artifacts"
failed=0
for target in "${targets[@]}"; do
    # The run grows a corpus of its own; the repository's seeds stay as they are.
    work=$scratch/corpus/$target
    mkdir -p "$work"
    log=$scratch/$target.log
    status=0
    WIDGET_HOST_FUZZ_TARGET=$target "$fuzzer" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" "$work" "Tests/Fuzz/corpus/$target" \
        $(ls -d "Tests/Fuzz/regressions/$target" 2>/dev/null) >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [ "$status" -eq 0 ]; then
        echo "$target: ${runs:-?} executions in ${seconds}s (${rate:-?} a second), no crash, no hang"
    else
        failed=1
        echo "$target: FAILED (exit $status) after ${runs:-?} executions; the input is in $scratch/artifacts/$target-*:" >&2
        grep -E 'ERROR|timeout|Fatal error|Precondition failed|SUMMARY' "$log" | head -5 >&2 || true
    fi
done
exit $failed
