#include "region_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvflab/error.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/region_snake.hpp"
#include "progress.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

struct RegionResult {
  py::array polygon;  // N x 2 int32 (row, col)
  RegionStats stats;
  std::string noise;
  double openclMs = 0;
  std::string device;
  bool restarted = false;  // RegionSnake::restarted(): run again from inside the object
};

using Rect = std::array<int, 4>;  // row, col, rows, cols

int regionDefault(const char* key) {
  return static_cast<int>(findSpec(regionSnakeParamSpecs(), key).defaultValue);
}

// The image is inspected and its size checked before a pixel is copied; 16-bit images go to
// the device as they are (the snake's own grey levels).
std::unique_ptr<RegionSnake> makeRegionSnake(const std::shared_ptr<ComputeContext>& ctx,
                                             const PixelArray& pixels,
                                             const RegionSnakeParams& params) {
  const FieldShape shape = pixels.fieldShape();
  if (auto raw = rawUint16(pixels)) {
    py::gil_scoped_release release;
    return std::make_unique<RegionSnake>(ctx, raw->data(), shape.width, shape.height, params);
  }
  const Image2D image = toImage(pixels);
  py::gil_scoped_release release;
  return std::make_unique<RegionSnake>(ctx, image, params);
}

RegionResult regionSnake(const py::handle& image, std::optional<Rect> rect,
                         std::optional<int> channelAxis, const std::string& noise, int dMax,
                         double minSegment, int maxIterations, const std::string& device,
                         const py::object& progress, long progressEvery) {
  RegionSnakeParams params;
  params.noise = parseNoiseModel(noise);
  params.dMax = dMax;
  params.minSegment = minSegment;
  params.maxIterations = maxIterations;
  validate(params);
  if (rect && ((*rect)[0] < 0 || (*rect)[1] < 0 || (*rect)[2] < 3 || (*rect)[3] < 3))
    throw ParameterError("rect takes (row, col, rows, cols) in pixels with rows, cols >= 3.");
  const PixelArray pixels = inspectPixels(image, channelAxis, "the image");
  if (pixels.dims() != 2)
    throw InputError("region_snake() takes a 2D image (rows x cols); the image has " +
                     std::to_string(pixels.dims()) + " dimensions" +
                     (pixels.channels ? " besides its channel axis." : "."));
  RegionSnake::checkImageSize(pixels.shape[1], pixels.shape[0]);
  ProgressReporter reporter(progress, progressEvery, "region");
  DeviceLease lease = computeContext(device);
  const std::shared_ptr<ComputeContext>& ctx = lease.ctx;
  auto snake = makeRegionSnake(ctx, pixels, params);
  RegionResult r;
  {
    py::gil_scoped_release release;  // progress takes it back for its callback
    if (rect)
      snake->reset(initialRectangle(snake->width(), snake->height(), (*rect)[1], (*rect)[0],
                                    (*rect)[3], (*rect)[2]));
    ctx->profiler().endFrame();
    ctx->profiler().reset();
    long steps = 0;
    while (snake->step()) {
      if (++steps % reporter.every() == 0) {
        ctx->profiler().endFrame();  // keep few events pending
        reporter.update(steps, std::nullopt);
      }
    }
    ctx->profiler().endFrame();
    r.stats = snake->stats();
    reporter.update(r.stats.steps, std::nullopt, {}, true);
  }
  r.polygon = nodesToArray(snake->nodes());
  r.restarted = snake->restarted();
  r.noise = noiseModelName(params.noise);
  r.openclMs = ctx->profiler().totalMs("region_");
  r.device = ctx->info().name;
  return r;
}

template <typename T>
auto stat(T RegionStats::*member) {
  return [member](const RegionResult& r) { return r.stats.*member; };
}

}  // namespace

void bindRegionSnake(py::module_& m) {
  py::class_<RegionResult>(m, "RegionResult", "The polygon of gvflab.region_snake().")
      .def_readonly("polygon", &RegionResult::polygon,
                    "The nodes, N x 2 int32 (row, col) pixel indices, in order.")
      .def_readonly("noise", &RegionResult::noise)
      .def_readonly("opencl_ms", &RegionResult::openclMs)
      .def_readonly("device", &RegionResult::device)
      .def_readonly("restarted", &RegionResult::restarted,
                    "Whether it grew out of a start drawn around an object (taking the "
                    "background as its target) and ran again from inside the object.")
      .def_property_readonly("converged", stat(&RegionStats::converged))
      .def_property_readonly("iterations", stat(&RegionStats::iteration),
                             "Iteration level: node insertions so far.")
      .def_property_readonly("steps", stat(&RegionStats::steps))
      .def_property_readonly("criterion", stat(&RegionStats::criterion))
      .def_property_readonly("mean_target", stat(&RegionStats::meanT),
                             "Mean grey level inside (0..65535).")
      .def_property_readonly("sigma_target", stat(&RegionStats::sigmaT))
      .def_property_readonly("mean_background", stat(&RegionStats::meanB))
      .def_property_readonly("sigma_background", stat(&RegionStats::sigmaB))
      .def_property_readonly("n_target", [](const RegionResult& r) { return r.stats.target.n; })
      .def_property_readonly("n_background",
                             [](const RegionResult& r) { return r.stats.background.n; })
      .def("__repr__", [](const RegionResult& r) {
        return "RegionResult(nodes=" + std::to_string(r.polygon.shape(0)) +
               ", converged=" + (r.stats.converged ? "True" : "False") +
               ", iterations=" + std::to_string(r.stats.iteration) +
               ", n_target=" + std::to_string(r.stats.target.n) + ")";
      });

  m.def("region_snake", &regionSnake, py::arg("image"), py::arg("rect") = py::none(), py::kw_only(),
        py::arg("channel_axis") = py::none(), py::arg("noise") = "gaussian",
        py::arg("d_max") = regionDefault("d-max"),
        py::arg("min_segment") = findSpec(regionSnakeParamSpecs(), "min-segment").defaultValue,
        py::arg("max_iterations") = regionDefault("max-iterations"), py::arg("device") = "",
        py::arg("progress") = py::none(), py::arg("progress_every") = 256,
        "The compiled gvflab.region_snake(): use gvflab.region_snake "
        "(python/gvflab/functions.py), documented there; defaults here are the engine's "
        "parameter tables.");
}

}  // namespace gvflab::python
