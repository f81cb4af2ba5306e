"""The API's data shapes (generated): ``from cubicle.models import FileInfo``."""

from ._generated import models as _generated_models
from ._generated.models import *  # noqa: F403

__all__: list[str] = []
__all__ += _generated_models.__all__
