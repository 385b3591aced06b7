"""The speech model commands: models list, recommended, download, remove, use."""

import argparse
from dataclasses import asdict, replace
from typing import TYPE_CHECKING

from app.api.settings import load_settings, save_settings
from app.cli.exits import ExitCode
from app.cli.output import cli_line, print_json, print_warning, say
from app.cli.report import ProgressPrinter, report_removed

if TYPE_CHECKING:
    from app.api.speech_models import SpeechModels


def _models(args: argparse.Namespace) -> "SpeechModels":
    from app.api.speech_models import SpeechModels  # model lists and downloads load only for these commands

    settings = load_settings().speech
    if args.models_dir:
        settings = replace(settings, models_dir=args.models_dir)
    return SpeechModels.from_settings(settings)


def _language(args: argparse.Namespace) -> str:
    return "" if args.all_languages else (args.language or load_settings().speech.language)


def cmd_models_list(args: argparse.Namespace) -> int:
    models = _models(args)
    language = _language(args)
    if args.available:
        return _list_available(models, language, args.json)
    installed = models.installed(language)
    settings = load_settings().speech
    in_use = {"vosk": settings.model, "whisper": settings.whisper_model}
    if args.json:
        print_json([{**asdict(m), "path": str(m.path), "in_use": m.name == in_use[m.kind]} for m in installed])
        return ExitCode.OK
    if not installed:
        where = f" for language {language!r}" if language else ""
        say(f"No speech models installed{where} in {models.folder}; the built-in engine (English only, rough on")
        say("real voices) is used. `murmur models recommended` names the Whisper model that fits this computer.")
    for m in installed:
        mark = "*" if m.name == in_use[m.kind] else " "
        say(f"{mark} {m.name:<40} {m.kind:<7} {m.language:<6} {m.size_text:>8}  {m.path}")
    return ExitCode.OK


def _list_available(models: "SpeechModels", language: str, as_json: bool) -> int:
    """The Whisper catalogue (built in) and the Vosk list (fetched: offline, a warning and the rest)."""
    from app.errors import ModelError

    listed = True
    try:
        vosk = models.vosk.available(language)
    except ModelError as error:
        print_warning(f"{cli_line(error)}; only the Whisper models are listed")
        vosk, listed = [], False
    whisper = models.whisper.available(language)
    installed = {m.name for m in models.installed()}
    if as_json:
        rows = [{**asdict(m), "kind": "vosk", "type": m.kind} for m in vosk]
        rows += [{**asdict(m), "kind": "whisper"} for m in whisper]
        print_json([{**row, "installed": row["name"] in installed} for row in rows])
        return ExitCode.OK
    if listed and not vosk:
        say(f"No downloadable Vosk models listed for language {language!r}.")
    for m in vosk:
        note = f"{m.kind}, installed" if m.name in installed else m.kind
        say(f"{m.name:<40} {'vosk':<7} {m.language:<6} {m.size_text:>8}  {note}")
    for w in whisper:
        note = f"installed; {w.description}" if w.name in installed else w.description
        say(f"{w.name:<40} {'whisper':<7} {w.language:<6} {w.size_text:>8}  {note}")
    say("Download one with `murmur models download NAME`: a Whisper model recognises what you say; a small Vosk")
    say("model streams the words as you speak in languages the built-in engine does not know.")
    return ExitCode.OK


def cmd_models_recommended(args: argparse.Namespace) -> int:
    """The models a first run offers for the language (`murmur listen` asks about them on a terminal)."""
    from app.api.listening import base_language
    from app.api.speech_models import recommended_models

    models = _models(args)
    language = args.language or load_settings().speech.language or "en"
    recommended = recommended_models(language)  # other languages than English: the Vosk list names the model
    installed = {m.name for m in models.installed()}
    if base_language(language) != "en" and not any(r.kind == "vosk" for r in recommended):
        print_warning(f"no Vosk model named for {language!r}; see `murmur models list --available`")
    if args.json:
        rows = [{**asdict(r), "size_text": r.size_text, "installed": r.name in installed} for r in recommended]
        print_json(rows)
        return ExitCode.OK
    for r in recommended:
        note = f"installed; {r.purpose}" if r.name in installed else r.purpose
        say(f"{r.name:<40} {r.kind:<7} {r.language:<6} {r.size_text:>8}  {note}")
    say("Download one with `murmur models download NAME`; installed, it is used without further setting.")
    _say_recommended_voice(models, language)
    return ExitCode.OK


def _say_recommended_voice(models: "SpeechModels", language: str) -> None:
    """The natural voice a first run offers beside the models (for other languages than English, if the Piper
    catalogue can be had)."""
    from app.api.offers import recommended_voice
    from app.api.speaking import PiperVoices

    voice = recommended_voice(replace(load_settings().speech, language=language, models_dir=str(models.folder)))
    if voice is None:
        return
    installed = any(v.name == voice.name for v in PiperVoices(models.folder).installed())
    how = "installed" if installed else f"`murmur voices download {voice.name}`"
    say(f"{voice.purpose}: {voice.name} ({voice.size_text}); {how}")


def cmd_models_download(args: argparse.Namespace) -> int:
    installed = _models(args).download(args.name, on_progress=ProgressPrinter(args.json))
    if args.json:
        row = {"name": installed.name, "kind": installed.kind, "path": str(installed.path)}
        print_json({**row, "language": installed.language})
        return ExitCode.OK
    say(f"\ninstalled {installed.name} in {installed.path}; use it with `murmur models use {installed.name}`")
    return ExitCode.OK


def cmd_models_remove(args: argparse.Namespace) -> int:
    return report_removed(args.name, _models(args).remove(args.name), args.json)


def cmd_models_use(args: argparse.Namespace) -> int:
    settings = load_settings()
    use = _models(args).use(settings.speech, args.name)  # fails with one line unless it is a model
    saved = save_settings(replace(settings, speech=use.speech))
    if args.json:
        row = {"model": use.value, "kind": use.kind, "setting": use.setting, "path": str(use.path)}
        print_json({**row, "settings": str(saved)})
    else:
        what = "the final text now comes from" if use.kind == "whisper" else "dictation now uses"
        say(f"{what} {use.value} ({saved})")
    return ExitCode.OK
