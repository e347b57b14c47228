"""Storage: the stored rows (SQLAlchemy models), the stores of tables and
people, and the Alembic migrations."""
