#!/usr/bin/env bash
# A soak (issue 25): the dashboard of 12 widgets, in process and isolated, on a
# tmux terminal for MINUTES (default 10), under load:
#   - a store write every 100 ms (Trips' bookings, each with a new flight code),
#   - the terminal resized every 7 s (reflows and full redraws),
#   - an isolated C fixture's child killed with SIGSEGV every 30 s (a crash;
#     its quarantine is lifted after each, so the restarts go on), and one
#     fixture that hangs in every render (stopped at its deadline, then
#     quarantined by the crash-loop breaker),
#   - Crypto refreshing every 10 s from a loopback server that answers slowly
#     and fails at random.
# It samples the host's memory (PSS), open descriptors and threads after a
# warm-up and at the end, and fails when any grew past a small allowance, when
# a store write failed or the last one is not what the store holds (lost or
# torn), when the Trips card does not show the last write, or when a child of
# the host is left behind after it quits. Loopback only; bounded in time.
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
server_pid=
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
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
python3 - "$work/port" <<'PY' &
import http.server, random, sys, time
class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        time.sleep(random.uniform(0, 1.5))
        if random.random() < 0.33:
            self.send_response(500); self.end_headers(); return
        body = b'{"data":{"id":"bitcoin","symbol":"BTC","priceUsd":"%.4f","changePercent24Hr":"0.5"},"timestamp":1777627800000}' \
            % random.uniform(40000, 45000)
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
open(sys.argv[1] + ".tmp", "w").write(str(server.server_address[1])); __import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
server.serve_forever()
PY
server_pid=$!
for _ in $(seq 100); do [ -f "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")

cat > "$work/dashboard.json" <<'JSON'
{"dashboard": {"cards": [
  "crypto", "checkout", "trips", "ticker",
  {"widget": "org.soak.c1", "isolated": false}, {"widget": "org.soak.c2", "isolated": false}, {"widget": "org.soak.c3", "isolated": false},
  "org.soak.c4", "org.soak.c5", "org.soak.c6", "org.soak.crash", "org.soak.hang"]}}
JSON

# Trips' bookings with flight CODE, departing two days from now (dates made once: a write must be cheap).
departs=$(date -u -d '+2 days' +%Y-%m-%dT%H:%M:%SZ) arrives=$(date -u -d '+2 days 2 hours' +%Y-%m-%dT%H:%M:%SZ)
bought=$(date -u -d '-1 day' +%Y-%m-%dT%H:%M:%SZ)
put() {
    printf '{"bookings": [{"id": "B-%s", "purchase_date": "%s", "outbound_flight": {"code": "%s", "stops": 0, "departure_airport": "MAD", "departure_time": "%s", "arrival_airport": "CDG", "arrival_time": "%s"}}]}' \
        "$1" "$bought" "$1" "$departs" "$arrives" > "$work/bookings-$1.json"
    "$host" store put trips.bookings --file "$work/bookings-$1.json" >/dev/null
    rm -f "$work/bookings-$1.json"
}
put SK0

tmux -L "$socket" new-session -d -x 120 -y 40 -e HOME="$HOME" -e XDG_DATA_HOME="$XDG_DATA_HOME" -e XDG_CONFIG_HOME="$XDG_CONFIG_HOME" \
    -e XDG_STATE_HOME="$XDG_STATE_HOME" -e TERM=xterm -e NO_COLOR=1 \
    "$host" dashboard --config "$work/dashboard.json" --plugin-dir "$work/plugins" \
    --set "crypto.priceURL=http://127.0.0.1:$port/v2/assets/bitcoin" --set crypto.refreshSeconds=10 --set crypto.timeoutSeconds=2 \
    --set checkout.minimumAmount=50.00 --set checkout.maximumAmount=2000.00 --set checkout.currencyCode=USD \
    --set checkout.locale=en_US --set checkout.amount=250.00
sleep 1
pid=$(tmux -L "$socket" list-panes -F '#{pane_pid}')

