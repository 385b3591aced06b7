"""Speech output: replies spoken aloud (Piper, espeak-ng), and the window that listens for the answer."""
