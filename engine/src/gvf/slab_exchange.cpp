// The split's halo exchange (slab_split.hpp): per cut, the lower slab's last n owned planes to
// the upper's halo next to the cut and the upper's first n owned planes back, on a second
// queue per device, so the kernels queued between start and finish run meanwhile.
#include <algorithm>
#include <chrono>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/slab_split.hpp"

namespace gvflab {

SlabSolver::~SlabSolver() {
  for (auto& q : transfer_) clFinish(q());  // no copy from staging left when it is freed
}

void SlabSolver::exchange(int level, int planes, int field) {
  try {
    for (auto& d : devices_) d->queue().finish();  // the iterations, not timed as the exchange
  } catch (const cl::Error& e) {
    rethrowClError(e, "running GVF iterations on the devices");
  }
  const auto t0 = std::chrono::steady_clock::now();
  startExchange(level, planes, field);
  finishExchange(false);
  try {
    for (auto& d : devices_) d->queue().finish();
  } catch (const cl::Error& e) {
    rethrowClError(e, "exchanging the halos between the devices");
  }
  haloSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Device to device where the devices share a context, on the receiving device's queue (its
// wait for them then measured on its clock), after both devices' kernels queued so far; else
// read into pinned host memory (two sets, alternating, so a read never waits for the last
// exchange's writes) after the sending device's kernels.
void SlabSolver::startExchange(int level, int planes, int field) {
  finishExchange();  // one exchange under way at a time
  const int h = halo_ >> level, n = planes > 0 ? planes : h;
  try {
    if (transfer_.empty())
      for (auto& d : devices_)
        transfer_.emplace_back(d->context(), d->device(),
                               d->options().profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
    started_.resize(devices_.size());
    for (std::size_t d = 0; d < devices_.size(); ++d)
      devices_[d]->queue().enqueueMarkerWithWaitList(nullptr, &started_[d]);
    const std::size_t copies = 2 * (plan_.size() - 1);
    staging_.resize(2 * copies);
    staged_.resize(2 * copies);
    for (std::size_t c = 0; c < copies; ++c) {
      const std::size_t lower = c / 2;
      const bool up = c % 2 == 0;
      const int cut = (plan_[lower].z1 - plan_[lower].lo) >> level;  // in the lower slab
      const std::size_t from = up ? lower : lower + 1, to = up ? lower + 1 : lower;
      const PlaneLayout src = layout(from, level, field);
      Transfer t{from,
                 to,
                 set_ * copies + c,
                 src,
                 layout(to, level, field),
                 std::size_t(up ? cut - n : h),
                 std::size_t(up ? h - n : cut),
                 src.planeBytes * std::size_t(n),
                 cl::Event()};
      if (copies_) {
        const std::vector<cl::Event> after{started_[t.from], started_[t.to]};
        for (int b = 0; b < t.src.blocks; ++b)
          transfer_[t.to].enqueueCopyBuffer(t.src.buffer, t.dst.buffer, t.at(t.src, t.fromZ, b),
                                            t.at(t.dst, t.toZ, b), t.size, &after);
      } else {
        if (staged_[t.slot]()) staged_[t.slot].wait();
        if (staging_[t.slot].size() < t.src.blocks * t.size)
          staging_[t.slot] = PinnedHostBuffer(*devices_[t.from], t.src.blocks * t.size);
        const std::vector<cl::Event> after{started_[t.from]};
        for (int b = 0; b < t.src.blocks; ++b)
          transfer_[t.from].enqueueReadBuffer(t.src.buffer, CL_FALSE, t.at(t.src, t.fromZ, b),
                                              t.size, staging_[t.slot].as<char>(b * t.size), &after,
                                              &t.read);
      }
      pending_.push_back(std::move(t));
    }
    set_ ^= 1;
    for (auto& q : transfer_) q.flush();
    for (auto& d : devices_) d->queue().flush();
  } catch (const cl::Error& e) {
    rethrowClError(e, "exchanging the halos between the devices");
  }
  ++exchanges_;
}

// Through the host: each copy's writes as soon as its reads are in, after the receiving
// device's kernels from before start (they wrote its halo planes last). Then every device's
// later kernels wait for its exchange queue (its halos written, its planes read; the copies
// reading its planes are on the others'). profiled: how long they waited, filed for
// haloSeconds().
void SlabSolver::finishExchange(bool profiled) {
  if (pending_.empty()) return;
  try {
    for (auto& d : devices_) d->queue().flush();  // the kernels meanwhile at work first
    const auto t0 = std::chrono::steady_clock::now();
    for (Transfer& t : pending_) {
      if (copies_) break;
      t.read.wait();
      if (&t == &pending_.back())
        waited_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const std::vector<cl::Event> after{started_[t.to]};
      for (int b = 0; b < t.src.blocks; ++b)
        transfer_[t.to].enqueueWriteBuffer(t.dst.buffer, CL_FALSE, t.at(t.dst, t.toZ, b), t.size,
                                           staging_[t.slot].as<char>(b * t.size), &after,
                                           &staged_[t.slot]);
      transfer_[t.to].flush();
    }
    pending_.clear();
    std::vector<cl::Event> done(devices_.size());
    for (std::size_t d = 0; d < devices_.size(); ++d)
      transfer_[d].enqueueMarkerWithWaitList(nullptr, &done[d]);
    for (std::size_t d = 0; d < devices_.size(); ++d) {
      cl::CommandQueue& q = devices_[d]->queue();
      profiled = profiled && devices_[d]->options().profiling;
      if (profiled) waits_.push_back({d, {}, done[d]});
      if (profiled) q.enqueueMarkerWithWaitList(nullptr, &waits_.back().reached);
      const std::vector<cl::Event> mine{done[d]};
      q.enqueueBarrierWithWaitList(copies_ ? &done : &mine);
      q.flush();
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "exchanging the halos between the devices");
  }
  if (waits_.size() > 256) settleWaits();
}

// A device's wait: from the end of its kernels before the barrier to the end of its exchange
// queue's copies, both on its clock (0 when the copies were done first).
// Where the driver does not time markers, the host's wait for the reads stands in.
void SlabSolver::settleWaits() const {
  exposed_.resize(devices_.size());
  const auto end = [](const cl::Event& e, cl_ulong& at) {  // the C calls: no exception
    const cl_event ev = e();
    return clWaitForEvents(1, &ev) == CL_SUCCESS &&
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof at, &at, nullptr) ==
               CL_SUCCESS;
  };
  cl_ulong reached = 0, halos = 0;
  for (const Wait& w : waits_)
    if (!end(w.reached, reached) || !end(w.halos, halos))
      timed_ = false;
    else if (halos > reached)
      exposed_[w.device] += double(halos - reached) * 1e-9;
  waits_.clear();
}

double SlabSolver::haloSeconds() const {
  settleWaits();
  const double most = exposed_.empty() ? 0.0 : *std::max_element(exposed_.begin(), exposed_.end());
  return haloSeconds_ + (timed_ ? most : waited_);
}

}  // namespace gvflab
