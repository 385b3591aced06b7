"""Settings -> Language model: the provider (or none: the built-in rules), its address, model and API key (kept
in the keyring, never in the settings file), "Test connection" (off the GUI thread, with the form's settings,
not yet saved), and how the model is used: tool calls, what happens when it fails, follow-ups, a budget."""

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton, QWidget

from app.api import secrets
from app.api.model import PRESETS
from app.api.settings import LlmSettings, url_problem
from app.errors import MurmurError
from app.ui.background import run_in_thread
from app.ui.settings.form import combo, lay_out, spin, text_field
from app.ui.settings.secret_file_box import SecretFileBox
from app.ui.worker import Call, Failed, JobOutcome

if TYPE_CHECKING:
    from app.api.connection import ConnectionReport

# Tries the server and the model as set (settings, a typed key or None); `app.agent.connection.test_connection`.
ConnectionTest = Callable[[LlmSettings, str | None], "ConnectionReport"]

NONE = "none"
CUSTOM = "custom"
NO_SERVER_NEEDED = "The built-in rules run on this computer: they need no server, so there is nothing to test."
TOOL_PROTOCOLS = {
    "auto": "Automatic (native, else in the prompt)",
    "native": "The server's function calling",
    "text": "In the prompt (for models without function calling)",
}
FALLBACKS = {"offline": "The built-in rules file it, saying so", "inbox": "It waits in the Inbox"}
# The connection test's messages name settings keys (they serve `murmur config test` too): here, the fields.
FIELD_WORDS = (
    ("set llm.preset or llm.base_url,", "choose a Provider or fill in the Server address,"),
    ("the LLM base URL", "the Server address"),
)
FIELD_LABELS = {"preset": "Provider", "base_url": "Server address", "model": "Model", "api_key": "API key"}


def load_and_test_connection(settings: LlmSettings, api_key: str | None) -> "ConnectionReport":
    """`app.agent.connection.test_connection`, loaded when a test is asked for: the openai client it needs takes a
    second or more to import, which opening the dialog would otherwise wait for."""
    from app.api.connection import test_connection as tried

    return tried(settings, api_key)


def in_field_words(line: str) -> str:
    """The connection test's `line`, naming the dialog's fields instead of settings keys."""
    for key_words, field_words in FIELD_WORDS:
        line = line.replace(key_words, field_words)
    line = re.sub(r" \(llm\.\w+\)", "", line)  # a setting with no field here ("llm.first_token_seconds")
    return re.sub(r"llm\.(\w+)", lambda m: f"the {FIELD_LABELS.get(m[1], m[1])} field", line)


def _has_key() -> bool:
    try:
        return bool(secrets.get_api_key())
    except MurmurError:
        return False


def _provider_choice(llm: LlmSettings) -> str:
    """The provider as configured; "None" only when nothing would reach a server (a stored key alone
    means OpenAI)."""
    if llm.preset:
        return llm.preset
    return CUSTOM if llm.base_url or llm.model or _has_key() else NONE


