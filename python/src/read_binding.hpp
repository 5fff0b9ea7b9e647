#pragma once
// gvflab.read's compiled half: a file through the CLI's input gate and readers.
#include <pybind11/pybind11.h>

namespace gvflab::python {

void bindRead(pybind11::module_& m);

}  // namespace gvflab::python
