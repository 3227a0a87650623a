"""``python -m anko_writer``: the same command line as ``anko-writer``."""

from .cli import main

if __name__ == "__main__":
    main()
