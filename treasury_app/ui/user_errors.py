"""Which failures are a person's to fix or retry (shown in a tab's banner) and which are bugs
(logged and shown by the exception hook as an unexpected error).

Only typed errors are the person's: a plain ``ValueError``, ``KeyError`` or ``TypeError`` is a
bug in the code that raised it, never "please check the form". A new rule that a person can
break raises one of these types (or a new type added here, which
``tests/unit/test_user_errors.py`` asks for)."""

from __future__ import annotations

from treasury_app.api.connect import ProfileFileError
from treasury_app.api.errors import ApiFailure
from treasury_app.api.proxies import ProxyUrlError
from treasury_app.api.tls import CertificateError
from treasury_app.domain.errors import RuleError
from treasury_app.ledger.errors import LedgerRefused, LedgerUnavailable
from treasury_app.ledger.receipts import ReceiptError
from treasury_app.ledger.team.settings import TeamSettingsError
from treasury_app.services.approvals import ApprovalInputError
from treasury_app.services.billets import BilletInputError
from treasury_app.services.charges.checks import ChargeInputError
from treasury_app.services.charges.cob import ChargeQrError
from treasury_app.services.csv_input import CsvFileError
from treasury_app.services.infractions import DefenseError
from treasury_app.services.payments import HeldPaymentError
from treasury_app.services.payouts import PayoutInputError
from treasury_app.services.profiles import ProfileError
from treasury_app.services.sandbox_console import SandboxConsoleError
from treasury_app.services.sandbox_samples import SandboxOnlyError
from treasury_app.services.session import MissingSecret, TeamPasswordNeeded
from treasury_app.services.statement import StatementQueryError
from treasury_app.services.webhooks import WebhookConfigError

__all__ = ["USER_ERRORS", "UserMessage", "is_user_error"]


class UserMessage(ValueError):
    """A refusal the UI has already put in the person's words (a sandbox console's answer,
    say): shown as it is."""


# What a person can fix or retry. Anything else that escapes an operation is a bug.
USER_ERRORS: tuple[type[BaseException], ...] = (
    ApiFailure,  # the bank refused, or could not be reached
    LedgerUnavailable,  # the team database offline: nothing was sent
    LedgerRefused,  # the team database's roles or rules do not allow it
    RuleError,  # a broken rule (a code): an amount, document, Pix key, BR Code, slip line...
    ApprovalInputError,
    BilletInputError,
    CertificateError,
    ChargeInputError,
    ChargeQrError,
    CsvFileError,
    DefenseError,
    HeldPaymentError,
    MissingSecret,
    PayoutInputError,
    ProfileError,
    ProfileFileError,
    ProxyUrlError,
    ReceiptError,
    SandboxConsoleError,
    SandboxOnlyError,
    StatementQueryError,
    TeamPasswordNeeded,
    TeamSettingsError,
    WebhookConfigError,
    UserMessage,
)


def is_user_error(error: BaseException) -> bool:
    """Whether ``error`` is the person's to fix or retry (see :data:`USER_ERRORS`)."""
    return isinstance(error, USER_ERRORS)
