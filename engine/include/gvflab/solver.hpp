#pragma once
// The solver interface shared by every GVF solver (Euler, multigrid), 2D and 3D.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"
#include "gvflab/params.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab {

// A fact a solver reports about itself, by key (headless --report, the viewer's panel), so
// clients print what the solver has without knowing which solver it is.
struct SolverFact {
  std::string key;
  std::variant<std::int64_t, double, std::string> value;
};
// The fact of that key, or null.
const SolverFact* findFact(const std::vector<SolverFact>& facts, const std::string& key);

// One row of a solver's cost breakdown (multigrid: per level), for a generic table.
struct SolverTimingRow {
  std::string label;    // "2", or "4-7" for levels solved together
  std::string size;     // "128x128"
  std::string tooltip;  // "" when none
  KernelStats stats;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  // Profiler names of the solver's iteration kernels start with this (its OpenCL time).
  virtual std::string kernelPrefix() const = 0;
  // Advances n iterations; kernel events go to the context's profiler.
  virtual void step(int n) = 0;
  // The current field on the device in the float32 interleaved layout (float2 per pixel in
  // 2D, packed float3 per voxel in 3D); converted from the solver's storage when that differs.
  virtual const cl::Buffer& field() = 0;
  // ε of the multigrid paper (eq. 9), reduced on the device, for the current field.
  virtual double error() = 0;
  virtual long iterations() const = 0;
  // The largest μ this solver runs with on its input (mu_rule.hpp's muBound: Euler's
  // stability bound; multigrid, which has none, the top of its range).
  virtual double muBound() const = 0;
  // Changes μ, keeping the current field. ParameterError, with mu_rule.hpp's sentence, for a μ
  // outside the solver's range on its input.
  virtual void setMu(double mu) = 0;
  virtual double mu() const = 0;
  // Back to V = V0, zero iterations.
  virtual void reset() = 0;
  // Host copies of field().
  Field2D readField();            // 2D solvers; throws Error in 3D
  virtual Field3D readField3D();  // 3D solvers; throws Error in 2D
  virtual int width() const = 0;
  virtual int height() const = 0;
  virtual int depth() const = 0;  // 1 for 2D

  // What a client may show or set beyond the common interface (no casts needed):
  // The solver's own settings beyond μ, from its ParamSpec table (multigrid: a, b, c; Euler:
  // none), their current values in that order, and a change of them all at once (validated
  // against the table; ParameterError with nothing changed). The field stays.
  virtual const std::vector<ParamSpec>& ownParams() const;
  virtual std::vector<double> ownParamValues() const { return {}; }
  virtual void setOwnParamValues(const std::vector<double>& values);
  // Device bytes the solver holds (its fields, levels).
  virtual std::uint64_t deviceBytes() const = 0;
  // The memory kind in use, for solvers that have a choice (Euler); nullopt otherwise.
  virtual std::optional<MemoryKind> memoryKind() const { return std::nullopt; }
  // Fallbacks taken for the requested storage, in a sentence ("" when none).
  virtual std::string storageNote() const { return {}; }
  // Its structure in a few words ("5 levels"; "" when nothing to say).
  virtual std::string structure() const { return {}; }
  // The solver-specific keys of headless reports, in order.
  virtual std::vector<SolverFact> facts() const { return {}; }
  // Where its OpenCL time goes, from the context's profiler (empty: no breakdown).
  virtual std::vector<SolverTimingRow> timingRows() const { return {}; }

 protected:
  virtual cl::CommandQueue& queue() = 0;  // where field() lives
};

}  // namespace gvflab
