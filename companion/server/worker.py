"""gunicorn's gevent worker, with deadlines on what a client must send and take.

gunicorn 27 has no setting for how long a request's headers or body may take to arrive: its gevent
worker waits ``keepalive`` seconds (75 here) for a whole request line and headers, and a body for
ever, so a client that opens connections and sends half a request holds a connection slot each for
that long (issue 29: 5,000 half-sent headers stayed open 40 s, none closed; at a small scale 220 of
them made ``/healthz`` time out). nginx has ``client_header_timeout`` and
``client_body_timeout`` for this; the shipped server is often used without nginx (a laptop on the
table's Wi-Fi), hence these few hand-written lines: :class:`PacedSocket` wraps each client's socket
and gives every read and write a deadline, and :class:`CompanionWorker` tells it where a request
starts and ends. The rest of gunicorn's request handling (the parser, keep-alive, errors) is
unchanged.

The deadlines (``companion/server/settings.py``, :class:`ConnectionLimits`):

- a request's line and headers must be complete ``header`` seconds after its first byte (after the
  connection opened, for its first request), else the connection is closed, with a 408 if some of
  the request had come;
- a declared body may keep the server waiting on the client ``body`` seconds in all, else 408 and
  closed (the time the app spends before reading it is not counted: only the waits for its bytes);
- between two requests, a keep-alive connection may stay idle ``keepalive`` seconds (gunicorn's own
  setting), then it is closed;
- an answer must be taken by the client within ``send`` seconds for each write, else it is closed.

Also hands the app, in every request's environ, this worker's slot of the held-polls table that
the master made before it forked (``companion/server/hooks.py``).
"""

from __future__ import annotations

import errno
import io
import time

import gevent
from gunicorn.workers.ggevent import GeventWorker

from companion.live.holds import ENVIRON_KEY, HeldPolls

from .settings import ConnectionLimits, connection_limits

_IDLE, _HEADERS, _BODY = "idle", "headers", "body"
LAST_LOOK = 0.001  # seconds: past a deadline, a read only takes what has already come
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class PacedSocket:
    """A client's socket whose reads and writes have deadlines (see the module's docstring).

    Everything but reading and writing is the socket's own. A read past its deadline answers as if
    the client had closed the connection (``b""``), so gunicorn's parser ends the connection as it
    does for a client gone; before that, a client caught in the middle of a request is told 408,
    and nothing the app answers afterwards is sent."""

    def __init__(self, sock, limits: ConnectionLimits):
        self._sock = sock
        self._limits = limits
        self._phase = _HEADERS  # a new connection's first request: its clock runs from the accept
        self._deadline = time.monotonic() + limits.header
        self._budget = 0.0
        self._seen = False  # some of the current request has come
        self._expired = False  # a deadline passed: nothing more is read or sent

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def reading_body(self) -> None:
        """The headers are in: what the app reads now is the body, within its budget."""
        self._phase, self._budget = _BODY, self._limits.body

    def answered(self, pending: bool = False) -> None:
        """The request was answered: the connection may idle until the next request's first byte,
        unless some of the next request came with the last one (``pending``): its clock runs now."""
        if pending:
            self._phase, self._seen, self._deadline = _HEADERS, True, time.monotonic() + self._limits.header
        else:
            self._phase, self._seen = _IDLE, False

    def recv(self, size: int) -> bytes:
        if self._expired:
            return b""
        started = time.monotonic()
        if self._phase == _IDLE:
            wait = float(self._limits.keepalive)
        elif self._phase == _HEADERS:
            wait = self._deadline - started
        else:
            wait = self._budget
        try:
            # The socket's own timeout: gevent reads what is there at once and arms a timer only
            # when nothing is. Past the deadline it still takes what came meanwhile: a busy worker
            # that comes late to its bytes does not count its own lateness against the client.
            self._sock.settimeout(max(wait, LAST_LOOK))
            data = self._sock.recv(size)
        except TimeoutError:
            self._expire()
            return b""
        if self._phase == _BODY:
            self._budget -= time.monotonic() - started
        elif self._phase == _IDLE and data:
            # The next request has begun (or the rest of the last one's unread body): its line and
            # headers are due within the header time from now.
            self._phase, self._deadline = _HEADERS, time.monotonic() + self._limits.header
        self._seen = self._seen or bool(data)
        return data

    def sendall(self, data) -> None:
        if self._expired:
            return  # the client was told 408: the app's late answer goes nowhere
        self._within_send(self._sock.sendall, data)

    def send(self, data) -> int:
        if self._expired:
            return len(data)
        return self._within_send(self._sock.send, data)

    def sendfile(self, file, offset=0, count=None):
        return self._within_send(self._sock.sendfile, file, offset, count)

    def _within_send(self, write, *args):
        """``write(*args)`` within the send time (gevent's sendall counts it for the whole write)."""
        try:
            self._sock.settimeout(self._limits.send)
            return write(*args)
        except TimeoutError:
            # gunicorn takes a broken pipe for a client gone: the connection is closed, nothing logged
            raise BrokenPipeError(errno.EPIPE, "the client took no answer in time") from None

    def _expire(self) -> None:
        """A deadline passed: say 408 to a client caught in the middle of a request, then read and
        send nothing more (gunicorn closes the connection when its next read finds nothing)."""
        if self._seen and self._phase in (_HEADERS, _BODY):
            try:
                self._sock.settimeout(1.0)  # best effort: a client that reads nothing gets nothing
                self._sock.sendall(TIMED_OUT)
            except OSError:
                pass
        self._expired = True


class CompanionWorker(GeventWorker):
    """gunicorn's gevent worker with :class:`PacedSocket` around every plain-HTTP client, and this
    worker's slot of the shared held-polls table handed to the app in every request's environ.

    TLS is nginx's job in every deployment of ``deploy/``: a server given gunicorn's own
    ``certfile`` keeps gunicorn's stock reading (the TLS handshake needs the socket itself)."""

    held_polls: HeldPolls | None = None  # set by pre_fork, in the master, before the fork

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.limits = connection_limits(keepalive=self.cfg.keepalive)

    def load_wsgi(self):
        super().load_wsgi()
        table = self.held_polls
        if table is None:
            return  # the app counts this process's polls on its own
        app = self.wsgi

        def with_held_polls(environ, start_response):
            environ[ENVIRON_KEY] = table
            return app(environ, start_response)

        self.wsgi = with_held_polls

    def timeout_ctx(self):
        # gunicorn bounds idling and reading the next request together by keepalive; PacedSocket
        # bounds each on its own, so this is only the backstop of both.
        return gevent.Timeout(self.cfg.keepalive + self.limits.header, False)

    def handle(self, listener, client, addr):
        if not self.cfg.is_ssl:
            client = PacedSocket(client, self.limits)
        super().handle(listener, client, addr)

    def handle_request(self, listener_name, req, sock, addr):
        paced = isinstance(sock, PacedSocket)
        if paced:
            sock.reading_body()
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            if paced:
                sock.answered(pending=_read_ahead(req))


def _read_ahead(req) -> bool:
    """Whether gunicorn's parser already holds bytes past this request (the next one has begun)."""
    buffered = getattr(getattr(req, "unreader", None), "buf", None)
    return buffered is not None and buffered.seek(0, io.SEEK_END) > 0
