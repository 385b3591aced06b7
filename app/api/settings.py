"""The app's settings and where it keeps its files: the settings file, the folders, the log, private files, the
version."""

from app import __version__
from app.config import (
    LlmSettings,
    PrivacySettings,
    Settings,
    SettingsFileError,
    SpeechSettings,
    SyncSettings,
    UiSettings,
    all_keys,
    load_settings,
    read_settings,
    read_settings_file,
    save_settings,
    section_names,
    settings_path,
    url_problem,
    with_value,
)
from app.logs import log_library, setup_logging
from app.paths import config_dir, data_dir, default_db_path
from app.private_files import output_target, secure_files_at_start

__all__ = [
    "LlmSettings",
    "PrivacySettings",
    "Settings",
    "SettingsFileError",
    "SpeechSettings",
    "SyncSettings",
    "UiSettings",
    "__version__",
    "all_keys",
    "config_dir",
    "data_dir",
    "default_db_path",
    "load_settings",
    "log_library",
    "output_target",
    "read_settings",
    "read_settings_file",
    "save_settings",
    "section_names",
    "secure_files_at_start",
    "settings_path",
    "setup_logging",
    "url_problem",
    "with_value",
]
