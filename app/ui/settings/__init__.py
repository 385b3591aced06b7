"""The settings dialog: one module per page, and the dialog that gathers the pages into a `Settings`."""
