"""gvflab.gvf(devices=...) (issue 41): a volume's solve split over devices. CI has one
PoCL device, so a split itself is tested in C++ on sub-devices (tests/cl/test_slab_split.cpp);
here: what is refused, and a list that comes to one device is the one-device solve."""
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
