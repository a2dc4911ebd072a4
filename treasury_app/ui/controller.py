"""Start-up and the life of a session: choose a profile (first run: welcome), start the
sandbox bank when the profile is the sandbox, unlock, show the main window; lock, switch
profile and quit go back through here."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

import shiboken6
from PySide6.QtCore import QObject, QSettings, QTimer, Signal
from PySide6.QtWidgets import QAbstractButton, QDialog, QMessageBox

from treasury_app.api.errors import ApiFailure
from treasury_app.api.tls import CertificateError
from treasury_app.api.tokens import ApiName
from treasury_app.config import AppPaths
from treasury_app.ledger.errors import LedgerOpenError
from treasury_app.ledger.location import LedgerLocationError
from treasury_app.policy import Policy
from treasury_app.services.endpoints import EndpointConfirmations
from treasury_app.services.profiles import (
    SANDBOX_PROFILE_NAME,
    CaFileError,
    PolicyRefusal,
    Profile,
    ProfileError,
    ProfileStore,
    SandboxSecrets,
    sandbox_profile,
)
from treasury_app.services.sandbox_runner import SandboxHandle, ensure_sandbox
from treasury_app.services.secret_store import SecretStore
from treasury_app.services.session import (
    MissingSecret,
    Session,
    TeamPasswordNeeded,
    audit_failed_unlock,
)
from treasury_app.services.workspace import Workspace, open_workspace
from treasury_app.ui.async_tools import ask, spawn, spawn_for
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.main_window import MainWindow
from treasury_app.ui.rule_words import rule_text

log = logging.getLogger("treasury_app.ui.controller")
LAST_PROFILE_KEY = "last-profile"
SANDBOX_WATCH_MS = 2000  # how often an open sandbox profile checks its bank is still there

UNLOCK_ERRORS = (
    CertificateError,
    MissingSecret,
    TeamPasswordNeeded,
    ApiFailure,
    ProfileError,
    OSError,  # the team database offline included
    LedgerOpenError,  # a newer ledger schema, a team login refused, a database not prepared
)


@dataclass
class StartOptions:
    profile: str | None = None
    sandbox: bool = False
    unlock_sandbox: bool = False  # benchmarks and screenshots: the sandbox's own test passwords
    sandbox_args: tuple[str, ...] = ()
    sandbox_samples: bool = False  # `make run`: a few sample scheduled payments (sandbox only)


FREEZE_AFTER_MS = 1500  # after the unlock, once the first tab has shown its data


def freeze_long_lived_objects() -> None:
    """After the unlock: move what start-up created (modules, classes, the session) out of the
    garbage collector's reach, so that its full passes, walking every tracked object, do not
    stall the UI while a long statement loads (measured: 40-150 ms pauses without it). The
    collection before it takes some 40 ms: it runs a moment after the unlock
    (:data:`FREEZE_AFTER_MS`), not between the unlock and the first tab's data."""
    gc.collect()
    gc.freeze()


# The steps of a start-up, in order, as :attr:`AppController.stage_reached` names them (a quit
# may come at any of them; tests and ``--quit-at`` quit at each).
STAGES = ("profile", "sandbox", "unlock", "session", "main-window")


