"""The sync commands: `murmur sync` (once, now), `murmur sync status`, and `murmur sync setup`.

The password is read from a prompt, standard input or MURMUR_CALDAV_PASSWORD, never from the command line
(where it would land in the shell history and the process list), and kept in the keyring (or, asked with
--keep-in-file where no keyring works, in the credentials file, readable by the user alone).
"""

import argparse
import getpass
import sys
from dataclasses import replace
from typing import Any

from app.api.secrets import SYNC_PASSWORD, keyring_problem, set_secret, shown_path, sync_password
from app.api.service import build_service
from app.api.settings import SyncSettings, load_settings, save_settings
from app.api.sync import NEEDS_CALDAV, SyncReport, SyncStatus
from app.cli.exits import ExitCode
from app.cli.output import cli_text, print_json, remedy_words, say
from app.errors import UsageError
from app.presentation.times import moment_words


def _report_json(report: SyncReport) -> dict[str, Any]:
    return {
        "pushed": report.pushed,
        "pulled": report.pulled,
        "conflicts": report.conflicts,
        "problems": report.problems,
        "queued": report.queued,
        "undo_id": report.undo_id,
    }


def cmd_sync(args: argparse.Namespace) -> int:
    report = build_service(args.db, offline=True).sync(confirmed=args.confirm)
    if args.json:
        print_json(_report_json(report))
        return ExitCode.OK
    for line in [*report.pulled, *report.conflicts, *report.problems]:
        say(f"  {line}")
    say(f"Synced: {report.summary}" + (f" (undo: murmur undo --batch {report.undo_id})" if report.undo_id else ""))
    return ExitCode.OK


def _status_json(status: SyncStatus, settings: SyncSettings) -> dict[str, Any]:
    return {
        "server": settings.url or None,
        "calendar": settings.calendar,
        "task_list_url": status.calendar_url,
        "last_sync_at": status.last_sync_at.isoformat() if status.last_sync_at else None,
        "queued": status.queued,
        "last_error": status.last_error,
        "last_error_at": status.last_error_at.isoformat() if status.last_error_at else None,
        "failing_since": status.failing_since.isoformat() if status.failing_since else None,
        "remedy": remedy_words(status.remedy) if status.remedy else None,
        "skipped": list(status.skipped),
    }


def cmd_sync_status(args: argparse.Namespace) -> int:
    settings = load_settings().sync
    service = build_service(args.db, offline=True)
    status = service.sync_status()
    state = _status_json(status, settings)
    if args.json:
        print_json(state)
        return ExitCode.OK
    if not settings.url:
        say("Sync is not set up (murmur sync setup).")
    else:
        say(f"Server: {settings.url} as {settings.username or '(no user name)'}, task list {settings.calendar!r}")
    clock = service.clock()
    when = status.last_sync_at
    say(f"Last sync: {moment_words(when, clock.now, clock.tz)}" if when else "Last sync: never")
    say(f"Changes waiting to be sent: {state['queued']}")
    for line in status.skipped:
        say(f"Skipped: {line}")
    if status.failing_since:
        say(f"Failing since {moment_words(status.failing_since, clock.now, clock.tz)}")
    if status.last_error:
        at = f" ({moment_words(status.last_error_at, clock.now, clock.tz)})" if status.last_error_at else ""
        say(f"Last error{at}: {cli_text(status.last_error, status.remedy)}")
    return ExitCode.OK


def _ask(question: str, current: str) -> str:
    """The user's answer, or `current` when they just press Enter (a script without a terminal gets `current`)."""
    if not sys.stdin.isatty():
        if current:
            return current
        raise UsageError(f"{question.lower()} is needed: give it as an option (see `murmur sync setup --help`)")
    answer = input(f"{question} [{current}]: " if current else f"{question}: ").strip()
    return answer or current


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().strip()
    found = sync_password()
    if found:
        return found
    if not sys.stdin.isatty():
        raise UsageError(f"no password: pipe it with --password-stdin, or set {SYNC_PASSWORD.env}")
    return getpass.getpass("Password or app password (input hidden): ")


def _pick(names: list[str], current: str) -> str:
    """A list by number or by name; a new name makes a new list."""
    for number, name in enumerate(names, start=1):
        say(f"  {number}. {name}")
    answer = _ask("Task list to sync (a number, or a new name)", current)
    if answer.isdigit() and 1 <= int(answer) <= len(names):
        return names[int(answer) - 1]
    return answer


def cmd_sync_setup(args: argparse.Namespace) -> int:
    try:
        from app.api.sync_setup import discover, try_account  # the caldav library loads only here
    except ModuleNotFoundError:
        raise UsageError(NEEDS_CALDAV) from None

    settings = load_settings()
    url = args.url or _ask("Server address (https://...)", settings.sync.url)
    username = args.username or _ask("User name", settings.sync.username)
    password = _password(args.password_stdin)
    trial = replace(settings.sync, url=url, username=username)
    found = discover(trial, password)
    chosen = replace(
        trial, calendar=args.calendar or _pick([task.name for task in found if task.tasks], trial.calendar)
    )
    say(try_account(chosen, password).line)
    path = save_settings(replace(settings, sync=chosen))
    if keyring_problem(SYNC_PASSWORD) is None or args.keep_in_file:
        kept = set_secret(SYNC_PASSWORD, password, to_file=args.keep_in_file)
        where = f"in {shown_path(kept)}, readable by you alone" if kept else "in the system keyring"
        say(f"Saved to {path}; the password is {where}.")
    else:
        say(
            f"Saved to {path}. No keyring here: set {SYNC_PASSWORD.env} wherever Murmur runs, "
            "or run this again with --keep-in-file to keep the password in a file only you can read."
        )
    say("Run `murmur sync` to sync now; the desktop app syncs by itself.")
    return ExitCode.OK
