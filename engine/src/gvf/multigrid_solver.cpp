#include "gvflab/multigrid_solver.hpp"

#include <cmath>
#include <sstream>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab {
namespace {

FieldShape coarser(FieldShape s) { return {(s.width + 1) / 2, (s.height + 1) / 2, (s.depth + 1) / 2}; }

int maxSide(FieldShape s) { return std::max({s.width, s.height, s.depth}); }

// Float32 correction, right-hand side (dims components each) and S on one coarse level.
std::uint64_t coarseLevelBytes(FieldShape s, int dims) {
  return s.count() * (2ull * dims + 1) * sizeof(float);
}

}  // namespace

const std::vector<ParamSpec>& multigridParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      {"mg-a", "a (FMG cycles)", 1, 16, 1, true,
       "Full-multigrid cycles per multigrid iteration (paper: a = 1)."},
      {"mg-b", "b (pre-smoothing)", 0, 16, 2, true,
       "Red-black Gauss-Seidel sweeps before each coarse-grid correction (paper: b = 2)."},
      {"mg-c", "c (post-smoothing)", 0, 16, 1, true,
       "Red-black Gauss-Seidel sweeps after each coarse-grid correction (paper: c = 1)."},
  };
  return specs;
}

const ParamSpec& multigridMuSpec() {
  static const ParamSpec spec{"mu", "mu", 0.0, 1e4, 0.15, false,
                              "GVF regularisation; multigrid has no stability bound."};
  return spec;
}

std::uint64_t MultigridSolver::pyramidBytes(FieldShape shape, Precision precision) {
  std::uint64_t bytes = 2 * fieldBytes(shape, precision);
  for (FieldShape s = shape; maxSide(s) > 2;) {
    s = coarser(s);
    bytes += coarseLevelBytes(s, shape.dims());
  }
  return bytes;
}

MultigridSolver::MultigridSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
                                 MultigridOptions options)
    : ctx_(std::move(ctx)), input_(std::move(input)), options_(options) {
  setMu(mu);
  setOptions(options.a, options.b, options.c);
  const FieldShape shape{input_.width, input_.height, input_.depth};
  const double coarsePerPoint =
      double(pyramidBytes(shape, options_.precision) - 2 * fieldBytes(shape, options_.precision)) /
      double(shape.count());
  checkSolverFits(*ctx_, shape, options_.precision, 2, coarsePerPoint);
  try {
    v0_ = std::make_unique<FieldStorage>(*ctx_, shape, options_.precision, false);
    v_ = std::make_unique<FieldStorage>(*ctx_, shape, options_.precision, false);
    v0_->importFrom(input_.v0);
    for (FieldShape s = shape; maxSide(s) > 2;) {
      s = coarser(s);
      const std::size_t n = s.count();
      levels_.push_back(Level{s,
                              cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * shape.dims() * 4),
                              cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * shape.dims() * 4),
                              cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * 4)});
    }
    dummy_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, 16);
    auto& lib = ctx_->kernels();
    const std::string fineOpts = v0_->buildOptions() + " -DFINE";
    const std::string coarseOpts = shape.dims() == 3 ? "-DDIMS3" : "";
    for (auto [k, opts] : {std::pair{&fine_, fineOpts}, std::pair{&coarse_, coarseOpts}}) {
      k->smooth = lib.kernel("multigrid.cl", "mg_smooth", opts);
      k->restrict_ = lib.kernel("multigrid.cl", "mg_restrict", opts);
      k->restrictS = lib.kernel("multigrid.cl", "mg_restrict_s", opts);
      k->prolong = lib.kernel("multigrid.cl", "mg_prolong", opts);
    }
    // S on every coarse level, once: the pyramid is built here and never reallocated.
    for (int l = 0; l < static_cast<int>(levels_.size()); ++l) {
      cl::Kernel& k = kernelsOf(l).restrictS;
      const FieldShape f = shapeOf(l), c = shapeOf(l + 1);
      k.setArg(0, l == 0 ? cl::Buffer(v0_->buffer()) : levels_[l - 1].rhs);
      k.setArg(1, l == 0 ? dummy_ : levels_[l - 1].s);
      k.setArg(2, f.width);
      k.setArg(3, f.height);
      k.setArg(4, f.depth);
      k.setArg(5, levels_[l].s);
      k.setArg(6, c.width);
      k.setArg(7, c.height);
      k.setArg(8, c.depth);
      launch(k, "mg_restrict_s", c);
    }
    metric_ = std::make_unique<ErrorMetric>(ctx_, shape, v0_->memory(), v0_->buildOptions());
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the multigrid solver");
  }
  reset();
}