class AppController(QObject):
    """Runs the app's screens in order; :meth:`run` returns when the person quits.

    A quit (the window closed, File → Quit) is remembered the moment it comes, whatever is
    going on: the sandbox bank starting, a profile opening, the unlock, a session opening.
    Each step checks it before the next one begins, and a dialog that would open after it is
    answered "cancelled" at once, so the run ends at the next safe point instead of waiting
    for a person who has already left."""

    window_shown = Signal(object)  # the MainWindow, for tests and benchmarks
    unlocked = Signal(object)  # the Workspace
    stage_reached = Signal(str)  # one of STAGES, as each step begins

    def __init__(
        self,
        paths: AppPaths,
        options: StartOptions | None = None,
        *,
        secret_store: SecretStore | None = None,
        window: MainWindow | None = None,
        policy: Policy | None = None,
    ) -> None:
        super().__init__()
        self.paths = paths
        self.options = options or StartOptions()
        # The machine policy (treasury_app/policy): preset profiles, the sandbox turned off,
        # locked settings; checked by the caller before (app.load_policy).
        self.policy = policy if policy is not None else Policy()
        self.store = ProfileStore(paths, self.policy)
        self.endpoints = EndpointConfirmations(paths)
        self.endpoint_box: QMessageBox | None = None  # a bank address to confirm, while shown
        self.secret_store = secret_store or SecretStore()
        self.sandbox: SandboxHandle | None = None
        self.sandbox_box: QMessageBox | None = None  # "the sandbox bank stopped", while shown
        self.sandbox_secrets: SandboxSecrets | None = None
        self.window: MainWindow | None = window
        self.workspace: Workspace | None = None
        self.unlock_audits: list[asyncio.Task[bool]] = []  # refused unlocks being recorded
        self.quitting = False  # a quit came: every step from now on ends the run

    # -- the whole run -------------------------------------------------------------------------

    async def run(self) -> None:
        if self.window is None:
            self.window = MainWindow()
        window = self.window
        window.quit_requested.connect(self.request_quit)
        window.show()  # at once, locked: the profile opens behind it
        try:
            self._stage("profile")
            profile = await self.initial_profile()
            while profile is not None and not self.quitting:
                workspace = await self.unlock(profile)
                if workspace is None or self.quitting:
                    break
                action = await self.show_main_window(workspace)
                await self.close_workspace()
                if action == "quit" or self.quitting:
                    break
                if action == "switch":
                    profile = await self.choose_profile()
                elif profile.environment == "sandbox":
                    # "lock" or "restart-sandbox": the sandbox bank may have stopped, and a
                    # restarted one listens on new ports: start it again if needed.
                    profile = await self.sandbox_profile()
                else:  # "lock": the same profile again, as saved ("Edit profile…" applies now)
                    profile = self._reloaded(profile)
        finally:
            await self.close_workspace()
            if shiboken6.isValid(window):  # the window's state, while the window exists
                window.quit_requested.disconnect(self.request_quit)
                window.save_state()
                window.hide()
            if self.sandbox is not None:
                self.sandbox.stop()

    def _stage(self, stage: str) -> None:
        log.debug("start-up step: %s", stage)
        self.stage_reached.emit(stage)

    async def _ask(self, dialog: QDialog) -> int:
        """:func:`ask` ``dialog``, unless a quit came: then "cancelled" without showing it."""
        if self.quitting:
            return int(QDialog.DialogCode.Rejected.value)
        return await ask(dialog)

    # -- profiles ------------------------------------------------------------------------------

    async def initial_profile(self) -> Profile | None:
        if self.options.sandbox:
            if self.policy.sandbox_disabled:
                await self.refuse_sandbox()
                return None
            return await self.sandbox_profile()
        if self.options.profile:
            return await self.load_profile(self.options.profile)
        names = self.store.list()
        if not names:
            return await self.first_run()
        last = QSettings().value(LAST_PROFILE_KEY)
        name = last if isinstance(last, str) and last in names else names[0]
        return await self.load_profile(name)

    async def refuse_sandbox(self) -> None:
        """``--sandbox`` where the machine policy turns the sandbox off: said, then the run
        ends (nothing of the sandbox bank is started)."""
        log.warning("the sandbox bank is turned off by the machine policy: not started")
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("The sandbox bank is turned off"),
            rule_text(PolicyRefusal("policy.sandbox_disabled", name=SANDBOX_PROFILE_NAME)),
            parent=self.window,
        )
        box.setObjectName("sandbox-refused")
        self._keep(box)
        await self._ask(box)

    async def load_profile(self, name: str) -> Profile:
        if self.policy.sandbox_disabled:
            return self.store.load(name)  # a sandbox profile is refused (PolicyRefusal)
        if name == SANDBOX_PROFILE_NAME and name in self.store.list():
            profile = self.store.load(name)
            if profile.environment == "sandbox":
                return await self.sandbox_profile()
        return self.store.load(name)

    def _reloaded(self, profile: Profile) -> Profile:
        """``profile`` as its file now says: an edit made while it was open applies from the
        next unlock, and an edit made outside the app is confirmed there (an old copy would
        be flagged against its own newer confirmation). Kept as it was if the file is gone."""
        try:
            return self.store.load(profile.name)
        except ProfileError as error:
            log.warning("profile %r not reloaded: %s", profile.name, error)
            return profile

    async def first_run(self) -> Profile | None:
        from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog

        dialog = WelcomeDialog(sandbox_allowed=not self.policy.sandbox_disabled)
        self._keep(dialog)
        if await self._ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        if dialog.choice() == "sandbox" and not self.policy.sandbox_disabled:
            return await self.sandbox_profile()
        return await self.new_profile()

    async def new_profile(self, profile: Profile | None = None) -> Profile | None:
        from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

        dialog = ProfileDialog(
            profile=profile,
            secret_store=self.secret_store,
            existing_names=self.store.list(),
            endpoints=self.endpoints,
            policy=self.policy,
        )
        self._keep(dialog)
        if await self._ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        created = await self.store.save(dialog.result_profile())
        # A new production profile's first confirmation (audited in its new ledger).
        await self.endpoints.confirm(
            created.name, dialog.confirmed_changes(), confirmed_in="profile dialog"
        )
        for api, secret in dialog.result_secrets().items():
            if secret and self.secret_store.available:
                await self.secret_store.set(created.name, api, secret)
        return created

    async def choose_profile(self) -> Profile | None:
        """Switch profile: the sandbox, a stored profile, or a new one (a small chooser)."""
        from PySide6.QtWidgets import QInputDialog

        names = self.store.list()
        new_label = self.tr("New profile…")
        dialog = QInputDialog()
        dialog.setWindowTitle(self.tr("Switch profile"))
        dialog.setLabelText(self.tr("Profile"))
        # Where the policy provides the profiles, no profile of one's own is made.
        locked = self.policy.is_locked("Profiles")
        dialog.setComboBoxItems(names if locked else [*names, new_label])
        dialog.setObjectName("choose-profile")
        self._keep(dialog)
        if await self._ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        chosen = dialog.textValue()
        if chosen == new_label:
            return await self.new_profile()
        return await self.load_profile(chosen)

    async def sandbox_profile(self) -> Profile:
        """Start (or reuse) the sandbox bank and refresh its profile from its ready file
        (its ports change from one start to the next)."""
        if self.sandbox is not None and not self.sandbox.alive():
            log.warning("the sandbox bank is not running any more: starting it again")
            self.sandbox = None
        if self.sandbox is None:
            self._stage("sandbox")
            self.sandbox = await ensure_sandbox(self.paths, extra_args=self.options.sandbox_args)
        profile, secrets = sandbox_profile(self.sandbox.ready_file)
        self.sandbox_secrets = secrets
        if SANDBOX_PROFILE_NAME in self.store.list():
            with contextlib.suppress(ProfileError):  # where its ledger lives is the person's
                profile = profile.model_copy(
                    update={"ledger": self.store.load(SANDBOX_PROFILE_NAME).ledger}
                )
        await self.store.save(profile)
        return profile

    # -- unlock --------------------------------------------------------------------------------

    def _client_secrets(self, profile: Profile) -> dict[str, str] | None:
        if profile.environment == "sandbox" and self.sandbox_secrets is not None:
            return dict(self.sandbox_secrets.client_secrets)
        return None

    async def confirm_endpoints(self, profile: Profile) -> bool:
        """Before anything is sent: a production profile whose bank address or CA is not the
        one last confirmed on this computer (its file edited outside the app, or copied here)
        is shown to the person, who confirms it (recorded and audited) or not (the profile
        stays locked). A CA file that cannot be read cannot be confirmed: locked too."""
        from treasury_app.ui.dialogs.endpoint_confirmation import endpoint_confirmation_box

        try:
            changes = self.endpoints.pending(profile)
        except CaFileError as error:
            log.warning("unlock refused: %s", error)
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                self.tr("The bank's CA cannot be checked"),
                self.tr(
                    "%1\nThe profile stays locked: nothing is sent to a bank whose CA cannot "
                    "be shown to you first. Put the CA file back in place and open the profile "
                    "again."
                ).replace("%1", rule_text(error)),
                parent=self.window,
            )
            box.setObjectName("endpoint-error")
            await self._ask_endpoints(box)
            return False
        if not changes:
            return True
        box, confirm = endpoint_confirmation_box(
            profile.name, changes, at_unlock=True, parent=self.window
        )
        clicked = await self._ask_endpoints(box)
        if clicked is confirm:
            await self.endpoints.confirm(profile.name, changes, confirmed_in="unlock")
            return True
        if clicked is not None:  # Cancel (not a Quit that closed the box)
            await self.endpoints.decline(profile.name, changes)
        return False

    async def _ask_endpoints(self, box: QMessageBox) -> QAbstractButton | None:
        """Show ``box`` (window-modal) and return the button clicked (``None``: closed)."""
        self.endpoint_box = box
        try:
            await self._ask(box)
            return box.clickedButton()
        finally:
            self.endpoint_box = None
            box.deleteLater()

    async def unlock(self, profile: Profile) -> Workspace | None:
        """Ask for the certificate passwords (and, for a team database, its password when it
        is asked each time or not in the keyring) until the session opens or the person gives
        up; a changed bank address or CA is confirmed first (:meth:`confirm_endpoints`)."""
        from treasury_app.ledger.errors import LedgerUnavailable
        from treasury_app.services.secret_store import TEAM_DATABASE
        from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

        self._stage("unlock")
        if self.quitting or not await self.confirm_endpoints(profile):
            return None
        client_secrets = self._client_secrets(profile)
        hints = (
            dict(self.sandbox_secrets.pfx_passwords)
            if profile.environment == "sandbox" and self.sandbox_secrets is not None
            else None
        )
        if self.options.unlock_sandbox and hints:
            self._stage("session")
            session = await Session.open(
                profile,
                pfx_passwords=hints,
                client_secrets=client_secrets,
                secret_store=self.secret_store,
                paths=self.paths,
            )
            return await self._workspace(session)
        missing = {
            api: client_secrets is None and self.secret_store.get(profile.name, api) is None
            for api in ("qrcodes", "accounts")
        }
        team = profile.ledger.team if profile.ledger.is_team else None
        need_team_password = team is not None and (
            team.password == "ask"
            or (
                team.password == "keyring"
                and self.secret_store.get(profile.name, TEAM_DATABASE) is None
            )
        )
        dialog = UnlockDialog(
            profile,
            hint_passwords=hints,
            need_client_secret=missing,
            need_team_password=need_team_password,
        )
        self._keep(dialog)
        dialog.certificates_refused.connect(partial(self._audit_refused_unlock, profile))
        while True:
            if await self._ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            typed_secrets = dialog.client_secrets()
            self._stage("session")
            try:
                session = await Session.open(
                    profile,
                    pfx_passwords=dialog.passwords(),
                    client_secrets=client_secrets or typed_secrets or None,
                    secret_store=self.secret_store,
                    paths=self.paths,
                    identities=dialog.identities() or None,  # decrypted once, by the dialog
                    team_password=dialog.team_password(),
                )
            except UNLOCK_ERRORS as error:
                log.info("unlock failed: %s", error)
                if team is not None and isinstance(
                    error, TeamPasswordNeeded | LedgerOpenError | LedgerUnavailable
                ):
                    from treasury_app.ledger.team import TeamLoginError

                    refused = isinstance(error, TeamPasswordNeeded) or (
                        isinstance(error, TeamLoginError) and team.password != "none"
                    )
                    dialog.show_team_error(error, ask_password=refused)
                else:
                    dialog.show_error(self._unlock_message(error))
                continue
            dialog.clear_secrets()
            return await self._workspace(session)

    def _audit_refused_unlock(
        self, profile: Profile, failures: dict[ApiName, BaseException]
    ) -> None:
        """Record the refused attempt in the profile's ledger (which certificates, why; never
        what was typed) as a task of its own, while the person may try again."""
        self.unlock_audits = [task for task in self.unlock_audits if not task.done()]
        self.unlock_audits.append(
            spawn(
                audit_failed_unlock(profile, self.paths, failures, secret_store=self.secret_store),
                name="audit-refused-unlock",
            )
        )

    def _unlock_message(self, error: BaseException) -> str:
        """What the unlock dialog says of ``error``, in the person's language where the app
        words it itself."""
        if isinstance(error, LedgerLocationError):
            return self.tr(
                "The ledger cannot be kept on a network folder (%1): SQLite's write-ahead log "
                "does not work there. Keep the data folder on this computer; to share a "
                "journal, use the team database."
            ).replace("%1", error.folder)
        return failure_words(error)

    async def _workspace(self, session: Session) -> Workspace:
        self.workspace = await open_workspace(session, policy=self.policy)
        self.workspace.profile_saver = self._profile_saver(self.workspace)
        QTimer.singleShot(FREEZE_AFTER_MS, freeze_long_lived_objects)
        QSettings().setValue(LAST_PROFILE_KEY, session.profile.name)
        self.unlocked.emit(self.workspace)
        return self.workspace

    def _profile_saver(self, workspace: Workspace) -> Callable[[Profile], Awaitable[Profile]]:
        """How Settings keeps an edited profile: the store, audited in the ledger (a preset
        profile is the policy's: refused with its code)."""

        async def save(profile: Profile) -> Profile:
            if self.store.is_preset(profile.name):
                raise PolicyRefusal("policy.preset_read_only", name=profile.name)
            audit = None if workspace.session.closed else workspace.ledger.audit
            return await self.store.save(profile, audit=audit)

        return save

    # -- the main window -----------------------------------------------------------------------

    async def show_main_window(self, workspace: Workspace) -> str:
        """Fill the window for ``workspace`` and wait until the person locks, switches profile
        or quits; the window then goes back to its locked state."""
        import asyncio

        if self.quitting:  # came while the session opened: never shown
            return "quit"
        window = self.window
        if window is None:
            window = self.window = MainWindow()
        outcome: asyncio.Future[str] = asyncio.get_event_loop().create_future()

        def finish(action: str) -> None:
            if not outcome.done():
                outcome.set_result(action)

        watch = self._watch_sandbox(window, workspace, finish)
        connections = [
            (window.lock_requested, lambda: finish("lock")),
            (window.switch_profile_requested, lambda: finish("switch")),
            (window.quit_requested, lambda: finish("quit")),
            (window.edit_profile_requested, lambda: spawn(self.edit_profile(workspace))),
        ]
        for signal, slot in connections:
            signal.connect(slot)
        if self.options.sandbox_samples:
            await self._add_samples(workspace)
        window.set_workspace(workspace)
        window.show()
        resolved = workspace.session.resolved_at_start
        window.statusBar().showMessage(
            self.tr("Unlocked · %1 pending checked").replace("%1", str(len(resolved)))
            if resolved
            else self.tr("Unlocked"),
            15_000,
        )
        self.window_shown.emit(window)
        self._stage("main-window")
        spawn(self._warm_up(workspace, window), name="warm-up")
        spawn_for(window, window.check_infractions(), name="infractions-badge")
        spawn(workspace.tracker.run(), name="payment-tracker")
        if not workspace.engine.read_only:  # scheduled payments leave on their day
            spawn(workspace.due_sender.run(), name="due-sender")
        try:
            action = await outcome
            if action == "quit":  # the backup before closing, the session still open
                await window.back_up_before_closing()
            return action
        finally:
            if watch is not None:
                watch.stop()
                watch.deleteLater()
            if self.sandbox_box is not None:
                self.sandbox_box.reject()
            for signal, slot in connections:
                signal.disconnect(slot)
            window.save_state()
            window.set_workspace(None)  # tabs stop their loads before the session closes

    async def _add_samples(self, workspace: Workspace) -> None:
        """`make run`'s sample scheduled payments, once, on a sandbox profile (the calendar
        then shows them); a failure is logged, never in the way of the window."""
        if workspace.session.profile.environment != "sandbox" or workspace.engine.read_only:
            return
        from treasury_app.services.sandbox_samples import add_samples_to

        try:
            made = await add_samples_to(workspace)
        except Exception:  # samples are a convenience: the app opens without them
            log.exception("the sample scheduled payments were not added")
            return
        if made:
            log.info("%s sample scheduled payment(s) added", len(made))

    def _watch_sandbox(
        self, window: MainWindow, workspace: Workspace, finish: Callable[[str], None]
    ) -> QTimer | None:
        """While a sandbox profile is open, notice the embedded sandbox bank dying."""
        if workspace.session.profile.environment != "sandbox" or self.sandbox is None:
            return None
        timer = QTimer(window)
        timer.setInterval(SANDBOX_WATCH_MS)

        def check() -> None:
            if self.sandbox is not None and not self.sandbox.alive():
                timer.stop()
                spawn(self._sandbox_stopped(window, finish), name="sandbox-stopped")

        timer.timeout.connect(check)
        timer.start()
        return timer

    async def _sandbox_stopped(self, window: MainWindow, finish: Callable[[str], None]) -> None:
        """Say that the sandbox bank stopped and offer to start it again (the profile is then
        unlocked again: the new bank listens on new ports)."""
        log_file = self.sandbox.log_file if self.sandbox is not None else ""
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("The sandbox bank stopped"),
            self.tr(
                "The sandbox bank that runs inside the app is not running any more (its log: "
                "%1). Nothing can be sent or followed until it runs again. Start it again now? "
                "You will unlock the profile again; payments on their way are checked with it."
            ).replace("%1", str(log_file)),
            parent=window,
        )
        box.setObjectName("sandbox-stopped")
        restart = box.addButton(
            self.tr("Restart the sandbox bank"), QMessageBox.ButtonRole.AcceptRole
        )
        later = box.addButton(self.tr("Not now"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(restart)
        box.setEscapeButton(later)
        self.sandbox_box = box
        try:
            await self._ask(box)
        finally:
            self.sandbox_box = None
        if box.clickedButton() is restart:
            finish("restart-sandbox")
        else:
            window.statusBar().showMessage(
                self.tr("The sandbox bank is not running: lock and unlock to start it again.")
            )

    def request_quit(self) -> None:
        """Closing the window (or Quit), at any moment: remembered, so that the step under way
        ends the run when it is done (:meth:`run`); a start-up dialog on screen is rejected,
        so whatever awaited it sees "cancelled". With the main window open,
        :meth:`show_main_window` ends it (a payment in flight writes its journal first)."""
        self.quitting = True
        if self.workspace is not None or self.window is None:
            return
        for dialog in self.window.findChildren(QDialog):
            if dialog.isVisible():
                dialog.reject()

    async def edit_profile(self, workspace: Workspace) -> None:
        """Edit the open profile; saved (and audited) at once, used from the next unlock."""
        from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

        profile = workspace.session.profile
        dialog = ProfileDialog(
            profile=profile,
            secret_store=self.secret_store,
            endpoints=self.endpoints,
            policy=self.policy,
        )
        self._keep(dialog)
        if await self._ask(dialog) != QDialog.DialogCode.Accepted:
            return
        edited = dialog.result_profile()
        audit = None if workspace.session.closed else workspace.ledger.audit
        if not self.store.is_preset(edited.name):  # a preset is the policy's: its secrets only
            await self.store.save(edited, audit=audit)
        # After the save: a failure in between asks again at the next unlock, never the reverse.
        await self.endpoints.confirm(
            edited.name, dialog.confirmed_changes(), confirmed_in="profile dialog", audit=audit
        )
        for api, secret in dialog.result_secrets().items():
            if secret and self.secret_store.available:
                await self.secret_store.set(edited.name, api, secret, audit=audit)
        if self.window is not None:
            self.window.statusBar().showMessage(
                self.tr("Profile saved; the changes apply at the next unlock."), 10_000
            )

    async def _warm_up(self, workspace: Workspace, window: MainWindow) -> None:
        """Tokens on both APIs right after unlock (the first request of a process is slow),
        so the person's first click is not."""
        try:
            await workspace.session.check_connection()
        except RuntimeError:  # locked meanwhile: the clients are closed
            if not workspace.session.closed:
                raise
            return
        if window.workspace is workspace and window.status_panel is not None:
            window.status_panel.refresh()

    async def close_workspace(self) -> None:
        """Lock: close the clients (keys and tokens go with them) and the ledger."""
        if self.workspace is not None:
            workspace, self.workspace = self.workspace, None
            await workspace.close()

    def _keep(self, dialog: QDialog) -> None:
        """Parent dialogs to the main window (window-modal, in front of it)."""
        if self.window is not None:
            dialog.setParent(self.window, dialog.windowFlags())
