"""``treasury-app --self-test``: the whole application against its embedded sandbox bank, in a
private temporary data directory, in a few seconds.

The checks run on a qasync ``QEventLoop`` over the ``QApplication``, the loop the app itself
runs on (the first check makes sure of it). The second checks what the build's folder must
hold (Qt's and the app's pt_BR catalogues, the platform and image plugins, the system trust
store): a bundle trimmed too far fails there. It starts a sandbox bank of its own, unlocks the
sandbox profile with the sandbox's test passwords, calls every API once through the services
the tabs use (tokens of both APIs, balance, a statement page, one Pix payout followed to
settlement, a slip's information, an immediate charge created and read back, the recurrences
list, the webhooks overview and the infractions list), fetches the payout's receipt and opens
it in the receipt viewer (offscreen when there is no display), checking that its first page
renders. Then it stops the sandbox and removes the directory.

One line goes to standard output: ``self-test passed: 18 checks in 6.2 s (treasury-app
0.2.0)`` with exit status 0, or ``self-test FAILED at <check>: <reason> (...; proxy: ...)`` with
exit status 1 (the temporary directory is then kept, with the sandbox's log, and named on
standard error). The proxy each API went through, and the system's proxy, are in the failure
line, and on standard error after a pass (``self-test: proxy: QR Codes direct (loopback),
...``): the sandbox is on loopback, so always direct.

The packaging check runs it on the built binary; support staff can run it on any desktop: it
never touches the user's own profiles, ledgers, receipts or keyring. ``--data-dir DIR`` runs
it in DIR instead, which must be new or empty and not inside the user's own directories;
any other is refused with one line on standard error and exit status 2, writing nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, TypeVar

from treasury_app import __version__

T = TypeVar("T")

# A Wednesday morning in Brasília (10:00): business hours for every service the checks touch,
# the same instant every run.
CLOCK_START = "2026-11-18T13:00:00Z"
PAYEE_KEY = "fornecedor@empresa.com.br"  # a sandbox DICT key that settles in a few seconds
SETTLE_ROUNDS = 8  # clock advances of SETTLE_STEP seconds before the payout must be final
SETTLE_STEP = 3.5
VIEWER_TIMEOUT = 10.0  # seconds for the PDF document to load
SANDBOX_TIMEOUT = 60.0  # a cold frozen build on a busy machine needs more than the usual 30 s


class CheckFailed(Exception):
    """A check's result is wrong (as opposed to an exception raised by the code it calls)."""


@dataclass
class SelfTest:
    """Runs named checks in order; the first failure stops the run."""

    data_dir: Path
    passed: list[str] = field(default_factory=list)
    failed: str | None = None
    reason: str = ""
    handle: Any = None  # the SandboxHandle, once started
    workspace: Any = None
    routes: dict[str, str] = field(default_factory=dict)  # API label -> its proxy route

    async def check(self, name: str, action: Callable[[], Awaitable[T]]) -> T:
        """Run ``action`` as the check ``name``; raises :class:`_Stop` when it fails."""
        try:
            result = await action()
        except Exception as error:
            self.failed = name
            self.reason = _describe(error)
            raise _Stop from error
        self.passed.append(name)
        return result


class _Stop(Exception):
    pass


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


# --------------------------------------------------------------------------------------------
# The checks


