"""``python -m tui``: the same as the ``turpin`` command (the SSH front door runs this)."""

import sys

from tui.cli import main

sys.exit(main())
