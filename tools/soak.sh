#!/usr/bin/env bash
# A soak (issue 25): the dashboard of 12 widgets, in process and isolated, on a
# tmux terminal for MINUTES (default 10), and `widget-host serve` over the same
# widgets with two SSE clients (one connected throughout, one that leaves and
# comes back every 20 s), under load:
#   - a store write every 100 ms (Trips' bookings, each with a new flight code)
#     by one long-lived `widget-host store put --lines`, while a reader checks
#     that every value it sees is whole and no code goes back,
#   - the terminal resized every 7 s (reflows and full redraws),
#   - an isolated C fixture's child killed with SIGSEGV every 30 s (a crash;
#     its quarantine is lifted after each, so the restarts go on), and one
#     fixture that hangs in every render (stopped at its deadline, then
#     quarantined by the crash-loop breaker),
#   - Crypto refreshing every 10 s from a loopback server that answers slowly
#     and fails at random.
# It samples both hosts' memory (anonymous: what a leak grows; PSS also shown),
# open descriptors and threads after a
# warm-up and at the end, and fails when any grew past a small allowance, when
# a store write failed, a read saw a torn value, or the last write is not what
# the store holds, when the Trips card (terminal, and each SSE client's copy)
# does not show the last write, or when a child of either host is left behind
# after it quits. Loopback only; bounded in time. The Python pieces are in
# tools/soak.py.
#
#   tools/soak.sh [MINUTES]        (CI: tools/soak.sh 1)
#   WIDGET_HOST_PRODUCTS=.build/release tools/soak.sh 10
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=${1:-10}
seconds=$(python3 -c "import sys; print(max(int(float(sys.argv[1]) * 60), 30))" "$minutes")
for tool in tmux python3 cc; do
    command -v "$tool" >/dev/null || { echo "soak: $tool is missing" >&2; exit 2; }
done
# WIDGET_HOST_PRODUCTS: a directory with a built widget-host (and its widgets) to soak instead of building.
if [ -z "${WIDGET_HOST_PRODUCTS:-}" ]; then
    swift build >&2
    WIDGET_HOST_PRODUCTS=$(swift build --show-bin-path)
fi
host=$WIDGET_HOST_PRODUCTS/widget-host

