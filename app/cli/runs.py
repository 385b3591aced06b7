"""`murmur runs`: the last runs kept beside the database, to see what was slow or failing; one run's events."""

import argparse

from app.api.as_json import kept_run_json
from app.api.service import build_service
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.presentation.runs import NO_RUNS, run_heading, run_lines, stage_times, timeline_lines


def cmd_runs(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    clock = service.clock()
    if args.run_id is not None:
        run = service.kept_run(args.run_id)
        if args.json:
            print_json(kept_run_json(run, clock.tz))
            return ExitCode.OK
        say(run_heading(run, clock.now, clock.tz))
        say(f"  {stage_times(run)}")
        for line in timeline_lines(run):
            say(f"  {line}")
        return ExitCode.OK
    runs = service.recent_runs(args.limit)
    if args.json:
        print_json([kept_run_json(run, clock.tz) for run in runs])
        return ExitCode.OK
    if not runs:
        say(NO_RUNS)
    for line in run_lines(runs, clock.now, clock.tz):
        say(line)
    return ExitCode.OK
