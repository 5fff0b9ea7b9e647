#pragma once
// Python exception classes for the gvflab::Error hierarchy, and the translator that raises
// them with the engine's own sentence as the message.
#include <pybind11/pybind11.h>

namespace gvflab::python {

// Creates gvflab.Error and its subclasses in module m and registers the translation of
// gvflab::Error (and of a stray cl::Error, as DeviceError) into them.
void bindErrors(pybind11::module_& m);

}  // namespace gvflab::python
