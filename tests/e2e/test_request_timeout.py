"""A request that does not arrive in time is answered 408 and the connection closed (issue 13).

The HTTP library (Pistache 0.0.5, TransportImpl::checkIdlePeers) gives a
client 10 s for its request line and headers and 30 s for its body (the
timeouts httpd/src/service.cpp sets), then answers `408 Request Timeout`
itself, with an empty body, and closes the connection, so that a slow or
stalled client cannot hold a connection for ever. The tier never sees such a
request, so the answer has none of the service's headers or error body: the
four OpenAPI documents say exactly that (components/responses/RequestTimeout,
listed by every operation, since it comes before any route is chosen).

Method: on each service at once, open a connection, send a request line and
one header but never the blank line that ends the headers, and read what
comes back: 408 with an empty body, after the header timeout and not before,
then the end of the connection; and the status is one the operation named
lists.
"""

import concurrent.futures
import http.client
import os
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402
import openapi_check  # noqa: E402

HEADER_TIMEOUT_S = 10          # headerTimeout in httpd/src/service.cpp
WAIT_LIMIT_S = HEADER_TIMEOUT_S + 15

# service: (base URL, an operation to name)
SERVICES = {
    "identity": (cb.ID_URL, "/health"),
    "core": (cb.CORE_URL, "/actuator/health"),
    "verification": (cb.VERIFY_URL, "/health"),
    "events": (cb.EVENTS_URL, "/health"),
}


def setUpModule():
    cb.require_identity_service()


def stalled_request(base_url, path):
    """(seconds until the answer, Response, whether the server then closed) for headers that never end."""
    http_client = cb.HttpClient(base_url)
    sock = socket.create_connection((http_client.host, http_client.port), timeout=WAIT_LIMIT_S)
    try:
        started = time.monotonic()
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {http_client.host}\r\n".encode("ascii"))
        raw = http.client.HTTPResponse(sock, method="GET")
        raw.begin()
        data = raw.read()
        elapsed = time.monotonic() - started
        sock.settimeout(5)
        try:
            closed = sock.recv(1) == b""
        except ConnectionResetError:
            closed = True
        return elapsed, cb.Response(raw.status, raw.reason, raw.headers, data), closed
    finally:
        sock.close()


class RequestTimeoutTest(unittest.TestCase):
    def test_stalled_headers_get_408_and_the_connection_closed_on_every_service(self):
        """Headers that never end: 408 after the header timeout, an empty body, the connection closed; documented."""
        services = {name: spec for name, spec in SERVICES.items() if spec[0]}
        with concurrent.futures.ThreadPoolExecutor(len(services)) as pool:
            answers = {name: pool.submit(stalled_request, url, path) for name, (url, path) in services.items()}
            answers = {name: future.result() for name, future in answers.items()}
        for name, (elapsed, resp, closed) in answers.items():
            url, path = services[name]
            with self.subTest(service=name):
                self.assertEqual(resp.status, 408, resp)
                self.assertEqual((resp.body, resp.header("Content-Length")), (b"", "0"), resp)
                self.assertGreaterEqual(elapsed, HEADER_TIMEOUT_S - 1, "answered before the header timeout")
                self.assertTrue(closed, "the connection stays open after the 408")
                document = openapi_check.OpenApi(cb.HttpClient(url).request("GET", "/openapi.json", check=False).json,
                                                 f"the {name} service's /openapi.json")
                # Listed by the operation, with no body (components/responses/RequestTimeout).
                self.assertIsNone(document.response_schema("GET", path, 408))
                document.check("GET", path, resp)

    def test_every_operation_documents_408(self):
        """Each service's document lists 408 on every operation, as it does 413."""
        for name, (url, _) in SERVICES.items():
            if not url:
                continue
            paths = cb.HttpClient(url).request("GET", "/openapi.json", check=False).json["paths"]
            missing = [f"{method.upper()} {template}" for template, item in paths.items()
                       for method, operation in item.items()
                       if isinstance(operation, dict) and "responses" in operation
                       and "408" not in operation["responses"]]
            with self.subTest(service=name):
                self.assertEqual(missing, [], f"operations of {name} without 408")


if __name__ == "__main__":
    unittest.main()
