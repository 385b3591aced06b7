"""Sync with a real CalDAV server (Radicale on 127.0.0.1): first syncs, and one change on a big list.

Prints the seconds of a first sync of 1,000 entries (every entry sent), and on a list of 10,000: the first sync
with a server that already holds them all (each met and linked, nothing sent), a sync with nothing to do, one
change made here, and one made on the phone. Goal: one change at most 1 s, whatever the list's size.

Radicale checks every item of a collection on each PUT, so sending 10,000 one by one takes it over 20 minutes:
the big list is put into its storage folder directly, as the files it would have written, while it is stopped.
Then the memory peak of a sync whose answer is 100 MB (a proxy in a child process makes it; goal: under 200 MB,
the answer refused at sync.max_answer_mb, 50 MB, never read whole).
Run: .venv/bin/python bench/sync_bench.py [--small N] [--big N] [--huge-mb N]
"""

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from caldav.davclient import DAVClient  # noqa: E402

from app.config import SyncSettings  # noqa: E402
from app.domain.actions import UpdateAction  # noqa: E402
from app.domain.enums import Status  # noqa: E402
from app.offline import OfflineInterpreter  # noqa: E402
from app.portable.ics import own_uid, vtodo_object  # noqa: E402
from app.secrets import SYNC_PASSWORD  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from app.sync.account import task_list_of  # noqa: E402
from app.sync.remote import SyncError  # noqa: E402
from tests.support.big_store import fill_store  # noqa: E402
from tests.support.clock import FIXED_CLOCK  # noqa: E402
from tests.sync.misbehaving import MisbehavingProxy, huge  # noqa: E402
from tests.sync.phone import Phone  # noqa: E402
from tests.sync.radicale_server import RadicaleServer  # noqa: E402


def _service(path: Path, server: RadicaleServer, calendar: str) -> MurmurService:
    settings = SyncSettings(url=server.url, username=server.username, calendar=calendar)
    return MurmurService(
        store=Store.open(path),
        interpreter=OfflineInterpreter(),
        clock=lambda: FIXED_CLOCK,
        sync_source=partial(task_list_of, settings),
    )


def _put_on_the_server(service: MurmurService, server: RadicaleServer, name: str) -> None:
    """Every entry as the object Murmur would send, written where Radicale keeps the task list's items."""
    with Phone(server.url, server.username, server.password, list_name=name) as phone:
        folder = server.storage / "collection-root" / server.username / _path(phone.make_task_list().url)
    server.stop()
    for entry in service.entries(statuses=list(Status)):
        uid = own_uid(entry.id)
        text = vtodo_object(entry, FIXED_CLOCK.tz, FIXED_CLOCK.now, uid=uid)
        (folder / f"{uid}.ics").write_text(text, encoding="utf-8")
    server.start()
    started = time.perf_counter()
    with DAVClient(url=server.url, username=server.username, password=server.password, timeout=1800) as client:
        calendars = client.principal().calendars()  # type: ignore[no-untyped-call]
        calendar = next(c for c in calendars if c.get_display_name() == name)
        calendar.get_objects_by_sync_token(load_objects=False)
    seconds = time.perf_counter() - started
    print(f"(Radicale reads the {len(list(folder.glob('*.ics'))):,} files it was given, once: {seconds:.1f} s)")


def _path(url: object) -> str:
    return str(url).rstrip("/").rsplit("/", 1)[-1]


def _proxy_with_a_huge_answer(upstream: str, size: int, urls: "multiprocessing.Queue[str]") -> None:
    with MisbehavingProxy(upstream) as proxy:
        proxy.fault = huge(size)
        urls.put(proxy.url)
        proxy.thread.join()


def _memory_of_a_huge_answer(folder: Path, server: RadicaleServer, megabytes: int) -> None:
    urls: multiprocessing.Queue[str] = multiprocessing.get_context("fork").Queue()
    child = multiprocessing.get_context("fork").Process(
        target=_proxy_with_a_huge_answer, args=(server.url, megabytes * 1_000_000, urls), daemon=True
    )
    child.start()
    settings = SyncSettings(url=urls.get(timeout=30), username=server.username, calendar="Huge")
    service = MurmurService(
        store=Store.open(folder / "huge.db"),
        interpreter=OfflineInterpreter(),
        clock=lambda: FIXED_CLOCK,
        sync_source=partial(task_list_of, settings),
    )
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    try:
        service.sync()
        outcome = "read (no cap?)"
    except SyncError as error:
        outcome = str(error)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"a {megabytes} MB answer: peak {peak} MB of memory (before: {before} MB); goal under 200 MB ({outcome})")
    service.close()
    child.terminate()


def _timed(service: MurmurService) -> tuple[float, str]:
    started = time.perf_counter()
    report = service.sync()
    return time.perf_counter() - started, report.summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--huge-mb", type=int, default=100)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="murmur-sync-bench-"))
    server = RadicaleServer(folder / "radicale")
    server.start()
    os.environ[SYNC_PASSWORD.env] = server.password
    try:
        print(f"Radicale {server.url} on 127.0.0.1, 2 cores; goal: one change at most 1 s at any size")
        fill_store(folder / "small.db", args.small, FIXED_CLOCK.now)
        small = _service(folder / "small.db", server, "Small")
        seconds, summary = _timed(small)
        print(f"first sync, {args.small:,} entries: {seconds:6.2f} s  ({summary})")
        small.close()

        fill_store(folder / "big.db", args.big, FIXED_CLOCK.now)
        big = _service(folder / "big.db", server, "Big")
        _put_on_the_server(big, server, "Big")
        seconds, summary = _timed(big)
        print(f"first sync, {args.big:,} entries already on the server: {seconds:6.2f} s  ({summary})")
        seconds, summary = _timed(big)
        print(f"nothing to do, {args.big:,} entries: {seconds:6.2f} s  ({summary})")
        entry = big.entries(statuses=[Status.ACTIVE])[0]
        big.apply([UpdateAction(entry_id=entry.id, changes={"summary": f"{entry.summary} (changed)"})])
        seconds, summary = _timed(big)
        print(f"one change here, {args.big:,} entries: {seconds:6.2f} s  ({summary})")
        with Phone(server.url, server.username, server.password, list_name="Big") as phone:
            phone.add("Made on the phone")
        seconds, summary = _timed(big)
        print(f"one change on the phone, {args.big:,} entries: {seconds:6.2f} s  ({summary})")
        big.close()
        _memory_of_a_huge_answer(folder, server, args.huge_mb)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
