"""What was said before: `murmur recall`."""

import argparse

from app.api.as_json import iso
from app.api.reads import render_hits
from app.api.service import build_service
from app.cli.exits import ExitCode
from app.cli.output import print_json, say


def cmd_recall(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    hits = service.recall(" ".join(args.words), since=args.since, until=args.until)
    tz = service.clock().tz
    if args.json:
        print_json(
            [
                {
                    "utterance_id": h.utterance_id,
                    "said_at": iso(h.said_at, tz),
                    "said": h.said,
                    "reply": h.reply,
                    "done": h.done,
                }
                for h in hits
            ]
        )
    else:
        say(render_hits(hits, tz, numbered=True) if hits else "Nothing you said matches that.")
    return ExitCode.OK if hits else ExitCode.NOTHING_APPLIED
