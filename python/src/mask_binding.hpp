#pragma once
// gvflab.snake_mask's and gvflab.edge_map's compiled halves: a contour's inside by the rule of
// --save-mask (gvflab/polygon_fill.hpp), and the engine's edge map f of an image or volume.
#include <pybind11/pybind11.h>

namespace gvflab::python {

void bindMasks(pybind11::module_& m);

}  // namespace gvflab::python
