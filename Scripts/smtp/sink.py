#!/usr/bin/env python3
"""An SMTP sink on loopback for the tests that mail scheduling messages (msmtp -> here).

    sink.py FOLDER

Listens on 127.0.0.1 at a free port, writes it to FOLDER/port (and prints `port=N`), and writes each message
it is given to FOLDER as N.eml, with N.json beside it holding the envelope ({"from", "to"}).
Speaks just enough of RFC 5321 for a submission client without TLS or AUTH: EHLO/HELO, MAIL,
RCPT, DATA (dot-unstuffed), RSET, NOOP, QUIT. Stops on SIGTERM.
"""
import json
import os
import socketserver
import sys
import threading

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
count = 0
lock = threading.Lock()


class Session(socketserver.StreamRequestHandler):
    def say(self, line):
        self.wfile.write((line + "\r\n").encode())
        self.wfile.flush()

    def handle(self):
        self.say("220 calgw-test-sink ESMTP")
        sender, recipients = None, []
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            verb = line[:4].upper()
            if verb in ("EHLO", "HELO"):
                self.say("250-calgw-test-sink" if verb == "EHLO" else "250 calgw-test-sink")
                if verb == "EHLO":
                    self.say("250 8BITMIME")
            elif line.upper().startswith("MAIL FROM:"):
                sender, recipients = line[10:].strip().split(" ")[0].strip("<>"), []
                self.say("250 OK")
            elif line.upper().startswith("RCPT TO:"):
                recipients.append(line[8:].strip().split(" ")[0].strip("<>"))
                self.say("250 OK")
            elif verb == "DATA":
                self.say("354 End data with <CR><LF>.<CR><LF>")
                data = bytearray()
                while True:
                    chunk = self.rfile.readline()
                    if not chunk or chunk in (b".\r\n", b".\n"):
                        break
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                self.store(sender, recipients, bytes(data))
                self.say("250 OK: queued")
            elif verb == "RSET":
                sender, recipients = None, []
                self.say("250 OK")
            elif verb == "NOOP":
                self.say("250 OK")
            elif verb == "QUIT":
                self.say("221 Bye")
                return
            else:
                self.say("502 Command not implemented")

    def store(self, sender, recipients, data):
        global count
        with lock:
            count += 1
            name = os.path.join(folder, str(count))
        with open(name + ".json", "w") as f:
            json.dump({"from": sender, "to": recipients}, f)
        with open(name + ".eml.part", "wb") as f:
            f.write(data)
        os.rename(name + ".eml.part", name + ".eml")


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


with Server(("127.0.0.1", 0), Session) as server:
    port = server.server_address[1]
    with open(os.path.join(folder, "port.part"), "w") as f:
        f.write(str(port))
    os.rename(os.path.join(folder, "port.part"), os.path.join(folder, "port"))
    print(f"port={port}", flush=True)
    server.serve_forever()
