"""An audio file past the bounds (more channels than any microphone, hours of sound in a small compressed file) is
refused from its header, in one line, before its sound is read; real files written by soundfile."""

from pathlib import Path

import numpy as np
import pytest
import soundfile

from app.errors import AudioFileError
from app.speech_in.wavfile import read_audio


def test_many_channels_are_refused_from_the_header(tmp_path: Path) -> None:
    path = tmp_path / "array.wav"
    soundfile.write(path, np.zeros((4_800, 40), dtype=np.int16), 48_000, subtype="PCM_16")
    with pytest.raises(AudioFileError, match="has 40 channels; Murmur reads files of up to 32"):
        read_audio(path)


def test_hours_of_silence_in_a_small_file_are_refused_before_they_are_read(tmp_path: Path) -> None:
    path = tmp_path / "silence.flac"
    with soundfile.SoundFile(path, "w", 8_000, 1, subtype="PCM_16") as out:
        block = np.zeros(8_000 * 600, dtype=np.int16)  # ten minutes at a time: the file stays small
        for _ in range(6 * 5):
            out.write(block)
    assert path.stat().st_size < 2_000_000
    with pytest.raises(AudioFileError, match="is 5.0 hours long; Murmur transcribes up to 4 hours"):
        read_audio(path)


def test_a_long_stereo_file_reads_block_by_block_into_the_same_sound(tmp_path: Path) -> None:
    seconds = 20
    tone = np.sin(np.linspace(0, 440 * 2 * np.pi * seconds, 44_100 * seconds)).astype(np.float32) * 0.5
    path = tmp_path / "tone.wav"
    soundfile.write(path, np.stack([tone, tone], axis=1), 44_100, subtype="PCM_16")
    clip = read_audio(path)
    assert abs(clip.seconds - seconds) < 0.01
    samples = np.frombuffer(clip.pcm, dtype="<i2").astype(np.float32) / 32768
    assert abs(float(np.sqrt(np.mean(samples[1_000:-1_000] ** 2))) - 0.5 / np.sqrt(2)) < 0.01