async def _run_checks(test: SelfTest) -> None:
    from treasury_app.config import AppPaths
    from treasury_app.services.profiles import API_LABELS, sandbox_profile
    from treasury_app.services.sandbox_runner import ensure_sandbox
    from treasury_app.services.session import Session
    from treasury_app.services.workspace import open_workspace

    paths = AppPaths.default(test.data_dir)
    await test.check("event loop", _event_loop)
    await test.check("bundle", _bundle)
    await test.check("proxy script", _proxy_script)

    async def start() -> Any:
        paths.ensure()
        test.handle = await ensure_sandbox(
            paths, extra_args=("--clock-start", CLOCK_START), timeout=SANDBOX_TIMEOUT
        )
        _require(test.handle.started_here, "a sandbox bank was already running for this directory")
        return test.handle

    handle = await test.check("sandbox start", start)

    async def unlock() -> Any:
        profile, secrets = sandbox_profile(handle.ready_file)
        session = await Session.open(
            profile,
            pfx_passwords=secrets.pfx_passwords,
            client_secrets=secrets.client_secrets,
            paths=paths,
        )
        test.workspace = await open_workspace(session)
        test.routes = {
            API_LABELS[api]: str(transport.proxy_route)
            for api, transport in session.transports.items()
        }
        return test.workspace

    workspace = await test.check("profile unlock", unlock)
    for api in ("qrcodes", "accounts"):

        async def token(api: str = api) -> None:
            transport = workspace.session.transports[api]
            await transport.tokens.token(transport.http)

        await test.check(f"token {api}", token)

    async def balance() -> Any:
        view = await workspace.statement.balance()
        _require(view.available > 0, f"the available balance is {view.available}")
        return view

    await test.check("balance", balance)

    async def statement_page() -> list[Any]:
        today = workspace.charges.today()
        pages = workspace.statement.pages(today - dt.timedelta(days=30), today, 50)
        try:
            first: list[Any] = await anext(pages)
        finally:
            await pages.aclose()
        _require(len(first) > 0, "the statement's first page is empty")
        return first

    await test.check("statement page", statement_page)
    entry = await test.check("pix payout", lambda: _payout(workspace))
    pdf = await test.check("pix receipt", lambda: _receipt(workspace, entry))
    await test.check("receipt viewer", lambda: _viewer(pdf))
    await test.check("slip info", lambda: _slip(workspace))

    async def cob_create() -> Any:
        _require(bool(workspace.pix_keys), "the sandbox profile has no Pix key")
        return await workspace.charges.create_cob(
            amount="1.00", key=workspace.pix_keys[0], description="treasury-app self-test"
        )

    cob = await test.check("charge create", cob_create)

    async def cob_get() -> Any:
        read = await workspace.charges.get_cob(cob.txid)
        _require(read.txid == cob.txid, f"asked for {cob.txid}, got {read.txid}")
        return read

    await test.check("charge read", cob_get)

    async def rec_list() -> list[Any]:
        today = workspace.recurrences.today()
        start = today - dt.timedelta(days=30)
        return [rec async for rec in workspace.recurrences.iter_recs(start=start, end=today)]

    await test.check("recurrences list", rec_list)

    async def webhooks() -> list[Any]:
        views = await workspace.webhooks.overview()
        _require(len(views) > 0, "the webhooks overview is empty")
        return list(views)

    await test.check("webhooks overview", webhooks)

    async def infractions() -> list[Any]:
        return [item async for item in workspace.infractions.infractions()]

    await test.check("infractions list", infractions)

    async def close() -> None:
        opened, test.workspace = test.workspace, None
        await opened.close()
        stopping, test.handle = test.handle, None
        await asyncio.to_thread(stopping.stop)
        _require(stopping.process.poll() is not None, "the sandbox bank is still running")

    await test.check("sandbox stop", close)


async def _event_loop() -> str:
    """The checks run on the app's own loop: a qasync loop that Qt's events drive."""
    import qasync
    from PySide6.QtCore import QTimer

    loop = asyncio.get_running_loop()
    _require(
        isinstance(loop, qasync.QEventLoop),
        f"the checks run on {type(loop).__name__}, not on the app's qasync loop",
    )
    fired: asyncio.Future[bool] = loop.create_future()

    def fire() -> None:  # called by Qt's event loop, not by asyncio
        if not fired.done():
            fired.set_result(True)

    QTimer.singleShot(0, fire)
    await asyncio.wait_for(fired, timeout=5)
    return type(loop).__name__


async def _bundle() -> str:
    """What the folder a build ships must hold, found the way the app finds it: Qt's own and
    the app's Brazilian-Portuguese catalogues, a platform plugin, the PNG and SVG image
    readers (the icons), and the system trust store for real banks (truststore). A trimmed
    build that dropped one of them fails here, not on a desktop."""
    from PySide6.QtCore import QLibraryInfo, QTranslator
    from PySide6.QtGui import QGuiApplication, QImageReader

    from treasury_app.api.tls import Trust
    from treasury_app.resources import translations_dir

    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    _require(QTranslator().load("qtbase_pt_BR", qt_dir), f"no qtbase_pt_BR.qm in {qt_dir}")
    ours = str(translations_dir())
    _require(QTranslator().load("treasury_pt_BR", ours), f"no treasury_pt_BR.qm in {ours}")
    platform = QGuiApplication.platformName()
    _require(bool(platform), "no Qt platform plugin")
    formats = {bytes(name.data()).decode() for name in QImageReader.supportedImageFormats()}
    _require({"png", "svg"} <= formats, f"image readers: {sorted(formats)}, no png or svg")
    Trust.system().base_context()  # raises when the system store cannot be used
    return platform


