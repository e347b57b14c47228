"""``python -m rebelote``: the same as the ``rebelote`` command."""

from rebelote.cli import main

if __name__ == "__main__":
    main()
