"""A disk too full for a dictation's sound costs the sound, never the words: a real process whose files may not grow
past 2 MB (RLIMIT_FSIZE, the kernel's own "file too large"), a real database, three minutes of sound."""

import subprocess
import sys
from pathlib import Path

from tests.support.murmur_cli import ROOT, Murmur

CHILD = """
import resource, signal, sys
from pathlib import Path
import numpy as np
from app.assembly import build_service
from app.config import Settings
from app.domain.enums import UtteranceSource
service = build_service(Path(sys.argv[1]), Settings(), offline=True)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (2_000_000, 2_000_000))
noise = np.random.default_rng(7).integers(-20_000, 20_000, 16_000 * 180).astype(np.int16).tobytes()
result = service.submit("buy milk", UtteranceSource.VOICE, audio=noise)
print(result.summary)
"""


def test_a_sound_the_disk_cannot_hold_leaves_the_words_and_no_half_file(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(murmur.db_path)], capture_output=True, text=True, env=murmur.env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1 created"
    assert [entry["summary"] for entry in murmur.json("list")] == ["Buy milk"]
    assert not list(tmp_path.rglob("*.flac"))  # no half a sound left behind
    assert "AssertionError" not in done.stderr
