"""Murmur Desktop: speech in, a kept list out."""

__version__ = "0.1.0"
