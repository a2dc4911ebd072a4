"""The machine policy on screen: the mark beside what the IT department set ("Set by your IT
department"), the list of managed settings for the Settings tab, and the start-up refusal of
a policy that fails its checks."""

from __future__ import annotations

import logging

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.policy import Policy, PolicyError, load_machine_policy
from treasury_app.ui.async_tools import ask
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style

log = logging.getLogger("treasury_app.ui.policy_view")
CONTEXT = "PolicyView"

SETTING_NAMES: dict[str, str] = {
    "SandboxDisabled": QT_TRANSLATE_NOOP("PolicyView", "Sandbox bank turned off"),
    "DataDir": QT_TRANSLATE_NOOP("PolicyView", "Data folder"),
    "BackupDir": QT_TRANSLATE_NOOP("PolicyView", "Backup folder"),
    "TeamDatabase": QT_TRANSLATE_NOOP("PolicyView", "Team database"),
    "Release": QT_TRANSLATE_NOOP("PolicyView", "Release mode"),
    "Profiles": QT_TRANSLATE_NOOP("PolicyView", "Preset profile"),
    "Locked": QT_TRANSLATE_NOOP("PolicyView", "Locked"),
}
SOURCES: dict[str, str] = {
    "registry": QT_TRANSLATE_NOOP("PolicyView", "Group Policy (registry)"),
    "ini": QT_TRANSLATE_NOOP("PolicyView", "Settings file (policy.ini)"),
}
MARK = QT_TRANSLATE_NOOP("PolicyView", "🔒 Set by your IT department")
_YES = QT_TRANSLATE_NOOP("PolicyView", "yes")
_NO = QT_TRANSLATE_NOOP("PolicyView", "no")


def tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def mark_text() -> str:
    """The words of the mark, in the person's language."""
    return tr(MARK)


def policy_mark(parent: QWidget, detail: str | None = None) -> QLabel:
    """A label "Set by your IT department" (and ``detail`` after it), shown beside or above
    what the policy set; its object name is ``policy-mark``."""
    label = QLabel(mark_text() + (f": {detail}" if detail else ""), parent)
    label.setObjectName("policy-mark")
    label.setWordWrap(True)
    label.setStyleSheet(text_style("muted", parent))
    return label


def mark_locked(widget: QWidget) -> None:
    """Make ``widget`` read-only (a line edit keeps its text selectable) with the mark as its
    tooltip; its ``policy`` property says so to tests and style sheets."""
    set_read_only = getattr(widget, "setReadOnly", None)
    if callable(set_read_only):
        set_read_only(True)
    else:
        widget.setEnabled(False)
    widget.setToolTip(mark_text())
    widget.setProperty("policy", "locked")


def setting_name(name: str) -> str:
    """A setting's name in words: ``Profiles\\Main bank`` is "Preset profile: Main bank"."""
    head, _, rest = name.partition("\\")
    words = tr(SETTING_NAMES[head]) if head in SETTING_NAMES else head
    if head == "Locked" and rest in SETTING_NAMES:
        rest = tr(SETTING_NAMES[rest])
    return f"{words}: {rest}" if rest else words


class ManagedSettingsPanel(QWidget):
    """Every setting the machine policy sets: its name, its value, where it came from and
    whether the person may change it; then the names it sets that the app does not know."""

    def __init__(self, policy: Policy, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("managed-settings")
        intro = QLabel(
            self.tr(
                "Your organisation manages these settings on this computer. Locked ones cannot "
                "be changed here; ask your IT department."
            ),
            self,
        )
        intro.setWordWrap(True)
        rows = policy.settings()
        self.table = QTableWidget(len(rows), 4, self)
        self.table.setObjectName("managed-settings-table")
        self.table.setHorizontalHeaderLabels(
            [self.tr("Setting"), self.tr("Value"), self.tr("Set by"), self.tr("Locked")]
        )
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        # A setting's name, where it was set and whether it is locked are read whole; the
        # value takes the rest.
        for column in (0, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for row, setting in enumerate(rows):
            value = setting.value
            if setting.name == "SandboxDisabled" or setting.name.startswith("Locked\\"):
                value = tr(_YES) if value == "yes" else tr(_NO)
            where = policy.where.get(setting.source, "")
            cells = (
                setting_name(setting.name),
                value,
                tr(SOURCES[setting.source]),
                tr(_YES) if setting.locked else tr(_NO),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 2 and where:
                    item.setToolTip(where)
                self.table.setItem(row, column, item)
        self.ignored = QLabel(self)
        self.ignored.setObjectName("managed-settings-ignored")
        self.ignored.setWordWrap(True)
        self.ignored.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.ignored.setStyleSheet(text_style("warning", self))
        self.ignored.setText(
            self.tr("Not recognised by this version, so not applied: %1").replace(
                "%1", ", ".join(policy.ignored)
            )
            if policy.ignored
            else ""
        )
        self.ignored.setVisible(bool(policy.ignored))
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.ignored)

    def names(self) -> list[str]:
        """The settings listed, in words (tests)."""
        return [self.table.item(row, 0).text() for row in range(self.table.rowCount())]


async def load_policy(parent: QWidget | None) -> Policy | None:
    """This computer's policy, or ``None`` when it fails its checks: then a box says which
    setting, where, and why, and the app does not start (a policy half applied could leave
    the sandbox on, or a ledger where IT did not want it)."""
    from treasury_app.services.profiles import preset_profile

    try:
        policy = load_machine_policy()
        for preset in policy.profiles:  # each a profile the app can open, or refused now
            preset_profile(preset, policy)
    except PolicyError as error:
        log.error("machine policy refused: %s", error)
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            QCoreApplication.translate("PolicyView", "Your IT department's settings"),
            QCoreApplication.translate(
                "PolicyView",
                "Treasury cannot start: a setting your IT department made for this computer "
                "is not valid.\n\n%1\n\nPlease tell your IT department.",
            ).replace("%1", rule_text(error)),
            parent=parent,
        )
        box.setObjectName("policy-refused")
        await ask(box)
        return None
    if policy.ignored:
        log.warning("machine policy: not recognised, not applied: %s", ", ".join(policy.ignored))
    if not policy.is_empty:
        log.info("machine policy applies: %s", ", ".join(s.name for s in policy.settings()))
    return policy
