// Multigrid over z-slabs (slab_split.hpp): the schedule (multigrid_schedule.cpp) run with
// levels 0..split_-1 on every slab's MultigridSolver and the coarser ones on coarse_.
#include <algorithm>
#include <bit>
#include <chrono>

#include "gvf/multigrid_schedule.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/slab_split.hpp"

namespace gvflab {
namespace {

// Split levels 0..g-1: the first level with no side above 64 (its gather and scatter cost
// little), no deeper than a slab's 2^g halo planes allow.
int splitHalo(FieldShape shape, std::size_t devices, int asked) {
  if (asked > 0 && asked < 16) return 1 << asked;
  if (asked > 0) throw ParameterError("A multigrid split takes 1 to 15 split levels.");
  int g = 1;
  for (FieldShape s = detail::coarser(shape);
       detail::maxSide(s) > 64 && (2 << g) * int(devices) <= shape.depth; ++g)
    s = detail::coarser(s);
  return 1 << g;
}

}  // namespace

// The schedule's steps: on the split levels every slab launches, its halo planes copied from
// its neighbours' owned ones as fresh as the next steps read them: a red-black sweep spoils 2
// planes of e (the first colour's halo plane reads the next), so 2k serve k sweeps; a
// restriction reads 1 (the residual next to the cut), and the sweeps after it rhs on all but
// the last fresh plane of e. An exchange runs beside the planes that neither read a halo nor
// are sent: the first colour there (before the halos are written), then the edges' two
// colours, the planes sent read, and the second colour inside. Bit for bit the one-device
// sweep: each point reads the same values. The first coarse level is gathered from the slabs
// and scattered back.
class SlabMultigridSolver::Steps final : public detail::CycleSteps {
 public:
  explicit Steps(SlabMultigridSolver& s)
      : s_(s),
        c_(*s.coarse_),
        fresh_(std::size_t(s.split_)),
        corrected_(fresh_.size()),
        edge_(2 * std::max(c_.options().b, c_.options().c) + 2) {}
  bool takeOver(int level, bool fullMultigrid) override {
    if (split(level) || level != c_.coarseFrom_) return false;
    c_.coarseSolve(fullMultigrid);
    return true;
  }
  // An exchange sends the planes of the sweeps left and the step after, within the halo.
  void smooth(int level, int sweeps) override {
    if (!split(level)) return c_.smooth(level, sweeps);
    bool inFlight = s_.exchanging();  // rhs from the restriction
    for (int i = 0; i < sweeps; ++i) {
      if (fresh_[level] < 2) inFlight = send(level, sweeps - i);
      pass(level, 0, inFlight ? kInside : kAll);
      if (inFlight) s_.finishExchange();
      if (inFlight) pass(level, 0, kEdges);
      const int left = sweeps - i - 1;
      fresh_[level] -= 2;
      inFlight = fresh_[level] < (left > 0 ? 2 : tail(level));
      pass(level, 1, inFlight ? kEdges : kAll);
      if (inFlight) send(level, left);
      if (inFlight) pass(level, 1, kInside);
    }
    s_.finishExchange();
  }
  void restrictTo(int level, bool residual, bool zeroCoarse, bool afterSweep) override {
    // Black residuals count as 0 as on one device, but not on the split levels: there a slab's
    // halo planes feed coarse planes the exchanges keep, and their black points were not all
    // swept from current red ones. So the split field differs from one device's by rounding.
    const bool blacksZero = !split(level) && c_.blackResidualsZero(level, afterSweep);
    if (!split(level)) {
      c_.restrictResidual(level, residual, blacksZero);
    } else {
      if (residual && fresh_[level] < 1) s_.startExchange(level, 1);
      s_.finishExchange();
      for (auto& p : s_.parts_) p->restrictResidual(level, residual, blacksZero);
      if (split(level + 1))  // finished after the next step's first kernels (not reading it)
        s_.startExchange(level + 1, rhsPlanes(level + 1), 1);
      else
        s_.moveLevel(&MultigridSolver::Level::rhs, true);
    }
    if (zeroCoarse && (split(level + 1) || level + 1 != c_.coarseFrom_)) zero(level + 1);
  }
  // The split levels prolong every point (as they keep every residual above).
  void prolong(int level, bool add, bool beforeSweep) override {
    if (!split(level)) return c_.prolong(level, add, c_.redsOverwritten(level, beforeSweep));
    s_.finishExchange();
    if (!split(level + 1)) s_.moveLevel(&MultigridSolver::Level::e, false);
    for (auto& p : s_.parts_) p->prolong(level, add);
    fresh_[level] = 0;
    corrected_[level] = add;
  }
  void zero(int level) override {  // e 0 everywhere: fresh where rhs is
    if (!split(level)) return c_.zero(level);
    for (auto& p : s_.parts_) p->zero(level);
    fresh_[level] = rhsPlanes(level) + 1;
    corrected_[level] = false;
  }

