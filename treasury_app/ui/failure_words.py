"""What went wrong outside the app's own rules, in the person's words: a file that cannot be
written or read (an ``OSError`` by its kind, with the file's name), the bank, a proxy or a
server that cannot be reached (an httpx or TLS failure by its kind, with the host), the team
database offline or refusing a login, a ledger that cannot be opened (their codes), a client
certificate that cannot be used.

One function, :func:`failure_words`, for every place that shows a failure: the English detail
(Python's, the operating system's, the driver's) goes to the log, never to the screen; a kind
it does not know is a general sentence in the person's language."""

from __future__ import annotations

import errno
import logging
import os
import ssl
from collections.abc import Iterator

import httpx
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.api.connect import ProfileFileError
from treasury_app.api.errors import (
    AnswerTooLargeError,
    ApiError,
    IdempotencyKeyReused,
    ProxyFailure,
    ResponseFormatError,
    TransportFailure,
)
from treasury_app.api.proxies import ProxyUrlError
from treasury_app.api.tls import (
    CertificateError,
    CertificateExpired,
    CertificateNotYetValid,
    PfxFormatError,
    PfxNotFound,
    PfxPasswordError,
)
from treasury_app.domain.errors import Reason, RuleError
from treasury_app.ledger.errors import (
    LedgerBlocked,
    LedgerOpenError,
    LedgerRefused,
    LedgerUnavailable,
)
from treasury_app.ledger.team.settings import TeamSettingsError
from treasury_app.services.sandbox_console import SandboxConsoleError
from treasury_app.services.session import MissingSecret, TeamPasswordNeeded
from treasury_app.ui.code_words import api_title
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.times import deadline_text

__all__ = ["failure_words", "file_words", "transport_words", "typed_reason"]

log = logging.getLogger(__name__)

CONTEXT = "FailureWords"

GENERIC = QT_TRANSLATE_NOOP("FailureWords", "Something went wrong; the details are in the log.")
_OFFLINE_NOTE = QT_TRANSLATE_NOOP(
    "FailureWords",
    "Nothing is sent while the journal cannot be written; a payment already handed to the "
    "bank is looked up by its key once the database is back. The app keeps trying to "
    "reconnect.",
)

# -- files ------------------------------------------------------------------------------------

_NOT_FOUND = QT_TRANSLATE_NOOP("FailureWords", "{file} does not exist (or no longer exists).")
_DENIED = QT_TRANSLATE_NOOP(
    "FailureWords",
    "This computer does not allow access to {file}: choose another folder, or ask IT for access.",
)
_IN_USE = QT_TRANSLATE_NOOP(
    "FailureWords", "{file} is open in another program: close it there and try again."
)
_A_FOLDER = QT_TRANSLATE_NOOP("FailureWords", "{file} is a folder, not a file: choose a file name.")
_NOT_A_FOLDER = QT_TRANSLATE_NOOP(
    "FailureWords", "Part of the path of {file} is a file, not a folder."
)
_DISK_FULL = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The disk is full: {file} could not be written. Free some space or choose another disk.",
)
_READ_ONLY_DISK = QT_TRANSLATE_NOOP(
    "FailureWords", "{file} is on a disk that cannot be written to: choose another folder."
)
_NAME_TOO_LONG = QT_TRANSLATE_NOOP(
    "FailureWords", "The name or path of {file} is too long: choose a shorter one."
)
_BAD_NAME = QT_TRANSLATE_NOOP(
    "FailureWords", "{file} is not a valid file name: choose another name."
)
_EXISTS = QT_TRANSLATE_NOOP("FailureWords", "{file} already exists.")
_FILE_FAILED = QT_TRANSLATE_NOOP(
    "FailureWords", "{file} could not be read or written; the details are in the log."
)
_A_FILE = QT_TRANSLATE_NOOP("FailureWords", "the file")

_DISK_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_WINDOWS_IN_USE = {32, 33}  # ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION
_WINDOWS_DISK_FULL = {39, 112}  # ERROR_HANDLE_DISK_FULL, ERROR_DISK_FULL
_WINDOWS_BAD_NAME = {123, 161}  # ERROR_INVALID_NAME, ERROR_BAD_PATHNAME
_WINDOWS_TOO_LONG = {206}  # ERROR_FILENAME_EXCED_RANGE


