#!/usr/bin/env python3
"""Slow clients against a running `wayfinder serve`, while real requests keep coming.

usage: slow_clients.py BASE_URL [--clients N] [--seconds S] [--source ADDR] [--path PATH] [--limit SECONDS]

Opens N connections (from the local address ADDR, default 127.0.0.2, so a per-address limit on them spares the real
clients on 127.0.0.1) that each send the start of a request and then one more header byte every second, never
finishing it (slowloris). Meanwhile it asks BASE_URL/health and BASE_URL + PATH one after another, each on a new
connection, and records how long every answer took. Then it closes the slow connections and watches the server's
port for sockets left in CLOSE-WAIT (from /proc/net/tcp).

Prints one line `slow=… real=… failed=… slowest=…s close_wait_after=… (after …s)` and exits 0 when every real request
got a 2xx answer within --limit seconds (default 10) and no CLOSE-WAIT socket is left 5 s after the clients left;
1 otherwise.
"""
import resource
import socket
import sys
import time
import urllib.request
from urllib.parse import urlparse


def close_wait_count(port):
    """Sockets on `port` (local side) in CLOSE-WAIT (state 08), IPv4 and IPv6."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    local, state = fields[1], fields[3]
                    if int(local.rsplit(":", 1)[1], 16) == port and state == "08":
                        count += 1
        except OSError:
            pass
    return count


def still_open(s, drip):
    """Whether the server still holds slow connection `s` (closing it when not); sends one more byte when `drip`."""
    try:
        if s.recv(1) == b"":
            s.close()
            return False
    except BlockingIOError:
        pass
    except OSError:
        s.close()
        return False
    if drip:
        try:
            s.send(b"a")
        except OSError:
            s.close()
            return False
    return True


def main(argv):
    base = argv[1]
    options = {"--clients": "1000", "--seconds": "8", "--source": "127.0.0.2", "--path": "/health", "--limit": "10"}
    rest = argv[2:]
    while rest:
        name = rest.pop(0)
        if name not in options or not rest:
            print(__doc__, file=sys.stderr)
            return 2
        options[name] = rest.pop(0)
    clients, seconds, limit = int(options["--clients"]), float(options["--seconds"]), float(options["--limit"])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = clients + 64 if hard == resource.RLIM_INFINITY else min(clients + 64, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    url = urlparse(base)
    host, port = url.hostname, url.port

    slow = []
    refused = 0
    for _ in range(clients):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(True)
        s.settimeout(2)
        try:
            if options["--source"]:
                s.bind((options["--source"], 0))
            s.connect((host, port))
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            s.setblocking(False)
            slow.append(s)
        except OSError:
            refused += 1
            s.close()

    real, failed, slowest, failures = 0, 0, 0.0, []
    end = time.time() + seconds
    last_drip = time.time()
    paths = ["/health", options["--path"]]
    while time.time() < end:
        for path in paths:
            started = time.time()
            try:
                with urllib.request.urlopen(base + path, timeout=limit + 5) as answer:
                    answer.read()
                    ok = 200 <= answer.status < 300
            except Exception as error:  # noqa: BLE001 - any failure counts
                ok = False
                failures.append(f"{path}: {error}")
            took = time.time() - started
            real += 1
            slowest = max(slowest, took)
            if not ok or took > limit:
                failed += 1
        if time.time() - last_drip >= 1:
            last_drip = time.time()
            slow = [s for s in slow if still_open(s, drip=True)]
    slow = [s for s in slow if still_open(s, drip=False)]
    still_open_count = len(slow)
    for s in slow:
        s.close()
    waited, lingering = 0.0, close_wait_count(port)
    while lingering and waited < 5:
        time.sleep(0.25)
        waited += 0.25
        lingering = close_wait_count(port)
    print(f"slow={clients - refused} (refused {refused}, open at the end {still_open_count}) real={real} failed={failed} "
          f"slowest={slowest:.2f}s close_wait_after={lingering} (after {waited:.2f}s)")
    for line in failures[:5]:
        print("  " + line)
    return 0 if failed == 0 and real > 0 and lingering == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
