"""Where no keyring works, the box a secret's field offers: keep it in the credentials file, readable by the user
alone (as git's credential store keeps passwords). The user ticks it; unticked, a secret kept there is removed.

Its words are short, the file named in its tooltip: a box does not wrap, and a long one would widen the dialog."""

from PySide6.QtWidgets import QCheckBox, QWidget

from app.api import secrets


class SecretFileBox(QCheckBox):
    def __init__(self, secret: secrets.Secret, parent: QWidget | None = None) -> None:
        where = secrets.shown_path(secrets.credentials_path())
        super().__init__("Keep it in a file only you can read", parent)
        self.setToolTip(f"In {where}, as git's credential store keeps passwords")
        self.secret = secret
        self.was_in_file = secrets.in_file(secret)
        self.setChecked(self.was_in_file)
        self.setVisible(secrets.keyring_problem(secret) is not None)  # a keyring that works keeps it instead

    def where_kept(self) -> str:
        """'Kept in ~/.local/share/murmur/credentials, readable by you alone.' ('' when it is not there)."""
        where = secrets.shown_path(secrets.credentials_path())
        return f"Kept in {where}, readable by you alone." if self.was_in_file else ""

    def save(self, typed: str) -> None:
        """Keep `typed` (in the keyring, or in the file when ticked); nothing typed and the box unticked, a secret
        kept in the file is removed from it. A MurmurError, one line, when it cannot be kept."""
        if typed:
            secrets.set_secret(self.secret, typed, to_file=self.isChecked())
        elif self.was_in_file and not self.isChecked():
            secrets.delete_secret(self.secret)
