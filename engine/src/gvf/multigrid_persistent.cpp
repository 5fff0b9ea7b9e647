// The one-launch executor of multigrid (MultigridOptions::persistent, mg_persistent in
// kernels/multigrid_persistent.cl): its set-up, step lists, launches and give-up check.
#include <algorithm>
#include <cmath>

#include "cl/launch.hpp"
#include "gvf/multigrid_schedule.hpp"
#include "gvf/persistent_wait.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/multigrid_solver.hpp"

namespace gvflab {

using namespace detail;  // multigrid_schedule.hpp

// 2D float32 (from level 0 or lower), 3D from level 1 (any storage: level 0 launches); not for
// a split's coarse levels; the pool's float offsets fit an int. Auto on NVIDIA GPUs (the
// device-wide fence is known there: membar.gl) unless fused sweeps are asked for; asked on
// other GPUs: refused with a sentence.
bool MultigridSolver::persistentWanted() const {
  const DeviceInfo& info = ctx_->info();
  const bool nvidia = info.isGpu && info.platformName.find("NVIDIA") != std::string::npos;
  const FieldShape shape{input_.width, input_.height, input_.depth};
  const std::uint64_t poolFloats =
      pyramidBytes(shape, Precision::F32) / 4 - 2 * shape.count() * shape.dims();
  const bool fits =
      (shape.dims() == 2 ? options_.precision == Precision::F32 : maxSide(shape) > 2) &&
      options_.firstLevel == 0 && poolFloats < (std::uint64_t(1) << 31);
  if (options_.persistent == 0 || !fits) return false;
  if (options_.persistent < 0) return nvidia && options_.fused != 1;
  if (info.isGpu && !nvidia)
    throw ParameterError(
        "Multigrid in one launch needs a device-wide memory fence that gvflab knows only on "
        "NVIDIA GPUs and CPU devices, not on " +
        info.name + ".");
  return true;
}

// Work-group 0 alone takes the levels whose sides stay within the coarse side (2D: GPUs 32, one
// SM walks those faster than all SMs meet at a barrier; CPUs 16, as chooseCoarseLevel. 3D: 8,
// the levels that fit its local memory; H200 256³: 16³ by work-group 0 in global memory 4.93
// ms, by all 4.68); in local
// memory those that fit (coarseGlobal: none), the larger ones in global memory (MGP_SOLO).
void MultigridSolver::setUpPersistent(const std::string& levelOpts) {
  const DeviceInfo& info = ctx_->info();
  const bool nvidia = info.isGpu && info.platformName.find("NVIDIA") != std::string::npos;
  const int dims = input_.dims();
  const int side = options_.coarseSide >= 0 ? options_.coarseSide
                                            : (dims == 3    ? 8
                                               : info.isGpu ? 32
                                                            : 16);
  tracing_ = options_.trace && nvidia;
  persistentSolo_ = levels();
  for (int l = levels() - 1; l >= std::max(1, persistentTop_) && maxSide(shapeOf(l)) <= side; --l)
    persistentSolo_ = l;
  persistentFrom_ =
      options_.coarseGlobal ? levels() : std::max(persistentSolo_, levels() - kMaxCoarseLevels);
  // Measured on the H200 (BENCHMARKS.md, "Fewer steps in the one launch"), span: 512² 1.459
  // (0) 1.432 (1) 1.344 (2) 1.319 (3) 1.296 ms (7); 2048² 6.31 (0) 5.93 (3) 5.90 ms (7).
  const int variant =
      options_.persistentVariant >= 0 ? options_.persistentVariant : (nvidia ? 7 : 0);
  const bool light = nvidia && (variant & 1);
  foldProlong_ = (variant & 2) != 0 && dims == 2;  // (no folded steps in 3D)
  const std::string buildOpts = levelOpts +
                                " -DSPIN_LIMIT=" + std::to_string(detail::persistentSpinLimit) +
                                (nvidia ? " -DGRID_FENCE_PTX" : "") +
                                (tracing_ ? " -DMG_TRACE" : "") + (light ? " -DMGP_LIGHT" : "");
  persistentKernel_ = ctx_->kernels().kernel("multigrid_persistent.cl", "mg_persistent", buildOpts);
  // Work-group 0's levels live in local memory (e, rhs, S per level): as many as fit.
  const std::uint64_t localUsed =
      persistentKernel_.get().getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(ctx_->device());
  auto poolBytes = [&](int from) {
    std::uint64_t bytes = 0;
    for (int l = from; l < levels(); ++l) bytes += coarseLevelBytes(shapeOf(l), dims);
    return bytes;
  };
  while (persistentFrom_ < levels() &&
         poolBytes(persistentFrom_) + localUsed + 1024 > info.localMemBytes)
    ++persistentFrom_;
  localPoolBytes_ =
      static_cast<std::size_t>(std::max<std::uint64_t>(16, poolBytes(persistentFrom_)));
  // Variant 4: the step lists in local memory too, as many steps as the rest of it holds
  // (longer lists are read from global memory as before).
  const std::uint64_t spare =
      info.localMemBytes -
      std::min<std::uint64_t>(info.localMemBytes, localPoolBytes_ + localUsed + 2048);
  if (nvidia && (variant & 4) && spare >= 16 * 64)
    persistentKernel_ = ctx_->kernels().kernel(
        "multigrid_persistent.cl", "mg_persistent",
        buildOpts +
            " -DMGP_LOCAL_OPS=" + std::to_string(std::min<std::uint64_t>(spare / 16, 2048)));
  const auto units = static_cast<std::size_t>(std::max(1, info.computeUnits));
  persistentGroups_ = options_.persistentGroups > 0
                          ? std::min<std::size_t>(options_.persistentGroups, units)
                          : units;
  const std::size_t kernelGroup =
      persistentKernel_.get().getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx_->device());
  persistentGroupSize_ = std::min<std::size_t>(kernelGroup, info.isGpu ? 1024 : 256);
  levelKHost_.assign(static_cast<std::size_t>(levels()), 0.0f);
  levelK_ = cl::Buffer(ctx_->context(), CL_MEM_READ_ONLY, levelKHost_.size() * sizeof(float));
  sync_.create(ctx_->context(), ctx_->queue());
  recordPersistentOps();
}

