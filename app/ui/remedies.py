"""What to do about a failure, as the window says it: its own settings fields and plain words, never a command
to type in a terminal."""

from app.errors import Command, MurmurError, Remedy, Setting, Words, with_remedy

# Where the settings dialog shows a setting: its page, and its field's label there.
SETTING_PLACES = {
    "llm.preset": ("Language model", "Provider"),
    "llm.base_url": ("Language model", "Server address"),
    "llm.model": ("Language model", "Model"),
    "llm.api_key": ("Language model", "API key"),
    "llm.monthly_budget": ("Language model", "Budget"),
    "speech.device": ("Speech", "Microphone"),
    "speech.model": ("Speech", "Vosk model"),
    "speech.voice": ("Voice", "Voice"),
    "speech.output_device": ("Voice", "Speaker"),
    "sync.url": ("Sync", "Server address"),
    "sync.password": ("Sync", "Password"),
}


def setting_words(key: str) -> str:
    """Where to change setting `key`: its field in the settings dialog."""
    page, label = SETTING_PLACES[key]
    return f"see the {label} field in Settings → {page}"


def remedy_words(remedy: Remedy) -> str:
    """What to do, as the window says it: a command's remedy is said as what the command does."""
    match remedy:
        case Command(instead=instead):
            return remedy_words(instead)
        case Setting(key=key):
            return setting_words(key)
        case Words(text=text):
            return text


def settings_page(remedy: Remedy | None) -> str | None:
    """The settings page where `remedy` is done, when it is a setting: the window offers to open it."""
    match remedy:
        case Setting(key=key) | Command(instead=Setting(key=key)):
            return SETTING_PLACES[key][0]
        case _:
            return None


def window_text(message: str, remedy: Remedy | None) -> str:
    """`message` for the window, with what to do there."""
    return with_remedy(message, remedy, remedy_words)


def window_line(error: MurmurError) -> str:
    """`error` in one line for the window, with what to do there."""
    return window_text(str(error), error.remedy)