def _file_template(error: OSError) -> str:
    winerror = getattr(error, "winerror", None)
    if winerror in _WINDOWS_IN_USE:
        return _IN_USE
    if winerror in _WINDOWS_DISK_FULL or error.errno in _DISK_FULL_ERRNOS:
        return _DISK_FULL
    if winerror in _WINDOWS_BAD_NAME:
        return _BAD_NAME
    if winerror in _WINDOWS_TOO_LONG or error.errno == errno.ENAMETOOLONG:
        return _NAME_TOO_LONG
    if isinstance(error, IsADirectoryError):
        return _A_FOLDER
    if isinstance(error, NotADirectoryError):
        return _NOT_A_FOLDER
    if isinstance(error, FileNotFoundError):
        return _NOT_FOUND
    if isinstance(error, FileExistsError):
        return _EXISTS
    if error.errno == errno.EROFS:
        return _READ_ONLY_DISK
    if isinstance(error, PermissionError):
        return _DENIED
    return _FILE_FAILED


def file_words(error: OSError, file: str | os.PathLike[str] | None = None) -> str:
    """Why ``file`` (else the error's own file name) could not be read or written."""
    name = file if file is not None else error.filename
    text = os.fsdecode(name) if isinstance(name, str | bytes | os.PathLike) else ""
    shown = os.path.basename(text.rstrip("/\\")) or text
    words = QCoreApplication.translate(CONTEXT, _file_template(error)).replace(
        "{file}", f"“{shown}”" if shown else QCoreApplication.translate(CONTEXT, _A_FILE)
    )
    return words[:1].upper() + words[1:]


# -- the network --------------------------------------------------------------------------------

