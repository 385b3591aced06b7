"""A small HTTP proxy in front of Radicale that passes everything on, except the answers to REPORT requests (the
listing of changes and the fetching of tasks) while a fault is set: Radicale itself never answers badly, so a
huge, cut-short or non-XML answer is made here."""

import http.client
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Self
from urllib.parse import urlsplit

Fault = Callable[[bytes], bytes]  # the real answer's body in, what is sent instead out


def huge(size: int) -> Fault:
    return lambda _: b"<?xml version='1.0'?><multistatus xmlns='DAV:'>" + b" " * size + b"</multistatus>"


def cut_short(body: bytes) -> bytes:
    return body[: len(body) // 2]


def not_xml(_: bytes) -> bytes:
    return b"<html><body>502 Bad Gateway</body></html"


class MisbehavingProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = urlsplit(upstream)
        self.fault: Fault | None = None
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length) if length else None
                connection = http.client.HTTPConnection(proxy.upstream.netloc, timeout=30)
                # Plain answers (no gzip), so a fault can change their bytes.
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "accept-encoding")}
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                sent = answer.read()
                if proxy.fault is not None and self.command == "REPORT":
                    sent = proxy.fault(sent)
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(sent)))
                self.end_headers()
                self.wfile.write(sent)
                connection.close()

            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_OPTIONS = _forward
            do_PROPPATCH = do_MKCOL = do_HEAD = _forward

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{self.upstream.path}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)  # quick to stop

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
