// The split's halo exchange (slab_split.hpp).
#include <chrono>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/slab_split.hpp"

namespace gvflab {

void SlabSolver::exchange(int level, int planes, int field) {
  try {
    for (auto& d : devices_) d->queue().finish();  // the iterations, not timed as the exchange
  } catch (const cl::Error& e) {
    rethrowClError(e, "running GVF iterations on the devices");
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int h = halo_ >> level, n = planes > 0 ? planes : h;
  try {
    // Per cut: the lower slab's last n owned planes to the upper's halo next to the cut, and
    // the upper's first n owned planes back; device to device where the devices share a
    // context, else staged in pinned host memory, kept (pageable copies go through the driver's
    // own staging, and were allocated and faulted in at every exchange).
    struct Copy {
      std::size_t from, to;
      int fromZ, toZ;
    };
    std::vector<Copy> copies;
    for (std::size_t i = 0; i + 1 < plan_.size(); ++i) {
      const int cut = (plan_[i].z1 - plan_[i].lo) >> level;  // in the lower slab
      copies.push_back({i, i + 1, cut - n, h - n});
      copies.push_back({i + 1, i, h, cut});
    }
    staging_.resize(copies.size());
    std::vector<cl::Event> read(copies.size());
    // Each copy's writes start as soon as its own reads are in, while the others still read.
    for (const bool write : {false, true})
      for (std::size_t c = 0; c < copies.size() && !(write && copies_); ++c) {
        const std::size_t dev = write ? copies[c].to : copies[c].from;
        const PlaneLayout l = layout(dev, level, field), to = layout(copies[c].to, level, field);
        const std::size_t z = std::size_t(write ? copies[c].toZ : copies[c].fromZ);
        const std::size_t size = l.planeBytes * std::size_t(n);
        if (write) read[c].wait();  // in-order queue: the last read covers the earlier ones
        if (!copies_ && staging_[c].size() < l.blocks * size)
          staging_[c] = PinnedHostBuffer(*devices_[dev], l.blocks * size);
        for (int b = 0; b < l.blocks; ++b) {
          const std::size_t at = b * l.blockBytes + z * l.planeBytes;
          if (copies_)
            copyAcross(dev, l.buffer, at, copies[c].to, to.buffer,
                       b * to.blockBytes + std::size_t(copies[c].toZ) * to.planeBytes, size);
          else if (write)
            devices_[dev]->queue().enqueueWriteBuffer(l.buffer, CL_FALSE, at, size,
                                                      staging_[c].as<char>(b * size));
          else
            devices_[dev]->queue().enqueueReadBuffer(
                l.buffer, CL_FALSE, at, size, staging_[c].as<char>(b * size), nullptr, &read[c]);
        }
        devices_[dev]->queue().flush();
      }
    for (auto& d : devices_) d->queue().finish();  // staging is reused at the next exchange
  } catch (const cl::Error& e) {
    rethrowClError(e, "exchanging the halos between the devices");
  }
  haloSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++exchanges_;
}

}  // namespace gvflab
