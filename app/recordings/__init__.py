"""The recordings of what was said: each dictated utterance's sound, kept owner-only beside the database."""
