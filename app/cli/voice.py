"""The speech output commands: say (speak a text, or write it to a WAV file), `add --speak`'s reply, and the
Piper voices (voices list, download, remove, use)."""

import argparse
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING

from app.api.settings import load_settings, output_target, save_settings
from app.cli.exits import ExitCode
from app.cli.output import cli_line, print_json, print_warning, say
from app.cli.report import ProgressPrinter, read_text, report_removed
from app.domain.clock import Clock
from app.errors import VoiceError

if TYPE_CHECKING:
    from app.api.runs import SpokenReply
    from app.api.speaking import PiperVoices


def cmd_say(args: argparse.Namespace) -> int:
    from app.api.speaking import PiperSynthesizer, Speaker, spoken_text  # the voices load only for this command

    output = output_target(Path(args.output).expanduser(), args.force) if args.output else None
    settings = load_settings().speech
    if args.models_dir:
        settings = replace(settings, models_dir=args.models_dir)
    clock = Clock.system()
    text = spoken_text(read_text(args.text), clock.now, clock.tz)
    speaker = Speaker(settings, args.voice)
    if output:
        seconds = speaker.save(text, output)
        report = {"spoken": text, "voice": speaker.voice().name, "output": args.output, "seconds": seconds}
    else:
        played = speaker.say(text)
        report = {"spoken": text, "voice": speaker.voice().name, "seconds": played.seconds}
    if args.json:
        print_json(report)
    elif args.output:
        say(f"Wrote {seconds:.1f} s of speech to {args.output} ({report['voice']})")
    if not args.voice and not isinstance(speaker.voice(), PiperSynthesizer):
        _natural_voice_hint(report["voice"], settings.language or "en")
    return ExitCode.OK


def _natural_voice_hint(used: str, language: str) -> None:
    """When no natural voice is installed, which voice spoke, and how to get a natural one (on stderr, so a WAV
    or the JSON on stdout stays as it was)."""
    from app.api.offers import recommended_voice_name

    named = recommended_voice_name(language)
    get = f"murmur voices download {named}" if named else f"murmur voices list --available --language {language}"
    print(f"said with {used}; for a natural voice: {get}", file=sys.stderr)


def say_reply(reply: "SpokenReply") -> None:
    """`murmur add --speak`: say the run's reply (or what changed); a voice that cannot speak is a warning, since
    the reply was printed already."""
    from app.api.speaking import Speaker

    try:
        Speaker(load_settings().speech).say(reply.text)
    except VoiceError as error:
        print_warning(f"{cli_line(error)} (the reply above is not spoken)")
    sys.stdout.flush()


def _voices(args: argparse.Namespace) -> "PiperVoices":
    from app.api.speaking import PiperVoices

    settings = load_settings().speech
    if args.models_dir:
        settings = replace(settings, models_dir=args.models_dir)
    return PiperVoices.from_settings(settings)


def cmd_voices_list(args: argparse.Namespace) -> int:
    voices = _voices(args)
    language = "" if args.all_languages else (args.language or load_settings().speech.language)
    installed = voices.installed(language)
    names = {v.name for v in installed}
    chosen = load_settings().speech.voice
    if args.available:
        from app.api.offers import pick_voice

        available = voices.available(language)
        best = pick_voice(language, available) if language else None  # what a first run offers
        if args.json:
            rows = [{**asdict(v), "size": v.size, "installed": v.name in names} for v in available]
            print_json([{**row, "recommended": v == best} for row, v in zip(rows, available, strict=True)])
            return ExitCode.OK
        for voice in available:
            note = (", recommended" if voice == best else "") + (", installed" if voice.name in names else "")
            row = f"{voice.name:<36} {voice.language:<6} {voice.quality:<7} {voice.size_text:>8}"
            say(f"{row}  {voice.language_name}{note}")
        say("Download one with `murmur voices download NAME`; installed, it speaks without further setting.")
        return ExitCode.OK
    if args.json:
        print_json([{**asdict(v), "path": str(v.path), "in_use": v.name == chosen} for v in installed])
        return ExitCode.OK
    if not installed:
        say(f"No Piper voice installed in {voices.folder}: espeak-ng speaks the replies (robotic, always there).")
        say("`murmur voices list --available` shows natural-sounding voices to download.")
    for v in installed:
        say(f"{'*' if v.name == chosen else ' '} {v.name:<36} {v.language:<6} {v.size_text:>8}  {v.path}")
    return ExitCode.OK


def cmd_voices_download(args: argparse.Namespace) -> int:
    voices = _voices(args)
    installed = voices.download(voices.find_available(args.name), on_progress=ProgressPrinter(args.json))
    if args.json:
        print_json({"name": installed.name, "path": str(installed.path), "language": installed.language})
    else:
        say(
            f"\ninstalled {installed.name} in {installed.path}; try it with `murmur say --voice {installed.name} hello`"
        )
    return ExitCode.OK


def cmd_voices_remove(args: argparse.Namespace) -> int:
    return report_removed(args.name, _voices(args).remove(args.name), args.json)


def cmd_voices_use(args: argparse.Namespace) -> int:
    from app.api.speaking import choose_voice

    settings = load_settings()
    speech = replace(settings.speech, voice=args.name)
    if args.models_dir:
        speech = replace(speech, models_dir=args.models_dir)
    name = choose_voice(speech).name  # one line unless it can speak
    saved = save_settings(replace(settings, speech=replace(settings.speech, voice=args.name)))
    if args.json:
        print_json({"voice": args.name, "engine": name, "settings": str(saved)})
    else:
        say(f"replies are now spoken by {name} ({saved})")
    return ExitCode.OK
