"""The desktop app: the only package that imports Qt (PySide6); a test asserts it.

Plain-Python pipeline -> one bridge QObject (bridge.py) -> thin widgets. All service calls run on
one worker thread (worker.py), so two pipelines never write at once and the GUI never blocks.
"""
