"""Where the app's log goes: standard error as always and a rotating file in the log folder
(``treasury.log``, 2 MB, five older files kept), every line passed through :func:`redact`.

Nothing in the app logs a secret in the first place; the redaction is defence in depth for
what a library or an exception message might carry (a bearer token, ``client_secret=…``, a
password field, a proxy URL's password, a private key block). Start-up stays cheap:
:func:`configure` uses only modules already loaded before the main window; the file (and
``logging.handlers``) comes with :func:`attach_log_file`, after the window is painted, and
receives the lines logged before it.

Two instances of the app share the file: on Windows the other one holds it open, so a rotation
fails; the file then grows on (rotation retried later), never losing a line.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from pathlib import Path
from typing import Any

LOG_FILE_NAME = "treasury.log"
MAX_BYTES = 2 * 1024 * 1024
BACKUP_COUNT = 5
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "********"
# Never below WARNING, whatever --log-level says: at DEBUG, hpack and h2 log the HTTP/2 header
# tables (the bearer token with them), qasync's thread executor every call it runs with its
# arguments (a certificate's password among them), httpcore the exchanges, and httpx every
# request at INFO (our transport logs its own, redacted, lines).
QUIET_LOGGERS = ("httpx", "httpcore", "hpack", "h2", "h11", "qasync")
# A rotation that failed (another instance holds the file) is tried again after the file has
# grown by an eighth of its cap more, or after this many seconds, whichever comes first.
ROTATION_RETRY_SECONDS = 60.0
EARLY_RECORDS = 1000  # kept for the file until it is attached; more is a runaway loop

# Compiled on first use (~1 ms): not at import, which comes before the main window.
_PRIVATE_KEY = r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)"
# A credential is long: "the bearer token expired" keeps its words.
_AUTH_SCHEME = r"(?i)\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{12,}=*"
# The name of a secret and its ":" or "=" (plurals too: ``pfx_passwords={...}``), or a quoted
# name and a comma (a pair's repr: ``(b'client_secret', b'...')``); the value after it (quoted,
# bytes, a dict or list, a bare word) is measured by :func:`_value_end`.
_SECRET_FIELD = r"""(?ix)
    ( ["']?
      (?: client[_-]?secrets? | pfx[_-]?passwords? | passwords? | passphrases? | passwd
        | secrets? | (?:access|refresh|id)[_-]?tokens? | authorization | api[_-]?keys? )
      (?: ["'] \s* [:=,] | \s* [:=] ) \s* )
    (?: (?:bearer|basic) \s+ )?
"""
_BARE_VALUE = r"""[^\s"',;&}\])]+"""
# A URL's userinfo: ``user:password@`` keeps the user, a lone ``token@`` goes whole; the last
# "@" of the authority ends it (a password may hold a raw "@").
_URL_USERINFO = r"""(?i)\b([a-z][a-z0-9+.-]*://)([^/\s?#"'<>]*)@"""
_CLOSERS = {"{": "}", "[": "]", "(": ")"}
_compiled: tuple[re.Pattern[str], ...] | None = None

log = logging.getLogger("treasury_app")
_handlers: list[logging.Handler] = []  # ours on the root logger, for attach and remove
_early: _EarlyRecords | None = None
_file: logging.FileHandler | None = None


def redact(text: str) -> str:
    """``text`` with private key blocks, bearer/basic credentials, the userinfo secret of a
    URL (``http://user:password@proxy``, ``http://token@proxy``) and the values of
    secret-named fields (a string, bytes, a whole dict or list) replaced."""
    global _compiled
    if _compiled is None:
        _compiled = (
            re.compile(_PRIVATE_KEY, re.DOTALL),
            re.compile(_AUTH_SCHEME),
            re.compile(_SECRET_FIELD),
            re.compile(_URL_USERINFO),
            re.compile(_BARE_VALUE),
        )
    private_key, auth_scheme, secret_field, url_userinfo, bare_value = _compiled
    text = private_key.sub("[private key removed]", text)
    text = url_userinfo.sub(_redact_userinfo, text)
    text = auth_scheme.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    parts: list[str] = []
    done = 0
    for match in secret_field.finditer(text):
        if match.start() < done:
            continue  # inside a value already replaced
        end = _value_end(text, match.end(), bare_value)
        if end > match.end():
            parts += [text[done : match.end(1)], REDACTED]
            done = end
    return "".join(parts) + text[done:] if parts else text


def _redact_userinfo(match: re.Match[str]) -> str:
    user, colon, _password = match.group(2).partition(":")
    return f"{match.group(1)}{user}:{REDACTED}@" if colon else f"{match.group(1)}{REDACTED}@"


def _value_end(text: str, start: int, bare_value: re.Pattern[str]) -> int:
    """Where the value beginning at ``start`` ends: a quoted string (``b'…'`` too, escapes
    honoured), a bracketed dict, list or tuple (nesting and quotes honoured), else a bare word;
    what is cut short runs to the end of ``text``."""
    index = start + 1 if text[start : start + 1] in ("b", "B") else start
    opening = text[index : index + 1]
    if opening in ("'", '"'):
        return _closing_quote(text, index)
    if opening not in _CLOSERS:
        bare = bare_value.match(text, start)
        return bare.end() if bare else start
    depth = 0
    position = start
    while position < len(text):
        char = text[position]
        if char in ("'", '"'):
            position = _closing_quote(text, position)
            continue
        if char in _CLOSERS:
            depth += 1
        elif char in _CLOSERS.values():
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    return len(text)


def _closing_quote(text: str, start: int) -> int:
    """The position after the quote closing the one at ``start`` (or the end of ``text``)."""
    quote = text[start]
    position = start + 1
    while position < len(text):
        if text[position] == "\\":
            position += 2
        elif text[position] == quote:
            return position + 1
        else:
            position += 1
    return len(text)


class RedactingFormatter(logging.Formatter):
    """The usual line (traceback included), then :func:`redact` over all of it."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class _EarlyRecords(logging.Handler):
    """Keeps the records logged before the file exists, for :func:`attach_log_file`."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.records) < EARLY_RECORDS:
            self.records.append(record)


def configure(level: int) -> None:
    """Root logger at ``level``, lines to standard error (a windowed build has none: then only
    the file), and the records kept for the file until :func:`attach_log_file`."""
    global _early
    remove()
    root = logging.getLogger()
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.WARNING, level))
    if sys.stderr is not None:
        _add(logging.StreamHandler(sys.stderr))
    _early = _EarlyRecords()
    _add(_early, formatted=False)


def attach_log_file(
    log_dir: Path, *, max_bytes: int = MAX_BYTES, backup_count: int = BACKUP_COUNT
) -> Path | None:
    """Start writing ``log_dir/treasury.log`` (rotated at ``max_bytes``, ``backup_count``
    older files kept), beginning with what was logged since :func:`configure`. A folder that
    cannot be written is said on standard error; the app runs on without the file."""
    global _early, _file
    if _file is not None and log_folder() == log_dir.absolute():
        return log_dir / LOG_FILE_NAME  # already writing there
    import platform

    from treasury_app import __version__

    early, _early = _early, None
    if early is not None:
        _remove(early)
    try:
        log_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler = _shared_file_handler(log_dir / LOG_FILE_NAME, max_bytes, backup_count)
    except OSError as error:
        log.warning("no log file: %s cannot be written (%s)", log_dir, error)
        return None
    if _file is not None:
        _remove(_file)
    _file = handler
    _add(handler)
    for record in early.records if early is not None else ():
        handler.handle(record)
    log.info(
        "log file opened: treasury-app %s, Python %s, %s",
        __version__,
        platform.python_version(),
        platform.platform(),
    )
    return log_dir / LOG_FILE_NAME


def attach_event_log(api: Any = None) -> logging.Handler | None:
    """Errors also to the Windows Event Log (:mod:`treasury_app.eventlog`), redacted like the
    file: ``api`` is the Event Log to write to (this computer's when ``None``: on Windows only).
    Once: a second call keeps the handler attached."""
    from treasury_app import eventlog

    for handler in _handlers:
        if isinstance(handler, eventlog.EventLogHandler):
            return handler
    api = api if api is not None else eventlog.system_event_log()
    if api is None:
        return None
    handler = eventlog.EventLogHandler(api)
    _add(handler)
    return handler


def _shared_file_handler(path: Path, max_bytes: int, backup_count: int) -> logging.FileHandler:
    """A :class:`~logging.handlers.RotatingFileHandler` whose failed rotation (on Windows the
    file is held open by a second instance of the app) keeps writing to the current file: the
    record is written, never dropped, and the rotation is tried again later."""
    import logging.handlers  # socket, pickle, queue: ~10 ms, after the window is shown

    class SharedRotatingFileHandler(logging.handlers.RotatingFileHandler):
        _retry_at_time: float | None = None
        _retry_at_size = 0
        _failure_noted = False

        def shouldRollover(self, record: logging.LogRecord) -> int:  # noqa: N802
            waiting = self._retry_at_time is not None and time.monotonic() < self._retry_at_time
            if waiting and self._size() < self._retry_at_size:
                return False
            return super().shouldRollover(record)

        def doRollover(self) -> None:  # noqa: N802
            try:
                super().doRollover()
            except OSError as error:
                self._retry_at_time = time.monotonic() + ROTATION_RETRY_SECONDS
                self._retry_at_size = self._size() + max(self.maxBytes // 8, 1)
                if not self._failure_noted and self.stream is not None:  # said once, in the file
                    self._failure_noted = True
                    note = logging.LogRecord(
                        "treasury_app",
                        logging.WARNING,
                        __file__,
                        0,
                        "log file not rotated (%s): another instance may be writing it; "
                        "writing on, rotation tried again later",
                        (error,),
                        None,
                    )
                    self.stream.write(self.format(note) + self.terminator)
            else:
                self._retry_at_time = None

        def _size(self) -> int:
            if self.stream is None:  # closed by the failed rotation: append again
                self.stream = self._open()
            self.stream.seek(0, 2)
            return int(self.stream.tell())

    return SharedRotatingFileHandler(
        path, maxBytes=max_bytes, backupCount=backup_count, encoding="utf-8"
    )


def log_folder() -> Path | None:
    """The folder the log file is written to, or ``None`` when there is no file."""
    return None if _file is None else Path(_file.baseFilename).parent


def log_loop_exception(loop: Any, context: dict[str, Any]) -> None:
    """The asyncio loop's exception handler: the error and its traceback into the log (a task
    nobody awaited, a callback that raised), not only to the console."""
    del loop
    error = context.get("exception")
    # A task's or future's repr names its coroutine, never its arguments; a callback handle's
    # would show them (a password handed to a worker thread), so only its kind is said.
    details = [
        f"{key}: {value!r}" if key in ("task", "future") else f"{key}: {type(value).__name__}"
        for key, value in sorted(context.items())
        if key not in ("message", "exception")
    ]
    message = "\n".join([context.get("message") or "Unhandled error in the event loop", *details])
    if isinstance(error, BaseException):
        log.error("%s", message, exc_info=(type(error), error, error.__traceback__))
    else:
        log.error("%s", message)


def remove() -> None:
    """Take our handlers off the root logger and close the file (tests; a second configure)."""
    global _early, _file
    for handler in list(_handlers):
        _remove(handler)
    _early = None
    _file = None


def _add(handler: logging.Handler, *, formatted: bool = True) -> None:
    if formatted:
        handler.setFormatter(RedactingFormatter(FORMAT))
    logging.getLogger().addHandler(handler)
    _handlers.append(handler)


def _remove(handler: logging.Handler) -> None:
    logging.getLogger().removeHandler(handler)
    if handler in _handlers:
        _handlers.remove(handler)
    handler.close()
