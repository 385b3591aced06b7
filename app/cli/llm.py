"""The LLM settings commands: config show, set, set-key, delete-key, test, presets.

The API key is read from a prompt or standard input, never from the command line (where it would land in the
shell history and the process list).
"""

import argparse
import getpass
import json
import sys
from dataclasses import asdict

from app.api.model import PRESETS, ProviderFlags, resolve_provider
from app.api.secrets import API_KEY, delete_api_key, get_api_key, in_file, keyring_problem, set_api_key, shown_path
from app.api.service import build_service, model_test
from app.api.settings import (
    Settings,
    load_settings,
    read_settings_file,
    save_settings,
    section_names,
    settings_path,
    with_value,
)
from app.cli.exits import ExitCode
from app.cli.output import print_json, print_warning, say
from app.errors import UsageError


def _settings_to_show_or_change() -> Settings:
    """The file's settings; a file that cannot be read is an error here (`config set` would overwrite it),
    and each value that is not used is a warning."""
    settings, problems = read_settings_file()
    for problem in problems:
        print_warning(problem)
    return settings


def cmd_config_show(args: argparse.Namespace) -> int:
    settings = _settings_to_show_or_change()
    provider = None if settings.closed_because("llm") else resolve_provider(settings.llm, ProviderFlags())
    key_source = "none"
    if provider is not None and provider.api_key != "not-needed":
        key_source = "keyring" if get_api_key() == provider.api_key else "environment"
    state = {
        "settings_file": str(settings_path()),
        "settings": asdict(settings),
        "llm": None
        if provider is None
        else {
            "base_url": provider.base_url,
            "model": provider.model,
            "api_key": key_source,
            "local": provider.is_local,
        },
        "keyring": keyring_problem() or "available",
    }
    if args.json:
        print_json(state)
        return ExitCode.OK
    say(f"settings file: {state['settings_file']}")
    for section in section_names():
        for name, value in asdict(getattr(settings, section)).items():
            say(f"  {section}.{name} = {json.dumps(value)}")
    if settings.closed_because("llm"):
        say("LLM: off until the settings file is fixed; the offline rules interpret what you say")
    elif provider is None:
        say("LLM: not configured; the offline rules interpret what you say")
    else:
        say(f"LLM: {provider.model} at {provider.base_url} (API key: {key_source})")
    say(f"keyring: {state['keyring']}")
    return ExitCode.OK


def cmd_config_set(args: argparse.Namespace) -> int:
    settings = with_value(_settings_to_show_or_change(), args.key, args.value)
    if args.key == "llm.preset" and args.value and args.value not in PRESETS:
        raise UsageError(f"unknown preset {args.value!r}; presets are {', '.join(PRESETS)}")
    path = save_settings(settings)
    say(f"{args.key} = {args.value}  ({path})")
    return ExitCode.OK


def cmd_config_set_key(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        key = getpass.getpass("API key (input hidden): ")
    else:
        key = sys.stdin.readline()
    kept = set_api_key(key, to_file=args.keep_in_file)
    say(
        f"The API key is kept in {shown_path(kept)}, readable by you alone."
        if kept
        else "The API key is saved in the system keyring."
    )
    return ExitCode.OK


def cmd_config_delete_key(args: argparse.Namespace) -> int:
    where = "the credentials file" if in_file(API_KEY) else "the keyring"
    say(f"The API key was removed from {where}." if delete_api_key() else "No API key was saved.")
    return ExitCode.OK


def cmd_config_test(args: argparse.Namespace) -> int:
    flags = ProviderFlags(base_url=args.base_url, model=args.model, preset=args.preset)
    report = model_test(build_service(args.db, offline=True))(load_settings().llm, None, flags)
    say(report.text)
    return ExitCode.OK if report.ok else ExitCode.NOTHING_APPLIED


def cmd_config_presets(args: argparse.Namespace) -> int:
    from app.api.model import MEASURED, SUGGESTED, TESTED_MODELS

    if args.json:
        print_json(
            {
                "servers": [asdict(p) for p in PRESETS.values()],
                "tested_models": [asdict(m) for m in TESTED_MODELS],
                "measured": MEASURED,
                "suggested": SUGGESTED,
            }
        )
        return ExitCode.OK
    say("Servers:")
    for preset in PRESETS.values():
        key = "needs an API key" if preset.needs_key else "no key needed"
        say(f"  {preset.name:<11} {preset.label:<26} {preset.base_url}  model {preset.default_model}  ({key})")
    say(f"Local models tried ({MEASURED}); right changes by the model itself:")
    for model in TESTED_MODELS:
        say(
            f"  {model.parameters:>5}  {model.name:<36} native {model.native}, text {model.text}, "
            f"{model.median_seconds:.0f} s each; {model.advice}"
        )
    say(f"For the model to do the work itself, use a model with tool calling of about 7B: {SUGGESTED}.")
    say("A llama.cpp server takes tools only when started with --jinja.")
    say("`murmur config test` tries the configured model the same way in a few seconds.")
    return ExitCode.OK
