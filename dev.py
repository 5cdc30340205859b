#!/usr/bin/env python3
"""Set-up and everyday commands, needing nothing but Python 3.11+.

    python3 dev.py build    # create .venv if needed, then build the warehouse from seeds/
    python3 dev.py test     # create .venv if needed, then lint and run the whole test suite
    python3 dev.py dagster  # start `dagster dev` with the repo's dagster.yaml

The virtual environment is (re)installed whenever pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".pyproject.sha256"


def _run(*args: str | Path, env: dict | None = None) -> None:
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if completed.returncode:
        sys.exit(completed.returncode)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older python3
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not (BIN / "python").exists():
        print(f"creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    _run(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    _run(BIN / "python", "-m", "pip", "install", "--quiet", "--editable", ".[dev]")
    STAMP.write_text(wanted + "\n")


def dagster_env() -> dict:
    return {**os.environ, "DAGSTER_HOME": str(ROOT)}


def main(argv: list[str]) -> None:
    command, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if command not in {"build", "test", "dagster"}:
        sys.exit(__doc__)
    ensure_venv()
    if command == "build":
        _run(BIN / "papers", "build", *rest, env=dagster_env())
    elif command == "test":
        _run(BIN / "ruff", "check", ".")
        _run(BIN / "ruff", "format", "--check", ".")
        _run(BIN / "python", "-m", "pytest", *rest)
    else:
        _run(BIN / "dagster", "dev", *rest, env=dagster_env())


if __name__ == "__main__":
    main(sys.argv[1:])
