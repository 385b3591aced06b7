"""The arguments of speech's commands; what they run is imported from app.cli.speech when one does."""

import argparse
from typing import Any

from app.cli.numbers import positive_seconds

MAX_LISTEN_S = 3600  # an hour: a dictation longer than that is a forgotten one


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register transcribe, listen and devices (`common`: --db; `as_json`: --json)."""
    engine = argparse.ArgumentParser(add_help=False)
    engine.add_argument("--engine", choices=["vosk", "pocketsphinx"], help="override speech.engine")
    engine.add_argument("--model", metavar="NAME|PATH", help="a Vosk model name or folder (override speech.model)")
    engine.add_argument(
        "--final-engine",
        choices=["auto", "whisper", "live", "off"],
        help="the pass over the whole utterance (override speech.final_engine)",
    )
    engine.add_argument("-q", "--quiet", action="store_true", help="print only the result")

    transcribe = sub.add_parser(
        "transcribe", parents=[common, as_json, engine], help="print the text spoken in an audio file (WAV, FLAC, OGG)"
    )
    transcribe.add_argument("file", metavar="FILE")
    transcribe.set_defaults(func="app.cli.speech:cmd_transcribe")

    listen = sub.add_parser(
        "listen",
        parents=[common, as_json, engine],
        help="record from the microphone, show partials, print the final text",
    )
    listen.add_argument(
        "--seconds", type=positive_seconds(MAX_LISTEN_S), metavar="N", help="record N seconds (default: until Enter)"
    )
    listen.add_argument("--device", metavar="NAME|NUMBER", help="input device (override speech.device)")
    listen.add_argument("--add", action="store_true", help="run the text through the pipeline like `murmur add`")
    listen.set_defaults(func="app.cli.speech:cmd_listen")

    devices = sub.add_parser("devices", parents=[common, as_json], help="list the audio input (or output) devices")
    devices.add_argument("--output", action="store_true", help="the output devices (speakers) instead")
    devices.set_defaults(func="app.cli.speech:cmd_devices")