work=$(mktemp -d "${TMPDIR:-/tmp}/widget-host-soak.XXXXXX")
socket=soak-$$
helpers=() keep=
cleanup() {
    touch "$work/stop"
    tmux -L "$socket" kill-server 2>/dev/null || true
    for helper in "${helpers[@]}"; do kill "$helper" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [ -n "$keep" ]; then echo "soak: its files (logs, the SSE clients' cards, the store) are kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

export HOME=$work/home XDG_DATA_HOME=$work/home/data XDG_CONFIG_HOME=$work/home/config XDG_STATE_HOME=$work/home/state
export TERM=xterm NO_COLOR=1 http_proxy= https_proxy= HTTP_PROXY= HTTPS_PROXY=
mkdir -p "$HOME" "$work/plugins"

# 8 C fixtures: 3 in process, 3 isolated, one to crash, one that hangs.
fixture() { cc -shared -fPIC -O2 -pthread -I Sources/PluginABI/include "-DPLUGIN_ID=\"org.soak.$1\"" "-DPLUGIN_NAME=\"Soak $1\"" "${@:2}" \
    Tests/Fixtures/plugins/hello.c -o "$work/plugins/$1.so"; }
for n in 1 2 3 4 5 6; do fixture "c$n"; done
fixture crash
fixture hang -DHANG_IN_RENDER

# A price server on loopback: slow (up to 1.5 s) and failing one time in three.
python3 tools/soak.py server "$work/port" &
helpers+=($!)
for _ in $(seq 100); do [ -f "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")

cat > "$work/dashboard.json" <<'JSON'
{"dashboard": {"cards": [
  "crypto", "checkout", "trips", "ticker",
  {"widget": "org.soak.c1", "isolated": false}, {"widget": "org.soak.c2", "isolated": false}, {"widget": "org.soak.c3", "isolated": false},
  "org.soak.c4", "org.soak.c5", "org.soak.c6", "org.soak.crash", "org.soak.hang"]}}
JSON

python3 tools/soak.py booking SK0 | "$host" store put trips.bookings -
settings=(--config "$work/dashboard.json" --plugin-dir "$work/plugins"
    --set "crypto.priceURL=http://127.0.0.1:$port/v2/assets/bitcoin" --set crypto.refreshSeconds=10 --set crypto.timeoutSeconds=2
    --set checkout.minimumAmount=50.00 --set checkout.maximumAmount=2000.00 --set checkout.currencyCode=USD
    --set checkout.locale=en_US --set checkout.amount=250.00)

tmux -L "$socket" new-session -d -x 120 -y 40 -e HOME="$HOME" -e XDG_DATA_HOME="$XDG_DATA_HOME" -e XDG_CONFIG_HOME="$XDG_CONFIG_HOME" \
    -e XDG_STATE_HOME="$XDG_STATE_HOME" -e TERM=xterm -e NO_COLOR=1 \
    "$host" dashboard "${settings[@]}"
pid=$(tmux -L "$socket" list-panes -F '#{pane_pid}')
"$host" serve "${settings[@]}" --port 0 --address-file "$work/address" >"$work/serve.log" 2>&1 &
serve_pid=$!
helpers+=("$serve_pid")
for _ in $(seq 600); do [ -f "$work/address" ] && break; sleep 0.1; done
[ -f "$work/address" ] || { echo "soak: serve gave no address:" >&2; cat "$work/serve.log" >&2; keep=yes; exit 1; }
python3 tools/soak.py sse "$work/address" "$work/sse-steady.json" &
helpers+=($!)
python3 tools/soak.py sse "$work/address" "$work/sse-returning.json" 20 &
helpers+=($!)

descendants() {   # every process below $1
    local children
    children=$(cat /proc/"$1"/task/*/children 2>/dev/null || true)
    for child in $children; do echo "$child"; descendants "$child"; done
}
# What process $1 holds: anonymous memory (KiB), open descriptors, threads, PSS (KiB).
# Anonymous memory is the heap and stacks, what a leak grows. PSS also counts a share of
# the libraries' pages, which moves with how many other processes map them (other Swift
# programs on the machine), so it is shown but not judged. Descriptors and threads are the
# fewest of 5 readings 0.4 s apart: a connection, fetch or restart in flight comes and
# goes, a leak stays.
sample() {
    local anon pss fds=999999 threads=999999 count
    for _ in 1 2 3 4 5; do
        count=$(ls /proc/"$1"/fd | wc -l) && [ "$count" -lt "$fds" ] && fds=$count
        count=$(awk '/^Threads:/ {print $2}' /proc/"$1"/status) && [ "$count" -lt "$threads" ] && threads=$count
        sleep 0.4
    done
    anon=$(awk '/^RssAnon:/ {print $2}' /proc/"$1"/status)
    pss=$(awk '/^Pss:/ {print $2}' /proc/"$1"/smaps_rollup)
    echo "$anon $fds $threads $pss"
}

# The writer: a store write every 100 ms through one `store put --lines`, and a reader of what it writes.
python3 tools/soak.py feed "$work" 0.1 | "$host" store put trips.bookings --lines 2>"$work/writer.log" &
writer_pid=$!
python3 tools/soak.py watch "$XDG_DATA_HOME/widget-host/shared/trips.bookings" "$work" &
watcher_pid=$!
helpers+=("$watcher_pid")

warmup=$((seconds / 4 > 15 ? seconds / 4 : 15))
start=$(date +%s)
warm= serve_warm= next_trail=$warmup children_seen="" crashes=0 resizes=0 next_resize=7 next_crash=30
while :; do
    elapsed=$(($(date +%s) - start))
    [ "$elapsed" -ge "$seconds" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "soak: the dashboard died after ${elapsed}s" >&2; keep=yes; exit 1; }
    kill -0 "$serve_pid" 2>/dev/null || { echo "soak: serve died after ${elapsed}s:" >&2; cat "$work/serve.log" >&2; keep=yes; exit 1; }
    if [ "$elapsed" -ge "$next_resize" ]; then
        tmux -L "$socket" resize-window -x $((60 + RANDOM % 80)) -y $((20 + RANDOM % 30)) 2>/dev/null && resizes=$((resizes + 1))
        next_resize=$((elapsed + 7))
    fi
    if [ "$elapsed" -ge "$next_crash" ]; then   # a crash, then the quarantine lifted, so the restarts go on
        for child in $(descendants "$pid") $(descendants "$serve_pid"); do
            if grep -q "crash.so" /proc/"$child"/cmdline 2>/dev/null && kill -SEGV "$child" 2>/dev/null; then crashes=$((crashes + 1)); fi
        done
        "$host" quarantine lift org.soak.crash >/dev/null 2>&1 || true
        next_crash=$((elapsed + 30))
    fi
    children_seen="$children_seen $(descendants "$pid" | tr '\n' ' ') $(descendants "$serve_pid" | tr '\n' ' ')"
    if [ -z "$warm" ] && [ "$elapsed" -ge "$warmup" ]; then warm=$(sample "$pid") serve_warm=$(sample "$serve_pid"); fi
    if [ "$elapsed" -ge "$next_trail" ]; then   # a sample a minute, for the trend (anon fds threads pss, dashboard then serve)
        echo "$elapsed $(sample "$pid") $(sample "$serve_pid")" >>"$work/trail"
        next_trail=$((elapsed + 60))
    fi
    sleep 1
done
end=$(sample "$pid") serve_end=$(sample "$serve_pid")
touch "$work/stop"
# Writes pile up in the pipe if the writer falls behind: how long it takes to drain them says whether it kept up.
stopped=$(date +%s.%N) writer_status=0
wait "$writer_pid" || writer_status=$?
drained=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$stopped" "$(date +%s.%N)")
wait "$watcher_pid" || true
writes=$(cat "$work/fed" 2>/dev/null || echo 0)
read -r reads torn backwards < "$work/watched" || { reads=0 torn=? backwards=?; }
last_code=SK$writes
tmux -L "$socket" resize-window -x 120 -y 40
# The last write shows on the Trips card (it may need a moment to render).
shown=no
for _ in $(seq 300); do
    if tmux -L "$socket" capture-pane -p | grep -q "$last_code"; then shown=yes; break; fi
    sleep 0.1
done
# Each SSE client's copy of the Trips card (the third) shows it too.
sse_shown=""
for client in steady returning; do
    for _ in $(seq 300); do
        python3 -c "import json,re,sys; sys.exit(not re.search(r'\b$last_code\b', json.load(open(sys.argv[1]))['cards'].get('card-3', '')))" \
            "$work/sse-$client.json" 2>/dev/null && { sse_shown="$sse_shown $client"; break; }
        sleep 0.1
    done
done
sse_stats=$(python3 -c "import json,sys; print(', '.join('%s %d events, %d connections' % (n, *(lambda s: (s['events'], s['connections']))(json.load(open(sys.argv[1] % n)))) for n in ('steady', 'returning')))" "$work/sse-%s.json" || echo "no SSE client state")
stored=$("$host" store get trips.bookings --json 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['bookings'][0]['outbound_flight']['code'])" || echo torn)
tmux -L "$socket" send-keys q
kill -TERM "$serve_pid"   # as a service manager stops it (a background job ignores SIGINT)
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
left=""
for child in $(echo "$children_seen" | tr ' ' '\n' | sort -u); do
    [ -n "$child" ] && [ -d /proc/"$child" ] && grep -q "widget-host" /proc/"$child"/cmdline 2>/dev/null && left="$left $child"
done

echo "soak: ${seconds}s, $writes store writes ($(python3 -c "print('%.1f' % ($writes / $seconds))") a second; writer exit $writer_status, drained ${drained}s after the last), \
$reads reads ($torn torn, $backwards going back), $resizes resizes, $crashes crashes"
echo "soak: last write $last_code, stored $stored, on the Trips card: $shown, in the SSE clients' copies:${sse_shown:- none} ($sse_stats)"
described() { local anon fds threads pss; read -r anon fds threads pss <<<"$1"; echo "$anon KiB anonymous (PSS $pss), $fds fds, $threads threads"; }
echo "soak: dashboard after warm-up $(described "$warm"); at the end $(described "$end")"
echo "soak: serve after warm-up $(described "$serve_warm"); at the end $(described "$serve_end")"
[ -f "$work/trail" ] && echo "soak: each minute after warm-up (seconds, then anon fds threads pss of the dashboard and of serve):" && cat "$work/trail"
problems=()
# Allowances: memory may move by allocator noise (5% or 2 MiB), descriptors and
# threads by what is in flight at the moment of the sample (a restart, a fetch,
# the returning client's connection).
flat() {   # NAME BEFORE AFTER, each a sample
    local mem0 fds0 threads0 mem1 fds1 threads1
    read -r mem0 fds0 threads0 _ <<<"$2"
    read -r mem1 fds1 threads1 _ <<<"$3"
    [ "$mem1" -le $((mem0 + (mem0 / 20 > 2048 ? mem0 / 20 : 2048))) ] || problems+=("$1's anonymous memory grew: ${mem0} -> ${mem1} KiB")
    [ "$fds1" -le $((fds0 + 4)) ] || problems+=("$1's descriptors grew: $fds0 -> $fds1")
    [ "$threads1" -le $((threads0 + 4)) ] || problems+=("$1's threads grew: $threads0 -> $threads1")
}
flat dashboard "$warm" "$end"
flat serve "$serve_warm" "$serve_end"
[ "$writer_status" -eq 0 ] || problems+=("the writer failed (exit $writer_status): $(head -c 300 "$work/writer.log")")
[ "$writes" -ge $((seconds * 10 * 9 / 10)) ] || problems+=("only $writes store writes in ${seconds}s, not one every 100 ms")
[ "$torn" = 0 ] && [ "$backwards" = 0 ] && [ "$reads" -gt 0 ] || problems+=("of $reads reads, $torn torn and $backwards going back")
[ "$sse_shown" = " steady returning" ] || problems+=("the SSE clients' Trips card does not show the last write $last_code (only:${sse_shown:- none})")
[ "$stored" = "$last_code" ] || problems+=("the store holds $stored, not the last write $last_code")
[ "$shown" = yes ] || problems+=("the Trips card does not show the last write $last_code")
kill -0 "$pid" 2>/dev/null && problems+=("the dashboard did not quit on q")
kill -0 "$serve_pid" 2>/dev/null && problems+=("serve did not stop on SIGTERM")
[ -z "$left" ] || problems+=("children left behind:$left")
if [ ${#problems[@]} -gt 0 ]; then
    printf 'soak: FAILED: %s\n' "${problems[@]}" >&2
    keep=yes
    exit 1
fi
echo "soak: passed"