descendants() {   # every process below $1
    local children
    children=$(cat /proc/"$1"/task/*/children 2>/dev/null || true)
    for child in $children; do echo "$child"; descendants "$child"; done
}
sample() {   # PSS KiB of the host, its open descriptors, its threads
    local pss fds threads
    pss=$(awk '/^Pss:/ {print $2}' /proc/"$pid"/smaps_rollup)
    fds=$(ls /proc/"$pid"/fd | wc -l)
    threads=$(awk '/^Threads:/ {print $2}' /proc/"$pid"/status)
    echo "$pss $fds $threads"
}

# The writer: a store write every 100 ms (or as fast as a process can start), in the background.
writer() {
    local n=0 failed=0
    while [ ! -f "$work/stop" ]; do
        n=$((n + 1))
        put "SK$n" || failed=$((failed + 1))
        echo "$n $failed" > "$work/writes.tmp" && mv "$work/writes.tmp" "$work/writes"
        sleep 0.1
    done
}
writer &
writer_pid=$!

warmup=$((seconds / 4 > 15 ? seconds / 4 : 15))
start=$(date +%s)
warm= children_seen="" crashes=0 resizes=0 next_resize=7 next_crash=30
while :; do
    elapsed=$(($(date +%s) - start))
    [ "$elapsed" -ge "$seconds" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "soak: the host died after ${elapsed}s" >&2; exit 1; }
    if [ "$elapsed" -ge "$next_resize" ]; then
        tmux -L "$socket" resize-window -x $((60 + RANDOM % 80)) -y $((20 + RANDOM % 30)) 2>/dev/null && resizes=$((resizes + 1))
        next_resize=$((elapsed + 7))
    fi
    if [ "$elapsed" -ge "$next_crash" ]; then   # a crash, then the quarantine lifted, so the restarts go on
        for child in $(descendants "$pid"); do
            if grep -q "crash.so" /proc/"$child"/cmdline 2>/dev/null && kill -SEGV "$child" 2>/dev/null; then crashes=$((crashes + 1)); fi
        done
        "$host" quarantine lift org.soak.crash >/dev/null 2>&1 || true
        next_crash=$((elapsed + 30))
    fi
    children_seen="$children_seen $(descendants "$pid" | tr '\n' ' ')"
    if [ -z "$warm" ] && [ "$elapsed" -ge "$warmup" ]; then warm=$(sample); fi
    sleep 1
done
end=$(sample)
touch "$work/stop"
wait "$writer_pid"
read -r writes failed_writes < "$work/writes"
last_code=SK$writes
tmux -L "$socket" resize-window -x 120 -y 40
# The last write shows on the Trips card (it may need a moment to render).
shown=no
for _ in $(seq 300); do
    if tmux -L "$socket" capture-pane -p | grep -q "$last_code"; then shown=yes; break; fi
    sleep 0.1
done
stored=$("$host" store get trips.bookings --json 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['bookings'][0]['outbound_flight']['code'])" || echo torn)
tmux -L "$socket" send-keys q
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
left=""
for child in $(echo "$children_seen" | tr ' ' '\n' | sort -u); do
    [ -n "$child" ] && [ -d /proc/"$child" ] && grep -q "widget-host" /proc/"$child"/cmdline 2>/dev/null && left="$left $child"
done

read -r pss0 fds0 threads0 <<<"$warm"
read -r pss1 fds1 threads1 <<<"$end"
echo "soak: ${seconds}s, $writes store writes ($failed_writes failed), $resizes resizes, $crashes crashes; last write $last_code, stored $stored, on the Trips card: $shown"
echo "soak: after warm-up PSS ${pss0} KiB, $fds0 fds, $threads0 threads; at the end PSS ${pss1} KiB, $fds1 fds, $threads1 threads"
problems=()
# Allowances: memory may move by allocator noise (5% or 2 MiB), descriptors and
# threads by what is in flight at the moment of the sample (a restart, a fetch).
[ "$pss1" -le $((pss0 + (pss0 / 20 > 2048 ? pss0 / 20 : 2048))) ] || problems+=("memory grew: ${pss0} -> ${pss1} KiB")
[ "$fds1" -le $((fds0 + 4)) ] || problems+=("descriptors grew: $fds0 -> $fds1")
[ "$threads1" -le $((threads0 + 4)) ] || problems+=("threads grew: $threads0 -> $threads1")
[ "$failed_writes" -eq 0 ] || problems+=("$failed_writes store writes failed")
[ "$stored" = "$last_code" ] || problems+=("the store holds $stored, not the last write $last_code")
[ "$shown" = yes ] || problems+=("the Trips card does not show the last write $last_code")
kill -0 "$pid" 2>/dev/null && problems+=("the host did not quit on q")
[ -z "$left" ] || problems+=("children left behind:$left")
if [ ${#problems[@]} -gt 0 ]; then
    printf 'soak: FAILED: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "soak: passed"
