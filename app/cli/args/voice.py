"""The arguments of voice's commands; what they run is imported from app.cli.voice when one does."""

import argparse
from typing import Any

from app.cli.args.named import add_named_actions


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register say (`common`: --db; `as_json`: --json)."""
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--models-dir", metavar="DIR", help="where voices live (override speech.models_dir)")
    speak = sub.add_parser(
        "say", parents=[common, as_json, where], help="speak a text as Murmur speaks its replies (or write a WAV file)"
    )
    speak.add_argument("text", nargs="+", help="what to say ('-' reads standard input)")
    speak.add_argument(
        "--voice", metavar="V", help="a Piper voice, a .onnx file, espeak-ng[:VOICE] or speech-dispatcher"
    )
    speak.add_argument("--output", metavar="FILE.wav", help="write the speech to this WAV file instead of playing it")
    speak.add_argument("--force", action="store_true", help="replace FILE.wav if it exists (a link: what it points to)")
    speak.set_defaults(func="app.cli.voice:cmd_say")

    voices = sub.add_parser("voices", help="Piper voices for spoken replies: list, download, remove, use")
    actions = voices.add_subparsers(dest="voices_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", parents=[common, as_json, where], help="installed (or downloadable) voices")
    listing.add_argument("--available", action="store_true", help="voices that can be downloaded")
    listing.add_argument("--language", metavar="CODE", help="only voices for this language (default: speech.language)")
    listing.add_argument("--all-languages", action="store_true", help="voices for every language")
    listing.set_defaults(func="app.cli.voice:cmd_voices_list")
    add_named_actions(
        actions,
        [common, as_json, where],
        (
            (
                "download",
                "app.cli.voice:cmd_voices_download",
                "download and install a voice from the Piper voices repository",
            ),
            ("remove", "app.cli.voice:cmd_voices_remove", "delete an installed voice"),
            (
                "use",
                "app.cli.voice:cmd_voices_use",
                "speak replies with this voice (a name, a .onnx file, espeak-ng[:VOICE], speech-dispatcher)",
            ),
        ),
    )
