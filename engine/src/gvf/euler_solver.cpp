#include "gvflab/euler_solver.hpp"

#include <cmath>
#include <sstream>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {

double EulerSolver::stabilityBound(double maxV0Squared, int dims) {
  return std::max(0.0, (2.0 - maxV0Squared) / (4.0 * dims));
}

namespace {
// Must match TILE_W, TILE_H, ROWS_PER_ITEM and HALO in gvf_euler2d_tiled.cl.
constexpr int kTileW = 64, kTileH = 32, kRowsPerItem = 8;
}  // namespace

EulerSolver::EulerSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
                         EulerLaunch launch)
    : ctx_(std::move(ctx)), input_(std::move(input)), mu_(0), launch_(launch) {
  if (launch_ == EulerLaunch::Auto)
    launch_ = ctx_->info().isGpu ? EulerLaunch::Tiled : EulerLaunch::Single;
  setMu(mu);
  try {
    const std::size_t bytes = input_.pixelCount() * 2 * sizeof(float);
    v_[0] = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, bytes);
    v_[1] = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, bytes);
    stepKernel_ = ctx_->kernels().kernel("gvf_euler2d.cl", "gvf_euler_step");
    stepKernel_.setArg(1, input_.v0);
    stepKernel_.setArg(3, input_.width);
    stepKernel_.setArg(4, input_.height);
    if (launch_ == EulerLaunch::Tiled) {
      tiledKernel_ = ctx_->kernels().kernel("gvf_euler2d_tiled.cl", "gvf_euler_steps_tiled");
      tiledKernel_.setArg(1, input_.v0);
      tiledKernel_.setArg(3, input_.width);
      tiledKernel_.setArg(4, input_.height);
    }
    metric_ = std::make_unique<ErrorMetric>(ctx_, input_);
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the Euler solver");
  }
  reset();
}

EulerSolver::~EulerSolver() = default;

void EulerSolver::setMu(double mu) {
  validate(findSpec(gvfParamSpecs(), "mu"), mu);
  const double bound = stabilityBound();
  if (mu > bound) {
    std::ostringstream msg;
    msg.precision(4);
    msg << "mu = " << mu << " is beyond the explicit Euler stability bound " << bound
        << " for this image (mu <= (2 - max|V0|^2) / 8, max|V0|^2 = " << input_.maxV0Squared
        << "); the iteration would blow up.";
    throw ParameterError(msg.str());
  }
  mu_ = mu;
}

void EulerSolver::reset() {
  try {
    cl::Event ev;
    ctx_->queue().enqueueCopyBuffer(input_.v0, v_[0], 0, 0,
                                    input_.pixelCount() * 2 * sizeof(float), nullptr, &ev);
    ctx_->profiler().record("copy_v0", ev);
  } catch (const cl::Error& e) {
    rethrowClError(e, "resetting the field to V0");
  }
  current_ = 0;
  iterations_ = 0;
}

void EulerSolver::step(int n) {
  if (n <= 0) return;
  const auto local = detail::localSize2D(ctx_->info());
  try {
    if (launch_ == EulerLaunch::Tiled) {
      const int inner[2] = {kTileW - 2 * kTiledSteps, kTileH - 2 * kTiledSteps};
      const cl::NDRange tileLocal(kTileW, kTileH / kRowsPerItem);
      const cl::NDRange global(
          detail::roundUp(input_.width, inner[0]) / inner[0] * kTileW,
          detail::roundUp(input_.height, inner[1]) / inner[1] * (kTileH / kRowsPerItem));
      tiledKernel_.setArg(5, static_cast<float>(mu_));
      for (int done = 0; done < n; done += kTiledSteps) {
        tiledKernel_.setArg(0, v_[current_]);
        tiledKernel_.setArg(2, v_[1 - current_]);
        tiledKernel_.setArg(6, std::min(kTiledSteps, n - done));
        cl::Event ev;
        ctx_->queue().enqueueNDRangeKernel(tiledKernel_, cl::NullRange, global, tileLocal,
                                           nullptr, &ev);
        ctx_->profiler().record("gvf_euler_steps_tiled", ev);
        current_ = 1 - current_;
      }
      iterations_ += n;
      return;
    }
    stepKernel_.setArg(5, static_cast<float>(mu_));
    for (int i = 0; i < n; ++i) {
      stepKernel_.setArg(0, v_[current_]);
      stepKernel_.setArg(2, v_[1 - current_]);
      detail::enqueue2D(*ctx_, stepKernel_, "gvf_euler_step", input_.width, input_.height, local);
      current_ = 1 - current_;
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "running Euler GVF iterations");
  }
  iterations_ += n;
}

double EulerSolver::error() { return metric_->compute(v_[current_], mu_); }

Field2D EulerSolver::readField() {
  Field2D out(input_.width, input_.height);
  try {
    ctx_->queue().enqueueReadBuffer(v_[current_], CL_TRUE, 0, out.data.size() * sizeof(float),
                                    out.data.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the GVF field");
  }
  return out;
}

}  // namespace gvflab