_PAC = """function FindProxyForURL(url, host) {
    if (dnsDomainIs(host, ".bank.example")) return "PROXY proxy.example:8080; DIRECT";
    return "DIRECT";
}"""


async def _proxy_script() -> str:
    """A proxy auto-configuration script is evaluated in its own process (this build's
    ``--pac-worker``, with its JavaScript engine and the PAC helper functions)."""
    from treasury_app.api.autoproxy.pac import PacLimits, PacScript

    script = PacScript("self-test", PacLimits())
    try:
        await script.load(_PAC)
        routes = await script.find("https://api.bank.example/", "api.bank.example")
        elsewhere = await script.find("https://other.example/", "other.example")
    finally:
        script.close()
    _require(
        routes == ("http://proxy.example:8080", None) and elsewhere == (None,),
        f"the proxy script answered {routes!r} and {elsewhere!r}",
    )
    return "PROXY proxy.example:8080; DIRECT"


async def _payout(workspace: Any) -> Any:
    """One Pix to a sandbox key, sent exactly once and followed until it settles."""
    from treasury_app.api.accounts.models import is_success_status

    review = await workspace.payouts.prepare_key(PAYEE_KEY, "1.23")
    entry = await workspace.payouts.send(review)
    http = workspace.session.accounts.transport.http
    for _ in range(SETTLE_ROUNDS):
        entry = await workspace.ledger.journal.get(entry.id)
        if entry.final:
            break
        (await http.post("/sandbox/clock", json={"advance": SETTLE_STEP})).raise_for_status()
        await workspace.tracker.poll_once()
    entry = await workspace.ledger.journal.get(entry.id)
    _require(entry.final, f"the payout is still {entry.bank_status} after the clock moved")
    _require(
        entry.bank_status is not None and is_success_status(entry.bank_status),
        f"the payout ended as {entry.bank_status}",
    )
    _require(entry.amount == Decimal("1.23"), f"the journal holds {entry.amount}")
    return entry


async def _receipt(workspace: Any, entry: Any) -> bytes:
    receipt = await workspace.tracker.receipt(entry)
    pdf: bytes = await workspace.ledger.receipts.read(receipt)
    _require(pdf.startswith(b"%PDF-"), "the receipt is not a PDF")
    return pdf


async def _viewer(pdf: bytes) -> int:
    """Open the receipt in the viewer (never shown) and render its first page."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QColor
    from PySide6.QtPdf import QPdfDocument

    from treasury_app.ui.dialogs.receipt_viewer import ReceiptViewer, on_white

    viewer = ReceiptViewer(pdf, title="Self-test", suggested_name="self-test.pdf")
    try:
        deadline = time.monotonic() + VIEWER_TIMEOUT
        while viewer.document.status() == QPdfDocument.Status.Loading:
            _require(time.monotonic() < deadline, "the receipt did not load")
            await asyncio.sleep(0.01)  # Qt's events run meanwhile: one loop (qasync)
        _require(
            viewer.document.status() == QPdfDocument.Status.Ready,
            f"the viewer could not read the receipt ({viewer.document.status().name})",
        )
        _require(viewer.page_count() >= 1, "the receipt has no page")
        page = on_white(viewer.document.render(0, QSize(300, 420)))
        white = QColor("white").rgb()
        inked = sum(
            page.pixel(x, y) != white
            for y in range(0, page.height(), 3)
            for x in range(0, page.width(), 3)
        )
        _require(inked > 50, "the receipt's first page renders blank")
        return int(viewer.page_count())
    finally:
        viewer.deleteLater()


async def _slip(workspace: Any) -> Any:
    response = await workspace.session.accounts.transport.http.get("/sandbox/slips")
    response.raise_for_status()
    slips = [s for s in response.json()["data"] if not s.get("allowChangeValue")]
    _require(bool(slips), "the sandbox lists no payable slip")
    review = await workspace.billets.lookup(slips[0]["digitableCode"])
    _require(review.amount > 0, f"the slip's amount is {review.amount}")
    return review


# --------------------------------------------------------------------------------------------
# Running it


async def _run(test: SelfTest) -> None:
    try:
        await _run_checks(test)
    except _Stop:
        pass
    finally:
        if test.workspace is not None:
            with contextlib.suppress(Exception):
                await test.workspace.close()
        if test.handle is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(test.handle.stop)


def _run_on_app_loop(test: SelfTest) -> None:
    """Run the checks as the app runs: ``qasync.run`` (a ``QEventLoop`` over the
    ``QApplication``), never a loop of asyncio's own."""
    import qasync

    qasync.run(_run(test))


