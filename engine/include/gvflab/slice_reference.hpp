#pragma once
// Double reference of kernels/field_slice.cl (see field_slice.hpp for the planes).
#include "gvflab/field_slice.hpp"
#include "gvflab/reference.hpp"

namespace gvflab::reference {

// A plane of a 3D grid (depth 1 out).
Grid sliceGrid(const Grid& volume, SliceAxis axis, int index);
// The two in-plane components of a 3-component field, as a 2-component field.
Field sliceField(const Field& field, SliceAxis axis, int index);

}  // namespace gvflab::reference
