#pragma once
// The viewer's window into a volume: one slice (axial, coronal or sagittal, and its index) of
// the volume, of the edge map and V0, and of the 3D field, as a 2D image plus a 2D GvfInput
// and a float2 field of the in-plane components. Display, snakes and the capture-range map
// then work on the slice exactly as on an image. Slices are cut on the device (field_slice.cl).
#include <memory>

#include "gvflab/field_slice.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/image.hpp"
#include "gvflab/solver.hpp"

namespace gvflab::viewer {

class VolumeSlices {
 public:
  // index < 0: the middle slice. Throws ParameterError or DeviceError.
  VolumeSlices(std::shared_ptr<ComputeContext> ctx, std::shared_ptr<const Volume> volume,
               const GvfInput& input, SliceAxis axis = SliceAxis::Axial, int index = -1);

  // Cuts the image, edge map and V0 again (the field on its next field() call). On an error
  // (ParameterError for an index outside [0, count)) the previous slice stays.
  void setSlice(SliceAxis axis, int index);
  SliceAxis axis() const { return axis_; }
  int index() const { return index_; }
  int count(SliceAxis axis) const;
  int count() const { return count(axis_); }

  const Volume& volume() const { return *volume_; }
  const Image2D& image() const { return image_; }
  const GvfInput& planeInput() const { return plane_; }
  // The solver's field on this slice (float2 in-plane components), cut again when
  // fieldVersion differs from the last call's or the slice moved.
  const cl::Buffer& field(Solver& solver, long fieldVersion);
  // Cuts any solver's field of this volume at the current slice into out (float2, plane
  // sized): the race view's two solvers.
  void cutField(Solver& solver, const cl::Buffer& out);

 private:
  std::shared_ptr<ComputeContext> ctx_;
  std::shared_ptr<const Volume> volume_;
  GvfInput input_;  // the 3D edge map and V0
  FieldSlicer slicer_;
  SliceAxis axis_ = SliceAxis::Axial;
  int index_ = 0;
  Image2D image_;
  GvfInput plane_;  // 2D: the slice of f and of V0's in-plane components
  cl::Buffer field_;
  long slicedVersion_ = -1;
};

}  // namespace gvflab::viewer
