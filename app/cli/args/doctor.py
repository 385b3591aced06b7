"""The arguments of doctor's commands; what they run is imported from app.cli.doctor when one does."""

import argparse
from typing import Any


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    doctor = sub.add_parser("doctor", parents=[common, as_json], help="what a bug report needs, and what to fix")
    doctor.set_defaults(func="app.cli.doctor:cmd_doctor")
