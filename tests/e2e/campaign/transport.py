"""transport: one Case over a fresh TCP connection, as raw as http.client allows.

The answer is a cbclient.Response, or None with the reason when the server
closed or reset the connection, or did not answer in time (all findings).
"""

import http.client
import select
import socket
import time
import urllib.parse

import cbclient as cb

TIMEOUT_S = 30
CHUNK_BYTES = 64 * 1024


def send(base_url, case):
    parts = urllib.parse.urlsplit(base_url)
    if case.stream:
        return _send_streaming(parts.hostname, parts.port, case)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT_S)
    try:
        conn.putrequest(case.method, case.path, skip_accept_encoding=True)
        headers = {"User-Agent": cb.USER_AGENT, "Accept": "application/json", "Connection": "close"}
        headers.update(case.headers)
        body = case.body
        if body is not None or case.method in ("POST", "PUT", "PATCH"):
            headers["Content-Length"] = str(len(body or b""))
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        raw = conn.getresponse()
        data = raw.read()
        return cb.Response(raw.status, raw.reason, raw.headers, data), None
    except (http.client.HTTPException, OSError) as error:
        return None, f"{type(error).__name__}: {error}"
    finally:
        conn.close()


def _send_streaming(host, port, case):
    """A large body in chunks, stopping when the server answers early (as a 413 does)."""
    try:
        sock = socket.create_connection((host, port), timeout=TIMEOUT_S)
    except OSError as error:
        return None, f"connect: {error}"
    try:
        head = [f"{case.method} {case.path} HTTP/1.1", f"Host: {host}:{port}", f"User-Agent: {cb.USER_AGENT}",
                "Content-Type: application/json", f"Content-Length: {len(case.body)}", "Connection: close"]
        head += [f"{k}: {v}" for k, v in case.headers.items() if k.lower() != "content-type"]
        try:
            sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
            # Never block in a send: a server that answered 413 early may stop
            # reading without closing, and its answer must still be read.
            sent = 0
            give_up = time.monotonic() + TIMEOUT_S
            while sent < len(case.body) and time.monotonic() < give_up:
                readable, writable, _ = select.select([sock], [sock], [], 1.0)
                if readable:
                    break
                if writable:
                    sent += sock.send(case.body[sent:sent + CHUNK_BYTES])
        except (BrokenPipeError, ConnectionResetError):
            pass
        raw = http.client.HTTPResponse(sock, method=case.method)
        try:
            raw.begin()
            data = raw.read()
        except (http.client.HTTPException, OSError) as error:
            return None, f"{type(error).__name__}: {error}"
        return cb.Response(raw.status, raw.reason, raw.headers, data), None
    finally:
        sock.close()
