"""``python -m minds_sandbox``: the same as ``minds-bot-sandbox`` (and ``minds-bot sandbox``)."""

from minds_sandbox.cli import main

raise SystemExit(main())
