"""Subcommands of the ``tabula`` command line, one module each (see ``bot/cli.py``)."""
