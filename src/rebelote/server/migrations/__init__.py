"""Alembic migrations of the server's database (run by
:meth:`rebelote.server.storage.Store.migrate`; no ``alembic.ini``)."""
