#include "gvflab/field_slice.hpp"

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {

void checkIndex(int width, int height, int depth, SliceAxis axis, int index) {
  const int count = sliceCount(width, height, depth, axis);
  if (index < 0 || index >= count)
    throw ParameterError("The " + sliceAxisName(axis) + " slice index must be in [0, " +
                         std::to_string(count - 1) + "], not " + std::to_string(index) + ".");
}

}  // namespace

std::string sliceAxisName(SliceAxis axis) {
  static constexpr EnumNames<SliceAxis, 3> names{{{SliceAxis::Axial, "axial"},
                                                  {SliceAxis::Coronal, "coronal"},
                                                  {SliceAxis::Sagittal, "sagittal"}}};
  return enumName(names, axis);
}

PlaneSize planeSize(int width, int height, int depth, SliceAxis axis) {
  if (axis == SliceAxis::Axial) return {width, height};
  return {axis == SliceAxis::Coronal ? width : height, depth};
}

int sliceCount(int width, int height, int depth, SliceAxis axis) {
  return axis == SliceAxis::Axial ? depth : axis == SliceAxis::Coronal ? height : width;
}

Image2D volumeSlice(const Volume& volume, SliceAxis axis, int index) {
  checkIndex(volume.width, volume.height, volume.depth, axis, index);
  const PlaneSize p = planeSize(volume.width, volume.height, volume.depth, axis);
  Image2D out(p.width, p.height);
  for (int v = 0; v < p.height; ++v)
    for (int u = 0; u < p.width; ++u)
      out.at(u, v) = axis == SliceAxis::Axial     ? volume.at(u, v, index)
                     : axis == SliceAxis::Coronal ? volume.at(u, index, p.height - 1 - v)
                                                  : volume.at(index, u, p.height - 1 - v);
  return out;
}

FieldSlicer::FieldSlicer(std::shared_ptr<ComputeContext> ctx) : ctx_(std::move(ctx)) {
  try {
    field_ = ctx_->kernels().kernel("field_slice.cl", "slice_field3");
    scalar_ = ctx_->kernels().kernel("field_slice.cl", "slice_scalar");
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the slice kernels");
  }
}

void FieldSlicer::sliceField(const cl::Buffer& field, int width, int height, int depth,
                             SliceAxis axis, int index, const cl::Buffer& plane) {
  run(field_, "slice_field3", field, width, height, depth, axis, index, plane);
}

void FieldSlicer::sliceScalar(const cl::Buffer& volume, int width, int height, int depth,
                              SliceAxis axis, int index, const cl::Buffer& plane) {
  run(scalar_, "slice_scalar", volume, width, height, depth, axis, index, plane);
}

void FieldSlicer::run(SliceKernel& kernel, const char* name, const cl::Buffer& in, int width,
                      int height, int depth, SliceAxis axis, int index, const cl::Buffer& plane) {
  checkIndex(width, height, depth, axis, index);
  const PlaneSize p = planeSize(width, height, depth, axis);
  try {
    kernel.set(in, plane, width, height, static_cast<cl_int>(axis), index, p.width, p.height);
    detail::enqueue2D(*ctx_, kernel, name, p.width, p.height, detail::localSize2D(ctx_->info()));
  } catch (const cl::Error& e) {
    rethrowClError(e, std::string("extracting a ") + sliceAxisName(axis) + " slice");
  }
}

}  // namespace gvflab
