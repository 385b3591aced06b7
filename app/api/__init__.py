"""The front door: all the front ends (app/cli, app/ui, app/mcp) take from below them, besides the words, errors and
values every layer shares, one module per area; tests/architecture/test_layering.py holds them to it."""
