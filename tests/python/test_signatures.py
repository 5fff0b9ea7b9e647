"""Every public function has a real signature (inspect.signature) and a numpydoc docstring whose
examples run; the Python layer's keywords and defaults are the compiled binding's."""
import doctest
import inspect

import pytest

import gvflab
from gvflab import _gvflab, coords, files, functions
from gvflab._signatures import engine_signature

PUBLIC = [getattr(gvflab, name) for name in gvflab.__all__
          if inspect.isfunction(getattr(gvflab, name))]
COMPILED = ["gvf", "snake", "region_snake", "circle", "phantom", "phantom_names", "devices",
            "surface_snake", "volume_phantom", "volume_phantom_names", "edge_map", "read"]


def test_every_public_function_is_covered():
    assert {f.__name__ for f in PUBLIC} == set(COMPILED) | {"field_xy", "rc_to_xy", "xy_to_rc",
                                                            "snake_mask", "surface_mask"}


@pytest.mark.parametrize("function", PUBLIC, ids=lambda f: f.__name__)
def test_signature_and_numpydoc_sections(function):
    signature = inspect.signature(function)
    doc = inspect.getdoc(function)
    sections = ["Returns", "Examples"]
    if signature.parameters:
        sections.append("Parameters")
    if function.__name__ in ("gvf", "snake", "region_snake", "surface_snake", "xy_to_rc", "read"):
        sections.append("Raises")
    for section in sections:
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, (function.__name__, section)
    # Every parameter is described under Parameters.
    for name in signature.parameters:
        assert name in doc.split("Returns\n")[0], (function.__name__, name)


@pytest.mark.parametrize("name", COMPILED)
def test_keywords_and_defaults_are_the_bindings(name):
    # A keyword added to a binding (python/src/*_binding.cpp) must be added to the def in
    # python/gvflab/functions.py too; this says which one is missing.
    assert inspect.signature(getattr(gvflab, name)) == engine_signature(getattr(_gvflab, name))


def test_defaults_come_from_the_engine_tables():
    gvf = inspect.signature(gvflab.gvf).parameters
    assert gvf["sigma"].default == gvflab.DEFAULTS["gvf"]["sigma"]
    assert gvf["mg_b"].default == gvflab.DEFAULTS["multigrid"]["mg-b"]
    assert gvf["mg_cycle"].default == gvflab.DEFAULTS["multigrid"]["mg-cycle"] == "auto"
    assert gvf["mu"].default is None and gvf["channel_axis"].default is None
    snake = inspect.signature(gvflab.snake).parameters
    assert snake["alpha"].default == gvflab.DEFAULTS["snake"]["alpha"]
    assert snake["iterations"].default == gvflab.DEFAULTS["snake"]["snake-iterations"]
    region = inspect.signature(gvflab.region_snake).parameters
    assert region["d_max"].default == gvflab.DEFAULTS["region_snake"]["d-max"]


@pytest.mark.parametrize("module", [functions, coords, files], ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
