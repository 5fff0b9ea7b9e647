#include "context_cache.hpp"

#include <map>

#include "gvflab/profiler.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {
std::map<std::string, std::shared_ptr<ComputeContext>>& cache() {
  static std::map<std::string, std::shared_ptr<ComputeContext>> contexts;
  return contexts;
}
}  // namespace

std::shared_ptr<ComputeContext> computeContext(const std::string& device) {
  auto& ctx = cache()[device];
  if (!ctx) {
    ContextOptions options;
    options.deviceSelector = device;
    ctx = ComputeContext::create(options);
  }
  ctx->profiler().endFrame();
  ctx->profiler().reset();
  return ctx;
}

void registerContextCleanup() {
  py::module_::import("atexit").attr("register")(py::cpp_function([] { cache().clear(); }));
}

}  // namespace gvflab::python
