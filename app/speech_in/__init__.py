"""Speech input: microphone capture, transcriber engines (Vosk, bundled pocketsphinx), Vosk models.

Importing this package is cheap: the engines, sounddevice and numpy-heavy code load only when used.
The desktop app talks to `app.speech_in.dictation`; the CLI's commands live in `app.cli.speech`
and `app.cli.models`.
"""
