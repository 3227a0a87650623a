"""The wheel's build hook: ship the shipped templates compiled and the phrase banks read (:mod:`anko_writer.prebuilt`, issue 29).

Hatchling runs it for every wheel (pyproject ``[tool.hatch.build.targets.wheel.hooks.custom]``); it imports the package
from this source tree (its build requirements list what that import needs: Jinja, ruamel.yaml, PyYAML) and
adds the folder it builds as ``anko_writer/_prebuilt``. An editable install runs from the source tree, which
changes under it, so it ships nothing (``python tools/prebuild.py`` builds a checkout's folder).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PrebuildHook(BuildHookInterface):  # type: ignore[misc]  # hatchling ships no types for mypy here
    """Builds ``anko_writer/_prebuilt`` into the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the templates into a temporary folder and add it to the wheel."""
        if self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, self.root)
        try:
            from anko_writer import prebuilder
        finally:
            sys.path.remove(self.root)
        self._tmp = tempfile.TemporaryDirectory(prefix="anko-prebuilt-")
        folder = Path(self._tmp.name)
        declared = self.metadata.core.entry_points.get("anko_writer.rulesets", {})
        built = prebuilder.build(folder, dict(declared) or None)
        if not built.entries:
            raise RuntimeError("anko-writer: no template was compiled for the wheel")
        build_data["force_include"][str(folder)] = "anko_writer/_prebuilt"
        self.app.display_info(f"anko-writer: shipped {prebuilder.summary(built)}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the temporary folder."""
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
