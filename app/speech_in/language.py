"""The dictation language: matching Vosk model languages, and the languages handed to date parsing."""

# Vosk's model list names some languages by country or old codes; dateparser and settings use ISO 639-1.
_ALIASES = {"cn": "zh", "ua": "uk", "kz": "kk", "gr": "el", "vn": "vi", "ph": "tl", "jp": "ja", "kr": "ko"}


def base_language(code: str) -> str:
    """ "en-US", "en_us", "en-in" -> "en"; "cn" -> "zh"."""
    first = code.strip().lower().replace("_", "-").split("-", 1)[0]
    return _ALIASES.get(first, first)


def same_language(a: str, b: str) -> bool:
    return bool(a) and bool(b) and base_language(a) == base_language(b)


def date_languages(language: str) -> list[str]:
    """The languages date parsing should read for dictation in `language` (dateparser's codes).

    English stays as a second choice: people mix English words ("meeting", "deadline") and dates
    into other languages, and the offline interpreter's cue words are English.
    """
    base = base_language(language) or "en"
    return [base] if base == "en" else [base, "en"]
