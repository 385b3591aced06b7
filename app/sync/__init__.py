"""Two-way sync of the list with the user's CalDAV task list (RFC 4791), the server their phone also uses."""
