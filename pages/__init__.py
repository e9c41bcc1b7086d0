"""The app's pages (thin UI over core/) and their shared helpers in ``common``."""
