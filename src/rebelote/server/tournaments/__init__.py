"""Tournaments (``docs/tournaments.md``): Swiss and arena events for
people, played at ordinary lobby tables, computers in the empty seats.

- :mod:`.pairing`: who sits with whom each round (pure, no I/O);
- :mod:`.standings`: points, tie-breaks and ranks from the results (pure);
- :mod:`.runner`: the lifecycle (registration, rounds, the end), a
  background task of every server process, one of which starts each round.
"""