MultigridSolver::~MultigridSolver() = default;

std::uint64_t MultigridSolver::deviceBytes() const {
  std::uint64_t bytes = v_->bytes() + v0_->bytes();
  for (const Level& l : levels_) bytes += coarseLevelBytes(l.shape, input_.dims());
  return bytes;
}

void MultigridSolver::setMu(double mu) {
  validate(multigridMuSpec(), mu);
  if (mu == 0) throw ParameterError("Multigrid needs mu > 0 (mu = 0 leaves V0 unsmoothed).");
  mu_ = mu;
}

double MultigridSolver::muBound() const { return gvflab::muBound(SolverKind::Multigrid, input_); }

void MultigridSolver::setOptions(int a, int b, int c) {
  const auto& specs = multigridParamSpecs();
  validate(findSpec(specs, "mg-a"), a);
  validate(findSpec(specs, "mg-b"), b);
  validate(findSpec(specs, "mg-c"), c);
  if (b + c < 1) throw ParameterError("Multigrid needs at least one smoothing sweep (b + c >= 1).");
  options_.a = a;
  options_.b = b;
  options_.c = c;
}

FieldShape MultigridSolver::shapeOf(int level) const {
  return level == 0 ? FieldShape{input_.width, input_.height, input_.depth}
                    : levels_[level - 1].shape;
}

// Sets v, rhs, s, width, height, depth of `level` at argument positions first..first+5.
void MultigridSolver::bindLevel(cl::Kernel& k, int level, int first) {
  const FieldShape s = shapeOf(level);
  if (level == 0) {
    k.setArg(first, v_->buffer());
    k.setArg(first + 1, v0_->buffer());
    k.setArg(first + 2, dummy_);
  } else {
    const Level& l = levels_[level - 1];
    k.setArg(first, l.e);
    k.setArg(first + 1, l.rhs);
    k.setArg(first + 2, l.s);
  }
  k.setArg(first + 3, s.width);
  k.setArg(first + 4, s.height);
  k.setArg(first + 5, s.depth);
}

void MultigridSolver::launch(cl::Kernel& k, const char* name, FieldShape over, bool halfX) {
  const bool is3d = input_.dims() == 3;
  const cl::NDRange local = is3d ? cl::NDRange(32, 4, 2) : detail::localSize2D(ctx_->info());
  const std::size_t w = halfX ? (over.width + 1) / 2 : over.width;
  const cl::NDRange global =
      is3d ? cl::NDRange(detail::roundUp(w, local[0]), detail::roundUp(over.height, local[1]),
                         detail::roundUp(over.depth, local[2]))
           : cl::NDRange(detail::roundUp(w, local[0]), detail::roundUp(over.height, local[1]));
  cl::Event ev;
  ctx_->queue().enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &ev);
  ctx_->profiler().record(name, ev);
}

void MultigridSolver::smooth(int level, int sweeps) {
  cl::Kernel& k = kernelsOf(level).smooth;
  bindLevel(k, level, 0);
  k.setArg(6, static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)));  // k = μ / h², h = 2^l
  for (int i = 0; i < sweeps; ++i)
    for (int colour = 0; colour < 2; ++colour) {
      k.setArg(7, colour);
      launch(k, "mg_smooth", shapeOf(level), true);
    }
}

