#include "gvflab/solver.hpp"

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab {
namespace {

void readInto(cl::CommandQueue& queue, const cl::Buffer& field, std::vector<float>& out) {
  try {
    queue.enqueueReadBuffer(field, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the GVF field");
  }
}

}  // namespace

const SolverFact* findFact(const std::vector<SolverFact>& facts, const std::string& key) {
  for (const SolverFact& f : facts)
    if (f.key == key) return &f;
  return nullptr;
}

const std::vector<ParamSpec>& Solver::ownParams() const {
  static const std::vector<ParamSpec> none;
  return none;
}

void Solver::setOwnParamValues(const std::vector<double>& values) {
  if (!values.empty())
    throw ParameterError("The " + name() + " solver has no settings of its own.");
}

Field2D Solver::readField() {
  if (depth() != 1) throw Error("readField() is for 2D solvers; use readField3D().");
  Field2D out(width(), height());
  readInto(queue(), field(), out.data);
  return out;
}

Field3D Solver::readField3D() {
  if (depth() == 1) throw Error("readField3D() is for 3D solvers; use readField().");
  Field3D out(width(), height(), depth());
  readInto(queue(), field(), out.data);
  return out;
}

}  // namespace gvflab
