"""The Cubicle Python SDK: ``from cubicle import Cubicle``."""

from . import errors
from . import models
from .errors import *  # noqa: F403
from .lib.client import Cubicle
from .lib.exec_stream import ExecEvent, OutputStream
from .lib.pager import Page, Pager
from .lib.workspaces import Workspace

__version__ = "0.1.0"

__all__ = ["Cubicle", "ExecEvent", "OutputStream", "Page", "Pager", "Workspace", "errors", "models"]
__all__ += errors.__all__
