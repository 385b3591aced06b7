"""The speech subcommands of `murmur`: transcribe, listen, devices, models.

Cheap to import: the engines, sounddevice and the pipeline load inside the command functions, so
`murmur add` does not pay for them.
"""

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAILED = 0, 1


def _settings() -> Any:
    from app.config import load_settings

    return load_settings().speech


def _dumps(data: Any) -> str:
    from app.render import dumps

    return dumps(data)


def transcript_json(transcript: Any) -> dict[str, Any]:
    data = asdict(transcript)
    data["words"] = [asdict(w) for w in transcript.words]
    return dict(data)


def _vocabulary(args: argparse.Namespace) -> list[str]:
    """The user's open entries, as hints for the final pass; none when there is no database yet."""
    from app.assembly import build_service
    from app.errors import MurmurError
    from app.paths import default_db_path

    path = Path(args.db) if args.db else default_db_path()
    if not path.is_file():
        return []
    try:
        return build_service(path, offline=True).vocabulary()
    except MurmurError as error:  # hints are a help, never a reason to fail
        print(f"murmur: warning: your list's words are not used as hints: {error}", file=sys.stderr)
        return []


def _tell_engine(name: str, hint: str | None) -> None:
    print(f"engine: {name}" + (f" ({hint})" if hint else ""), file=sys.stderr)


# -- transcribe -----------------------------------------------------------------------------------


def cmd_transcribe(args: argparse.Namespace) -> int:
    from app.speech.files import transcribe_file

    done = transcribe_file(
        Path(args.file),
        _settings(),
        engine=args.engine or "",
        model=args.model or "",
        final_engine=args.final_engine or "",
        hints=_vocabulary(args),
    )
    transcript = done.transcript
    if args.json:
        print(_dumps(transcript_json(transcript)))
    else:
        if not args.quiet:
            _tell_engine(transcript.engine, done.hint)
        print(transcript.text)
    return EXIT_OK


# -- listen ---------------------------------------------------------------------------------------


