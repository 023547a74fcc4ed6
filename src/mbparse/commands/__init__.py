"""Sub-commands of the ``mbparse`` command line, one module each."""
