"""Run as `python -m app.ui.tray_probe`: prints "yes" or "no", whether Qt finds a system tray on this desktop.

Its own process, because Qt ends the process that has no display to talk to (`murmur doctor` must go on)."""

from PySide6.QtWidgets import QApplication, QSystemTrayIcon


def main() -> None:
    application = QApplication([])
    print("yes" if QSystemTrayIcon.isSystemTrayAvailable() else "no")
    application.quit()


if __name__ == "__main__":
    main()
