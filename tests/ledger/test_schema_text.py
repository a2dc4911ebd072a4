"""The team schema's SQL, split by concern into modules, is still the text every existing
database was migrated with: a migration that ran once must never change."""

from __future__ import annotations

import hashlib

from treasury_app.ledger.team import schema

# sha256 of the migrations joined by NUL, of the privileges and of the roles, computed on main
# before schema.py was split into roles_, journal_, dual_control_(verbs_) and privileges_schema.
MIGRATIONS_SHA256 = "4c6e65c2dc20dfc42ac60f6a73fbe94c445fdb9d83f2875257f4dd18e3af0fac"
PRIVILEGES_SHA256 = "5e5eed0afee92d6e91191f3b71d9d57ef2d0413fc9bb5b940c5ad03fc1b897aa"
ROLES_SHA256 = "0ff3f844cdd9f7bfc31366ad3d34f166fed7c51470e5ce260e2f773754bb65d7"
LENGTHS = [13152, 36345, 13258, 45471, 11423, 14213]
PRIVILEGES_LENGTH = 6282
# Migration 7 (codes_schema.py, issue 33), pinned the same way once it shipped.
MIGRATION_7_SHA256 = "990f940cede5e9b16dcffd74a17e6a1a503f5d5d5a4f45af9d514e9740c87468"
MIGRATION_7_LENGTH = 16785
# Schema 8 (scheduled payments, ledger/team/schedule_schema.py) and 9 (the payee registry,
# ledger/team/registry_schema.py), as databases run them.
MIGRATION_8_SHA256 = "3dae1db6b9396876ac83c82f0a856ba0dc61f6a66f70443692a70ecf9914d1d6"
MIGRATION_8_LENGTH = 20847
MIGRATION_9_SHA256 = "4e6a6185ab8b39534c1d0f172f8a4aa7be865d1bf2b3b84b0c9c7e3ffa69aa97"
MIGRATION_9_LENGTH = 23857


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_migrations_are_byte_identical_to_what_databases_ran() -> None:
    ran = schema.MIGRATIONS[: len(LENGTHS)]  # migrations 1 to 6 (later ones are added after)
    assert len(LENGTHS) <= schema.SCHEMA_VERSION
    assert [len(sql) for sql in ran] == LENGTHS
    assert sha256("\x00".join(ran)) == MIGRATIONS_SHA256


def test_migration_7_is_byte_identical_to_what_databases_ran() -> None:
    assert schema.SCHEMA_VERSION >= 7
    assert len(schema.MIGRATIONS[6]) == MIGRATION_7_LENGTH
    assert sha256(schema.MIGRATIONS[6]) == MIGRATION_7_SHA256


def test_migrations_8_and_9_are_byte_identical_to_what_databases_ran() -> None:
    assert (len(schema.MIGRATIONS[7]), sha256(schema.MIGRATIONS[7])) == (
        MIGRATION_8_LENGTH,
        MIGRATION_8_SHA256,
    )
    assert (len(schema.MIGRATIONS[8]), sha256(schema.MIGRATIONS[8])) == (
        MIGRATION_9_LENGTH,
        MIGRATION_9_SHA256,
    )


def test_privileges_and_roles_are_unchanged_by_the_split() -> None:
    # Unlike a migration, privileges are applied again after each one: a deliberate change of
    # schemas 1-6's privileges updates these figures; a schema 7 appends its own after them.
    assert sha256(schema.PRIVILEGES_SQL[:PRIVILEGES_LENGTH]) == PRIVILEGES_SHA256
    assert sha256(schema.ROLES_SQL) == ROLES_SHA256


def test_schema_still_offers_every_name_other_modules_import() -> None:
    names = (
        "APPROVER CHANNEL DEFAULT_POLICY_SQL GENESIS MAKER MIGRATIONS OWNER PERSON_ROLES "
        "PRIVILEGES_SQL RECEIVER ROLES_SQL SCHEMA SCHEMA_VERSION SUCCESS_SQL VIEWER"
    ).split()
    assert [name for name in names if not hasattr(schema, name)] == []
    assert schema.PERSON_ROLES == (schema.MAKER, schema.APPROVER, schema.VIEWER)
