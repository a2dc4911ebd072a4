"""``python -m treasury_app`` starts the desktop application."""

from treasury_app.app import main

raise SystemExit(main())
