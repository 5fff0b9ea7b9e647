#pragma once
// One volume over several devices (issue 41): z-slabs, one Euler solver per device, each slab
// with `halo` planes of its neighbours on either inner side, exchanged every `halo` iterations;
// multigrid's fine levels split the same way (SlabMultigridSolver).
//
// Why it is exact: an Euler iteration reads one plane either side, so the mirror rule at a
// slab's outer halo plane (wrong there, since the volume goes on) spoils one plane more per
// iteration; after `halo` iterations it has reached the halo's inner end and no owned plane.
// The exchange then copies each neighbour's owned planes over the halo, and the owned planes
// are the one-device field bit for bit in float32 (the same kernels, the same order of sums).
//
// Each device has its own ComputeContext (each slab's solver is the one-device solver
// unchanged) and halos go through pinned host memory; or, when the devices were opened in one
// OpenCL context (openSplitDevices' oneContext), device to device by clEnqueueCopyBuffer (peer
// copies where the driver gives them). Each slab's input is made on its device (SlabInputSource:
// from a host volume's planes, VolumeInputPlanes, or an input made on the first device); an
// Euler slab's V0 goes into its storage piece by piece, so no float32 copy of a slab is ever
// whole and 16-bit storage holds 18 bytes a voxel per device (2048^3 over two H200s). ε is
// summed per slab on its device; the gathered field() is made on the first device when asked.
// Multigrid's exchanges run on a second queue per device beside the kernels that do not read
// them (startExchange, finishExchange).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/euler_solver.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/pinned_host.hpp"
#include "gvflab/solver.hpp"

namespace gvflab {

class ComputeContext;
class SlabSolver;

// The planes of one slab: it owns [z0, z1) and holds [lo, hi) (owned + halos).
struct Slab {
  int z0 = 0, z1 = 0;
  int lo = 0, hi = 0;
  int depth() const { return hi - lo; }
};

// Equal slabs of depth over `devices`, cut at multiples of `align` planes, each holding `halo`
// planes beyond every inner cut. ParameterError when a slab would own fewer planes than the
// halo (a neighbour could not fill it) or the counts are out of range.
std::vector<Slab> planSlabs(int depth, int devices, int halo, int align = 1);

// The input of planes [lo, hi) of the volume on `device` (f may be left out: the solvers read
// V0), right on [z0, z1): SlabEulerSolver asks for pieces of a slab with a plane more either
// side where the volume goes on (central differences), and keeps [z0, z1) of each. The split's
// μ bound takes the largest max |V0|² of the pieces, which cover every plane.
using SlabInputSource = std::function<GvfInput(ComputeContext& device, const Slab& slab)>;
// The planes of `whole` (made on main) through the host.
SlabInputSource planesOf(std::shared_ptr<ComputeContext> main, GvfInput whole);

// The contexts of a split: `selectors` as chooseDevice takes them ("0.1", "gpu", a name), with
// `main` (the pipeline's, which holds the input) standing for the first one, or "all"
// (splitCandidates). Kernels load as main's. oneContext: all of them (main's device too, not
// main itself) made again in one context, so the split copies halos device to device.
std::vector<std::shared_ptr<ComputeContext>> openSplitDevices(
    std::shared_ptr<ComputeContext> main, const std::vector<std::string>& selectors,
    bool oneContext = false);

// What "all" names: every GPU of main's platform (every device when it has no GPU).
std::vector<DeviceInfo> splitCandidates(const DeviceInfo& main);

// `count` sub-devices of one device (clCreateSubDevices, CL_DEVICE_PARTITION_EQUALLY), each
// in its own context (oneContext: all in one); DeviceError when the device cannot be
// partitioned so. For tests of the split without several devices (PoCL's CPU device partitions).
std::vector<std::shared_ptr<ComputeContext>> openSubDevices(const ContextOptions& options,
                                                            int count, bool oneContext = false);

// The fit check per device (ResourceError naming the device): each slab's three Euler fields
// in `precision` on its own device (its input comes in pieces of at most one field).
void checkSlabsFit(const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
                   Precision precision, int halo);

struct SolverConfig;

// The pipeline's split (makeSolver, when config.devices is not empty): the devices opened,
// each one's fit checked, a SlabEulerSolver or SlabMultigridSolver; null when they come to one
// device (the plain solver runs). ParameterError for a 2D input.
std::unique_ptr<Solver> makeSplitSolver(std::shared_ptr<ComputeContext> main, const GvfInput& input,
                                        double mu, const SolverConfig& config);
// The same on devices already open, each slab's input made by `source`.
std::unique_ptr<SlabSolver> makeSplitSolver(
    const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
    SlabInputSource source, double mu, const SolverConfig& config);

// What the splits share: the slabs' plan and inputs, the halo exchange (through pinned host
// memory, or copies where the devices share a context), ε summed per slab, the field gathered
// on the first device, the bytes and facts per device.
class SlabSolver : public Solver {
 public:
  ~SlabSolver() override;
  const cl::Buffer& field() override;  // gathered on devices[0]
  // Each slab's owned planes exported and read in pieces: no device holds the field whole.
  Field3D readField3D() override;
  double error() override;
  long iterations() const override { return iterations_; }
  double muBound() const override { return lead().muBound(); }
  double mu() const override { return lead().mu(); }
  void setMu(double mu) override;
  void reset() override;
  int width() const override { return input_.width; }
  int height() const override { return input_.height; }
  int depth() const override { return input_.depth; }
  std::uint64_t deviceBytes() const override;
  std::string structure() const override;  // "z-slabs on 2 devices, halo 4"
  std::vector<SolverFact> facts() const override;
  // The whole volume's sizes, spacing and max |V0|² (the μ rule's), no buffers.
  const GvfInput& input() const { return input_; }

