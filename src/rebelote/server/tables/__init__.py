"""Live tables: the table driver (log, seats, clocks, computer players'
turns), the registry of live tables, the lobby, replays."""
