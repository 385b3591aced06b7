"""Sessions of talk and their synthesis: `murmur session list` and `murmur session end`."""

import argparse
from typing import Any

from app.api.as_json import iso
from app.api.rows import TalkSession
from app.api.service import build_service
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.domain.clock import Clock
from app.presentation.times import moment_words, time_of_day


def _session_json(talk: TalkSession, tz: Any) -> dict[str, Any]:
    return {
        "id": talk.id,
        "started_at": iso(talk.started_at, tz),
        "last_at": iso(talk.last_at, tz),
        "ended_at": iso(talk.ended_at, tz),
        "end_reason": None if talk.end_reason is None else talk.end_reason.value,
        "synthesis": talk.synthesis,
        "synthesis_error": talk.synthesis_error,
    }


def _describe(talk: TalkSession, clock: Clock) -> list[str]:
    span = f"{moment_words(talk.started_at, clock.now, clock.tz)}-{time_of_day(talk.last_at.astimezone(clock.tz))}"
    state = "open" if talk.ended_at is None else f"ended ({talk.end_reason.value if talk.end_reason else '?'})"
    lines = [f"session {talk.id}  {span}  {state}"]
    if talk.synthesis:
        lines.append(f"  {talk.synthesis}")
    elif talk.synthesis_error:
        lines.append(f"  (not summed up: {talk.synthesis_error})")
    return lines


def cmd_session_list(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    sessions, clock = service.sessions(args.limit), service.clock()
    if args.json:
        print_json([_session_json(talk, clock.tz) for talk in sessions])
    elif not sessions:
        say("No sessions yet: one starts with the first thing you say.")
    for talk in [] if args.json else sessions:
        for line in _describe(talk, clock):
            say(line)
    return ExitCode.OK


def cmd_session_end(args: argparse.Namespace) -> int:
    service = build_service(args.db)  # the configured model sums the session up
    talk = service.end_session()
    if talk is None:
        say("No session is open.")
        return ExitCode.NOTHING_APPLIED
    for line in _describe(talk, service.clock()):
        say(line)
    return ExitCode.OK
