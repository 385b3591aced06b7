"""`python -m app` does what the `murmur` command does."""

from app.cli import main

raise SystemExit(main())
