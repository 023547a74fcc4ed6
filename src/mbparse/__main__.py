import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while starting: nothing was done
    sys.exit(130)

sys.exit(main())
