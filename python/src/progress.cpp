#include "progress.hpp"

#include <pybind11/stl.h>

#include "gvflab/error.hpp"

namespace py = pybind11;

namespace gvflab::python {

ProgressReporter::ProgressReporter(py::object callback, long every, std::string stage)
    : callback_(std::move(callback)), every_(every), stage_(std::move(stage)) {
  if (every < 1)
    throw ParameterError("progress_every must be at least 1, not " + std::to_string(every) + ".");
  if (!callback_.is_none() && !PyCallable_Check(callback_.ptr()))
    throw ParameterError("progress must be a callable taking one gvflab.Progress, or None.");
}

void ProgressReporter::update(long iterations, std::optional<long> total,
                              std::optional<double> error, bool last) {
  py::gil_scoped_acquire gil;  // called from device work, which runs without the GIL
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  if (callback_.is_none()) return;
  const bool due = iterations - reported_ >= every_ || (last && (!any_ || iterations != reported_));
  if (!due) return;
  reported_ = iterations;
  any_ = true;
  callback_(Progress{stage_, iterations, total, error});
}

void bindProgress(py::module_& m) {
  py::class_<Progress>(m, "Progress",
                       "Passed to a progress callback: stage ('gvf', 'snake', 'surface' or "
                       "'region'), iterations done in that stage, total (None when open-ended) and "
                       "error (the GVF error when just measured, else None).")
      .def_readonly("stage", &Progress::stage)
      .def_readonly("iterations", &Progress::iterations)
      .def_readonly("total", &Progress::total)
      .def_readonly("error", &Progress::error)
      .def("__repr__", [](const Progress& p) {
        return "Progress(stage='" + p.stage + "', iterations=" + std::to_string(p.iterations) +
               ", total=" + (p.total ? std::to_string(*p.total) : "None") +
               ", error=" + (p.error ? std::string(py::repr(py::float_(*p.error))) : "None") + ")";
      });
}

}  // namespace gvflab::python
