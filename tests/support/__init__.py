"""Real stand-ins for what tests cannot reach: a chat-completions server, a PulseAudio microphone."""