// The step lists of the one launch: whole iterations (`a` cycles of iteration(): the first
// since reset() and, where they differ, the later ones, when the launch starts at level 0),
// else vcycle() and fmg() from its top level; in launch order.
void MultigridSolver::recordPersistentOps() {
  const CycleShape shape = cycleShape();
  const IterationKind first = iterationKind(cycle(), 0), later = iterationKind(cycle(), 1);
  for (int which = 0; which < 4; ++which) {
    StepRecorder rec;
    if ((which == 0 || (which == 3 && later != first)) && persistentTop_ == 0) {
      for (int i = 0; i < options_.a; ++i) iteration(rec, shape, which == 3 ? later : first);
    } else if (which == 1 && persistentTop_ > 0) {
      vcycle(rec, shape, persistentTop_);
    } else if (which == 2 && persistentTop_ > 0) {
      fullMultigrid(rec, shape, persistentTop_);
    } else {
      persistentOps_[which] = {};
      continue;
    }
    std::vector<cl_int4>& ops = rec.ops;
    // A prolongation outside the local pool followed by both colours on its level: folded into
    // them (op.w of a smooth: 1 neighbours prolonged, 2 itself where not updated, 4 replace).
    // Not on a level of side 1, where the mirror makes a point its own neighbour.
    if (foldProlong_) {
      std::vector<cl_int4> folded;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const cl_int4 op = ops[i];
        const int l = op.s[1];
        if (op.s[0] == kProlong && l < persistentFrom_ && i + 2 < ops.size() &&
            shapeOf(l).width > 1 && shapeOf(l).height > 1 && ops[i + 1].s[0] == kSmooth &&
            ops[i + 1].s[1] == l && ops[i + 1].s[2] == 0 && ops[i + 2].s[0] == kSmooth &&
            ops[i + 2].s[1] == l && ops[i + 2].s[2] == 1) {
          const int replace = op.s[2] ? 0 : 4;
          folded.push_back({{kSmooth, l, 0, 1 | 2 | replace}});
          folded.push_back({{kSmooth, l, 1, 2 | replace}});
          i += 2;
        } else {
          folded.push_back(op);
        }
      }
      ops = folded;
    }
    // Work-group 0's steps in local memory: loaded on the way in, stored on the way out.
    std::vector<cl_int4> list;
    bool inside = false;
    for (cl_int4 op : ops) {
      const bool alone = op.s[1] >= persistentFrom_;
      if (alone != inside) list.push_back({{alone ? kLoad : kStore, persistentFrom_, 0, 0}});
      inside = alone;
      list.push_back(op);
    }
    if (inside) list.push_back({{kStore, persistentFrom_, 0, 0}});
    for (cl_int4& op : list)
      op.s[0] |= op.s[1] >= persistentFrom_ ? kGroup0 : op.s[1] >= persistentSolo_ ? kSolo : 0;
    // A device-wide barrier after every all-groups step and before the next all-groups step
    // after work-group 0's (and after the last: whole iterations repeat the list).
    PersistentOps& po = persistentOps_[which];
    po.gridSyncs = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const bool alone = list[i].s[0] & (kGroup0 | kSolo);
      const bool nextAlone = i + 1 < list.size() && (list[i + 1].s[0] & (kGroup0 | kSolo));
      if (!alone || !nextAlone) {
        list[i].s[0] |= kGridSync;
        ++po.gridSyncs;
      }
    }
    po.host = list;
    po.steps = cl::Buffer(ctx_->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          list.size() * sizeof(cl_int4), list.data());
  }
}

