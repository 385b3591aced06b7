"""The arguments of models's commands; what they run is imported from app.cli.models when one does."""

import argparse
from typing import Any

from app.cli.args.named import add_named_actions


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register `models` and its actions (`common`: --db; `as_json`: --json)."""
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--models-dir", metavar="DIR", help="where speech models live (override speech.models_dir)")
    language = argparse.ArgumentParser(add_help=False)
    language.add_argument("--language", metavar="CODE", help="only models for this language (default: speech.language)")
    language.add_argument("--all-languages", action="store_true", help="models for every language")

    models = sub.add_parser("models", help="speech models (Vosk, Whisper): list, download, remove, use")
    actions = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", parents=[common, as_json, where, language], help="installed (or downloadable) models"
    )
    listing.add_argument("--available", action="store_true", help="models that can be downloaded")
    listing.set_defaults(func="app.cli.models:cmd_models_list")
    recommended = actions.add_parser(
        "recommended", parents=[common, as_json, where], help="the models a first run offers for your language"
    )
    recommended.add_argument("--language", metavar="CODE", help="for this language (default: speech.language)")
    recommended.set_defaults(func="app.cli.models:cmd_models_recommended")
    add_named_actions(
        actions,
        [common, as_json, where],
        (
            (
                "download",
                "app.cli.models:cmd_models_download",
                "download and install a model (Vosk list or Whisper catalogue)",
            ),
            ("remove", "app.cli.models:cmd_models_remove", "delete an installed model"),
            (
                "use",
                "app.cli.models:cmd_models_use",
                "dictate with this model, or write the final text with a Whisper one",
            ),
        ),
    )
