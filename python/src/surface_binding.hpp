#pragma once
// gvflab.surface_snake(): a 3D surface snake (GVF or traditional force) in a volume, and the
// engine's volume phantoms (gvflab.volume_phantom()).
#include <pybind11/pybind11.h>

namespace gvflab::python {
void bindSurfaceSnake(pybind11::module_& m);
}