class _PartialPrinter:
    """Partials on stderr: rewritten in place on a terminal, one line each otherwise."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = ""

    def __call__(self, text: str) -> None:
        self.last = text
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
    """Until `seconds` pass, or (without them, on a terminal) until Enter; Ctrl-C also ends it.

    `announce`: say on stderr that recording runs (a script driving `listen --json` waits for that line)."""
    if seconds is not None:
        if announce:
            print(f"listening for {seconds:g} s...", file=sys.stderr, flush=True)
        time.sleep(seconds)
        return
    print("listening... press Enter to stop", file=sys.stderr, flush=True)
    sys.stdin.readline()


def cmd_listen(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from app.errors import UsageError
    from app.speech.dictation import Dictation

    seconds = args.seconds
    if seconds is None and not sys.stdin.isatty():
        seconds = 5.0  # nobody can press Enter: a fixed length
    if seconds is not None and not 0 < seconds <= 3600:
        raise UsageError("--seconds must be between 0 and 3600")
    if not (args.quiet or args.json) and sys.stdin.isatty() and sys.stderr.isatty():
        _offer_models()  # only someone at a terminal is asked: scripts never see the offer
    settings = _settings()
    if args.device is not None:
        settings = replace(settings, device=args.device)
    printer = _PartialPrinter(args.quiet or args.json)
    errors: list[str] = []
    dictation = Dictation(
        settings,
        on_partial=printer,
        on_error=errors.append,
        engine=args.engine or "",
        model=args.model or "",
        final_engine=args.final_engine or "",
        hints=lambda: _vocabulary(args),
    )
    dictation.start()
    if not (args.quiet or args.json):
        _tell_engine(dictation.engine_name, dictation.hint)
    try:
        _wait_for_end(seconds, announce=not args.quiet)
    except KeyboardInterrupt:
        pass  # Ctrl-C ends the recording; what was said still counts
    transcript = dictation.stop()
    printer.done()
    for note in transcript.notes:
        print(f"murmur: warning: {note}", file=sys.stderr)
    if args.add:
        return _add(args, transcript)
    if args.json:
        print(_dumps(transcript_json(transcript)))
    else:
        print(transcript.text)
    return EXIT_OK if transcript.text else EXIT_FAILED


ANSWERS = {"": "yes", "y": "yes", "yes": "yes", "n": "no", "no": "no", "never": "never"}


def _offer_models() -> None:
    """The first-run offer (app.speech.model_offer) on stderr: install the recommended models now, not now, or
    never; installed, they are used at once."""
    from app.config import load_settings
    from app.errors import ModelError
    from app.speech.model_offer import accept, decline, model_offer

    settings = load_settings()
    offer = model_offer(settings)
    if offer is None:
        return
    lines = [
        f"Better speech recognition: the bundled engine is in use. Recommended ({offer.size_text} in all):",
        *(f"  {line}" for line in offer.model_lines()),
        offer.accuracy,
        *([offer.missing_extra] if offer.missing_extra else []),
    ]
    print("\n".join(lines), file=sys.stderr)
    answer = _ask(f"Install {'them' if len(offer.models) > 1 else 'it'} now? [Y/n/never] ")
    if answer == "never":
        decline(settings)
        print("Keeping the bundled engine; `murmur models recommended` names these models.", file=sys.stderr)
    elif answer == "yes":
        printer = _ProgressPrinter(quiet=False)
        try:
            accept(offer, settings, printer)
            line = f"installed {', '.join(m.name for m in offer.models)}; listening with them"
        except ModelError as error:  # the bundled engine still listens; the next run asks again
            line = f"murmur: warning: {error}"
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


def _add(args: argparse.Namespace, transcript: Any) -> int:
    from app.cli import _report_pipeline, make_service
    from app.domain.enums import UtteranceSource

    if not transcript.text.strip():
        print("murmur: error: nothing was heard; nothing added", file=sys.stderr)
        return EXIT_FAILED
    if not args.json:
        print(f"heard: {transcript.text}")
    service = make_service(args)
    return _report_pipeline(service, service.submit(transcript.text, UtteranceSource.VOICE), args.json)


# -- devices --------------------------------------------------------------------------------------


def cmd_devices(args: argparse.Namespace) -> int:
    from app.speech.capture import list_input_devices

    devices = list_input_devices()
    if args.json:
        print(_dumps([asdict(d) for d in devices]))
    elif not devices:
        print("No audio input devices found.")
    else:
        for d in devices:
            mark = "*" if d.is_default else " "
            print(f"{mark} {d.index:>3}  {d.name}  ({d.channels} ch, {d.default_rate} Hz, {d.host_api})")
        print("(* the default; choose with --device NAME|NUMBER or speech.device in the settings file)")
    return EXIT_OK


# -- models ---------------------------------------------------------------------------------------


def _models(args: argparse.Namespace) -> Any:
    from dataclasses import replace

    from app.speech.speech_models import SpeechModels

    settings = _settings()
    if args.models_dir:
        settings = replace(settings, models_dir=args.models_dir)
    return SpeechModels.from_settings(settings)


def _language(args: argparse.Namespace) -> str:
    return "" if args.all_languages else (args.language or _settings().language)


def cmd_models_list(args: argparse.Namespace) -> int:
    models = _models(args)
    language = _language(args)
    if args.available:
        return _list_available(models, language, args.json)
    installed = models.installed(language)
    settings = _settings()
    in_use = {"vosk": settings.model, "whisper": settings.whisper_model}
    if args.json:
        print(_dumps([{**asdict(m), "path": str(m.path), "in_use": m.name == in_use[m.kind]} for m in installed]))
        return EXIT_OK
    if not any(m.kind == "vosk" for m in installed):
        where = f" for language {language!r}" if language else ""
        print(f"No Vosk models installed{where} in {models.folder}; the bundled pocketsphinx engine (English only)")
        print("is used. `murmur models list --available` shows what can be downloaded.")
    for m in installed:
        mark = "*" if m.name == in_use[m.kind] else " "
        print(f"{mark} {m.name:<40} {m.kind:<7} {m.language:<6} {m.size_text:>8}  {m.path}")
    return EXIT_OK


def _list_available(models: Any, language: str, as_json: bool) -> int:
    """The Whisper catalogue (built in) and the Vosk list (fetched: offline, a warning and the rest)."""
    from app.errors import ModelError

    listed = True
    try:
        vosk = models.vosk.available(language)
    except ModelError as error:
        print(f"murmur: warning: {error}; only the Whisper models are listed", file=sys.stderr)
        vosk, listed = [], False
    whisper = models.whisper.available(language)
    installed = {m.name for m in models.installed()}
    if as_json:
        rows = [{**asdict(m), "kind": "vosk", "type": m.kind} for m in vosk]
        rows += [{**asdict(m), "kind": "whisper"} for m in whisper]
        print(_dumps([{**row, "installed": row["name"] in installed} for row in rows]))
        return EXIT_OK
    if listed and not vosk:
        print(f"No downloadable Vosk models listed for language {language!r}.")
    for m in vosk:
        note = f"{m.kind}, installed" if m.name in installed else m.kind
        print(f"{m.name:<40} {'vosk':<7} {m.language:<6} {m.size_text:>8}  {note}")
    for w in whisper:
        note = f"installed; {w.description}" if w.name in installed else w.description
        print(f"{w.name:<40} {'whisper':<7} {w.language:<6} {w.size_text:>8}  {note}")
    print("Download one with `murmur models download NAME`: a small Vosk model streams the words as you speak,")
    print("a Whisper model writes the final text when you let go (it needs: pip install 'murmur-desktop[whisper]').")
    return EXIT_OK


class _ProgressPrinter:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.shown = -1

    def __call__(self, done: int, total: int | None) -> None:
        if self.quiet:
            return
        percent = int(done * 100 / total) if total else -1
        step = percent if self.tty else percent // 10
        if step == self.shown:
            return
        self.shown = step
        text = f"{done / 1_000_000:.1f} MB" + (f" of {total / 1_000_000:.1f} MB ({percent}%)" if total else "")
        end = "\r" if self.tty else "\n"
        print(f"downloading {text}", end=end, file=sys.stderr, flush=True)


def cmd_models_recommended(args: argparse.Namespace) -> int:
    """The models a first run offers for the language (`murmur listen` asks about them on a terminal)."""
    from app.speech.language import base_language
    from app.speech.speech_models import recommended_models
    from app.speech.whisper_engine import whisper_available

    models = _models(args)
    language = args.language or _settings().language or "en"
    recommended = recommended_models(language)  # other languages than English: the Vosk list names the model
    installed = {m.name for m in models.installed()}
    if base_language(language) != "en" and not any(r.kind == "vosk" for r in recommended):
        print(
            f"murmur: warning: no Vosk model named for {language!r}; see `murmur models list --available`",
            file=sys.stderr,
        )
    if args.json:
        rows = [{**asdict(r), "size_text": r.size_text, "installed": r.name in installed} for r in recommended]
        print(_dumps(rows))
        return EXIT_OK
    for r in recommended:
        note = f"installed; {r.purpose}" if r.name in installed else r.purpose
        print(f"{r.name:<40} {r.kind:<7} {r.language:<6} {r.size_text:>8}  {note}")
    print("Download them with `murmur models download NAME`; installed, they are used without further setting.")
    if not whisper_available():
        print("The Whisper final pass also needs the faster-whisper extra: pip install 'murmur-desktop[whisper]'")
    return EXIT_OK


def cmd_models_download(args: argparse.Namespace) -> int:
    installed = _models(args).download(args.name, on_progress=_ProgressPrinter(args.json))
    if args.json:
        print(
            _dumps(
                {
                    "name": installed.name,
                    "kind": installed.kind,
                    "path": str(installed.path),
                    "language": installed.language,
                }
            )
        )
        return EXIT_OK
    print(f"\ninstalled {installed.name} in {installed.path}; use it with `murmur models use {installed.name}`")
    if installed.kind == "whisper":
        from app.speech.whisper_engine import whisper_available

        if not whisper_available():
            print("the Whisper final pass also needs the faster-whisper extra: pip install 'murmur-desktop[whisper]'")
    return EXIT_OK


def cmd_models_remove(args: argparse.Namespace) -> int:
    path = _models(args).remove(args.name)
    if args.json:
        print(_dumps({"removed": args.name, "path": str(path)}))
    else:
        print(f"removed {args.name} ({path})")
    return EXIT_OK


def cmd_models_use(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from app.config import load_settings, save_settings

    settings = load_settings()
    use = _models(args).use(settings.speech, args.name)  # fails with one line unless it is a model
    saved = save_settings(replace(settings, speech=use.speech))
    if args.json:
        row = {"model": use.value, "kind": use.kind, "setting": use.setting, "path": str(use.path)}
        print(_dumps({**row, "settings": str(saved)}))
    else:
        what = "the final text now comes from" if use.kind == "whisper" else "dictation now uses"
        print(f"{what} {use.value} ({saved})")
    return EXIT_OK


# -- the parser -----------------------------------------------------------------------------------


def add_speech_commands(subparsers: Any, parents: Sequence[argparse.ArgumentParser]) -> None:
    """Add transcribe, listen, devices and models to the `murmur` parser (`parents`: --db, --json)."""
    engine = argparse.ArgumentParser(add_help=False)
    engine.add_argument("--engine", choices=["vosk", "pocketsphinx"], help="override speech.engine")
    engine.add_argument("--model", metavar="NAME|PATH", help="a Vosk model name or folder (override speech.model)")
    engine.add_argument(
        "--final-engine",
        choices=["auto", "whisper", "live", "off"],
        help="the pass over the whole utterance (override speech.final_engine)",
    )
    engine.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--models-dir", metavar="DIR", help="where speech models live (override speech.models_dir)")
    language = argparse.ArgumentParser(add_help=False)
    language.add_argument("--language", metavar="CODE", help="only models for this language (default: speech.language)")
    language.add_argument("--all-languages", action="store_true", help="models for every language")

    transcribe = subparsers.add_parser(
        "transcribe", parents=[*parents, engine], help="print the text spoken in an audio file (WAV, FLAC, OGG)"
    )
    transcribe.add_argument("file", metavar="FILE")
    transcribe.set_defaults(func=cmd_transcribe)

    listen = subparsers.add_parser(
        "listen", parents=[*parents, engine], help="record from the microphone, show partials, print the final text"
    )
    listen.add_argument("--seconds", type=float, metavar="N", help="record N seconds (default: until Enter)")
    listen.add_argument("--device", metavar="NAME|NUMBER", help="input device (override speech.device)")
    listen.add_argument("--add", action="store_true", help="run the text through the pipeline like `murmur add`")
    listen.set_defaults(func=cmd_listen)

    devices = subparsers.add_parser("devices", parents=list(parents), help="list the audio input devices")
    devices.set_defaults(func=cmd_devices)

    models = subparsers.add_parser("models", help="speech models (Vosk, Whisper): list, download, remove, use")
    actions = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", parents=[*parents, where, language], help="installed (or downloadable) models")
    listing.add_argument("--available", action="store_true", help="models that can be downloaded")
    listing.set_defaults(func=cmd_models_list)
    recommended = actions.add_parser(
        "recommended", parents=[*parents, where], help="the models a first run offers for your language"
    )
    recommended.add_argument("--language", metavar="CODE", help="for this language (default: speech.language)")
    recommended.set_defaults(func=cmd_models_recommended)
    for name, func, text in (
        ("download", cmd_models_download, "download and install a model (Vosk list or Whisper catalogue)"),
        ("remove", cmd_models_remove, "delete an installed model"),
        ("use", cmd_models_use, "dictate with this model, or write the final text with a Whisper one"),
    ):
        action = actions.add_parser(name, parents=[*parents, where], help=text)
        action.add_argument("name", metavar="NAME")
        action.set_defaults(func=func)
