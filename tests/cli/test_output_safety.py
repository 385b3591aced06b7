"""terminal_safe and the JSON the CLI prints: nothing a terminal acts on gets through."""

import json

from app.terminal import dumps, terminal_safe


def test_escape_sequences_and_controls_are_removed() -> None:
    text = "a\x1b]0;title\x07b\x1b[2Jc\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\d\re\x08f\u202eg\u2066h\x9b31mi\x1bPdcs\x1b\\j\x1b"
    assert terminal_safe(text) == "abclinkdefghij"


def test_newlines_and_tabs_stay_in_multiline_text_only() -> None:
    assert terminal_safe("one\n\ttwo") == "one\n\ttwo"
    assert terminal_safe("one\n\ttwo", multiline=False) == "one  two"


def test_an_unterminated_string_loses_only_its_escape() -> None:
    assert terminal_safe("\x1b]0;visible words") == "0;visible words"


def test_json_escapes_every_control_and_parses_to_the_same_text() -> None:
    text = "x\x1b[2J\x07\x9b\u202e\x7fy"
    printed = dumps({"summary": text})
    assert terminal_safe(printed) == printed  # nothing to remove: all of it is \\u escapes
    assert json.loads(printed) == {"summary": text}
