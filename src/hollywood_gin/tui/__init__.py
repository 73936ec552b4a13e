"""The terminal layer: the game against the computer, statistics and the score keeper.

Only :mod:`.commands` is imported by the CLI at start-up, and it imports
nothing outside the standard library and the core, so ``hollywood-gin --help``
works without Textual; the apps import Textual when a command runs.
"""
