"""Models of the QR Codes API (BCB Pix API 2.9.0 shapes): Cash In and Pix Automático.

One import place for both halves: ``from treasury_app.api.qrcodes.models import CobSolicitada``.
"""

from treasury_app.api.qrcodes.automatico_models import *  # noqa: F403
from treasury_app.api.qrcodes.automatico_models import __all__ as _automatico
from treasury_app.api.qrcodes.cashin_models import *  # noqa: F403
from treasury_app.api.qrcodes.cashin_models import __all__ as _cashin
from treasury_app.api.qrcodes.models_common import Devedor, Paginacao, Parametros, Violacao

__all__ = [*_cashin, *_automatico, "Devedor", "Paginacao", "Parametros", "Violacao"]