  // Device bytes on each device, in the order of the devices (the first with, once field()
  // ran, the gathered field; not counted: the pipeline's input).
  virtual std::vector<std::uint64_t> deviceBytesEach() const;
  const std::vector<Slab>& slabs() const { return plan_; }
  int halo() const { return halo_; }
  // Seconds the kernels waited for halos: the exchanges' wall time where every device was
  // finished first, and where the exchange ran beside the kernels (multigrid) the longest any
  // device's kernels waited for it (from profiling); the exchanges made.
  double haloSeconds() const;
  long exchanges() const { return exchanges_; }

 protected:
  // Planes of slab i's field at a level (0: the fine one, each coarser halves z): `blocks`
  // blocks `blockBytes` apart (a storage's components), each `planeBytes` a plane.
  struct PlaneLayout {
    cl::Buffer buffer;
    std::size_t planeBytes = 0, blockBytes = 0;
    int blocks = 1;
  };
  // Slabs of a volume of `shape` whose inputs `source` makes (ParameterError for a 2D depth or
  // slabs thinner than the halo); kept until the derived constructor is done (releaseSource).
  SlabSolver(std::vector<std::shared_ptr<ComputeContext>> devices, FieldShape shape,
             SlabInputSource source, int halo, int align);
  virtual Solver& part(std::size_t i) const = 0;
  virtual const Solver& lead() const = 0;  // its facts, μ and bound are the split's
  virtual PlaneLayout layout(std::size_t i, int level, int field);  // level 0: storage's
  // Slab i's level-0 storage: field 0 the field, 1 V0.
  virtual const FieldStorage& storage(std::size_t i, int field) const = 0;
  static PlaneLayout storageLayout(const FieldStorage& s);
  cl::CommandQueue& queue() override;
  // The source's input of `planes` on a device: input_ takes its spacing and the largest max
  // |V0|² (ParameterError for an input of another size).
  GvfInput sourceInput(ComputeContext& device, const Slab& planes);
  GvfInput slabInput(std::size_t i) { return sourceInput(*devices_[i], plan_[i]); }
  // Slab i's V0 in `precision` storage on its device, imported from the source's pieces of at
  // most one field's bytes.
  std::unique_ptr<FieldStorage> slabV0(std::size_t i, Precision precision);
  void releaseSource() { source_ = {}; }
  // At `level`, the `planes` (0: all halo >> level) halo planes next to each cut of a field
  // (layout's) copied from the neighbour's owned ones.
  void exchange(int level = 0, int planes = 0, int field = 0);
  // The same in two halves: start after the kernels queued so far; the kernels queued before
  // finish run meanwhile (they must touch neither the halos nor the planes sent); the kernels
  // queued after finish wait for the halos.
  void startExchange(int level, int planes, int field = 0);
  void finishExchange(bool profiled = true);
  bool exchanging() const { return !pending_.empty(); }
  // `size` bytes of src on devices_[from] to dst on devices_[to]: enqueued on the first
  // device's queue where they share a context (copies_), else through the host, finished.
  void copyAcross(std::size_t from, const cl::Buffer& src, std::size_t srcAt, std::size_t to,
                  const cl::Buffer& dst, std::size_t dstAt, std::size_t size);

  std::vector<std::shared_ptr<ComputeContext>> devices_;
  GvfInput input_;  // the whole volume's sizes, spacing and μ bound, no buffers
  SlabInputSource source_;
  int halo_;
  std::vector<Slab> plan_;
  long iterations_ = 0;
  double haloSeconds_ = 0;
  long exchanges_ = 0;
  bool copies_ = false;  // the devices share one context: halos copied device to device

