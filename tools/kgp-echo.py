#!/usr/bin/env python3
"""kgp-echo: a tiny Kalah Game Protocol (KGP) server that records what a client sends.

It exists to study the real KGP client libraries (pykgp, jkgp, kgpc; see tools/kgp-clients and
docs/bots-clients.md) without a Semis server: it plays one scripted session per connection and logs
every byte it receives, with WebSocket frame boundaries, so a client's exact wire habits (quoting,
line endings, one frame per token...) can be read off the log. Python 3 standard library only.

    tools/kgp-echo.py [--tcp-port N] [--ws-port N] [--log FILE] [--connections K]
                      [--probe LINE]... [--states N] [--think SECONDS] [--greeting LINE]
                      [--eol crlf|lf|none] [--gap SECONDS]

Ports default to 0 (any free port); the chosen ports are printed on stdout as the first line:
    kgp-echo: tcp 127.0.0.1:41234 ws ws://127.0.0.1:41235/kgp
The WebSocket listener accepts an upgrade on any path. Each session:
  1. sends the greeting (default `kgp 1 0 1`) and waits up to 5 s for a `mode` line;
  2. replies `ok` to `mode freeplay` (or `error` + `goodbye` to another mode, as the spec says);
  3. sends each --probe line (in order, after an id of its own unless the line starts with a digit)
     and listens 0.7 s after each to see whether the client answers or hangs up;
  4. sends --states `state` requests (legal boards, South to move), each answered until the client
     yields or --think seconds pass, then `stop`;
  5. sends `goodbye` and waits 2 s to see whether the client closes the connection itself.
The log (stderr, or --log FILE) has one line per event; the last line of a session is
`SUMMARY {json}` with what the client sent, as [step, line] pairs, and whether (and during which
step) it hung up.
"""
import argparse
import base64
import hashlib
import json
import queue
import socket
import sys
import threading
import time

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
BOARDS = [  # legal positions, South to move: <n, south store, north store, south houses, north houses>
    "<6,0,0,4,4,4,4,4,4,4,4,4,4,4,4>",
    "<6,1,0,4,4,0,5,5,5,4,4,4,4,4,4>",
    "<6,2,3,0,5,1,6,0,6,5,5,1,5,5,0>",
    "<12,10,11,12,0,12,12,12,12,12,12,12,12,12,1,12,12,12,12,12,12,12,12,12,12,12,0>",  # 12x12
]
OPCODES = {0: "cont", 1: "text", 2: "binary", 8: "close", 9: "ping", 10: "pong"}


class Log:
    def __init__(self, path):
        self.out = open(path, "a", buffering=1) if path else sys.stderr
        self.start = time.monotonic()
        self.lock = threading.Lock()

    def __call__(self, conn, text):
        with self.lock:
            self.out.write(f"T+{time.monotonic() - self.start:8.3f} c{conn} {text}\n")


class TcpTransport:
    """Line transport over a plain socket; records raw chunks exactly as received."""
    kind = "tcp"

    def __init__(self, sock, log, conn):
        self.sock, self.log, self.conn = sock, log, conn

    def handshake(self):
        return True

    eol = "\r\n"

    def send_line(self, line):
        self.sock.sendall((line + self.eol).encode())

    def chunks(self):
        while True:
            data = self.sock.recv(65536)
            if not data:
                return
            self.log(self.conn, f"tcp chunk {len(data)} bytes {data!r}")
            yield data

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class WsTransport(TcpTransport):
    """Minimal RFC 6455 server side: one text frame per line sent, every frame received logged."""
    kind = "ws"

    def __init__(self, sock, log, conn):
        super().__init__(sock, log, conn)
        self.buf = b""
        self.wlock = threading.Lock()

    def _read(self, n):
        while len(self.buf) < n:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError
            self.buf += data
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def handshake(self):
        while b"\r\n\r\n" not in self.buf:
            data = self.sock.recv(4096)
            if not data or len(self.buf) > 16384:
                return False
            self.buf += data
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        self.log(self.conn, f"ws request {lines[0]!r} headers {lines[1:]!r}")
        headers = {}
        for line in lines[1:]:
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        key = headers.get("sec-websocket-key")
        if not key:
            self.sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            return False
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        self.sock.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + "\r\n\r\n").encode())
        return True

    def _frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([n])
        elif n < 65536:
            head += bytes([126]) + n.to_bytes(2, "big")
        else:
            head += bytes([127]) + n.to_bytes(8, "big")
        with self.wlock:
            self.sock.sendall(head + payload)

    def send_line(self, line):
        self._frame(1, (line + self.eol).encode())

    def chunks(self):
        frame = 0
        try:
            while True:
                b0, b1 = self._read(2)
                fin, opcode, masked, n = b0 >> 7, b0 & 15, b1 >> 7, b1 & 127
                if n == 126:
                    n = int.from_bytes(self._read(2), "big")
                elif n == 127:
                    n = int.from_bytes(self._read(8), "big")
                mask = self._read(4) if masked else b"\0\0\0\0"
                data = bytes(c ^ mask[i % 4] for i, c in enumerate(self._read(n)))
                frame += 1
                self.log(self.conn, f"ws frame#{frame} fin={fin} op={OPCODES.get(opcode, opcode)} "
                                    f"masked={masked} {n} bytes {data!r}")
                if opcode == 8:
                    self._frame(8, data[:2])
                    return
                if opcode == 9:
                    self._frame(10, data)
                elif opcode in (0, 1, 2):
                    yield data
        except (EOFError, ValueError):
            return


