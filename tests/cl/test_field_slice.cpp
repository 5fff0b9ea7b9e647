// The slice kernels (kernels/field_slice.cl) against the double reference: every axis, the
// first, a middle and the last index, sizes that are not multiples of the work-group, planes
// poisoned with NaN before each run. Slicing copies, so the match is exact.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "cl/cl_fixture.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/field_slice.hpp"
#include "gvflab/slice_reference.hpp"
#include "volume_support.hpp"

using namespace gvflab;

namespace {

std::vector<float> randomValues(std::size_t n, std::uint32_t seed) {
  Image2D flat = test::randomImage(static_cast<int>(n), 1, seed);
  for (auto& v : flat.pixels) v = 2 * v - 1;  // signed, like field components
  return flat.pixels;
}

cl::Buffer upload(ComputeContext& ctx, const std::vector<float>& v) {
  return cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    v.size() * sizeof(float), const_cast<float*>(v.data()));
}

std::vector<float> poisonedRun(ComputeContext& ctx, std::size_t floats,
                               const std::function<void(const cl::Buffer&)>& run) {
  std::vector<float> out(floats, std::numeric_limits<float>::quiet_NaN());
  cl::Buffer plane = upload(ctx, out);
  run(plane);
  ctx.queue().enqueueReadBuffer(plane, CL_TRUE, 0, floats * sizeof(float), out.data());
  return out;
}

}  // namespace

TEST_CASE("slices of a field and of a volume match the reference exactly") {
  auto ctx = test::sharedContext();
  FieldSlicer slicer(ctx);
  const int w = 37, h = 21, d = 13;
  const std::size_t n = static_cast<std::size_t>(w) * h * d;
  const std::vector<float> field = randomValues(3 * n, 11), volume = randomValues(n, 12);
  cl::Buffer fieldBuf = upload(*ctx, field), volumeBuf = upload(*ctx, volume);
  reference::Field refField{w, h, std::vector<double>(field.begin(), field.end()), d};
  reference::Grid refVolume{w, h, std::vector<double>(volume.begin(), volume.end()), d};

  for (SliceAxis axis : {SliceAxis::Axial, SliceAxis::Coronal, SliceAxis::Sagittal}) {
    const int count = sliceCount(w, h, d, axis);
    const PlaneSize p = planeSize(w, h, d, axis);
    for (int index : {0, count / 2, count - 1}) {
      CAPTURE(sliceAxisName(axis));
      CAPTURE(index);
      const std::size_t pixels = static_cast<std::size_t>(p.width) * p.height;
      auto got = poisonedRun(*ctx, 2 * pixels, [&](const cl::Buffer& plane) {
        slicer.sliceField(fieldBuf, w, h, d, axis, index, plane);
      });
      reference::Field expected = reference::sliceField(refField, axis, index);
      REQUIRE(expected.width == p.width);
      REQUIRE(expected.height == p.height);
      REQUIRE(got.size() == expected.values.size());
      CHECK(test::maxAbsDiff(got, expected.values) == 0.0);

      auto gotScalar = poisonedRun(*ctx, pixels, [&](const cl::Buffer& plane) {
        slicer.sliceScalar(volumeBuf, w, h, d, axis, index, plane);
      });
      reference::Grid expectedScalar = reference::sliceGrid(refVolume, axis, index);
      CHECK(test::maxAbsDiff(gotScalar, expectedScalar.values) == 0.0);

      // The host slice under the field (the viewer's image) is the same plane.
      Volume vol(w, h, d);
      vol.voxels = volume;
      Image2D image = volumeSlice(vol, axis, index);
      CHECK(test::maxAbsDiff(image.pixels, expectedScalar.values) == 0.0);
    }
  }
}

TEST_CASE("the planes have the documented sizes and components") {
  CHECK(planeSize(5, 6, 7, SliceAxis::Axial).width == 5);
  CHECK(planeSize(5, 6, 7, SliceAxis::Axial).height == 6);
  CHECK(planeSize(5, 6, 7, SliceAxis::Coronal).height == 7);
  CHECK(planeSize(5, 6, 7, SliceAxis::Sagittal).width == 6);
  CHECK(sliceCount(5, 6, 7, SliceAxis::Sagittal) == 5);
  // A field pointing along +z shows as "up the rows" in coronal and sagittal planes (+z up,
  // the top plane in the first row) and vanishes in the axial plane.
  reference::Field up{2, 2, std::vector<double>(3 * 8, 0.0), 2};
  for (int i = 0; i < 8; ++i) up.values[3 * i + 2] = 1.0;
  reference::Field axial = reference::sliceField(up, SliceAxis::Axial, 1);
  reference::Field coronal = reference::sliceField(up, SliceAxis::Coronal, 0);
  reference::Field sagittal = reference::sliceField(up, SliceAxis::Sagittal, 1);
  CHECK(axial.values[0] == 0.0);
  CHECK(axial.values[1] == 0.0);
  CHECK(coronal.values[1] == -1.0);
  CHECK(sagittal.values[1] == -1.0);
  // The first row is the top plane, z = depth - 1.
  reference::Grid ramp{2, 2, {0, 0, 0, 0, 1, 1, 1, 1}, 2};
  CHECK(reference::sliceGrid(ramp, SliceAxis::Coronal, 0).values[0] == 1.0);
  CHECK(reference::sliceGrid(ramp, SliceAxis::Sagittal, 1).values[3] == 0.0);
  Volume volume(2, 2, 2);
  volume.voxels = {0, 0, 0, 0, 1, 1, 1, 1};
  CHECK(volumeSlice(volume, SliceAxis::Coronal, 1).at(0, 0) == 1.0f);
}

TEST_CASE("a slice index outside the volume is refused with a sentence") {
  auto ctx = test::sharedContext();
  FieldSlicer slicer(ctx);
  cl::Buffer field(ctx->context(), CL_MEM_READ_WRITE, 3 * 4 * 4 * 4 * sizeof(float));
  cl::Buffer plane(ctx->context(), CL_MEM_READ_WRITE, 2 * 4 * 4 * sizeof(float));
  CHECK_THROWS_WITH_AS(slicer.sliceField(field, 4, 4, 4, SliceAxis::Coronal, 4, plane),
                       "The coronal slice index must be in [0, 3], not 4.", ParameterError);
  CHECK_THROWS_AS(volumeSlice(Volume(4, 4, 4), SliceAxis::Axial, -1), ParameterError);
}
