import shutil
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SEEDS = REPO_ROOT / "seeds"


@pytest.fixture
def seeds_copy(tmp_path) -> Path:
    """A writable copy of the shipped seeds, so a test can add or break input files."""
    target = tmp_path / "seeds"
    shutil.copytree(SEEDS, target)
    return target


@pytest.fixture(scope="session")
def built_warehouse(tmp_path_factory) -> Path:
    """One warehouse built from the shipped seeds, shared by the read-only tests."""
    from pipeline.build import run_build

    warehouse = tmp_path_factory.mktemp("warehouse")
    outcome = run_build(SEEDS, warehouse)
    assert outcome.published, outcome.reason
    return warehouse
