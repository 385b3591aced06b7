"""The speech commands: transcribe a file, listen to the microphone (with the first-run model offer), devices.

The engines, sounddevice and the dictation load inside the command functions, so `murmur add` does not pay for them.
"""

import argparse
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from app.api.runs import Run, Stages, drive
from app.api.service import build_service
from app.api.settings import load_settings
from app.cli.exits import ExitCode
from app.cli.output import cli_line, print_error, print_json, print_warning, remedy_words, say
from app.cli.report import ProgressPrinter, report_run
from app.domain.enums import UtteranceSource
from app.domain.events import Stage
from app.domain.hints import NO_HINTS, Hints
from app.errors import AudioDeviceError, Command, MurmurError

if TYPE_CHECKING:
    from app.api.dictation import Dictation
    from app.api.listening import LiveText, Transcript

ANSWERS = {"": "yes", "y": "yes", "yes": "yes", "n": "no", "no": "no", "never": "never"}
NOTHING_HEARD = "nothing was heard; nothing added"


def transcript_json(transcript: "Transcript") -> dict[str, Any]:
    data = asdict(transcript)
    data["words"] = [asdict(w) for w in transcript.words]
    del data["audio"]  # kept with the utterance, never printed
    return dict(data)


def _vocabulary(db: Path) -> Hints:
    """The user's words and open entries, as hints for the final pass; none when there is no database yet."""
    if not db.is_file():
        return NO_HINTS
    try:
        return build_service(db, offline=True).vocabulary()
    except MurmurError as error:  # hints are a help, never a reason to fail
        print_warning(f"your list's words are not used as hints: {cli_line(error)}")
        return NO_HINTS


def _tell_engine(name: str, hint: Command | None) -> None:
    print(f"engine: {name}" + (f" ({remedy_words(hint)})" if hint else ""), file=sys.stderr)


# -- transcribe -----------------------------------------------------------------------------------


def cmd_transcribe(args: argparse.Namespace) -> int:
    from app.api.dictation import transcribe_file

    settings, files = load_settings().speech, []

    def hear() -> "Transcript":
        files.append(
            transcribe_file(
                Path(args.file),
                settings,
                engine=args.engine or "",
                model=args.model or "",
                final_engine=args.final_engine or "",
                hints=_vocabulary(args.db),
            )
        )
        return files[-1].transcript

    # a run that starts and stops at transcribing: nothing is saved or read
    drive(Run(UtteranceSource.VOICE, first=Stage.TRANSCRIBE, last=Stage.TRANSCRIBE), Stages(hear=hear))
    [done] = files
    transcript = done.transcript
    if args.json:
        print_json(transcript_json(transcript))
    else:
        if not args.quiet:
            _tell_engine(transcript.engine, done.hint)
        say(transcript.text)
    return ExitCode.OK


# -- listen ---------------------------------------------------------------------------------------


