"""The machine policy an IT department sets for the app (docs/it-policy.md): its model, its
sources (the registry, the admin INI file) and the reading of it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from treasury_app.policy.model import (
    LOCKABLE,
    Lockable,
    Policy,
    PolicyError,
    PolicyTeamDatabase,
    PresetApi,
    PresetProfile,
    Setting,
)
from treasury_app.policy.reader import read_policy
from treasury_app.policy.sources import (
    INI_NAME,
    POLICY_KEY,
    IniKeys,
    PolicyKeys,
    RegistryApi,
    RegistryKeys,
    machine_sources,
)

__all__ = [
    "INI_NAME",
    "LOCKABLE",
    "POLICY_KEY",
    "IniKeys",
    "Lockable",
    "Policy",
    "PolicyError",
    "PolicyKeys",
    "PolicyTeamDatabase",
    "PresetApi",
    "PresetProfile",
    "RegistryApi",
    "RegistryKeys",
    "Setting",
    "load_machine_policy",
    "read_policy",
]


def load_machine_policy(
    *,
    registry: RegistryApi | None = None,
    ini_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Policy:
    """This computer's policy (:func:`machine_sources`, then :func:`read_policy`). Raises
    :class:`PolicyError` when a source holds a value that fails its check."""
    return read_policy(machine_sources(registry=registry, ini_path=ini_path), environ=environ)
