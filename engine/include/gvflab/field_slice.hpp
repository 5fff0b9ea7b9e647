#pragma once
// Planes of a volume for display: the three orthogonal slices of a scalar volume or of a 3D
// field, the field as the float2 of its in-plane components (so 2D display, snakes and the
// capture-range map work on a slice unchanged). Axial: z = index, x by y, (vx, vy); coronal:
// y = index, x by z, (vx, -vz); sagittal: x = index, y by z, (vy, -vz). Coronal and sagittal
// planes show +z up, as radiology does (z = depth - 1 - row; a cup's well opening at the top
// plane opens upwards), so their rows run along -z.
#include <memory>
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/image.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

enum class SliceAxis { Axial = 0, Coronal = 1, Sagittal = 2 };

std::string sliceAxisName(SliceAxis axis);  // "axial", "coronal", "sagittal"

struct PlaneSize {
  int width = 0;
  int height = 0;
};

PlaneSize planeSize(int width, int height, int depth, SliceAxis axis);
int sliceCount(int width, int height, int depth, SliceAxis axis);  // valid indices: [0, count)

// Host slice of a volume (the image under the slice of the field). Throws ParameterError for
// an index outside [0, sliceCount).
Image2D volumeSlice(const Volume& volume, SliceAxis axis, int index);

// Device slices (kernels/field_slice.cl), kernels made once.
class FieldSlicer {
 public:
  explicit FieldSlicer(std::shared_ptr<ComputeContext> ctx);

  // field: packed float3 per voxel, width x height x depth; plane: float2, planeSize(...)
  // pixels, allocated by the caller. Throws ParameterError for a bad index, DeviceError.
  void sliceField(const cl::Buffer& field, int width, int height, int depth, SliceAxis axis,
                  int index, const cl::Buffer& plane);
  // volume: one float per voxel; plane: one float per pixel.
  void sliceScalar(const cl::Buffer& volume, int width, int height, int depth, SliceAxis axis,
                   int index, const cl::Buffer& plane);

 private:
  // in, plane, width, height, axis, index, plane width, plane height
  using SliceKernel =
      TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int>;
  void run(SliceKernel& kernel, const char* name, const cl::Buffer& in, int width, int height,
           int depth, SliceAxis axis, int index, const cl::Buffer& plane);
  std::shared_ptr<ComputeContext> ctx_;
  SliceKernel field_, scalar_;
};

}  // namespace gvflab
