"""The arguments of llm's commands; what they run is imported from app.cli.llm when one does."""

import argparse
from typing import Any

from app.api.settings import all_keys
from app.cli.args.secret_file import add_keep_in_file


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register `config` and its actions (`common`: --db; `as_json`: --json)."""
    config = sub.add_parser("config", parents=[common], help="settings, the LLM and its API key")
    actions = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)

    show = actions.add_parser("show", parents=[common, as_json], help="the settings and which LLM is used")
    show.set_defaults(func="app.cli.llm:cmd_config_show")
    set_ = actions.add_parser("set", parents=[common], help="change a setting, e.g. llm.model gpt-4o-mini")
    set_.add_argument("key", metavar="KEY", help=f"one of: {', '.join(all_keys())}")
    set_.add_argument("value", metavar="VALUE")
    set_.set_defaults(func="app.cli.llm:cmd_config_set")
    key = actions.add_parser("set-key", parents=[common], help="save the API key in the keyring (asks for it)")
    add_keep_in_file(key)
    key.set_defaults(func="app.cli.llm:cmd_config_set_key")
    forget = actions.add_parser("delete-key", parents=[common], help="remove the API key from the keyring")
    forget.set_defaults(func="app.cli.llm:cmd_config_delete_key")
    test = actions.add_parser("test", parents=[common], help="check that the LLM server answers")
    test.add_argument("--preset")
    test.add_argument("--base-url", metavar="URL")
    test.add_argument("--model")
    test.set_defaults(func="app.cli.llm:cmd_config_test")
    presets = actions.add_parser("presets", parents=[common, as_json], help="known LLM servers")
    presets.set_defaults(func="app.cli.llm:cmd_config_presets")
