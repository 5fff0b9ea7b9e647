#include "context_cache.hpp"

#include <map>

#include "gvflab/profiler.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

struct Entry {
  std::shared_ptr<ComputeContext> ctx;
  std::shared_ptr<std::mutex> busy = std::make_shared<std::mutex>();
};

std::mutex cacheMutex;  // guards the map, and a context's creation

std::map<std::string, Entry>& cache() {
  static std::map<std::string, Entry> contexts;
  return contexts;
}

}  // namespace

DeviceLease computeContext(const std::string& device) {
  py::gil_scoped_release release;  // creating compiles kernels; waiting must not hold the GIL
  std::shared_ptr<ComputeContext> ctx;
  std::shared_ptr<std::mutex> busy;
  {
    std::lock_guard<std::mutex> guard(cacheMutex);
    Entry& entry = cache()[device];
    if (!entry.ctx) {
      ContextOptions options;
      options.deviceSelector = device;
      options.selectorSpelling = SelectorSpelling::Keyword;  // "use device='cpu'"
      entry.ctx = ComputeContext::create(options);
    }
    ctx = entry.ctx;
    busy = entry.busy;
  }
  DeviceLease lease{ctx, busy, std::unique_lock<std::mutex>(*busy)};
  ctx->profiler().endFrame();
  ctx->profiler().reset();
  return lease;
}

void registerContextCleanup() {
  py::module_::import("atexit").attr("register")(py::cpp_function([] {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> guard(cacheMutex);
    cache().clear();
  }));
}

}  // namespace gvflab::python
