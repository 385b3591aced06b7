"""The bundle's entry point: the `murmur` command, as the wheel's console script runs it."""

import sys

from app.cli import main

sys.exit(main())
