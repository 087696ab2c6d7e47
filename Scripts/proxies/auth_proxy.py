#!/usr/bin/env python3
"""An auth-enforcing proxy for tests: Basic, Digest (RFC 7616) or Bearer in front of a server.

    python3 Scripts/proxies/auth_proxy.py --upstream http://127.0.0.1:5232/ --mode digest \\
        --user alice --password secret [--algorithm sha-256|md5|both] [--port 0] [--log FILE]
    ... --mode bearer --token T | --token-file FILE   (the file is read on every request,
                                                       so a test can rotate the token)

Prints PROXY_URL=http://127.0.0.1:PORT/ once listening. A request without valid credentials
gets 401 with the mode's WWW-Authenticate challenge and is not forwarded. A valid one is
forwarded with the client's Authorization removed, or replaced by Basic credentials for the
upstream (--upstream-user / --upstream-password).
"""

import base64
import hashlib
import hmac
import os
import secrets
import threading

import proxylib

REALM = "calgw-proxy"
HASHES = {"MD5": hashlib.md5, "SHA-256": hashlib.sha256}


def parse_auth_params(text):
    """Parses `key=value, key="quoted value"` pairs of an Authorization header."""
    params, i, n = {}, 0, len(text)
    while i < n:
        while i < n and text[i] in " ,":
            i += 1
        start = i
        while i < n and text[i] not in "=, ":
            i += 1
        key = text[start:i].strip().lower()
        while i < n and text[i] == " ":
            i += 1
        if i >= n or text[i] != "=":
            if key:
                params[key] = ""
            continue
        i += 1
        while i < n and text[i] == " ":
            i += 1
        if i < n and text[i] == '"':
            i += 1
            value = []
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                value.append(text[i])
                i += 1
            i += 1
            params[key] = "".join(value)
        else:
            start = i
            while i < n and text[i] != ",":
                i += 1
            params[key] = text[start:i].strip()
    return params


class DigestState:
    """Nonces this proxy issued, and the highest nonce count seen for each."""

    def __init__(self):
        self.lock = threading.Lock()
        self.nonces = {}

    def new_nonce(self):
        nonce = secrets.token_hex(16)
        with self.lock:
            self.nonces[nonce] = 0
        return nonce

    def accept_count(self, nonce, count):
        with self.lock:
            if nonce not in self.nonces or count <= self.nonces[nonce]:
                return False
            self.nonces[nonce] = count
            return True


class AuthHandler(proxylib.ForwardingHandler):
    def handle_request(self):
        config = self.server.config
        verdict = {"basic": self.check_basic, "digest": self.check_digest, "bearer": self.check_bearer}[config.mode]()
        self.entry["auth"] = verdict
        if verdict != "ok":
            self.challenge(verdict)
            return
        self.send(self.forward())

    def upstream_headers(self):
        headers = [(k, v) for k, v in super().upstream_headers() if k.lower() != "authorization"]
        config = self.server.config
        if config.upstream_user is not None:
            pair = f"{config.upstream_user}:{config.upstream_password or ''}".encode()
            headers.append(("Authorization", "Basic " + base64.b64encode(pair).decode()))
        return headers

    # -- the three schemes ---------------------------------------------------------------

    def credentials(self, scheme):
        header = self.headers.get("Authorization", "")
        name, _, rest = header.partition(" ")
        return rest.strip() if name.lower() == scheme else None

    def check_basic(self):
        given = self.credentials("basic")
        if given is None:
            return "missing"
        try:
            user, _, password = base64.b64decode(given).decode().partition(":")
        except ValueError:
            return "malformed"
        config = self.server.config
        ok = hmac.compare_digest(user, config.user) and hmac.compare_digest(password, config.password)
        return "ok" if ok else "wrong"

    def check_digest(self):
        given = self.credentials("digest")
        if given is None:
            return "missing"
        params = parse_auth_params(given)
        config = self.server.config
        algorithm = params.get("algorithm", "MD5").upper()
        self.entry["algorithm"] = algorithm
        if algorithm not in config.algorithms:
            return "wrong-algorithm"
        if params.get("qop") != "auth" or params.get("realm") != REALM or params.get("username") != config.user:
            return "wrong"
        if params.get("uri") != self.path:
            return "wrong-uri"
        try:
            count = int(params.get("nc", ""), 16)
        except ValueError:
            return "malformed"
        h = lambda text: HASHES[algorithm](text.encode()).hexdigest()
        ha1 = h(f"{config.user}:{REALM}:{config.password}")
        ha2 = h(f"{self.command}:{params['uri']}")
        expected = h(f"{ha1}:{params.get('nonce')}:{params.get('nc')}:{params.get('cnonce')}:auth:{ha2}")
        if not hmac.compare_digest(expected, params.get("response", "")):
            return "wrong"
        if not self.server.digest.accept_count(params.get("nonce"), count):
            return "stale"
        return "ok"

    def check_bearer(self):
        given = self.credentials("bearer")
        if given is None:
            return "missing"
        config = self.server.config
        if config.token_file:
            with open(config.token_file, encoding="utf-8") as f:
                token = f.read().strip()
        else:
            token = config.token
        return "ok" if token and hmac.compare_digest(given, token) else "wrong"

    def challenge(self, verdict):
        config = self.server.config
        if config.mode == "basic":
            headers = [("WWW-Authenticate", f'Basic realm="{REALM}", charset="UTF-8"')]
        elif config.mode == "bearer":
            value = f'Bearer realm="{REALM}"'
            if verdict == "wrong":
                value += ', error="invalid_token"'
            headers = [("WWW-Authenticate", value)]
        else:
            stale = ", stale=true" if verdict == "stale" else ""
            headers = [("WWW-Authenticate",
                        f'Digest realm="{REALM}", qop="auth", algorithm={algorithm}, '
                        f'nonce="{self.server.digest.new_nonce()}", opaque="{secrets.token_hex(8)}"{stale}')
                       for algorithm in config.algorithms]
        self.send_simple(401, headers, b"authentication required\n")


def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["basic", "digest", "bearer"], required=True)
    parser.add_argument("--user", default="")
    parser.add_argument("--password", default="")
    parser.add_argument("--algorithm", choices=["sha-256", "md5", "both"], default="both",
                        help="Digest algorithms offered, SHA-256 first (default: both)")
    parser.add_argument("--token", help="the Bearer token accepted")
    parser.add_argument("--token-file", help="a file holding the Bearer token, read on every request")
    parser.add_argument("--upstream-user", help="send Basic credentials upstream as this user")
    parser.add_argument("--upstream-password")
    config = parser.parse_args()
    if config.mode in ("basic", "digest") and not config.user:
        proxylib.fail("--user is needed for basic and digest")
    if config.mode == "bearer" and not (config.token or config.token_file):
        proxylib.fail("--token or --token-file is needed for bearer")
    if config.token_file and not os.path.exists(config.token_file):
        proxylib.fail(f"--token-file {config.token_file} does not exist")
    config.algorithms = {"sha-256": ["SHA-256"], "md5": ["MD5"], "both": ["SHA-256", "MD5"]}[config.algorithm]

    server = proxylib.ProxyServer(("127.0.0.1", config.port), AuthHandler,
                                  proxylib.Upstream(config.upstream), config.log)
    server.config = config
    server.digest = DigestState()
    proxylib.serve(server)


if __name__ == "__main__":
    main()
