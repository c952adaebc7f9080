"""The soak's helpers (tools/soak.sh runs each as a process of its own):

  booking CODE               one value of Trips' bookings, with flight CODE
  server PORTFILE            a price server on loopback, slow (up to 1.5 s) and failing one time in three
  feed WORK INTERVAL         Trips' bookings on standard output, one line every INTERVAL seconds, each
                             with a new flight code SK1, SK2, ..., until WORK/stop exists; then the
                             number of lines sent goes to WORK/fed
  watch FILE WORK            reads the store's FILE as often as it can until WORK/stop exists; every read
                             must be a whole value whose code never goes back; the tally goes to WORK/watched
  sse ADDRESSFILE OUT [N]    a client of `widget-host serve`: the page, then /events, keeping each card's
                             latest HTML in OUT (JSON, replaced whole); with N, it leaves and comes back
                             every N seconds, loading the page again each time, as a browser tab would

Each writes its results to a file by temporary file and rename, so the shell never reads half of one.
"""
import datetime
import http.client
import http.server
import json
import os
import random
import re
import sys
import time
import urllib.parse


def publish(path, text):
    with open(path + ".tmp", "w") as out:
        out.write(text)
    os.rename(path + ".tmp", path)


def server(port_file):
    class Slow(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            time.sleep(random.uniform(0, 1.5))
            if random.random() < 0.33:
                self.send_response(500)
                self.end_headers()
                return
            body = b'{"data":{"id":"bitcoin","symbol":"BTC","priceUsd":"%.4f","changePercent24Hr":"0.5"},"timestamp":1777627800000}' \
                % random.uniform(40000, 45000)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            # A client that gave up on a slow answer is the load this server
            # is for, not an error worth a traceback in the soak's log.
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    httpd = Server(("127.0.0.1", 0), Slow)
    publish(port_file, str(httpd.server_address[1]))
    httpd.serve_forever()


def booking(code):
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    stamp = lambda delta: (now + delta).strftime("%Y-%m-%dT%H:%M:%SZ")
    day, hour = datetime.timedelta(days=1), datetime.timedelta(hours=1)
    return json.dumps({"bookings": [{"id": "B-" + code, "purchase_date": stamp(-day), "outbound_flight": {
        "code": code, "stops": 0, "departure_airport": "MAD", "departure_time": stamp(2 * day),
        "arrival_airport": "CDG", "arrival_time": stamp(2 * day + 2 * hour)}}]})


def feed(work, interval):
    sent, due = 0, time.monotonic()
    while not os.path.exists(work + "/stop"):
        sent += 1
        sys.stdout.write(booking("SK%d" % sent) + "\n")
        sys.stdout.flush()
        due += interval
        time.sleep(max(due - time.monotonic(), 0))   # on a schedule: a late write does not push back the next ones
    publish(work + "/fed", str(sent))


def code_of(text):
    return int(json.loads(text)["bookings"][0]["outbound_flight"]["code"][2:])


def watch(path, work):
    reads = torn = backwards = 0
    last = 0
    while not os.path.exists(work + "/stop"):
        try:
            with open(path) as value:
                text = value.read()
        except FileNotFoundError:
            time.sleep(0.005)
            continue
        reads += 1
        try:
            code = code_of(text)
        except (ValueError, KeyError, IndexError):
            torn += 1
            continue
        if code < last:
            backwards += 1
        last = max(last, code)
        time.sleep(0.005)
    publish(work + "/watched", "%d %d %d\n" % (reads, torn, backwards))


def sse(address_file, out, every=None):
    address = urllib.parse.urlsplit(open(address_file).read().strip())
    secret = urllib.parse.parse_qs(address.query)["secret"][0]
    headers = {"Host": address.netloc, "Cookie": "widget_host_secret=" + secret}
    cards, state = {}, {"connections": 0, "events": 0, "pages": 0}

    def save():
        publish(out, json.dumps(dict(state, cards=cards)))

    while True:
        events = http.client.HTTPConnection(address.netloc, timeout=60)
        events.request("GET", "/events", headers=headers)
        stream = events.getresponse()
        assert stream.status == 200, "/events answered %d" % stream.status
        state["connections"] += 1
        # Subscribed first, then the page: no change falls between the two.
        page = http.client.HTTPConnection(address.netloc, timeout=60)
        page.request("GET", "/", headers=headers)
        answer = page.getresponse()
        html = answer.read().decode()
        assert answer.status == 200, "/ answered %d" % answer.status
        page.close()
        state["pages"] += 1
        for match in re.finditer(r'<article [^>]*id="(card-\d+)".*?</article>', html, re.S):
            cards[match.group(1)] = match.group(0)
        save()
        left = time.monotonic() + every if every else None
        kind = None
        while left is None or time.monotonic() < left:
            line = stream.readline()
            if not line:
                return   # the server stopped (the soak notices a server that died on its own)
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "card":
                card = json.loads(line[6:])
                cards[card["id"]] = card["html"]
                state["events"] += 1
                save()
            elif not line:
                kind = None
        events.close()


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "booking":
        print(booking(arguments[0]))
    elif command == "server":
        server(*arguments)
    elif command == "feed":
        feed(arguments[0], float(arguments[1]))
    elif command == "watch":
        watch(*arguments)
    elif command == "sse":
        sse(arguments[0], arguments[1], float(arguments[2]) if len(arguments) > 2 else None)
    else:
        raise SystemExit("unknown helper " + command)
