"""Global shortcuts without a toolkit: which backend hears the talk key, and the desktop's shortcut portal client."""
