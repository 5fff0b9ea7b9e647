"""The gvflab wheel's build step (pyproject.toml names setuptools as the backend).

setuptools packs python/gvflab/*.py; build_ext runs the project's CMake with the app, tests and
bench off, so only the engine (its OpenCL kernels embedded at build time), the app's file layer
(gvflab.read) and the module gvflab._gvflab are built, for the interpreter that runs this build.
Environment:
  GVFLAB_WHEEL_BUILD_DIR  where setuptools and CMake build (default: build-python/ here; kept,
                          so a second pip install only rebuilds what changed)
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default: every CPU)
  GVFLAB_PREBUILT_MODULE  a gvflab._gvflab module already built by this project's CMake for
                          this interpreter: packed as it is, nothing compiled (the packaging
                          test uses the suite's own build, so CI compiles the engine once)
A compiler cache is used when `ccache` is on PATH.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD_BASE = Path(os.environ.get("GVFLAB_WHEEL_BUILD_DIR") or ROOT / "build-python").resolve()
BUILD_BASE.mkdir(parents=True, exist_ok=True)  # egg_info writes there before build_ext runs


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(gvflab VERSION ([0-9.]+)", text).group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        prebuilt = os.environ.get("GVFLAB_PREBUILT_MODULE")
        if prebuilt:
            if Path(prebuilt).name != Path(self.get_ext_filename(ext.name)).name:
                sys.exit(f"GVFLAB_PREBUILT_MODULE {prebuilt} is not a module for {sys.executable}")
            shutil.copyfile(prebuilt, target)
            return
        cmake_dir = BUILD_BASE  # build-python/engine lies as deep as build/engine: ccache hits
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(cmake_dir), "-DCMAKE_BUILD_TYPE=Release",
            "-DGVFLAB_BUILD_APP=OFF", "-DGVFLAB_BUILD_TESTS=OFF", "-DGVFLAB_BUILD_BENCH=OFF",
            "-DGVFLAB_BUILD_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ccache") and "CMAKE_CXX_COMPILER_LAUNCHER" not in os.environ:
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(cmake_dir), "--target", "gvflab_python",
                        "-j", jobs], check=True)
        # pybind11 names the module with this interpreter's suffix, as setuptools does.
        built = cmake_dir / "python" / "gvflab" / Path(self.get_ext_filename(ext.name)).name
        shutil.copyfile(built, target)


setup(
    version=project_version(),
    package_dir={"": "python"},  # here, not in pyproject.toml: Debian 12's setuptools warns there
    packages=["gvflab"],
    ext_modules=[CMakeExtension("gvflab._gvflab")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD_BASE / "setuptools")},
             "egg_info": {"egg_base": str(BUILD_BASE)}},
)
