"""`murmur` run inside the test process by app.cli.main(argv, env): stdin fed, stdout and stderr caught as the
bytes a process would have written, and returned as a subprocess.CompletedProcess as subprocess.run would."""

import io
import sys
from collections.abc import Mapping, Sequence
from subprocess import CompletedProcess

from app.cli import main


def run_in_process(argv: Sequence[str], env: Mapping[str, str], stdin: str | None) -> CompletedProcess[str]:
    fed = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    out, err = _caught(), _caught()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = fed, out, err
    try:
        status = main(list(argv), dict(env))  # a copy: the run clears os.environ, which `env` may be
    except SystemExit as exit:  # argparse's --help, --version and usage errors end the process there
        status = _exit_status(exit.code, err)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return CompletedProcess(["murmur", *argv], status, _text(out), _text(err))


def _caught() -> io.TextIOWrapper:
    """A stream like a pipe's: not a terminal, with bytes underneath (sys.stdout.buffer works)."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)


def _exit_status(code: object, err: io.TextIOWrapper) -> int:
    """What the interpreter makes of SystemExit(code): None is 0, a number itself, anything else printed, 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=err)
    return 1


def _text(stream: io.TextIOWrapper) -> str:
    """Decoded as subprocess.run(text=True) decodes: universal newlines."""
    stream.flush()
    written: bytes = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return written.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
