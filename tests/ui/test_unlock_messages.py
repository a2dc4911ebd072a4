"""What the unlock dialog says of a ledger on a network folder: the app's own words, in the
person's language (the ledger layer's English is for the log)."""

from __future__ import annotations

from treasury_app.app import install_translator
from treasury_app.ledger.location import LedgerLocationError
from treasury_app.ui.controller import AppController


def test_a_network_folder_is_said_in_the_ui_language(qapp, restore_translation, tmp_path):
    from treasury_app.config import AppPaths

    controller = AppController(AppPaths.default(tmp_path))
    error = LedgerLocationError(r"\\servidor\tesouraria")
    english = controller._unlock_message(error)
    assert english == str(error) and r"\\servidor\tesouraria" in english
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    portuguese = controller._unlock_message(error)
    assert "pasta de rede" in portuguese and r"\\servidor\tesouraria" in portuguese
    import errno

    other = OSError(errno.ENOSPC, "No space left on device", "ledger.sqlite3")
    assert controller._unlock_message(other) == (  # the system's English is for the log
        "O disco está cheio: não foi possível gravar “ledger.sqlite3”. Libere espaço ou "
        "escolha outro disco."
    )
