"""The SDK's build backend: setuptools' own, run on a copy of the sources.

setuptools writes ``build/`` and ``cubicle.egg-info/`` into the directory it builds in, so
``pip install sdk-gen/python`` or a wheel build would leave both in the repository. Each hook
here copies the sources into a temporary directory and lets setuptools work there; the
wheel, sdist or metadata lands where the frontend asked. Editable installs point at the
sources by nature, so those hooks are setuptools' unchanged.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from setuptools import build_meta

# What a build never needs: earlier builds' leftovers, caches, and the generator's sources.
_NOT_COPIED = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "*.ts", "generator")

ConfigSettings = dict[str, Any] | None


@contextmanager
def _in_copy() -> Iterator[None]:
    sources = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="cubicle-build-") as scratch:
        copy = os.path.join(scratch, "src")
        shutil.copytree(sources, copy, ignore=_NOT_COPIED)
        os.chdir(copy)
        try:
            yield
        finally:
            os.chdir(sources)


def build_wheel(
    wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None
) -> str:
    wheel_directory = os.path.abspath(wheel_directory)
    metadata_directory = os.path.abspath(metadata_directory) if metadata_directory else None
    with _in_copy():
        return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: ConfigSettings = None) -> str:
    sdist_directory = os.path.abspath(sdist_directory)
    with _in_copy():
        return build_meta.build_sdist(sdist_directory, config_settings)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: ConfigSettings = None) -> str:
    metadata_directory = os.path.abspath(metadata_directory)
    with _in_copy():
        return build_meta.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    with _in_copy():
        return build_meta.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings: ConfigSettings = None) -> list[str]:
    with _in_copy():
        return build_meta.get_requires_for_build_sdist(config_settings)


build_editable = build_meta.build_editable
get_requires_for_build_editable = build_meta.get_requires_for_build_editable
prepare_metadata_for_build_editable = build_meta.prepare_metadata_for_build_editable
