"""The user's words: terms the speech engines are told to expect, and replacements put into what was dictated."""