def proxy_summary(test: SelfTest) -> str:
    """``proxy: QR Codes direct (loopback), Accounts direct (loopback); system proxy none``:
    how each API was reached (when the profile was unlocked) and the computer's proxy."""
    from treasury_app.api.proxies import SystemProxies

    routes = ", ".join(f"{api} {shown}" for api, shown in test.routes.items())
    system = f"system proxy {SystemProxies.read().describe()}"
    return f"proxy: {routes}; {system}" if routes else f"proxy: {system}"


def use_offscreen_without_display(environ: dict[str, str] | Any = os.environ) -> bool:
    """Choose Qt's offscreen platform when there is nothing to draw on (a server, CI, a
    container): on Linux without ``DISPLAY`` and ``WAYLAND_DISPLAY``. An explicit
    ``QT_QPA_PLATFORM`` is kept. Returns whether offscreen was chosen here."""
    if environ.get("QT_QPA_PLATFORM"):
        return False
    if not sys.platform.startswith("linux"):
        return False
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return False
    environ["QT_QPA_PLATFORM"] = "offscreen"
    return True


def _default_user_dirs() -> list[Path]:
    from treasury_app.config import AppPaths

    default = AppPaths.default()
    return [
        path.expanduser().resolve()
        for path in (default.config_dir, default.data_dir, default.log_dir)
    ]


def data_dir_refusal(data_dir: Path) -> str | None:
    """Why ``--self-test --data-dir data_dir`` must not run there, or None when it may.

    The self-test writes a sandbox ledger and starts a sandbox bank in its directory, so it
    only takes a new or empty one, and never the user's own configuration, data or log
    directory, nor one inside them. A path that is a file is left to the checks,
    which fail at "sandbox start" without writing anything.
    """
    from PySide6.QtCore import QCoreApplication

    root = data_dir.expanduser().resolve()
    for user_dir in _default_user_dirs():
        if root.is_relative_to(user_dir):
            return QCoreApplication.translate(
                "SelfTest",
                "self-test: {path} is in the application's own data directory; "
                "give --data-dir a new or empty directory",
            ).format(path=data_dir)
    if root.is_dir() and any(root.iterdir()):
        return QCoreApplication.translate(
            "SelfTest",
            "self-test: {path} is not empty; give --data-dir a new or empty directory",
        ).format(path=data_dir)
    return None


def run_self_test(
    *, data_dir: Path | None = None, out: IO[str] | None = None, err: IO[str] | None = None
) -> int:
    """Run every check; print the one-line result to ``out``; 0 when all passed, else 1.

    ``data_dir`` (an empty or new directory) replaces the temporary one and is never removed.
    A directory that is not empty, or the user's own one, is refused: one line on ``err``,
    status 2, nothing written.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    if data_dir is not None:
        refusal = data_dir_refusal(data_dir)
        if refusal is not None:
            print(refusal, file=err, flush=True)
            return 2
    started = time.perf_counter()
    use_offscreen_without_display()
    os.environ.setdefault("QT_API", "pyside6")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Treasury")
    app.setApplicationVersion(__version__)

    temporary = data_dir is None
    directory = (
        Path(tempfile.mkdtemp(prefix="treasury-self-test-")) if data_dir is None else data_dir
    )
    test = SelfTest(directory)
    try:
        _run_on_app_loop(test)
    except BaseException as error:  # the runner itself broke: still one line, still status 1
        test.failed = test.failed or "runner"
        test.reason = test.reason or _describe(error)
        if not isinstance(error, Exception):
            raise
    elapsed = time.perf_counter() - started
    if test.failed is None:
        print(
            f"self-test passed: {len(test.passed)} checks in {elapsed:.1f} s "
            f"(treasury-app {__version__})",
            file=out,
            flush=True,
        )
        print(f"self-test: {proxy_summary(test)}", file=err, flush=True)
        if temporary:
            shutil.rmtree(directory, ignore_errors=True)
        return 0
    print(
        f"self-test FAILED at {test.failed}: {test.reason} "
        f"({len(test.passed)} checks passed before it, {elapsed:.1f} s, "
        f"treasury-app {__version__}; {proxy_summary(test)})",
        file=out,
        flush=True,
    )
    print(f"self-test: files and the sandbox's log kept in {directory}", file=err, flush=True)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m treasury_app.self_test``: the same as ``treasury-app --self-test``."""
    del argv
    return run_self_test()


if __name__ == "__main__":
    raise SystemExit(main())
