#include "viewer/model/volume_slices.hpp"

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab::viewer {

VolumeSlices::VolumeSlices(std::shared_ptr<ComputeContext> ctx,
                           std::shared_ptr<const Volume> volume, const GvfInput& input,
                           SliceAxis axis, int index)
    : ctx_(std::move(ctx)), volume_(std::move(volume)), input_(input), slicer_(ctx_) {
  if (input_.depth < 2 || input_.width != volume_->width || input_.height != volume_->height ||
      input_.depth != volume_->depth)
    throw ParameterError("The slices need the volume's own 3D GVF input.");
  setSlice(axis, index < 0 ? count(axis) / 2 : index);
}

int VolumeSlices::count(SliceAxis axis) const {
  return sliceCount(input_.width, input_.height, input_.depth, axis);
}

void VolumeSlices::setSlice(SliceAxis axis, int index) {
  Image2D image = volumeSlice(*volume_, axis, index);  // checks the index
  const PlaneSize p = planeSize(input_.width, input_.height, input_.depth, axis);
  const std::size_t pixels = static_cast<std::size_t>(p.width) * p.height;
  GvfInput plane;
  plane.width = p.width;
  plane.height = p.height;
  plane.depth = 1;
  plane.maxV0Squared = input_.maxV0Squared;
  cl::Buffer field;
  try {
    const bool sameSize = plane_.width == p.width && plane_.height == p.height;
    plane.edge = sameSize ? plane_.edge
                          : cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, pixels * sizeof(float));
    plane.v0 = sameSize
                   ? plane_.v0
                   : cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, pixels * 2 * sizeof(float));
    field = sameSize ? field_
                     : cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, pixels * 2 * sizeof(float));
  } catch (const cl::Error& e) {
    rethrowClError(e, "allocating a slice");
  }
  const int w = input_.width, h = input_.height, d = input_.depth;
  slicer_.sliceScalar(input_.edge, w, h, d, axis, index, plane.edge);
  slicer_.sliceField(input_.v0, w, h, d, axis, index, plane.v0);
  axis_ = axis;
  index_ = index;
  image_ = std::move(image);
  plane_ = std::move(plane);
  field_ = std::move(field);
  slicedVersion_ = -1;
}

const cl::Buffer& VolumeSlices::field(Solver& solver, long fieldVersion) {
  if (fieldVersion != slicedVersion_) {
    slicer_.sliceField(solver.field(), input_.width, input_.height, input_.depth, axis_, index_,
                       field_);
    slicedVersion_ = fieldVersion;
  }
  return field_;
}

void VolumeSlices::cutField(Solver& solver, const cl::Buffer& out) {
  slicer_.sliceField(solver.field(), input_.width, input_.height, input_.depth, axis_, index_, out);
}

}  // namespace gvflab::viewer
