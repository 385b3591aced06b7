"""What a bug report needs, in one place: versions, the desktop, audio, engines, the model server, the data."""