 private:
  cl::Buffer gathered_;
  long gatheredAt_ = -1;
  std::vector<std::unique_ptr<ErrorMetric>> metrics_;  // ε of each slab's owned planes
  struct Transfer {                                    // one halo copy of the exchange under way
    std::size_t from, to, slot;
    PlaneLayout src, dst;
    std::size_t fromZ = 0, toZ = 0, size = 0;
    cl::Event read;
    std::size_t at(const PlaneLayout& l, std::size_t z, int b) const {
      return std::size_t(b) * l.blockBytes + z * l.planeBytes;
    }
  };
  struct Wait {  // a device's kernels waiting for its halos: from `reached` to `halos`
    std::size_t device;
    cl::Event reached, halos;
  };
  void settleWaits() const;                 // their times into exposed_
  std::vector<cl::CommandQueue> transfer_;  // per device, the exchanges' copies
  std::vector<cl::Event> started_;          // per device, its kernels before the exchange
  std::vector<Transfer> pending_;
  std::vector<PinnedHostBuffer> staging_;  // two sets of one per halo copy, grown as needed
  std::vector<cl::Event> staged_;          // the last write from each
  std::size_t set_ = 0;
  mutable std::vector<Wait> waits_;
  mutable std::vector<double> exposed_;  // per device, seconds waited
  double waited_ = 0;                    // the host's wait for the reads
  mutable bool timed_ = true;            // every wait's markers timed
};

class SlabEulerSolver : public SlabSolver {
 public:
  // One EulerSolver per device on its slab, its V0 made on its device from `source`'s pieces
  // (planesOf: an input on devices[0]): no device holds the whole volume, nor a slab in
  // float32. Throws as EulerSolver, ParameterError for a 2D input, image storage or slabs
  // thinner than the halo.
  SlabEulerSolver(const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
                  SlabInputSource source, double mu, EulerOptions options, int halo);
  std::string name() const override { return "euler"; }
  std::string kernelPrefix() const override { return "gvf_euler"; }
  void step(int n) override;
  std::optional<MemoryKind> memoryKind() const override { return slabs_.front()->memory(); }
  std::string storageNote() const override { return slabs_.front()->note(); }

 private:
  Solver& part(std::size_t i) const override { return *slabs_[i]; }
  const Solver& lead() const override { return *slabs_.front(); }
  const FieldStorage& storage(std::size_t i, int field) const override;
  std::vector<std::unique_ptr<EulerSolver>> slabs_;
};

// Multigrid over z-slabs: levels 0..splitLevels()-1 split (each slab a MultigridSolver on its
// planes, halos exchanged as deep as the next steps read them, beside the interior's work), the
// coarser ones gathered on devices[0] (one MultigridSolver of the whole volume holding only
// them). A slab holds 2^splitLevels() halo planes and starts at a multiple of them, so on each
// split level its halo is at least 2 planes (a red-black sweep spoils 2) and its parity, its
// children and its parent are the whole volume's: the field is the one-device field.
class SlabMultigridSolver : public SlabSolver {
 public:
  // Each slab's input made on its device by `source`. splitLevels: -1 chooses (the first level
  // with no side above 64, within the slabs' depth). Throws as MultigridSolver, ParameterError
  // for a 2D input or slabs thinner than the halo.
  SlabMultigridSolver(const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
                      SlabInputSource source, double mu, MultigridOptions options,
                      int splitLevels = -1);
  ~SlabMultigridSolver() override;
  std::string name() const override { return "multigrid"; }
  std::string kernelPrefix() const override { return "mg_"; }
  void step(int n) override;
  void setMu(double mu) override;
  std::string structure() const override;  // "... , levels 0-2 split of 7"
  std::vector<SolverFact> facts() const override;
  std::vector<std::uint64_t> deviceBytesEach() const override;
  int splitLevels() const { return split_; }

 private:
  class Steps;
  Solver& part(std::size_t i) const override { return *parts_[i]; }
  const Solver& lead() const override { return *coarse_; }
  PlaneLayout layout(std::size_t i, int level, int field) override;  // field 0: e, 1: rhs
  const FieldStorage& storage(std::size_t i, int field) const override;
  // The first coarse level's `field` (rhs, S) gathered from the slabs' owned planes into the
  // coarse solver, or (e) scattered onto every slab's planes there.
  void moveLevel(cl::Buffer MultigridSolver::Level::*field, bool gather);
  int split_;
  std::vector<std::unique_ptr<MultigridSolver>> parts_;
  std::unique_ptr<MultigridSolver> coarse_;
};

}  // namespace gvflab
