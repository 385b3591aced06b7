"""`murmur doctor`: what a bug report needs, and each check that fails with what to do (exit 1 when one fails)."""

import argparse

from app.api.settings import read_settings
from app.cli.exits import ExitCode
from app.cli.output import print_json, remedy_words, say


def _fact_lines(name: str, value: object) -> list[str]:
    if isinstance(value, dict):
        return [f"{name}:", *(f"  {key}: {item}" for key, item in value.items())]
    if isinstance(value, list):
        return [f"{name}:", *(f"  {item}" for item in value)] if value else [f"{name}: none"]
    return [f"{name}: {value}"]


def cmd_doctor(args: argparse.Namespace) -> int:
    from app.api.doctor import diagnose  # audio, engines and voices load for this command only

    settings, problems = read_settings()
    diagnosis = diagnose(settings, args.db, problems)
    if args.json:
        checks = [
            {"name": c.name, "ok": c.ok, "detail": c.detail, "fix": remedy_words(c.fix) if c.fix else ""}
            for c in diagnosis.checks
        ]
        print_json({"facts": diagnosis.facts, "checks": checks})
    else:
        for name, value in diagnosis.facts.items():
            for line in _fact_lines(name, value):
                say(line)
        say()
        for check in diagnosis.checks:
            say(f"{'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
            if check.fix:  # a check that passes may still do better (the built-in speech engine)
                say(f"      {'what to do' if not check.ok else 'better'}: {remedy_words(check.fix)}")
    return ExitCode.NOTHING_APPLIED if diagnosis.failed else ExitCode.OK
