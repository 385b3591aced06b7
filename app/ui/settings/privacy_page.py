"""Settings -> Privacy: masking secrets before text leaves this computer, and putting them back locally."""

from dataclasses import replace

from PySide6.QtWidgets import QWidget

from app.api.settings import PrivacySettings
from app.ui.settings.form import check, lay_out


class PrivacyPage(QWidget):
    def __init__(self, privacy: PrivacySettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.redact = check(
            "Mask card numbers, IBANs, keys and passwords before text leaves this computer", privacy.redact
        )
        self.redact.setToolTip(
            "The language model then sees placeholders such as [card number] instead; the built-in rules "
            "never send anything"
        )
        self.keep_unredacted = check(
            "Put the masked details back into the entries saved on this computer", privacy.keep_unredacted
        )
        self.keep_unredacted.setToolTip(
            "Unchecked, entries the model writes keep placeholders such as [card number]. What you said is "
            "kept whole in the local database either way; the model never sees the originals"
        )
        self.redact.toggled.connect(self.keep_unredacted.setEnabled)  # nothing is masked: nothing to put back
        self.keep_unredacted.setEnabled(privacy.redact)
        lay_out(self, ("", self.redact), ("", self.keep_unredacted))

    def result(self, privacy: PrivacySettings) -> PrivacySettings:
        """`privacy` as this page sets it."""
        return replace(privacy, redact=self.redact.isChecked(), keep_unredacted=self.keep_unredacted.isChecked())
