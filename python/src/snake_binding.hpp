#pragma once
// gvflab.snake(): parametric snakes (GVF or traditional force) on an image.
#include <pybind11/pybind11.h>

namespace gvflab::python {
void bindSnake(pybind11::module_& m);
}
