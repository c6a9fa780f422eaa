"""moto_server, one request at a time.

moto's DynamoDB checks a ConditionExpression and then writes, with no lock
between, and moto_server serves each connection on its own thread: two
racing conditional writes to one item can both succeed (the store contract's
ConcurrentClaims fails on it under load). DynamoDB makes each conditional
write atomic, as the delivery guarantees assume. This serves moto's own
application with one lock around each request, keep-alive kept.

Usage: python3 .ci/moto-atomic.py HOST PORT
"""

import io
import sys
import threading

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    create_backend_app,
)
from werkzeug.serving import run_simple

app = DomainDispatcherApplication(create_backend_app)
lock = threading.Lock()


def atomic(environ, start_response):
    # The request is read before the lock and the answer written after it,
    # so that a slow client holds up no one else.
    stream, length = environ["wsgi.input"], environ.get("CONTENT_LENGTH")
    if length:
        body = stream.read(int(length))
    elif environ.get("wsgi.input_terminated"):  # chunked
        body = stream.read()
    else:
        body = b""
    environ["wsgi.input"] = io.BytesIO(body)
    with lock:
        return list(app(environ, start_response))


if __name__ == "__main__":
    run_simple(sys.argv[1], int(sys.argv[2]), atomic, threaded=True)
