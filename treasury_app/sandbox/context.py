"""What the QR Codes API modules of the sandbox share: state, clock, tokens, the account
(so a paid charge credits it), the server's public address and its keys."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from treasury_app.sandbox.accounts_bank import AccountsBank
from treasury_app.sandbox.auth import AuthService
from treasury_app.sandbox.clock import SandboxClock
from treasury_app.sandbox.pki import SandboxPki
from treasury_app.sandbox.store import Store


@dataclass
class QrContext:
    store: Store
    clock: SandboxClock
    auth: AuthService
    bank: AccountsBank
    pki: SandboxPki
    base_url: Callable[[], str]  # "https://127.0.0.1:PORT" of the QR Codes API, once listening
