"""Every error type a person may be shown is named in ``ui/user_errors.py``: a plain
``ValueError`` or ``KeyError`` is a bug, so a new rule's error type that is not in the list
would reach the person as an unexpected error. This test finds each ``ValueError`` and
``LookupError`` subclass the app defines and asks that it be either a user error or one the
dialog that raises it also catches."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import treasury_app
from treasury_app.ui.user_errors import USER_ERRORS, UserMessage, is_user_error

# Raised and caught inside one dialog (or the team administration command), never by an
# operation: they need not be in USER_ERRORS.
CAUGHT_WHERE_RAISED = {
    "treasury_app.api.autoproxy.windows.ConnectionSettingsError",  # a damaged registry value
    "treasury_app.ledger.team.migrations.StillWaiting",
    "treasury_app.ui.dialogs.charge_form_dialog.FormErrors",
}
NOT_THE_DESKTOP = (".sandbox", ".receiver", ".devtools", "__main__")


def defined_value_errors() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(treasury_app.__path__, "treasury_app."):
        if any(part in info.name for part in NOT_THE_DESKTOP):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, ValueError | LookupError)
                and value.__module__ == info.name
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_error_type_of_the_app_is_a_user_error_or_caught_where_raised() -> None:
    found = defined_value_errors()
    assert "treasury_app.services.payouts.PayoutInputError" in found  # the walk reached them
    unlisted = sorted(
        name
        for name, kind in found.items()
        if not issubclass(kind, USER_ERRORS) and name not in CAUGHT_WHERE_RAISED
    )
    assert unlisted == []
    assert set(found) >= CAUGHT_WHERE_RAISED  # no stale name


def test_a_plain_value_error_or_key_error_is_a_bug() -> None:
    assert not is_user_error(ValueError("invalid literal for int() with base 10: 'x'"))
    assert not is_user_error(KeyError("amount"))
    assert not is_user_error(LookupError("no such entry"))
    assert is_user_error(UserMessage("Choose a file name ending in .png or .svg."))
