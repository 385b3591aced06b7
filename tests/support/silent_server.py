"""A TCP server on 127.0.0.1 that takes every connection and never answers: what a hung sync server, or a
network that swallows packets, looks like to a client without a timeout short enough to notice."""

import socket
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager


@contextmanager
def silent_server() -> Iterator[int]:
    """The port of a server that accepts and then says nothing, until the block ends."""
    with closing(socket.create_server(("127.0.0.1", 0))) as listener:
        held: list[socket.socket] = []
        stopping = threading.Event()

        def accept() -> None:
            while not stopping.is_set():
                try:
                    held.append(listener.accept()[0])
                except OSError:  # the listener closed
                    return

        thread = threading.Thread(target=accept, name="silent-server", daemon=True)
        thread.start()
        try:
            yield listener.getsockname()[1]
        finally:
            stopping.set()
            listener.shutdown(socket.SHUT_RDWR)
            for connection in held:
                connection.close()
            thread.join(5)
