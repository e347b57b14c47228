"""People: accounts and sessions, names, passwords, chat, ratings."""
