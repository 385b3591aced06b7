"""The LLM's commands: `murmur config ...` (settings, the API key, a connection test), `usage`, `log`.

Registered into the main parser by app/cli.py. The key is read from a prompt or standard input,
never from the command line (where it would land in the shell history and the process list).
"""

import argparse
import getpass
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from app.agent.provider import PRESETS, ProviderFlags, resolve_provider, test_connection
from app.config import all_keys, config_dir, load_settings, save_settings, settings_path, with_value
from app.domain.clock import Clock
from app.errors import UsageError
from app.paths import default_db_path
from app.render import dumps
from app.secrets import delete_api_key, get_api_key, keyring_problem, set_api_key
from app.store import Store

EXIT_OK = 0

_NOTICE_MARKER = ".offline-notice-shown"


def first_offline_notice() -> bool:
    """True the first time only, so the "no LLM configured" line is said once, not on every add."""
    marker = config_dir() / _NOTICE_MARKER
    if marker.exists():
        return False
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        return False  # a read-only config dir: better silent than nagging every time
    return True


def _open_store(args: argparse.Namespace) -> Store:
    return Store.open(Path(args.db) if args.db else default_db_path())


# -- config -------------------------------------------------------------------------------------


def cmd_config_show(args: argparse.Namespace) -> int:
    settings = load_settings()
    provider = resolve_provider(settings.llm, ProviderFlags())
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
        print(dumps(state))
        return EXIT_OK
    print(f"settings file: {state['settings_file']}")
    for section in fields(settings):
        for name, value in asdict(getattr(settings, section.name)).items():
            print(f"  {section.name}.{name} = {json.dumps(value)}")
    if provider is None:
        print("LLM: not configured; the offline rules interpret what you say")
    else:
        print(f"LLM: {provider.model} at {provider.base_url} (API key: {key_source})")
    print(f"keyring: {state['keyring']}")
    return EXIT_OK


def cmd_config_set(args: argparse.Namespace) -> int:
    settings = with_value(load_settings(), args.key, args.value)
    if args.key == "llm.preset" and args.value and args.value not in PRESETS:
        raise UsageError(f"unknown preset {args.value!r}; presets are {', '.join(PRESETS)}")
    path = save_settings(settings)
    print(f"{args.key} = {args.value}  ({path})")
    return EXIT_OK