class LlmPage(QWidget):
    connection_tested = Signal(str)  # the one line the connection test ended with, as shown

    def __init__(self, llm: LlmSettings, connection_test: ConnectionTest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.llm, self._connection_test = llm, connection_test
        self.preset = combo(
            {NONE: "None: built-in rules", CUSTOM: "Custom server"} | {p.name: p.label for p in PRESETS.values()},
            _provider_choice(llm),
        )
        self.preset.setToolTip("None: the built-in rules read what you say, on this computer; OK forgets a stored key")
        self.base_url = text_field(llm.base_url, "the preset's address")
        self.llm_model = text_field(llm.model, "the preset's default model")
        self.api_key = text_field("", "unchanged" if _has_key() else "none")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.follow_up = spin(llm, "follow_up_seconds", " s")
        self.tool_protocol = combo(TOOL_PROTOCOLS, llm.tool_protocol)
        self.fallback = combo(FALLBACKS, llm.fallback)
        self.budget = spin(llm, "monthly_budget", " USD a month", decimals=2)  # money: cents
        self.budget.setSpecialValueText("No budget")  # shown at 0
        self._keyring_problem = secrets.keyring_problem()
        self.keyring_note = QLabel(self._keyring_problem or "")
        self.keep_in_file = SecretFileBox(secrets.API_KEY)
        self.keyring_note.setWordWrap(True)
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.test_connection)
        self.connection_note = QLabel()
        self.connection_note.setObjectName("connection")
        self.connection_note.setWordWrap(True)
        self._lay_out()
        self.preset.currentIndexChanged.connect(self._follow_provider)
        self._follow_provider()

    def _lay_out(self) -> None:
        lay_out(
            self,
            ("Provider", self.preset),
            ("Server address", self.base_url),
            ("Model", self.llm_model),
            ("API key", self.api_key),
            ("", self.keyring_note),
            ("", self.keep_in_file),
            ("", self.test_button),
            ("", self.connection_note),
            ("Tool calls", self.tool_protocol),
            ("When the model fails", self.fallback),
            ("Follow-up window", self.follow_up),
            ("Budget", self.budget),
        )

    def _uses_server(self) -> bool:
        return bool(self.preset.currentData() != NONE)

    def _follow_provider(self) -> None:
        """The built-in rules use no server: its fields are greyed out, and a missing keyring is no problem then
        (no key to keep), so it is not shown."""
        server = self._uses_server()
        for widget in (self.base_url, self.llm_model, self.api_key, self.tool_protocol, self.fallback):
            widget.setEnabled(server)
        self.follow_up.setEnabled(server)
        self.budget.setEnabled(server)
        self.keyring_note.setVisible(server and self._keyring_problem is not None)
        self.keep_in_file.setVisible(server and self._keyring_problem is not None)
        self.connection_note.clear()

    def result(self, llm: LlmSettings) -> LlmSettings:
        """`llm` as this page sets it: no address or model for the built-in rules."""
        preset = str(self.preset.currentData())
        server = self._uses_server()
        return replace(
            llm,
            preset="" if preset in (NONE, CUSTOM) else preset,
            base_url=self.base_url.text().strip() if server else "",
            model=self.llm_model.text().strip() if server else "",
            follow_up_seconds=self.follow_up.value(),
            monthly_budget=self.budget.value(),
            tool_protocol=str(self.tool_protocol.currentData()),
            fallback=str(self.fallback.currentData()),
        )

    def refused(self, llm: LlmSettings) -> QWidget | None:
        """The address field when `llm.base_url` is no URL (saved, every utterance would go to the rules), the
        reason shown below it."""
        wrong = url_problem(llm.base_url) if llm.base_url else None
        if not wrong:
            return None
        self.connection_note.setText(f"The server address {wrong}.")
        return self.base_url

    def save_key(self) -> bool:
        """Keep a newly typed API key in the keyring, or forget the stored one for the built-in rules (a
        MurmurError, one line, when the keyring refuses); whether the keyring changed."""
        key = self.api_key.text().strip()
        if not self._uses_server():
            return secrets.delete_api_key()  # a stored key alone would still reach OpenAI
        if key:
            secrets.set_api_key(key, to_file=self.keep_in_file.isChecked())
            return True
        self.keep_in_file.save("")  # unticked, a key kept in the file is removed from it
        return self.keep_in_file.was_in_file and not self.keep_in_file.isChecked()

    def test_connection(self) -> None:
        """Ask the server (as set in the form, not yet saved) for its models, then try the model with one tool
        call (app/agent/probe.py), off the GUI thread."""
        if not self._uses_server():
            self.connection_note.setText(NO_SERVER_NEEDED)
            self.connection_tested.emit(NO_SERVER_NEEDED)
            return
        llm, key, connection_test = self.result(self.llm), self.api_key.text().strip() or None, self._connection_test
        self.test_button.setEnabled(False)
        self.connection_note.setText("Connecting, then trying the model with one tool call…")
        run_in_thread(Call("test-connection", lambda: connection_test(llm, key).text), self, self._on_connection_tested)

    def _on_connection_tested(self, outcome: JobOutcome[str]) -> None:
        self.test_button.setEnabled(True)
        line = in_field_words(outcome.error if isinstance(outcome, Failed) else outcome.result)
        self.connection_note.setText(line)
        self.connection_tested.emit(line)