// The first iteration since reset() by list 0, later ones by list 3 where it differs
// (multigrid_schedule.hpp's iterationKind).
void MultigridSolver::stepPersistent(int n) {
  const bool twoLists = !persistentOps_[3].host.empty();
  const int first = !twoLists ? n : iterations_ > 0 ? 0 : std::min(n, 1);
  stepPersistentList(0, first);
  stepPersistentList(3, n - first);
}

void MultigridSolver::stepPersistentList(int which, int n) {
  const auto perIteration =
      static_cast<long long>(persistentGroups_) * persistentOps_[which].gridSyncs;
  // The arrival count only grows: launches of very many iterations are split so that one
  // never could overflow it (launchPersistent starts it again in time).
  const int maxPerLaunch =
      static_cast<int>(std::max<long long>(1, (1ll << 29) / std::max(1ll, perIteration)));
  for (int done = 0; done < n;) {
    const int chunk = std::min(n - done, maxPerLaunch);
    launchPersistent(which, chunk);
    done += chunk;
  }
}

void MultigridSolver::persistentSolve(bool fullMultigrid) {
  launchPersistent(fullMultigrid ? 2 : 1, 1);
}

void MultigridSolver::launchPersistent(int which, int iterations) {
  if (levelKMu_ != mu_) {  // k = μ / h² per level, as the launch path's float(μ / 4^l)
    for (int l = 0; l < levels(); ++l)
      levelKHost_[l] = static_cast<float>(mu_ / std::ldexp(1.0, 2 * l));
    ctx_->queue().enqueueWriteBuffer(levelK_, CL_TRUE, 0, levelKHost_.size() * sizeof(float),
                                     levelKHost_.data());
    levelKMu_ = mu_;
  }
  const PersistentOps& po = persistentOps_[which];
  const int count = static_cast<int>(po.host.size());
  const long long arrivals = static_cast<long long>(persistentGroups_) * po.gridSyncs * iterations;
  sync_.reserve(ctx_->queue(), arrivals);
  traceCount_ = tracing_ ? static_cast<std::size_t>(count) * iterations + 1 : 0;
  tracedOps_ = which;
  if (traceCount_ > traceCapacity_ || !trace_()) {
    traceCapacity_ = std::max<std::size_t>(traceCount_, 1);
    trace_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, traceCapacity_ * sizeof(cl_ulong));
  }
  persistentKernel_.set(v_->buffer(), v0_->buffer(), pool_, levelTable_, levelK_, po.steps, count,
                        iterations, sync_.buffer(), sync_.base(), trace_, levels(), persistentFrom_,
                        cl::Local(localPoolBytes_));
  detail::enqueueRange(*ctx_, persistentKernel_, "mg_persistent",
                       cl::NDRange(persistentGroups_ * persistentGroupSize_),
                       cl::NDRange(persistentGroupSize_), "mg persistent");
  sync_.launched(arrivals);
}

std::vector<MultigridLevelTime> MultigridSolver::persistentTrace() const {
  if (!tracing_ || traceCount_ < 2) return {};
  std::vector<cl_ulong> stamps(traceCount_);
  ctx_->queue().enqueueReadBuffer(trace_, CL_TRUE, 0, stamps.size() * sizeof(cl_ulong),
                                  stamps.data());
  std::vector<MultigridLevelTime> rows(static_cast<std::size_t>(levels()));
  for (int l = 0; l < levels(); ++l) rows[l] = {l, l, shapeOf(l), {}};
  for (std::size_t t = 0; t + 1 < traceCount_; ++t) {
    const auto& host = persistentOps_[tracedOps_].host;
    MultigridLevelTime& r = rows[host[t % host.size()].s[1]];
    r.stats.totalMs += static_cast<double>(stamps[t + 1] - stamps[t]) * 1e-6;
    ++r.stats.launches;
  }
  return rows;
}

// Reads the give-up flag after one-launch steps; when raised (not every work-group ran at
// once), the one-launch path is off for good and, with redo, the iterations are done again
// from V0 launch by launch (a mu changed on the way is not replayed).
void MultigridSolver::confirmPersistentSteps(bool redo) {
  try {
    if (!sync_.gaveUp(ctx_->queue())) return;
  } catch (const cl::Error& e) {
    rethrowClError(e, "checking the one-launch multigrid iterations");
  }
  persistent_ = false;
  note_ =
      "the device did not run all work-groups at once: redid the multigrid iterations "
      "launch by launch";
  if (redo) redoIterations(*this, iterations_);
}

}  // namespace gvflab
