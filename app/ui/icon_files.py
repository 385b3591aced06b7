"""The app's SVG icon drawn as PNG files of the sizes icon themes want (for `murmur desktop install`)."""

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer


def render_png(svg: bytes, size: int) -> bytes:
    """`svg` drawn on a transparent square of `size` pixels, as PNG bytes."""
    if QGuiApplication.instance() is None:  # a command-line run: a windowless Qt is enough to draw
        QGuiApplication(["murmur", "-platform", "offscreen"])
    renderer = QSvgRenderer(QByteArray(svg))
    if not renderer.isValid():
        raise ValueError("the app icon is not an SVG Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; PySide6 takes only str here
    return bytes(buffer.data().data())
