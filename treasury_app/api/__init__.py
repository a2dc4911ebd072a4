"""The two async HTTP clients (QR Codes API and Accounts API) and everything on the wire."""

# Load pydantic completely, now. PySide6's import hook inspects every module imported after
# it; when pydantic was only half loaded before PySide6 (a bare BaseModel import) and a lazy
# attribute completes it later, that inspection re-enters pydantic's lazy __getattr__ and the
# import fails with a circular ImportError. Importing the model toolkit here closes the gap.
from pydantic import (  # noqa: F401
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel  # noqa: F401
