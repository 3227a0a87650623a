"""Issue 29 round 6: the prebuilt keys read the YAML libraries' versions from their distribution folders, and
these are the versions the modules themselves report."""

from __future__ import annotations

import pytest
import ruamel.yaml
import yaml

from anko_writer import prebuilt


def test_the_folders_versions_are_the_modules() -> None:
    """Read from the folders' names, each library's version is its module's ``__version__``."""
    assert prebuilt._folder_version("ruamel.yaml") == prebuilt._ruamel_version() == ruamel.yaml.__version__
    assert prebuilt._folder_version("pyyaml") == prebuilt._pyyaml_version() == yaml.__version__


def test_without_a_folder_the_module_tells(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no distribution folder on the path, each version comes from the module (the same text)."""
    monkeypatch.setattr(prebuilt.cache, "installed", lambda names: dict.fromkeys(names, "-"))
    assert prebuilt._folder_version("ruamel.yaml") == ""
    assert (prebuilt._ruamel_version(), prebuilt._pyyaml_version()) == (ruamel.yaml.__version__, yaml.__version__)
