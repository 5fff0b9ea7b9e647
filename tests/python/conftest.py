"""Shared helpers of the gvflab Python tests: the CLI to compare with and its file formats.

CTest runs these with PYTHONPATH=<build>/python and GVFLAB_EXE=<build>/app/gvflab (see
tests/CMakeLists.txt); by hand: PYTHONPATH=build/python GVFLAB_EXE=build/app/gvflab
/usr/bin/python3 -m pytest tests/python
"""
import json
import os
import subprocess

import numpy as np
import pytest


def read_mha_field(path):
    """A MetaImage vector field as gvflab writes it (MET_FLOAT, little-endian, data inline):
    rows x cols x channels (planes x rows x cols x channels in 3D), components as stored."""
    with open(path, "rb") as f:
        raw = f.read()
    end = raw.index(b"ElementDataFile = LOCAL\n") + len(b"ElementDataFile = LOCAL\n")
    header = dict(line.split(" = ", 1) for line in raw[:end].decode().splitlines())
    assert header["ElementType"] == "MET_FLOAT"
    assert header["BinaryDataByteOrderMSB"] == "False"
    size = [int(s) for s in header["DimSize"].split()]  # x fastest
    channels = int(header.get("ElementNumberOfChannels", "1"))
    data = np.frombuffer(raw[end:], dtype="<f4")
    return data.reshape(tuple(reversed(size)) + (channels,))


@pytest.fixture(scope="session")
def cli():
    """Runs `gvflab --headless ARGS...`; returns a function (args) -> CompletedProcess."""
    exe = os.environ.get("GVFLAB_EXE")
    if not exe:
        pytest.skip("GVFLAB_EXE is not set (the CLI is built only with GVFLAB_BUILD_APP)")

    def run(*args):
        done = subprocess.run([exe, "--headless", *map(str, args)], capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done

    return run


def read_json(path):
    with open(path) as f:
        return json.load(f)
