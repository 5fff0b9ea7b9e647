"""docs/python_u_concavity.py runs end to end and its figures hold (it asserts them itself)."""
import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python_u_concavity.py"


def test_u_concavity_example_runs(tmp_path):
    pytest.importorskip("skimage", reason="the example compares with scikit-image "
                        "(Debian: python3-skimage, installed by scripts/dev.sh deps)")
    done = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path / "u.png")],
                          capture_output=True, text=True, timeout=600, env=os.environ)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "GVF reaches row" in done.stdout
    assert (tmp_path / "u.png").stat().st_size > 1000
