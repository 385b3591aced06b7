"""Murmur in the desktop's application menu: the .desktop file, icons, AppStream metainfo and autostart entry."""