_BANK_TIMEOUT = QT_TRANSLATE_NOOP("FailureWords", "The bank{where} did not answer in time.")
_BANK_TLS = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The secure connection to the bank{where} failed: a certificate was not accepted (the "
    "bank's, or this computer's client certificate).",
)
_BANK_UNREACHABLE = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The bank{where} could not be reached: check the network, the address or a firewall.",
)
_BANK_CLOSED = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The connection to the bank{where} was closed before an answer arrived; if this repeats, "
    "the bank may be refusing the client certificate.",
)
_BANK_NO_ANSWER = QT_TRANSLATE_NOOP("FailureWords", "No answer came from the bank{where}.")
_BANK_HOLDS_KEY = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The answer to the first attempt was lost and the bank already holds this request: it "
    "most likely went through, and it is looked up by its key.",
)
_BANK_RETRY_REFUSED = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The answer to the first attempt was lost and the bank refused the retry: the first "
    "attempt may have gone through, and it is looked up before anything is sent again.",
)
_BANK_UNREADABLE = QT_TRANSLATE_NOOP(
    "FailureWords", "The bank's answer could not be read; the details are in the log."
)
_BANK_TOO_LARGE = QT_TRANSLATE_NOOP(
    "FailureWords", "The bank's answer was larger than the app accepts; it was not read."
)
_PROXY_LOGIN = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The proxy {proxy} asks for a login and did not let the request through to the bank.",
)
_PROXY_REFUSED = QT_TRANSLATE_NOOP(
    "FailureWords", "The proxy {proxy} refused to connect to the bank."
)
_PROXY_TIMEOUT = QT_TRANSLATE_NOOP("FailureWords", "The proxy {proxy} did not answer in time.")
_PROXY_TLS = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The secure connection to the bank through the proxy {proxy} failed: a proxy that "
    "inspects secure connections must let the bank's addresses through untouched.",
)
_PROXY_UNREACHABLE = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The proxy {proxy} could not be reached: check the profile's proxy setting.",
)
_PROXY_CLOSED = QT_TRANSLATE_NOOP(
    "FailureWords",
    "The connection to the bank through the proxy {proxy} was closed before an answer arrived.",
)
_SERVER_TIMEOUT = QT_TRANSLATE_NOOP("FailureWords", "{host} did not answer in time.")
_SERVER_TLS = QT_TRANSLATE_NOOP(
    "FailureWords", "The secure connection to {host} failed: its certificate was not accepted."
)
_SERVER_UNREACHABLE = QT_TRANSLATE_NOOP(
    "FailureWords", "{host} could not be reached: check the network, the address or a firewall."
)
_SERVER_CLOSED = QT_TRANSLATE_NOOP(
    "FailureWords", "The connection to {host} was closed before an answer arrived."
)
_A_SERVER = QT_TRANSLATE_NOOP("FailureWords", "the server")


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and what it was raised from or while handling (the driver's own error)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _found(error: BaseException, kind: type[BaseException]) -> BaseException | None:
    return next((link for link in _chain(error) if isinstance(link, kind)), None)


def _host_of(error: BaseException) -> str:
    for link in _chain(error):
        if isinstance(link, httpx.RequestError):
            try:
                url = link.request.url
            except RuntimeError:  # no request attached
                continue
            return f"{url.host}:{url.port}" if url.port else url.host
    return ""


def _network_kind(error: BaseException) -> str | None:
    """``timeout``, ``tls``, ``unreachable`` or ``closed`` from the httpx/ssl error in the
    chain; ``None`` when there is none."""
    if _found(error, ssl.SSLError) is not None:
        return "tls"
    found = _found(error, httpx.TransportError)
    if found is None:
        if _found(error, TimeoutError) is not None:
            return "timeout"
        if _found(error, ConnectionRefusedError) is not None:
            return "unreachable"
        return None
    if isinstance(found, httpx.TimeoutException):
        return "timeout"
    if isinstance(found, httpx.ConnectError):
        return "unreachable"
    return "closed"


def _proxy_words(error: ProxyFailure) -> str:
    if error.reason is not None:  # a route the app refused: the rule's words
        return rule_text(error.reason)
    kind = _network_kind(error)
    if error.status == 407:
        template = _PROXY_LOGIN
    elif error.status is not None:
        template = _PROXY_REFUSED
    else:
        template = {
            "timeout": _PROXY_TIMEOUT,
            "tls": _PROXY_TLS,
            "unreachable": _PROXY_UNREACHABLE,
        }.get(kind or "", _PROXY_CLOSED)
    return QCoreApplication.translate(CONTEXT, template).replace("{proxy}", error.proxy or "?")


def transport_words(error: TransportFailure) -> str:
    """Why no usable answer came from the bank, by the failure's kind (the bank's address in
    brackets when known)."""
    if isinstance(error, ProxyFailure):
        return _proxy_words(error)
    cause = error.__cause__
    if isinstance(cause, IdempotencyKeyReused):
        return QCoreApplication.translate(CONTEXT, _BANK_HOLDS_KEY)
    if isinstance(cause, ApiError):
        return QCoreApplication.translate(CONTEXT, _BANK_RETRY_REFUSED)
    kind = _network_kind(error)
    template = {
        "timeout": _BANK_TIMEOUT,
        "tls": _BANK_TLS,
        "unreachable": _BANK_UNREACHABLE,
        "closed": _BANK_CLOSED,
    }.get(kind or "")
    if template is None:
        template = _BANK_NO_ANSWER if error.request_sent else _BANK_UNREACHABLE
    host = _host_of(error)
    return QCoreApplication.translate(CONTEXT, template).replace(
        "{where}", f" ({host})" if host else ""
    )


def _server_words(error: BaseException) -> str:
    host = _host_of(error) or QCoreApplication.translate(CONTEXT, _A_SERVER)
    template = {
        "timeout": _SERVER_TIMEOUT,
        "tls": _SERVER_TLS,
        "unreachable": _SERVER_UNREACHABLE,
    }.get(_network_kind(error) or "", _SERVER_CLOSED)
    words = QCoreApplication.translate(CONTEXT, template).replace("{host}", host)
    return words[:1].upper() + words[1:]


# -- the team database ----------------------------------------------------------------------


def _database_words(error: BaseException) -> str:
    """A driver's error of the team database (psycopg's), by its kind."""
    from treasury_app.ledger.team.store import TeamDatabaseOffline

    pgconn = getattr(error, "pgconn", None)
    host = getattr(pgconn, "host", b"") or b""
    port = getattr(pgconn, "port", b"") or b""
    offline = TeamDatabaseOffline.of(error)
    reason = Reason(
        offline.reason.code,
        {"host": _text(host) or "?", "port": _text(port) or "?"},
    )
    return rule_text(reason)


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _is_database_error(error: BaseException) -> bool:
    try:
        import psycopg
        import psycopg_pool
    except ImportError:  # pragma: no cover - team mode's driver is a dependency
        return False
    return isinstance(error, psycopg.OperationalError | psycopg_pool.PoolTimeout)


# -- certificates ---------------------------------------------------------------------------

_PFX_NOT_FOUND = QT_TRANSLATE_NOOP(
    "FailureWords", "The certificate file cannot be found: check the profile."
)
_PFX_PASSWORD = QT_TRANSLATE_NOOP("FailureWords", "Wrong password for the certificate.")
_PFX_FORMAT = QT_TRANSLATE_NOOP(
    "FailureWords", "The certificate file is not a valid .pfx bundle (or it is damaged)."
)
_CERT_EXPIRED = QT_TRANSLATE_NOOP(
    "FailureWords", "The certificate of {subject} expired on {date}: ask the bank for a new one."
)
_CERT_NOT_YET = QT_TRANSLATE_NOOP(
    "FailureWords", "The certificate of {subject} is valid only from {date}."
)
_CERT_UNUSABLE = QT_TRANSLATE_NOOP("FailureWords", "The certificate cannot be used.")


def _certificate_words(error: CertificateError) -> str:
    if isinstance(error, CertificateExpired):
        return (
            QCoreApplication.translate(CONTEXT, _CERT_EXPIRED)
            .replace("{subject}", error.subject)
            .replace("{date}", deadline_text(error.not_after))
        )
    if isinstance(error, CertificateNotYetValid):
        return (
            QCoreApplication.translate(CONTEXT, _CERT_NOT_YET)
            .replace("{subject}", error.subject)
            .replace("{date}", deadline_text(error.not_before))
        )
    if isinstance(error, PfxNotFound):
        return QCoreApplication.translate(CONTEXT, _PFX_NOT_FOUND)
    if isinstance(error, PfxPasswordError):
        return QCoreApplication.translate(CONTEXT, _PFX_PASSWORD)
    if isinstance(error, PfxFormatError):
        return QCoreApplication.translate(CONTEXT, _PFX_FORMAT)
    return QCoreApplication.translate(CONTEXT, _CERT_UNUSABLE)


# -- typed failures that carry a rule's code ---------------------------------------------------

CODED_FAILURES: tuple[type[BaseException], ...] = (
    ProfileFileError,
    ProxyUrlError,
    TeamSettingsError,
    MissingSecret,
    TeamPasswordNeeded,
)
"""Typed failures outside :class:`RuleError` whose code (and parameters) say what a person
reads: a profile file, a proxy's address, a team database's settings, a secret the unlock
still needs. Their ``str()`` is English, for logs."""


def typed_reason(error: BaseException) -> Reason | None:
    """The rule ``error`` (one of :data:`CODED_FAILURES`) breaks, its parameters ready for
    words (an API named as people name it); ``None`` for any other error."""
    if isinstance(error, ProxyUrlError):
        return Reason(error.code)
    if not isinstance(error, CODED_FAILURES):
        return None
    reason: Reason = error.reason  # type: ignore[attr-defined]
    params = dict(reason.params)
    if isinstance(params.get("api"), str):
        params["api"] = api_title(params["api"])
    return Reason(reason.code, params, reason.field)


# -- the one entry point ----------------------------------------------------------------------


def failure_words(error: BaseException, *, file: str | os.PathLike[str] | None = None) -> str:
    """``error`` in the person's language. ``file``: the file a person chose, named instead
    of the one the operating system names (a temporary file next to it, say)."""
    from treasury_app.ui.user_errors import UserMessage

    log.info("failure shown in words: %s: %s", type(error).__name__, error)
    if isinstance(error, UserMessage):  # already in the person's words
        return str(error)
    if isinstance(error, RuleError):
        return rule_text(error)
    coded = typed_reason(error)
    if coded is not None:
        return rule_text(coded)
    if isinstance(error, SandboxConsoleError):
        from treasury_app.ui.sandbox_actions import console_text

        return console_text(error)
    if isinstance(error, LedgerBlocked):
        from treasury_app.ui.widgets.error_banner import blocked_message

        return blocked_message(error)[1]
    if isinstance(error, LedgerRefused):
        from treasury_app.ui.refusals import ledger_refusal_words

        return ledger_refusal_words(error)
    if isinstance(error, LedgerUnavailable):
        words = rule_text(error.reason)
        if error.reason.code.startswith("team.offline_"):
            words += " " + QCoreApplication.translate(CONTEXT, _OFFLINE_NOTE)
        return words
    if isinstance(error, LedgerOpenError):
        return rule_text(error.reason)
    if isinstance(error, TransportFailure):
        return transport_words(error)
    if isinstance(error, ApiError):  # the bank's problem: words for its type, then its detail
        from treasury_app.ui.refusals import problem_words

        title, detail = problem_words(error)
        return f"{title}.\n{detail}" if detail else f"{title}."
    if isinstance(error, AnswerTooLargeError):
        return QCoreApplication.translate(CONTEXT, _BANK_TOO_LARGE)
    if isinstance(error, ResponseFormatError):
        return QCoreApplication.translate(CONTEXT, _BANK_UNREADABLE)
    if isinstance(error, CertificateError):
        return _certificate_words(error)
    if _is_database_error(error):
        return _database_words(error)
    if isinstance(error, httpx.TransportError | ssl.SSLError | TimeoutError | ConnectionError):
        return _server_words(error)
    if isinstance(error, OSError):
        return file_words(error, file)
    return QCoreApplication.translate(CONTEXT, GENERIC)
