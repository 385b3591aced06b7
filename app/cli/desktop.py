"""`murmur desktop install | uninstall`: Murmur in the desktop's application menu (and, if asked, at login)."""

import argparse
from pathlib import Path

from app.api.desktop import install, install_into, uninstall
from app.cli.exits import ExitCode
from app.cli.output import print_json, say


def _render_png(svg: bytes, size: int) -> bytes:
    from app.ui.icon_files import render_png  # Qt draws the PNG icons: loaded only when one is drawn

    return render_png(svg, size)


def cmd_desktop_install(args: argparse.Namespace) -> int:
    if args.prefix:
        written = install_into(Path(args.prefix).expanduser(), _render_png)
    else:
        written = install(_render_png, autostart=args.autostart)
    if args.json:
        print_json({"written": [str(path) for path in written]})
    else:
        say(f"Murmur is in your application menu; {len(written)} files (`murmur desktop uninstall` removes them):")
        for path in written:
            say(f"  {path}")
    return ExitCode.OK


def cmd_desktop_uninstall(args: argparse.Namespace) -> int:
    done = uninstall(_render_png)
    if args.json:
        print_json({"removed": [str(path) for path in done.removed], "left": [str(path) for path in done.left]})
        return ExitCode.OK
    if not done.removed and not done.left:
        say("Nothing to remove: `murmur desktop install` wrote nothing here.")
        return ExitCode.OK
    say(f"Removed {len(done.removed)} files.")
    for path in done.left:
        say(f"Left {path}: changed since Murmur wrote it")
    return ExitCode.OK