class Session:
    def __init__(self, transport, log, conn, args):
        self.t, self.log, self.conn, self.args = transport, log, conn, args
        self.events = queue.Queue()
        self.received = []
        self.next_id = 1
        self.closed_at = None  # the step during which the client hung up
        self.step = "greeting"

    def reader(self):
        pending = b""
        for data in self.t.chunks():
            pending += data
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").rstrip("\r")
                self.log(self.conn, f"< {line!r}")
                self.received.append([self.step, line])
                self.events.put(line)
        if pending:
            self.log(self.conn, f"< (unterminated) {pending!r}")
            self.received.append([self.step, "(unterminated) " + pending.decode("utf-8", "replace")])
        self.events.put(None)

    def send(self, line, with_id=True):
        if with_id and not line[:1].isdigit():
            line = f"{self.next_id} {line}"
        ident = line.split(" ", 1)[0].split("@")[0]
        self.next_id += 2
        self.log(self.conn, f"> {line!r}")
        try:
            self.t.send_line(line)
        except OSError as e:
            self.log(self.conn, f"send failed: {e}")
        return ident

    def wait(self, seconds, until=None):
        """Collect client lines for up to SECONDS; stop early when UNTIL(line) is true."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                if self.closed_at is None:
                    self.closed_at = self.step
                    self.log(self.conn, f"client closed the connection during step {self.step!r}")
                return None
            if until and until(line):
                return line

    @staticmethod
    def words(line):
        parts = line.strip().split()
        if parts and parts[0][0].isdigit():
            parts = parts[1:]
        return parts

    def run(self):
        threading.Thread(target=self.reader, daemon=True).start()
        self.send(self.args.greeting, with_id=False)
        self.step = "mode"
        mode = self.wait(5, lambda l: self.words(l)[:1] == ["mode"])
        if mode is None:
            return self.finish()
        ident = mode.split()[0] if mode[:1].isdigit() else ""
        ref = f"@{ident.split('@')[0]}" if ident else ""
        arg = self.words(mode)[1:2]
        if arg and arg[0].strip('"') == "freeplay":
            self.send(f"{self.next_id}{ref} ok")
        else:
            self.send(f"{self.next_id}{ref} error \"unsupported mode\"")
            self.send("goodbye", with_id=False)
            return self.finish()
        self.wait(0.3)
        for probe in self.args.probe:
            if self.closed_at:
                break
            self.step = f"probe {probe}"
            self.send(probe)
            self.wait(0.7)
        for i in range(self.args.states):
            if self.closed_at:
                break
            board = BOARDS[i % len(BOARDS)]
            self.step = f"state {i + 1}"
            sid = self.send(f"state {board}")
            self.wait(self.args.think, lambda l, s=sid: self.words(l)[:1] == ["yield"]
                      and l.split()[0].endswith(f"@{s}"))
            if self.closed_at:
                break
            self.send(f"{self.next_id}@{sid} stop")
            self.wait(self.args.gap)
        if not self.closed_at:
            self.step = "goodbye"
            self.send("goodbye", with_id=False)
            self.wait(2)
            if not self.closed_at:
                self.log(self.conn, "client still connected 2 s after goodbye; the server closes")
        return self.finish()

    def finish(self):
        self.t.close()
        summary = {"conn": self.conn, "transport": self.t.kind, "received": self.received,
                   "client_closed_during": self.closed_at}
        self.log(self.conn, "SUMMARY " + json.dumps(summary))


def serve(listener, transport_class, log, args, counter, done):
    while True:
        sock, peer = listener.accept()
        with counter["lock"]:
            counter["n"] += 1
            conn = counter["n"]
        log(conn, f"{transport_class.kind} connection from {peer[0]}:{peer[1]}")

        def handle(sock=sock, conn=conn):
            t = transport_class(sock, log, conn)
            try:
                if t.handshake():
                    Session(t, log, conn, args).run()
                else:
                    log(conn, "bad WebSocket handshake")
                    t.close()
            finally:
                done.put(conn)
        threading.Thread(target=handle, daemon=True).start()


def main():
    p = argparse.ArgumentParser(description="record what a KGP client sends")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--tcp-port", type=int, default=0)
    p.add_argument("--ws-port", type=int, default=0)
    p.add_argument("--log")
    p.add_argument("--connections", type=int, default=0, help="exit after K sessions (0: never)")
    p.add_argument("--probe", action="append", default=[], help="a line to send after mode")
    p.add_argument("--states", type=int, default=2)
    p.add_argument("--think", type=float, default=1.5)
    p.add_argument("--gap", type=float, default=0.2, help="seconds between a stop and the next state")
    p.add_argument("--greeting", default="kgp 1 0 1")
    p.add_argument("--eol", choices=("crlf", "lf", "none"), default="crlf",
                   help="line ending of what the server sends (none: WebSocket frames only)")
    args = p.parse_args()
    log = Log(args.log)
    TcpTransport.eol = {"crlf": "\r\n", "lf": "\n", "none": ""}[args.eol]
    counter, done = {"n": 0, "lock": threading.Lock()}, queue.Queue()
    names = []
    for port, cls in ((args.tcp_port, TcpTransport), (args.ws_port, WsTransport)):
        ls = socket.create_server((args.host, port))
        names.append(ls.getsockname()[1])
        threading.Thread(target=serve, args=(ls, cls, log, args, counter, done), daemon=True).start()
    print(f"kgp-echo: tcp {args.host}:{names[0]} ws ws://{args.host}:{names[1]}/kgp", flush=True)
    finished = 0
    while args.connections == 0 or finished < args.connections:
        done.get()
        finished += 1


if __name__ == "__main__":
    main()
