#!/usr/bin/env python3
"""A TLS front for tests: serves HTTPS with a certificate from a throwaway CA made by
`openssl` at start, and forwards every request to a plain-HTTP upstream.

    python3 Scripts/proxies/tls_proxy.py --upstream http://127.0.0.1:5232/ \\
        [--dir FOLDER] [--name localhost] [--log FILE] [--port 0]

Writes ca.pem, cert.pem (leaf) and key.pem into --dir (default: a new temporary folder) and
prints, once listening:

    PROXY_DIR=FOLDER
    PROXY_CA=FOLDER/ca.pem              the CA certificate (for --cacert / ca_file)
    PROXY_CERT=FOLDER/cert.pem          the leaf certificate
    PROXY_CERT_SHA256=hex               SHA-256 of the leaf certificate (DER), lowercase hex
    PROXY_SPKI_SHA256=base64            SHA-256 of the leaf's public key (DER SubjectPublicKeyInfo),
                                        base64, as in curl's --pinnedpubkey sha256//...
    PROXY_URL=https://127.0.0.1:PORT/

The leaf is valid for 127.0.0.1, ::1, localhost and every --name. The system's CAs do not
trust it.
"""

import base64
import hashlib
import os
import ssl
import subprocess
import tempfile

import proxylib


def openssl(*args, cwd):
    result = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        proxylib.fail(f"openssl {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def make_certificates(folder, names):
    """A CA and a leaf signed by it, both P-256 keys, valid for two days."""
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=calgw test CA",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=folder)
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "key.pem", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1", cwd=folder)
    alt_names = ["IP:127.0.0.1", "IP:::1"] + [f"DNS:{name}" for name in ["localhost", *names]]
    with open(os.path.join(folder, "leaf.ext"), "w") as f:
        f.write("basicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                "subjectKeyIdentifier=hash\n"
                "authorityKeyIdentifier=keyid,issuer\n"
                f"subjectAltName={','.join(alt_names)}\n")
    openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-days", "2", "-sha256", "-extfile", "leaf.ext", "-out", "cert.pem", cwd=folder)


def fingerprints(folder):
    """SHA-256 of the leaf certificate (hex) and of its public key (base64)."""
    with open(os.path.join(folder, "cert.pem")) as f:
        der = ssl.PEM_cert_to_DER_cert(f.read())
    cert_sha256 = hashlib.sha256(der).hexdigest()
    public_pem = openssl("x509", "-in", "cert.pem", "-pubkey", "-noout", cwd=folder)
    spki_der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public_pem.encode(),
                              capture_output=True, check=True).stdout
    spki_sha256 = base64.b64encode(hashlib.sha256(spki_der).digest()).decode()
    return cert_sha256, spki_sha256


class TLSProxyServer(proxylib.ProxyServer):
    """Handshakes in the connection's own thread, so a stalled client holds up no one else."""

    def __init__(self, address, handler, upstream, log_path, context):
        super().__init__(address, handler, upstream, log_path, scheme="https")
        self.context = context

    def get_request(self):
        sock, address = super().get_request()
        return self.context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address

    def finish_request(self, request, client_address):
        try:
            request.do_handshake()
        except (ssl.SSLError, OSError):
            return  # a client that refused our certificate: nothing to serve
        super().finish_request(request, client_address)


def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--dir", help="folder for the CA and certificate (default: a new temporary one)")
    parser.add_argument("--name", action="append", default=[], help="another DNS name for the certificate")
    config = parser.parse_args()
    folder = os.path.abspath(config.dir) if config.dir else tempfile.mkdtemp(prefix="calgw-tls-")
    os.makedirs(folder, exist_ok=True)
    make_certificates(folder, config.name)
    cert_sha256, spki_sha256 = fingerprints(folder)

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))
    server = TLSProxyServer(("127.0.0.1", config.port), proxylib.ForwardingHandler,
                            proxylib.Upstream(config.upstream), config.log, context)
    proxylib.serve(server, [
        ("PROXY_DIR", folder),
        ("PROXY_CA", os.path.join(folder, "ca.pem")),
        ("PROXY_CERT", os.path.join(folder, "cert.pem")),
        ("PROXY_CERT_SHA256", cert_sha256),
        ("PROXY_SPKI_SHA256", spki_sha256),
    ])


if __name__ == "__main__":
    main()
