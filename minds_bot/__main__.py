"""``python -m minds_bot`` is the same as the ``minds-bot`` command."""

import sys

from minds_bot.cli import main

sys.exit(main())
