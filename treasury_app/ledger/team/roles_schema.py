"""Who is who in the team database: its schema, the owner and people's group roles, the
journal's notification channel, and the SQL that creates the roles (before any migration).

The receiver's role (``treasury_receiver``) is schema 3's: :mod:`.receiver_schema`.
"""

from __future__ import annotations

from treasury_app.ledger.team.receiver_schema import RECEIVER

SCHEMA = "treasury"
OWNER = "treasury_owner"
MAKER = "treasury_maker"
APPROVER = "treasury_approver"
VIEWER = "treasury_viewer"
PERSON_ROLES = (MAKER, APPROVER, VIEWER)
CHANNEL = "treasury_changes"

ROLES_SQL = f"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{OWNER}') THEN
        CREATE ROLE {OWNER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{MAKER}') THEN
        CREATE ROLE {MAKER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{APPROVER}') THEN
        CREATE ROLE {APPROVER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{VIEWER}') THEN
        CREATE ROLE {VIEWER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{RECEIVER}') THEN
        CREATE ROLE {RECEIVER} NOLOGIN;
    END IF;
END
$$;
"""
