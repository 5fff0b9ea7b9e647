#pragma once
// One volume over several devices (issue 41): z-slabs, one Euler solver per device, each slab
// with `halo` planes of its neighbours on either inner side, exchanged every `halo` iterations.
//
// Why it is exact: an Euler iteration reads one plane either side, so the mirror rule at a
// slab's outer halo plane (wrong there, since the volume goes on) spoils one plane more per
// iteration; after `halo` iterations it has reached the halo's inner end and no owned plane.
// The exchange then copies each neighbour's owned planes over the halo, and the owned planes
// are the one-device field bit for bit in float32 (the same kernels, the same order of sums).
//
// Each device has its own ComputeContext: NVIDIA's OpenCL copies between devices through the
// host even within one context, so nothing is lost, and each slab's EulerSolver is the
// one-device solver unchanged. The input (f, V0) and the gathered field() stay on the first
// device, the pipeline's; what the split spreads is the solver's fields and its time.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/euler_solver.hpp"
#include "gvflab/pinned_host.hpp"
#include "gvflab/solver.hpp"

namespace gvflab {

class ComputeContext;

// The planes of one slab: it owns [z0, z1) and holds [lo, hi) (owned + halos).
struct Slab {
  int z0 = 0, z1 = 0;
  int lo = 0, hi = 0;
  int depth() const { return hi - lo; }
};

// Equal slabs of depth over `devices`, each holding `halo` planes beyond every inner cut.
// ParameterError when a slab would own fewer planes than the halo (a neighbour could not fill
// it) or the counts are out of range.
std::vector<Slab> planSlabs(int depth, int devices, int halo);

// The contexts of a split: `selectors` as chooseDevice takes them ("0.1", "gpu", a name), with
// `main` (the pipeline's, which holds the input) standing for the first one. "all" names every
// GPU of the main device's platform (every device when it has no GPU). Kernels load as main's.
std::vector<std::shared_ptr<ComputeContext>> openSplitDevices(
    std::shared_ptr<ComputeContext> main, const std::vector<std::string>& selectors);

// `count` sub-devices of one device (clCreateSubDevices, CL_DEVICE_PARTITION_EQUALLY), each
// in its own context; DeviceError when the device cannot be partitioned so. For tests of the
// split without several devices (PoCL's CPU device partitions).
std::vector<std::shared_ptr<ComputeContext>> openSubDevices(const ContextOptions& options,
                                                            int count);

// The fit check per device (ResourceError naming the device): each slab's three fields in
// `precision` on its own device.
void checkSlabsFit(const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
                   Precision precision, int halo);

struct SolverConfig;

// The pipeline's split (makeSolver, when config.devices is not empty): the devices opened,
// each one's fit checked, a SlabEulerSolver; null when they come to one device (the plain
// solver runs). ParameterError for multigrid or a 2D input.
std::unique_ptr<Solver> makeSplitSolver(std::shared_ptr<ComputeContext> main, const GvfInput& input,
                                        double mu, const SolverConfig& config);

class SlabEulerSolver : public Solver {
 public:
  // input lives on devices[0]; one EulerSolver per device on its slab. Throws as EulerSolver,
  // ParameterError for a 2D input, image storage or slabs thinner than the halo.
  SlabEulerSolver(std::vector<std::shared_ptr<ComputeContext>> devices, GvfInput input, double mu,
                  EulerOptions options, int halo);
  ~SlabEulerSolver() override;

  std::string name() const override { return "euler"; }
  std::string kernelPrefix() const override { return "gvf_euler"; }
  void step(int n) override;
  const cl::Buffer& field() override;  // gathered on devices[0]
  double error() override;
  long iterations() const override { return iterations_; }
  double muBound() const override { return slabs_.front()->muBound(); }
  void setMu(double mu) override;
  double mu() const override { return slabs_.front()->mu(); }
  void reset() override;
  int width() const override { return input_.width; }
  int height() const override { return input_.height; }
  int depth() const override { return input_.depth; }
  std::uint64_t deviceBytes() const override;
  std::optional<MemoryKind> memoryKind() const override { return slabs_.front()->memory(); }
  std::string storageNote() const override { return slabs_.front()->note(); }
  std::string structure() const override;  // "z-slabs on 2 devices, halo 4"
  std::vector<SolverFact> facts() const override;

  // Device bytes on each device, in the order of the devices (the first with the gathered
  // field and, once error() ran, V0 and the field in its layout; not counted: the input).
  std::vector<std::uint64_t> deviceBytesEach() const;
  const std::vector<Slab>& slabs() const { return plan_; }
  int halo() const { return halo_; }
  // Wall seconds spent exchanging halos (device to host to device), and the exchanges made.
  double haloSeconds() const { return haloSeconds_; }
  long exchanges() const { return exchanges_; }

 protected:
  cl::CommandQueue& queue() override;

 private:
  void exchange();
  std::vector<std::shared_ptr<ComputeContext>> devices_;
  GvfInput input_;
  int halo_;
  std::vector<Slab> plan_;
  std::vector<std::unique_ptr<EulerSolver>> slabs_;
  long iterations_ = 0;
  cl::Buffer gathered_;
  long gatheredAt_ = -1;
  std::unique_ptr<ErrorMetric> metric_;  // ε on the first device, made by the first error()
  std::unique_ptr<FieldStorage> errorV0_, errorField_;
  std::vector<PinnedHostBuffer> staging_;  // one per halo copy, made by the first exchange
  double haloSeconds_ = 0;
  long exchanges_ = 0;
};

}  // namespace gvflab
