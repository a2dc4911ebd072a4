"""Local durable state in SQLite: payment journal, audit trail and receipts."""