void MultigridSolver::restrictResidual(int level, bool withResidual) {
  cl::Kernel& k = kernelsOf(level).restrict_;
  const FieldShape c = shapeOf(level + 1);
  bindLevel(k, level, 0);
  k.setArg(6, static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)));
  k.setArg(7, withResidual ? 1 : 0);
  k.setArg(8, levels_[level].rhs);
  k.setArg(9, c.width);
  k.setArg(10, c.height);
  k.setArg(11, c.depth);
  launch(k, "mg_restrict", c);
}

void MultigridSolver::prolong(int level, bool add) {
  cl::Kernel& k = kernelsOf(level).prolong;
  const FieldShape c = shapeOf(level + 1), f = shapeOf(level);
  k.setArg(0, levels_[level].e);
  k.setArg(1, c.width);
  k.setArg(2, c.height);
  k.setArg(3, c.depth);
  k.setArg(4, level == 0 ? v_->buffer() : levels_[level - 1].e);
  k.setArg(5, f.width);
  k.setArg(6, f.height);
  k.setArg(7, f.depth);
  k.setArg(8, add ? 1 : 0);
  launch(k, "mg_prolong", f);
}

void MultigridSolver::zero(int level) {
  const Level& l = levels_[level - 1];
  cl::Event ev;
  ctx_->queue().enqueueFillBuffer(l.e, 0.0f, 0, l.shape.count() * input_.dims() * sizeof(float),
                                  nullptr, &ev);
  ctx_->profiler().record("mg_zero", ev);
}

// Paper Alg. 3 on level l: v_l is V at level 0 and the correction e_l below.
void MultigridSolver::vcycle(int level) {
  smooth(level, options_.b);
  if (level < static_cast<int>(levels_.size())) {
    restrictResidual(level, true);
    zero(level + 1);
    vcycle(level + 1);
    prolong(level, true);
  }
  smooth(level, options_.c);
}

// Paper Alg. 4 (RECURSIVEFULLMULTIGRID) on level l >= 1 for the rhs already there.
void MultigridSolver::fmg(int level) {
  if (level < static_cast<int>(levels_.size())) {
    restrictResidual(level, false);
    fmg(level + 1);
    prolong(level, false);
  } else {
    zero(level);
  }
  vcycle(level);
}

void MultigridSolver::vCycle() {
  try {
    vcycle(0);
  } catch (const cl::Error& e) {
    rethrowClError(e, "running a multigrid V-cycle");
  }
  exportedAt_ = -1;
}

// Correction form worked on V directly: A(V + e) = f  <=>  A e = f - A V. The residual is
// restricted to level 1, full multigrid solves for e_1 there, V += P e_1, then a V-cycle on V.
void MultigridSolver::fullMultigridCycle() {
  try {
    if (!levels_.empty()) {
      restrictResidual(0, true);
      fmg(1);
      prolong(0, true);
    }
    vcycle(0);
  } catch (const cl::Error& e) {
    rethrowClError(e, "running a full-multigrid cycle");
  }
  exportedAt_ = -1;
}

void MultigridSolver::step(int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < options_.a; ++j) fullMultigridCycle();
    ++iterations_;
  }
}

void MultigridSolver::reset() {
  v_->importFrom(input_.v0);
  iterations_ = 0;
  exportedAt_ = -1;
}

const cl::Buffer& MultigridSolver::field() {
  if (v_->precision() == Precision::F32 && input_.dims() == 2) return v_->buffer();
  if (exportedAt_ != iterations_) {
    if (!exported_())
      exported_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE,
                             input_.pixelCount() * input_.dims() * sizeof(float));
    v_->exportTo(exported_);
    exportedAt_ = iterations_;
  }
  return exported_;
}

double MultigridSolver::error() { return metric_->compute(v_->memory(), mu_); }


cl::CommandQueue& MultigridSolver::queue() { return ctx_->queue(); }

}  // namespace gvflab
