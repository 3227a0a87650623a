"""The wheel's build hook as a process that may import only its build requirements (``[build-system] requires``).

The run's own prebuilt folder is built this way (tests/conftest.py), so the hook's check
(``test_prebuilt.test_the_wheel_hook_needs_only_its_build_requirements``) reads that build's record instead of
building everything a second time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {"jinja2": "jinja2", "markupsafe": "jinja2", "ruamel": "ruamel.yaml", "yaml": "pyyaml"}
"""Each top-level module the hook may import beside the standard library, and the requirement it comes from."""
RECORD = "ANKO_TEST_HOOK_RECORD"
"""The variable naming the JSON record of the run's guarded build (its exit status and output)."""

CODE = """
import sys, tomllib
from pathlib import Path
allowed = set(sys.argv[2].split(","))
build = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
class Refuse:
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top in allowed or top == "anko_writer" or top.startswith("_"):
            return None
        raise ImportError(f"{name} is not a build requirement")
sys.meta_path.insert(0, Refuse())
from anko_writer import prebuilder
built = prebuilder.build(Path(sys.argv[1]), prebuilder.shipped_rulesets(Path("pyproject.toml")))
print(len(built.entries), " ".join(build))
"""
"""The hook's work (``prebuilder.build`` over every declared ruleset) with every other import refused."""


def start(folder: Path) -> subprocess.Popen[str]:
    """Start the guarded build of ``folder`` (only ``PYTHONPATH`` and the cache switched off in its environment)."""
    env = {"PYTHONPATH": str(ROOT), "ANKO_WRITER_CACHE": "off"}
    if os.name == "nt":  # Windows needs its system root to start a process
        env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", "")
    return subprocess.Popen([sys.executable, "-c", CODE, str(folder), ",".join(ALLOWED)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen[str], record: Path | None = None) -> dict[str, object]:
    """Wait for the build: its exit status and output (also written to ``record`` as JSON)."""
    out, err = process.communicate(timeout=300)
    done: dict[str, object] = {"returncode": process.returncode, "stdout": out, "stderr": err}
    if record is not None:
        record.write_text(json.dumps(done), encoding="utf-8")
    return done
