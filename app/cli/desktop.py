"""`murmur desktop install | uninstall`: Murmur in the desktop's application menu (and, if asked, at login)."""

import argparse
from pathlib import Path

from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.desktop.entries import install, install_into, uninstall


def cmd_desktop_install(args: argparse.Namespace) -> int:
    from app.ui.icon_files import render_png  # Qt draws the PNG icons: loaded for this command only

    if args.prefix:
        written = install_into(Path(args.prefix).expanduser(), render_png)
    else:
        written = install(render_png, autostart=args.autostart)
    if args.json:
        print_json({"written": [str(path) for path in written]})
    else:
        say(f"Murmur is in your application menu; {len(written)} files (`murmur desktop uninstall` removes them):")
        for path in written:
            say(f"  {path}")
    return ExitCode.OK


def cmd_desktop_uninstall(args: argparse.Namespace) -> int:
    removed = uninstall()
    if args.json:
        print_json({"removed": [str(path) for path in removed]})
    else:
        say(
            f"Removed {len(removed)} files."
            if removed
            else "Nothing to remove: `murmur desktop install` wrote nothing here."
        )
    return ExitCode.OK
