"""Validation errors of the domain layer.

Every parser in ``treasury_app.domain`` raises a subclass of :class:`DomainError` (itself a
``ValueError``) whose message can be shown to a treasury user as is.
"""


class DomainError(ValueError):
    """A value given by a person or a bank does not satisfy a domain rule."""


class MoneyError(DomainError):
    """An amount of money could not be read or is not allowed."""


class DocumentError(DomainError):
    """A CPF or CNPJ is malformed or has wrong check digits."""


class PixKeyError(DomainError):
    """A Pix key is not valid for its type."""


class IdentifierError(DomainError):
    """A txid, idRec, endToEndId or idempotency key is malformed."""


class BrCodeError(DomainError):
    """A Pix "copia e cola" payload (EMV BR Code) is malformed."""


class BoletoError(DomainError):
    """A boleto digitable line or barcode is malformed or has wrong check digits."""