class _PartialPrinter:
    """Partials on stderr: rewritten in place on a terminal, one line each otherwise."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = ""

    def __call__(self, live: "LiveText") -> None:
        text = self.last = live.text
        if self.quiet:
            return
        if self.tty:
            print(f"\r\033[K... {text}", end="", file=sys.stderr, flush=True)
        else:
            print(f"partial: {text}", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.tty and self.last and not self.quiet:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def _wait_for_end(seconds: float | None, announce: bool) -> None:
    """Until `seconds` pass, or (without them, on a terminal) until Enter; Ctrl-C also ends it. Called once sound
    comes from the microphone: the user is told to speak, and timed, from then.

    `announce`: say on stderr that recording runs (a script driving `listen --json` waits for that line)."""
    if seconds is not None:
        if announce:
            print(f"Speak now: listening for {seconds:g} s...", file=sys.stderr, flush=True)
        time.sleep(seconds)
        return
    print("Speak now: listening... press Enter to stop", file=sys.stderr, flush=True)
    sys.stdin.readline()


def _wait_for_audio(dictation: "Dictation") -> None:
    """Until the microphone sends sound (some take seconds after they open); one that sends none is an error."""
    try:
        dictation.wait_for_audio()
    except AudioDeviceError:
        dictation.cancel()
        raise


def cmd_listen(args: argparse.Namespace) -> int:
    from app.api.dictation import Dictation
    from app.api.listening import bundled_hint

    seconds = args.seconds
    if seconds is None and not sys.stdin.isatty():
        seconds = 5.0  # nobody can press Enter: a fixed length
    if not (args.quiet or args.json) and sys.stdin.isatty() and sys.stderr.isatty():
        _offer_models()  # only someone at a terminal is asked: scripts never see the offer
    settings = load_settings().speech
    if args.device is not None:
        settings = replace(settings, device=args.device)
    printer = _PartialPrinter(args.quiet or args.json)
    errors: list[str] = []
    engine, model, final_engine = args.engine or "", args.model or "", args.final_engine or ""
    dictation = Dictation(
        settings,
        on_partial=printer,
        on_error=errors.append,
        engine=engine,
        model=model,
        final_engine=final_engine,
        hints=lambda: _vocabulary(args.db),
    )
    dictation.start()
    if not (args.quiet or args.json):
        hint = bundled_hint(settings, engine=engine, model=model, final_engine=final_engine)
        _tell_engine(dictation.engine_name, hint)
    heard: list[Transcript] = []

    def listen() -> None:
        try:
            _wait_for_audio(dictation)
            _wait_for_end(seconds, announce=not args.quiet)
        except KeyboardInterrupt:
            pass  # Ctrl-C ends the recording; what was said still counts

    def hear() -> "Transcript":
        heard.append(dictation.stop())
        printer.done()
        for note in heard[-1].notes:
            print_warning(note)
        return heard[-1]

    # One run from the microphone on: listened to and transcribed here, then (--add) read and applied as `add` does
    run = Run(UtteranceSource.VOICE, first=Stage.LISTEN, last=Stage.REPLY if args.add else Stage.TRANSCRIBE)
    drive(run, Stages(listen=listen, hear=hear), until=Stage.TRANSCRIBE)
    [transcript] = heard
    if args.add:
        return _add(args, run)
    if args.json:
        print_json(transcript_json(transcript))
    else:
        say(transcript.text)
    return ExitCode.OK if transcript.text else ExitCode.NOTHING_APPLIED


def _add(args: argparse.Namespace, run: Run) -> int:
    """`listen --add`: the run goes on with what was heard, through the pipeline like `murmur add` (the LLM as
    configured); words heard faintly wait for the user's yes."""
    if not run.text:
        run.end(NOTHING_HEARD)
        print_error(NOTHING_HEARD)
        return ExitCode.NOTHING_APPLIED
    if not args.json:
        say(f"heard: {run.text}")
    service = build_service(args.db)
    return report_run(service, drive(run, Stages(service)), args.json)


def _offer_models() -> None:
    """The first-run offer (app.speech_in.model_offer) on stderr: install the recommended models now, not now, or
    never; installed, they are used at once."""
    from app.api.offers import accept, decline, model_offer
    from app.errors import ModelError

    settings = load_settings()
    offer = model_offer(settings)
    if offer is None:
        return
    lines = [
        f"Better speech recognition: the built-in engine is in use. Recommended ({offer.size_text} in all):",
        *(f"  {line}" for line in offer.model_lines()),
        offer.accuracy,
    ]
    print("\n".join(lines), file=sys.stderr)
    answer = _ask(f"Install {'them' if len(offer.models) > 1 else 'it'} now? [Y/n/never] ")
    if answer == "never":
        decline(settings)
        print("Keeping the built-in engine; `murmur models recommended` names these models.", file=sys.stderr)
    elif answer == "yes":
        printer = ProgressPrinter(quiet=False)
        try:
            accept(offer, settings, printer)
            them = "them" if len(offer.models) > 1 else "it"
            line = f"installed {', '.join(m.name for m in offer.models)}; listening with {them}"
        except ModelError as error:  # the bundled engine still listens; the next run asks again
            line = f"murmur: warning: {cli_line(error)}"
        print(("\n" if printer.shown >= 0 else "") + line, file=sys.stderr)  # after the progress line


def _ask(question: str) -> str:
    """ "yes", "no" or "never" from a line on stdin (Enter: yes; the end of input: no)."""
    while True:
        print(question, end="", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            print(file=sys.stderr)
            return "no"
        if answer := ANSWERS.get(line.strip().lower()):
            return answer
        print("Please answer y (install), n (not now) or never.", file=sys.stderr)


# -- devices --------------------------------------------------------------------------------------


def cmd_devices(args: argparse.Namespace) -> int:
    from app.api.listening import list_devices

    direction: Literal["input", "output"] = "output" if args.output else "input"
    devices = list_devices(direction)
    if args.json:
        print_json([asdict(d) for d in devices])
    elif not devices:
        say(f"No audio {direction} devices found.")
    else:
        for d in devices:
            mark = "*" if d.is_default else " "
            say(f"{mark} {d.index:>3}  {d.name}  ({d.channels} ch, {d.default_rate} Hz, {d.host_api})")
        setting = "speech.output_device" if args.output else "--device NAME|NUMBER or speech.device"
        say(f"(* the default; choose with {setting} in the settings file)")
    return ExitCode.OK


# -- the parser -----------------------------------------------------------------------------------
