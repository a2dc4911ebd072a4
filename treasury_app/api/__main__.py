"""``python -m treasury_app.api``: the support command line (see :mod:`treasury_app.api.cli`)."""

import sys

from treasury_app.api.cli import main

sys.exit(main())