 private:
  bool split(int level) const { return level < s_.split_; }
  // What the last sweep leaves fresh: the restriction's plane, none after the correction's
  // smoothing above level 0 (a prolongation follows, which reads no halo plane).
  int tail(int level) const { return level > 0 && corrected_[level] ? 0 : 1; }
  // Planes of rhs fresh after a restriction: a sweep's first colour reads it on every halo
  // plane but the last it leaves fresh, and an exchange of e sends at most edge_ - 1.
  int rhsPlanes(int level) const { return std::min((s_.halo_ >> level) - 1, edge_ - 2); }
  // Level 0's exchanges carry most of the bytes: one per sweep, each beside a colour's
  // interior; the coarser levels' are bound by their latency: as few as the halo allows.
  bool send(int level, int sweeps) {
    const int k = level == 0 ? 1 : sweeps;
    fresh_[level] = std::min(s_.halo_ >> level, 2 * k + (k == sweeps ? tail(level) : 0));
    s_.startExchange(level, fresh_[level]);
    return true;
  }
  // One colour on every slab's edges (its halos and edge_ planes beyond, within which the
  // planes sent and those reading a halo lie; even, as the halo and the cuts, so no launch
  // rounds into the others), inside them, or on all.
  enum Part { kEdges, kInside, kAll };
  void pass(int level, int colour, Part part) {
    for (std::size_t i = 0; i < s_.parts_.size(); ++i) {
      MultigridSolver& p = *s_.parts_[i];
      const int h = s_.halo_ >> level, edge = part == kAll ? 0 : std::min(h, edge_);
      const int depth = p.shapeOf(level).depth, cut = (s_.plan_[i].z1 - s_.plan_[i].lo) >> level;
      const int a = i > 0 && edge ? std::min(h + edge, depth) : 0;
      const int b = i + 1 < s_.parts_.size() && edge ? std::max(cut - edge, a) : depth;
      if (part != kEdges && a < b) p.smoothPlanes(level, colour, a, b);
      if (part == kEdges && a > 0) p.smoothPlanes(level, colour, 0, a);
      if (part == kEdges && b < depth) p.smoothPlanes(level, colour, b, depth);
    }
  }
  SlabMultigridSolver& s_;
  MultigridSolver& c_;
  std::vector<int> fresh_;       // per split level, halo planes of e as the neighbours' owned
  std::vector<bool> corrected_;  // per split level, a prolongation's correction added last
  int edge_;                     // at least the planes an exchange sends
};

SlabMultigridSolver::SlabMultigridSolver(
    const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
    SlabInputSource source, double mu, MultigridOptions options, int splitLevels)
    : SlabSolver(devices, shape, std::move(source), splitHalo(shape, devices.size(), splitLevels),
                 splitHalo(shape, devices.size(), splitLevels)),
      split_(std::countr_zero(unsigned(halo_))) {
  options.fused = 0;  // level 0 in place: one buffer to exchange
  options.persistent = 0;
  for (std::size_t i = 0; i < plan_.size(); ++i)
    parts_.push_back(std::make_unique<MultigridSolver>(devices_[i], slabInput(i), mu, options));
  releaseSource();  // input_ has the whole volume's sizes, spacing and μ bound: the coarse levels'
  options.firstLevel = split_;
  coarse_ = std::make_unique<MultigridSolver>(devices_.front(), input_, mu, options);
  for (const auto& p : parts_)
    if (std::min(p->levels(), coarse_->levels()) <= split_)
      throw ParameterError("This volume is too small for multigrid with " + std::to_string(split_) +
                           " levels split over devices.");
  moveLevel(&MultigridSolver::Level::s, true);
  coarse_->restrictS(split_);
}

SlabMultigridSolver::~SlabMultigridSolver() = default;

// V (level 0, in its storage) and e and rhs (float32) have three components, each a
// plane-major block.
SlabSolver::PlaneLayout SlabMultigridSolver::layout(std::size_t i, int level, int field) {
  MultigridSolver& p = *parts_[i];
  const FieldShape s = p.shapeOf(level);
  if (level == 0) return SlabSolver::layout(i, 0, field);
  const MultigridSolver::Level& l = p.levels_[std::size_t(level) - 1];
  const std::size_t plane = std::size_t(s.width) * s.height;
  return {field ? l.rhs : l.e, plane * sizeof(float), s.count() * sizeof(float), 3};
}

const FieldStorage& SlabMultigridSolver::storage(std::size_t i, int field) const {
  return field ? *parts_[i]->v0_ : *parts_[i]->v_;
}

// Levels 1.. hold float32 components one plane-major block each (multigrid.cl), S one.
void SlabMultigridSolver::moveLevel(cl::Buffer MultigridSolver::Level::*field, bool gather) {
  for (auto& d : devices_) d->queue().finish();  // the kernels, not timed as the exchange
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t at = std::size_t(split_) - 1;
  MultigridSolver::Level& whole = coarse_->levels_[at];
  const std::size_t plane = std::size_t(whole.shape.width) * whole.shape.height * sizeof(float);
  try {
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      const Slab& s = plan_[i];
      MultigridSolver::Level& mine = parts_[i]->levels_[at];
      // Gather: the owned planes; scatter: all the slab's, halos included.
      const int lo = s.lo >> split_, z0 = gather ? s.z0 >> split_ : lo;
      const int z1 = gather && i + 1 < plan_.size() ? s.z1 >> split_ : lo + mine.shape.depth;
      const std::size_t size = plane * std::size_t(z1 - z0);
      for (int b = 0; b < (field == &MultigridSolver::Level::s ? 1 : 3); ++b) {
        const std::size_t mineAt =
            std::size_t(b) * mine.shape.count() * sizeof(float) + plane * std::size_t(z0 - lo);
        const std::size_t wholeAt =
            std::size_t(b) * whole.shape.count() * sizeof(float) + plane * std::size_t(z0);
        if (gather)
          copyAcross(i, mine.*field, mineAt, 0, whole.*field, wholeAt, size);
        else
          copyAcross(0, whole.*field, wholeAt, i, mine.*field, mineAt, size);
      }
    }
    queue().finish();  // the copies, where the devices share a context
  } catch (const cl::Error& e) {
    rethrowClError(e, "moving a multigrid level between the devices");
  }
  haloSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void SlabMultigridSolver::step(int n) {
  Steps steps(*this);
  try {
    const MultigridOptions& o = coarse_->options();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < o.a; ++j)
        detail::iteration(steps, coarse_->cycleShape(),
                          detail::iterationKind(coarse_->cycle(), iterations_));
      ++iterations_;
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "running split multigrid iterations");
  }
}

void SlabMultigridSolver::setMu(double mu) {
  SlabSolver::setMu(mu);
  coarse_->setMu(mu);
}

std::string SlabMultigridSolver::structure() const {
  return SlabSolver::structure() + ", levels 0-" + std::to_string(split_ - 1) + " of " +
         std::to_string(coarse_->levels()) + " split";
}

std::vector<SolverFact> SlabMultigridSolver::facts() const {
  auto out = SlabSolver::facts();
  out.push_back({"split_levels", std::int64_t(split_)});
  return out;
}

std::vector<std::uint64_t> SlabMultigridSolver::deviceBytesEach() const {
  auto out = SlabSolver::deviceBytesEach();
  out.front() += coarse_->deviceBytes();
  return out;
}

}  // namespace gvflab
