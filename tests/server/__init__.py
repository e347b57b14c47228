"""Server tests: the protocol against a live server (uvicorn in a thread,
the ``websockets`` client), storage, and the table's game."""
