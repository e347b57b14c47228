"""rebelote: a Belote (French card game) engine.

The package holds the rules engine (cards, seats, bidding, play, declarations
and scoring), bots that play legal moves, and a browser table to play against
them, plus a command-line interface (``rebelote``).

This module deliberately imports nothing: the command line must start fast.
Import the submodules you need, e.g. ``from rebelote.cards import CardSet``.
"""

__version__ = "0.1.0"
