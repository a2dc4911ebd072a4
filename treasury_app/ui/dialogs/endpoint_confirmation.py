"""The confirmation a person gives before a production profile talks to a new bank address or
trusts a new CA: old and new host, and the new CA's SHA-256 fingerprint (in the profile dialog
and at unlock)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QMessageBox,
    QPushButton,
    QWidget,
)

from treasury_app.services.endpoints import EndpointChange


def endpoint_confirmation_box(
    profile_name: str,
    changes: Iterable[EndpointChange],
    *,
    at_unlock: bool,
    parent: QWidget | None = None,
) -> tuple[QMessageBox, QPushButton]:
    """The confirmation of changed bank addresses or CAs: for each API, the old and new host,
    the new address and the new CA (or the system trust store) with each certificate's SHA-256
    fingerprint. Returns the box (window-modal, not shown: ``open()`` it) and its confirm
    button; Cancel is the default."""
    changes = tuple(changes)
    if not at_unlock:
        lead = QCoreApplication.translate(
            "EndpointConfirmation",
            "The profile “%1” will send payments to these servers. Check them with your bank "
            "before you confirm.",
        )
    elif all(change.old is None for change in changes):
        lead = QCoreApplication.translate(
            "EndpointConfirmation",
            "The bank addresses and CAs of the profile “%1” have not been confirmed on this "
            "computer yet. Nothing is sent to the bank until you confirm them: check them with "
            "your bank first.",
        )
    else:
        lead = QCoreApplication.translate(
            "EndpointConfirmation",
            "The file of the profile “%1” was changed outside the app: a bank address or CA is "
            "not the one last confirmed on this computer. Nothing is sent to the bank until you "
            "confirm: check with your bank first.",
        )
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("EndpointConfirmation", "Confirm the bank's servers"),
        lead.replace("%1", profile_name),
        parent=parent,
    )
    box.setObjectName("endpoint-confirmation")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.setInformativeText("\n\n".join(_change_lines(change) for change in changes))
    # Wide enough that a host or a path is not broken across lines: they are read out to the
    # bank character by character.
    box.setStyleSheet(
        "QLabel#qt_msgbox_label, QLabel#qt_msgbox_informativelabel { min-width: 40em; }"
    )
    confirm_text = (
        QCoreApplication.translate("EndpointConfirmation", "Confirm and unlock")
        if at_unlock
        else QCoreApplication.translate("EndpointConfirmation", "Confirm and save")
    )
    confirm = box.addButton(confirm_text, QMessageBox.ButtonRole.AcceptRole)
    confirm.setObjectName("endpoint-confirm")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    return box, confirm


def _change_lines(change: EndpointChange) -> str:
    title = (
        QCoreApplication.translate("EndpointConfirmation", "QR Codes API")
        if change.api == "qrcodes"
        else QCoreApplication.translate("EndpointConfirmation", "Accounts API")
    )
    old_host = change.old_host or QCoreApplication.translate(
        "EndpointConfirmation", "none confirmed yet"
    )
    lines = [
        title,
        QCoreApplication.translate("EndpointConfirmation", "Host: %1 → %2")
        .replace("%1", old_host)
        .replace("%2", change.new_host),
        QCoreApplication.translate("EndpointConfirmation", "Address: %1").replace(
            "%1", change.new.base_url
        ),
    ]
    if change.new.ca_file is None:
        lines.append(
            QCoreApplication.translate("EndpointConfirmation", "CA: the system trust store")
        )
    else:
        lines.append(
            QCoreApplication.translate("EndpointConfirmation", "CA file: %1").replace(
                "%1", change.new.ca_file
            )
        )
        for certificate in change.new.ca_certificates:
            lines.append(
                QCoreApplication.translate("EndpointConfirmation", "%1, SHA-256:").replace(
                    "%1", certificate.subject
                )
            )
            lines.extend(_fingerprint_lines(certificate.sha256))
    if change.old is not None:
        lines.append(
            QCoreApplication.translate("EndpointConfirmation", "The CA changed.")
            if change.ca_changed
            else QCoreApplication.translate("EndpointConfirmation", "The CA did not change.")
        )
    return "\n".join(lines)


def _fingerprint_lines(fingerprint: str) -> list[str]:
    """A colon-separated SHA-256 fingerprint in two lines of 16 bytes (a label wraps only at
    spaces, so one line of 95 characters would widen the box past small screens)."""
    parts = fingerprint.split(":")
    return [":".join(parts[start : start + 16]) for start in range(0, len(parts), 16)]
