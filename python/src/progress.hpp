#pragma once
// Progress callbacks: every `every` iterations the user's callable gets a Progress. Between
// chunks of device work the interpreter's signals are checked, so Ctrl-C (or a notebook's
// interrupt) stops a long run with KeyboardInterrupt. Device work runs without the GIL;
// update() takes it back for the check and the callback. Construct and destroy a reporter
// with the GIL held (it owns the callable).
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

namespace gvflab::python {

struct Progress {
  std::string stage;            // "gvf" | "snake" | "surface" | "region"
  long iterations = 0;          // done so far in this stage
  std::optional<long> total;    // the most this stage will run (None: unknown)
  std::optional<double> error;  // the GVF error when it was just measured
};

class ProgressReporter {
 public:
  // callback: None or a callable taking one Progress; every: iterations between calls (>= 1).
  ProgressReporter(pybind11::object callback, long every, std::string stage);
  // Reports when `every` iterations passed since the last report, or when `last`.
  void update(long iterations, std::optional<long> total, std::optional<double> error = {},
              bool last = false);
  long every() const { return every_; }

 private:
  pybind11::object callback_;
  long every_;
  std::string stage_;
  long reported_ = 0;
  bool any_ = false;
};

void bindProgress(pybind11::module_& m);

}  // namespace gvflab::python
