"""Alembic migrations of the server's database (run by
:meth:`rebelote.server.storage.tables.Store.migrate`; no ``alembic.ini``)."""
