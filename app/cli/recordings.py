"""The recordings' commands: play an utterance's recording (or write it out), forget recordings."""

import argparse
from pathlib import Path

from app.api.service import build_service
from app.api.settings import load_settings
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.presentation.recordings import forgotten_text


def cmd_play(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    if args.out:
        service.write_recording(args.utterance_id, Path(args.out), force=args.force)
        say(f"wrote the recording of utterance {args.utterance_id} to {args.out}")
        return ExitCode.OK
    from app.api.recordings import RATE
    from app.api.speaking import Playback, Sound

    sound = service.recording_sound(args.utterance_id)
    Playback(load_settings().speech.output_device).play([Sound(sound, RATE)], RATE)
    return ExitCode.OK


def cmd_forget_audio(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    forgetting = service.forget_audio(args.utterance_id, args.older_than, args.all)
    if args.json:
        print_json({"forgotten": forgetting.count, "bytes": forgetting.bytes, "undo_id": forgetting.batch_id})
    else:
        say(forgotten_text(forgetting.count, forgetting.bytes))
    return ExitCode.OK if forgetting.count else ExitCode.NOTHING_APPLIED
