"""``python -m tui.cli``: the same as the ``turpin`` command."""

import sys

from tui.cli import main

if __name__ == "__main__":  # the warm pool's zygote imports every module of tui/ before it forks
    sys.exit(main())
