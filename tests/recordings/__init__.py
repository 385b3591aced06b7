"""The recordings kept with what was said."""
