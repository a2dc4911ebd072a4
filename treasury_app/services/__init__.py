"""Use cases the UI calls (send a payout, pay a slip, issue a batch); no Qt here."""