def cmd_config_set_key(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        key = getpass.getpass("API key (input hidden): ")
    else:
        key = sys.stdin.readline()
    set_api_key(key)
    print("The API key is saved in the system keyring.")
    return EXIT_OK


def cmd_config_delete_key(args: argparse.Namespace) -> int:
    print("The API key was removed from the keyring." if delete_api_key() else "No API key was saved.")
    return EXIT_OK


def cmd_config_test(args: argparse.Namespace) -> int:
    settings = load_settings()
    flags = ProviderFlags(base_url=args.base_url, model=args.model, preset=args.preset)
    print(test_connection(settings.llm, None, flags))
    return EXIT_OK


def cmd_config_presets(args: argparse.Namespace) -> int:
    if args.json:
        print(dumps([asdict(p) for p in PRESETS.values()]))
        return EXIT_OK
    for preset in PRESETS.values():
        key = "needs an API key" if preset.needs_key else "no key needed"
        print(f"{preset.name:<11} {preset.label:<26} {preset.base_url}  model {preset.default_model}  ({key})")
    return EXIT_OK


# -- usage and log --------------------------------------------------------------------------------


def cmd_usage(args: argparse.Namespace) -> int:
    from app.agent.ledger import usage_summary

    settings = load_settings()
    clock = Clock.system()
    summary = usage_summary(_open_store(args), clock.now, clock.tz, settings.llm.monthly_budget)
    if args.json:
        print(dumps({**asdict(summary), "budget_left": summary.budget_left}))
        return EXIT_OK
    if not summary.by_month:
        print("No requests to a model yet.")
    for title, rows in (("by month", summary.by_month), ("by day (last 31 days)", summary.by_day)):
        if rows:
            print(title)
            for row in rows:
                tokens = f"{row.prompt_tokens:>9,} in {row.completion_tokens:>8,} out"
                print(f"  {row.period:<10}  {row.requests:>5} requests  {tokens}  ${row.cost_usd:.4f}")
    if summary.budget_left is not None:
        print(f"budget: ${summary.monthly_budget:.2f} a month, ${summary.budget_left:.2f} left this month")
    return EXIT_OK


def cmd_log(args: argparse.Namespace) -> int:
    from app.agent.ledger import recent_requests

    requests = recent_requests(_open_store(args), args.limit)
    if args.json:
        print(dumps([_request_json(r) for r in requests]))
        return EXIT_OK
    if not requests:
        print("No requests to a model yet.")
    for request in reversed(requests):
        timing = f"first token {request.first_token_ms or 0:.0f} ms, total {request.total_ms or 0:.0f} ms"
        print(f"--- request {request.id}  utterance {request.utterance_id}  turn {request.turn}  {request.model}")
        print(
            f"    {request.created_at:%Y-%m-%d %H:%M:%S} UTC  {timing}  {request.prompt_tokens}+"
            f"{request.completion_tokens} tokens  ${request.cost_usd:.5f}"
        )
        for message in json.loads(request.request):
            print(f"  > {message['role']}: {_one_line(message.get('content'))}")
        if request.error:
            print(f"  < error: {request.error}")
        elif request.response:
            answer = json.loads(request.response)
            if answer.get("content"):
                print(f"  < assistant: {_one_line(answer['content'])}")
            for call in answer.get("tool_calls") or []:
                print(f"  < tool call {call['function']['name']}: {_one_line(call['function']['arguments'])}")
    return EXIT_OK


def _one_line(text: Any, width: int = 160) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _request_json(request: Any) -> dict[str, Any]:
    return {
        "id": request.id,
        "utterance_id": request.utterance_id,
        "created_at": request.created_at.isoformat(),
        "base_url": request.base_url,
        "model": request.model,
        "turn": request.turn,
        "messages": json.loads(request.request),
        "response": json.loads(request.response) if request.response else None,
        "error": request.error,
        "prompt_tokens": request.prompt_tokens,
        "completion_tokens": request.completion_tokens,
        "cost_usd": request.cost_usd,
        "first_token_ms": request.first_token_ms,
        "total_ms": request.total_ms,
    }


# -- registration ---------------------------------------------------------------------------------


def add_agent_commands(sub: Any, parents: Sequence[argparse.ArgumentParser]) -> None:
    common, as_json = parents
    config = sub.add_parser("config", parents=[common], help="settings, the LLM and its API key")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)

    show = config_sub.add_parser("show", parents=[common, as_json], help="the settings and which LLM is used")
    show.set_defaults(func=cmd_config_show)
    set_ = config_sub.add_parser("set", parents=[common], help="change a setting, e.g. llm.model gpt-4o-mini")
    set_.add_argument("key", metavar="KEY", help=f"one of: {', '.join(all_keys())}")
    set_.add_argument("value", metavar="VALUE")
    set_.set_defaults(func=cmd_config_set)
    key = config_sub.add_parser("set-key", parents=[common], help="save the API key in the keyring (asks for it)")
    key.set_defaults(func=cmd_config_set_key)
    forget = config_sub.add_parser("delete-key", parents=[common], help="remove the API key from the keyring")
    forget.set_defaults(func=cmd_config_delete_key)
    test = config_sub.add_parser("test", parents=[common], help="check that the LLM server answers")
    test.add_argument("--preset")
    test.add_argument("--base-url", metavar="URL")
    test.add_argument("--model")
    test.set_defaults(func=cmd_config_test)
    presets = config_sub.add_parser("presets", parents=[common, as_json], help="known LLM servers")
    presets.set_defaults(func=cmd_config_presets)

    usage = sub.add_parser("usage", parents=[common, as_json], help="tokens and cost by day and month")
    usage.set_defaults(func=cmd_usage)
    log = sub.add_parser("log", parents=[common, as_json], help="what the model was sent and answered")
    log.add_argument("--limit", type=int, default=10)
    log.set_defaults(func=cmd_log)
