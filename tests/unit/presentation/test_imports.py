"""What an import could not read, in words."""

import pytest

from app.presentation.imports import skipped_lines


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([], ""),
        ([601], "line 601 skipped"),
        ([601, 1004], "lines 601 and 1004 skipped"),
        ([4, 9, 12], "lines 4, 9 and 12 skipped"),
        ([4, 9, 12, 20, 31], "lines 4, 9, 12 and 2 more skipped"),
    ],
)
def test_skipped_lines_are_counted_and_the_first_named(lines: list[int], said: str) -> None:
    assert skipped_lines(lines) == said
