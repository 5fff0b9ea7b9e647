"""gvflab.gvf(devices=...) (issue 41): a volume's solve split over devices. CI has one
PoCL device, so a split itself is tested in C++ on sub-devices (tests/cl/test_slab_split.cpp)
and here in a child process given two PoCL devices (POCL_DEVICES); here also: what is refused,
and a list that comes to one device is the one-device solve."""
import numpy as np
import pytest

import gvflab


def volume(seed=3):
    rng = np.random.default_rng(seed)
    v = np.zeros((14, 12, 10), np.float32)
    v[4:10, 3:9, 2:8] = 1
    return np.clip(v + rng.normal(0, 0.1, v.shape), 0, 1).astype(np.float32)


def test_a_split_refuses_images_and_lists_of_other_things():
    with pytest.raises(gvflab.ParameterError, match="split over devices is for volumes"):
        gvflab.gvf(gvflab.phantom("u", 32), iterations=3, devices="all")
    for bad in ([], [0, 1], 7):
        with pytest.raises(gvflab.ParameterError, match="devices= takes None, 'all' or a list"):
            gvflab.gvf(volume(), iterations=2, devices=bad)


def test_devices_that_come_to_one_run_the_one_device_solve():
    name = gvflab.devices()[0].name  # named twice: one device
    one, r1 = gvflab.gvf(volume(), iterations=7, solver="euler", device=name)
    same, r2 = gvflab.gvf(volume(), iterations=7, solver="euler", devices=[name, name])
    np.testing.assert_array_equal(one, same)
    assert r1.split == r2.split == ""
    assert r2.iterations == 7
    one, _ = gvflab.gvf(volume(), iterations=2, solver="multigrid")
    same, r = gvflab.gvf(volume(), iterations=2, solver="multigrid", devices="all")
    np.testing.assert_array_equal(one, same)
    assert r.split == ""


SPLIT_RUN = """
import sys
import numpy as np
import gvflab
field, report = gvflab.gvf(np.load(sys.argv[1]), iterations=5, solver="euler", devices="all")
np.save(sys.argv[2], field)
print(report.split)
"""


def test_a_volume_split_builds_each_slab_on_its_device(tmp_path):
    """Two PoCL devices (POCL_DEVICES) of 7 MiB each, less than the 64^3 volume's whole input
    needs while built (8 MiB): each slab's f and V0 are built on its device from the array's
    planes, and the field is the one device's."""
    import os
    import subprocess
    import sys
    rng = np.random.default_rng(5)
    v = np.zeros((64, 64, 64), np.float32)
    v[20:44, 16:48, 12:52] = 1
    v = np.clip(v + rng.normal(0, 0.1, v.shape), 0, 1).astype(np.float32)
    np.save(tmp_path / "v.npy", v)
    script = tmp_path / "split.py"
    script.write_text(SPLIT_RUN)
    env = dict(os.environ, POCL_DEVICES="pthread pthread", GVFLAB_TEST_DEVICE_MIB="7")
    done = subprocess.run([sys.executable, str(script), tmp_path / "v.npy", tmp_path / "f.npy"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("z 0-31 on ") and "; z 32-63 on " in done.stdout
    one, _ = gvflab.gvf(v, iterations=5, solver="euler")
    np.testing.assert_allclose(np.load(tmp_path / "f.npy"), one, atol=1e-6)
