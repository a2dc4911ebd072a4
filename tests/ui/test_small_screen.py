"""A 1366×768 laptop: the main window (every tab) and the dialogs of the payment desk fit the
screen, with the status bar visible; long content scrolls instead of pushing the window past
the screen's bottom."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize

from tests.waiting import qt_turn
from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog
from treasury_app.ui.dialogs.payout_review_dialog import PayoutReviewDialog
from treasury_app.ui.main_window import MainWindow

# What a maximized window gets on a 1366×768 screen, less a taskbar and a title bar.
SCREEN = QSize(1366, 768 - 40 - 30)


def fits(size: QSize) -> bool:
    return size.width() <= SCREEN.width() and size.height() <= SCREEN.height()


@pytest.fixture
def window(qtbot, open_workspace):
    window = MainWindow(open_workspace())
    qtbot.addWidget(window)
    yield window
    window.set_workspace(None)  # as on lock: the tabs stop their loads


def test_every_tab_fits_with_the_status_bar(qtbot, window) -> None:
    window.resize(SCREEN)
    window.show()
    qtbot.waitExposed(window)
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        qt_turn(qtbot)  # the layouts it asked for are done
        assert fits(window.minimumSizeHint()), (
            window.tabs.tabText(index),
            window.minimumSizeHint(),
        )
        assert window.height() <= SCREEN.height()
        bar = window.statusBar()
        assert bar.isVisible() and bar.geometry().bottom() <= window.height()
        assert window.current_tab() is not None


def test_the_status_bar_texts_are_never_cut(qtbot, window) -> None:
    window.resize(SCREEN)
    window.show()
    qtbot.waitExposed(window)
    panel = window.status_panel
    panel.refresh()
    bar = window.statusBar()
    bar.showMessage("Unlocked · 12 pending checked")
    for label in (panel.badge, *panel.apis.values()):
        assert label.isVisible() and label.width() >= label.sizeHint().width(), label.text()
    message_width = bar.fontMetrics().horizontalAdvance(bar.currentMessage())
    assert message_width + panel.width() + 40 <= bar.width()


def test_the_payment_dialogs_fit(qtbot, run, open_workspace) -> None:
    workspace = open_workspace()
    batch = PayoutBatchDialog(workspace)
    qtbot.addWidget(batch)
    assert run(
        batch.load_text(
            "chave;valor\n" + "".join(f"tela{i}@empresa.com.br;1,{i:02d}\n" for i in range(40))
        )
    )
    assert fits(batch.minimumSizeHint()) and fits(batch.sizeHint())
    review = PayoutReviewDialog(run(workspace.payouts.prepare_key("tela@empresa.com.br", "1,00")))
    qtbot.addWidget(review)
    assert fits(review.minimumSizeHint()) and fits(review.sizeHint())


def test_help_opens_the_user_guide(qtbot, window, monkeypatch) -> None:
    from treasury_app.ui import main_window

    opened = []

    class FakeDesktop:
        @staticmethod
        def openUrl(url):
            opened.append(url.toLocalFile())
            return True

    monkeypatch.setattr(main_window, "QDesktopServices", FakeDesktop)
    window.guide_action.trigger()
    assert len(opened) == 1 and opened[0].endswith("docs/user-guide.md")
    assert main_window.user_guide_path().read_text("utf-8").strip()


def test_the_large_dialogs_open_within_the_screen(qtbot, open_workspace, monkeypatch) -> None:
    from PySide6.QtCore import QRect

    from treasury_app.ui import screen_fit
    from treasury_app.ui.dialogs.charge_detail_dialog import ChargeDetailDialog
    from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog
    from treasury_app.ui.dialogs.receipt_viewer import ReceiptViewer
    from treasury_app.ui.dialogs.recurrence_wizard import RecurrenceWizard
    from treasury_app.ui.screen_fit import FRAME

    laptop = QRect(0, 0, 1366, 768 - 40)  # less the taskbar
    monkeypatch.setattr(screen_fit, "area_override", laptop)
    workspace = open_workspace()
    dialogs = [
        ChargeFormDialog(workspace),
        ChargeDetailDialog(workspace, "cob", "t" * 30),
        RecurrenceWizard(workspace),
        ReceiptViewer(b"%PDF-1.4", title="Receipt", suggested_name="r.pdf"),
        PayoutBatchDialog(workspace),
    ]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        area = laptop
        name = type(dialog).__name__
        assert dialog.height() + FRAME.height() <= area.height(), name
        assert dialog.width() + FRAME.width() <= area.width(), name
        assert dialog.minimumSizeHint().height() <= dialog.height(), name  # shrinks, scrolls


@pytest.fixture
def laptop(qapp, monkeypatch):
    """A 1366×768 screen's available geometry (the taskbar's 40 pixels off), with the app's
    fitting of dialogs as they are shown (as ``app.main`` installs it)."""
    from PySide6.QtCore import QRect

    from treasury_app.ui import screen_fit

    area = QRect(0, 0, 1366, 768 - 40)
    monkeypatch.setattr(screen_fit, "area_override", area)
    screen_fit.install(qapp)
    yield area
    screen_fit.uninstall(qapp)


def _review_of_a_slip(run, workspace):
    """The review of a seeded slip, from the bank's answer alone: it does not matter to its
    size whether an earlier test of the session paid that slip (the service's lookup would
    then refuse it as paid), nor in which order the sandbox lists its slips."""
    from treasury_app.domain import boleto
    from treasury_app.services.billets import BilletReview

    slips = run(workspace.session.accounts.transport.http.get("/sandbox/slips")).json()["data"]
    slip = next(s for s in slips if s["label"] == "Assinatura de software")  # a fixed amount
    parsed = boleto.parse(slip["digitableCode"], today=workspace.billets.today())
    info = run(workspace.session.accounts.get_billet_info(parsed.barcode))
    assert info.total_updated is not None
    return BilletReview(
        barcode=parsed.barcode,
        digitable_line=parsed.digitable_line,
        info=info,
        amount=info.total_updated,
    )


def test_every_dialog_opens_above_the_taskbar(
    qtbot, run, open_workspace, sandbox_profile_and_secrets, monkeypatch, laptop
) -> None:
    from treasury_app.ui import screen_fit
    from treasury_app.ui.dialogs.billet_review_dialog import BilletReviewDialog
    from treasury_app.ui.dialogs.charge_batch_dialog import ChargeBatchDialog
    from treasury_app.ui.dialogs.charge_detail_dialog import ChargeDetailDialog
    from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog
    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog
    from treasury_app.ui.dialogs.receipt_viewer import ReceiptViewer
    from treasury_app.ui.dialogs.recurrence_wizard import RecurrenceWizard
    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog
    from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog
    from treasury_app.ui.screen_fit import FRAME

    workspace = open_workspace()
    profile, _secrets = sandbox_profile_and_secrets
    slip_review = _review_of_a_slip(run, workspace)
    # Built while the dialogs cannot know the laptop's screen (a taller one, as on a desktop
    # whose primary monitor is bigger): they ask for their comfortable size, 760 and 860 tall.
    monkeypatch.setattr(screen_fit, "area_override", QRect(0, 0, 1920, 1080 - 40))
    dialogs = [
        ChargeFormDialog(workspace),
        ReceiptViewer(b"%PDF-1.4", title="Receipt", suggested_name="r.pdf"),
        ChargeDetailDialog(workspace, "cob", "t" * 30),
        RecurrenceWizard(workspace),
        PayoutBatchDialog(workspace),
        ChargeBatchDialog(workspace),
        PayoutReviewDialog(run(workspace.payouts.prepare_key("tela@empresa.com.br", "1,00"))),
        BilletReviewDialog(slip_review),
        UnlockDialog(profile),
        WelcomeDialog(),
        ProfileDialog(),
    ]
    assert dialogs[0].height() > laptop.height() - FRAME.height()  # the case to fix
    monkeypatch.setattr(screen_fit, "area_override", laptop)  # they open on the laptop
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.move(0, 300)  # placed low, as over a window near the taskbar
        dialog.show()
        name = type(dialog).__name__
        # The frame (title bar included) lies within the area: nothing under the taskbar.
        assert dialog.y() >= laptop.top() and dialog.x() >= laptop.left(), name
        assert dialog.y() + FRAME.height() + dialog.height() <= laptop.bottom() + 1, name
        assert dialog.x() + FRAME.width() + dialog.width() <= laptop.right() + 1, name
        # Its content fits that height (what does not, scrolls): no button is cut off.
        assert dialog.minimumSizeHint().height() <= dialog.height(), name
        dialog.close()


def test_the_profile_dialog_grown_to_its_fields_stays_above_the_taskbar(
    qtbot, qapp, monkeypatch
) -> None:
    """Grown after it was placed (its fields wrap at its width), the profile dialog moves up
    within the same area the screen fit uses, not the bare screen's: Save and Cancel stay
    above the taskbar."""
    from treasury_app.ui import screen_fit
    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog
    from treasury_app.ui.dialogs.profile_fields import fit_height
    from treasury_app.ui.screen_fit import FRAME

    screen = qapp.primaryScreen().availableGeometry()
    area = QRect(screen.x(), screen.y(), screen.width(), screen.height() - 100)  # a taskbar
    monkeypatch.setattr(screen_fit, "area_override", area)
    dialog = ProfileDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.resize(dialog.width(), 200)
    dialog.move(area.x(), area.y() + 120)  # low on the screen, short
    fit_height(dialog)
    assert dialog.height() > 200  # grown to its fields
    assert dialog.y() + FRAME.height() + dialog.height() <= area.bottom() + 1
    assert dialog.y() >= area.top()
