"""The plain HTTP client of the benchmark scripts that drive the Callx reference from Python (keep-alive
http.client, a user's bearer token `token-<user>`, JSON bodies), imported by their inline Python."""
import http.client
import json
import time
import urllib.parse


def connector(base, timeout=30):
    """A function that opens a keep-alive connection to `base` (http://host:port)."""
    url = urllib.parse.urlparse(base)
    return lambda: http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)


def call(conn, method, path, user, body=None):
    """Sends one request as `user` (Bearer token-<user>), `body` as JSON; returns (status, payload bytes, ms)."""
    headers = {"authorization": "Bearer token-" + user}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    started = time.perf_counter()
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    return response.status, payload, (time.perf_counter() - started) * 1000
