"""The option the commands that save a secret share: keep it in a file where no keyring works."""

import argparse


def add_keep_in_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep-in-file",
        action="store_true",
        help="where no keyring works: keep it in ~/.local/share/murmur/credentials, readable by you alone "
        "(as git's credential store does)",
    )
