#pragma once
// gvflab.region_snake(): the region-based polygonal snake (PLH criterion) on an image.
#include <pybind11/pybind11.h>

namespace gvflab::python {
void bindRegionSnake(pybind11::module_& m);
}
