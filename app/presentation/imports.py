"""What an import could not read, in words."""

from collections.abc import Sequence

_NAMED_LINES = 3  # in a one-line summary; the details list every one


def skipped_lines(lines: Sequence[int]) -> str:
    """'line 601 skipped', 'lines 601 and 902 skipped', 'lines 4, 9, 12 and 7 more skipped'; '' for none.
    Line numbers go without thousands separators: '1,004' in a list reads as two."""
    if not lines:
        return ""
    if len(lines) == 1:
        return f"line {lines[0]} skipped"
    named = [str(line) for line in lines[:_NAMED_LINES]]
    rest = len(lines) - len(named)
    listed = f"{', '.join(named)} and {rest} more" if rest else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"lines {listed} skipped"
