"""Export and import 10,000 entries in every format, on real SQLite files.

Prints, per format, the seconds to export the list and to import it into an empty database (one undoable
batch), and the file's size. Goal: each at most 2 s. Run: .venv/bin/python bench/data_bench.py [--entries N]
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.enums import Format  # noqa: E402
from app.offline import OfflineInterpreter  # noqa: E402
from app.portable.common import READABLE, SUFFIX  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from tests.support.big_store import fill_store  # noqa: E402
from tests.support.clock import FIXED_CLOCK  # noqa: E402


def _service(path: Path) -> MurmurService:
    return MurmurService(store=Store.open(path), interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=10_000)
    count = parser.parse_args().entries
    folder = Path(tempfile.mkdtemp(prefix="murmur-data-bench-"))
    fill_store(folder / "list.db", count, FIXED_CLOCK.now)
    source = _service(folder / "list.db")
    print(f"{count:,} entries, 2 cores; goal: each at most 2 s")
    print(f"{'format':<10} {'export s':>9} {'import s':>9} {'size MB':>8}  imported")
    for fmt in Format:
        started = time.perf_counter()
        text = source.export(fmt)
        exported = time.perf_counter() - started
        path = folder / f"list{SUFFIX[fmt]}"
        path.write_text(text, encoding="utf-8")
        imported, added = "-", "(not imported: for people)"
        if fmt in READABLE:
            target = _service(folder / f"import-{fmt.value}.db")
            started = time.perf_counter()
            outcome = target.import_file(path, confirmed=True)  # thousands at once, as the user said yes
            imported = f"{time.perf_counter() - started:.2f}"
            added = f"{outcome.added:,} added, {len(outcome.problems)} problems"
            target.close()
        print(f"{fmt.value:<10} {exported:>9.2f} {imported:>9} {path.stat().st_size / 2**20:>8.1f}  {added}")
    source.close()


if __name__ == "__main__":
    main()
