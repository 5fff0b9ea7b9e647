#include <algorithm>
#include <chrono>
#include <set>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/error_metric.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/slab_split.hpp"

namespace gvflab {
namespace {

constexpr int kMaxSplitDevices = 64;

std::string planeRange(const Slab& s) {
  return std::to_string(s.z0) + "-" + std::to_string(s.z1 - 1);
}

// Bytes [z0, z0 + planes) of a float buffer of `channels` interleaved floats a voxel.
struct PlaneBytes {
  std::size_t offset, size;
};
PlaneBytes interleavedPlanes(const GvfInput& in, int z0, int planes, int channels) {
  const std::size_t plane = std::size_t(in.width) * in.height * channels * sizeof(float);
  return {plane * std::size_t(z0), plane * std::size_t(planes)};
}

// The devices' contexts made again as one context of them all (their queues and kernels each
// their own), where buffers of one device may be copied to another's.
void intoOneContext(std::vector<std::shared_ptr<ComputeContext>>& devices) {
  std::vector<cl::Device> all;
  for (const auto& d : devices) all.push_back(d->device());
  try {
    const cl::Context one(all);
    for (auto& d : devices)
      d = ComputeContext::createOn(d->device(), d->info(), d->options(), &one);
  } catch (const cl::Error& e) {
    rethrowClError(e, "creating one OpenCL context for the split's devices");
  }
}

}  // namespace

std::vector<Slab> planSlabs(int depth, int devices, int halo, int align) {
  if (devices < 1 || devices > kMaxSplitDevices)
    throw ParameterError("A split takes 1 to " + std::to_string(kMaxSplitDevices) +
                         " devices, not " + std::to_string(devices) + ".");
  if (halo < 1) throw ParameterError("The split's halo must be at least 1 plane.");
  std::vector<Slab> out;
  for (int i = 0; i < devices; ++i) {
    Slab s;
    s.z0 = i * depth / devices / align * align;
    s.z1 = i + 1 < devices ? (i + 1) * depth / devices / align * align : depth;
    s.lo = i > 0 ? s.z0 - halo : 0;
    s.hi = i + 1 < devices ? s.z1 + halo : depth;
    if (devices > 1 && s.z1 - s.z0 < halo)
      throw ParameterError("A volume of " + std::to_string(depth) +
                           " planes cannot be split over " + std::to_string(devices) +
                           " devices with a halo of " + std::to_string(halo) +
                           " planes: each would own fewer planes than the halo. Use fewer "
                           "devices.");
    out.push_back(s);
  }
  return out;
}

void checkSlabsFit(const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
                   Precision precision, int halo) {
  const auto plan = planSlabs(shape.depth, int(devices.size()), halo);
  for (std::size_t i = 0; i < plan.size(); ++i)
    checkSolverFits(*devices[i], {shape.width, shape.height, plan[i].depth()}, precision, 3, 0, 0);
}

SlabSolver::SlabSolver(std::vector<std::shared_ptr<ComputeContext>> devices, FieldShape shape,
                       SlabInputSource source, int halo, int align)
    : devices_(std::move(devices)), source_(std::move(source)), halo_(halo) {
  if (shape.depth <= 1) throw ParameterError("A split over devices is for volumes (3D).");
  copies_ = std::all_of(devices_.begin(), devices_.end(),
                        [&](auto& d) { return d->context()() == devices_.front()->context()(); });
  plan_ = planSlabs(shape.depth, int(devices_.size()), halo_, align);
  input_.width = shape.width;
  input_.height = shape.height;
  input_.depth = shape.depth;
}

cl::CommandQueue& SlabSolver::queue() { return devices_.front()->queue(); }

GvfInput SlabSolver::sourceInput(ComputeContext& device, const Slab& planes) {
  GvfInput in = source_(device, planes);
  if (in.width != input_.width || in.height != input_.height || in.depth != planes.depth())
    throw ParameterError("The split's input of planes " + std::to_string(planes.lo) + "-" +
                         std::to_string(planes.hi - 1) + " is not of the volume's size.");
  input_.spacing = in.spacing;
  input_.userV0 = in.userV0;
  input_.maxV0Squared = std::max(input_.maxV0Squared, in.maxV0Squared);
  return in;
}

std::unique_ptr<FieldStorage> SlabSolver::slabV0(std::size_t i, Precision precision) {
  ComputeContext& device = *devices_[i];
  const Slab& s = plan_[i];
  const std::uint64_t plane = std::uint64_t(input_.width) * input_.height;
  try {
    auto v0 = std::make_unique<FieldStorage>(
        device, FieldShape{input_.width, input_.height, s.depth()}, precision, false);
    const PlaneLayout to = storageLayout(*v0);
    // Pieces whose float32 input, while built (a volume, two blur buffers, f, V0 and |V0|²:
    // 32 bytes a voxel, VolumeInputPlanes), is at most one field, so the slab's peak stays
    // under its three fields.
    const int step = int(std::clamp<std::uint64_t>(
        std::min<std::uint64_t>(device.info().maxAllocBytes, v0->bytes()) / (32 * plane), 1,
        std::uint64_t(s.depth())));
    for (int z = s.lo; z < s.hi; z += step) {
      const int z1 = std::min(z + step, s.hi);
      // A plane more either side where the volume goes on, for V0's central differences.
      const Slab piece{z, z1, std::max(z - 1, 0), std::min(z1 + 1, input_.depth)};
      const GvfInput in = sourceInput(device, piece);
      FieldStorage part(device, {in.width, in.height, in.depth}, precision, false);
      part.importFrom(in.v0);
      const PlaneLayout from = storageLayout(part);
      for (int b = 0; b < from.blocks; ++b)
        device.queue().enqueueCopyBuffer(
            from.buffer, to.buffer, b * from.blockBytes + (z - piece.lo) * from.planeBytes,
            b * to.blockBytes + (z - s.lo) * to.planeBytes, (z1 - z) * to.planeBytes);
      device.queue().finish();  // the piece's buffers go before the next one's are made
    }
    return v0;
  } catch (const cl::Error& e) {
    rethrowClError(e, "importing a slab's V0");
  }
}

SlabInputSource planesOf(std::shared_ptr<ComputeContext> main, GvfInput whole) {
  return
      [main = std::move(main), whole = std::move(whole)](ComputeContext& device, const Slab& slab) {
        GvfInput part = whole;
        part.depth = slab.depth();
        try {
          for (auto [buffer, channels] : {std::pair{&part.edge, 1}, std::pair{&part.v0, 3}}) {
            const PlaneBytes b = interleavedPlanes(whole, slab.lo, part.depth, channels);
            std::vector<char> host(b.size);
            main->queue().enqueueReadBuffer(*buffer, CL_TRUE, b.offset, b.size, host.data());
            *buffer = cl::Buffer(device.context(), CL_MEM_READ_WRITE, b.size);
            device.queue().enqueueWriteBuffer(*buffer, CL_TRUE, 0, b.size, host.data());
          }
        } catch (const cl::Error& e) {
          rethrowClError(e, "splitting the volume over the devices");
        }
        return part;
      };
}

SlabEulerSolver::SlabEulerSolver(const std::vector<std::shared_ptr<ComputeContext>>& devices,
                                 FieldShape shape, SlabInputSource source, double mu,
                                 EulerOptions options, int halo)
    : SlabSolver(devices, shape, std::move(source), halo, 1) {
  if (options.memory == MemoryKind::Image)
    throw ParameterError(
        "A split over devices keeps its fields in buffers: use --memory "
        "buffer or local, or one device.");
  std::vector<std::unique_ptr<FieldStorage>> v0;
  for (std::size_t i = 0; i < plan_.size(); ++i) v0.push_back(slabV0(i, options.precision));
  releaseSource();
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    GvfInput slab = input_;  // its sizes and the split's μ bound; V0 is in v0[i]
    slab.depth = plan_[i].depth();
    slabs_.push_back(
        std::make_unique<EulerSolver>(devices_[i], slab, std::move(v0[i]), mu, options));
  }
}

// A storage's three components, each a plane-major block of the slab's whole size
// (gvf_storage.clh).
SlabSolver::PlaneLayout SlabSolver::storageLayout(const FieldStorage& st) {
  const std::size_t e = std::size_t(bytesPerComponent(st.precision()));
  return {st.buffer(), std::size_t(st.shape().width) * st.shape().height * e,
          st.shape().count() * e, 3};
}

SlabSolver::PlaneLayout SlabSolver::layout(std::size_t i, int, int field) {
  return storageLayout(storage(i, field));
}

const FieldStorage& SlabEulerSolver::storage(std::size_t i, int field) const {
  return field ? slabs_[i]->v0Storage() : slabs_[i]->storage();
}

void SlabEulerSolver::step(int n) {
  while (n > 0) {
    const int now = std::min(n, halo_);
    for (std::size_t i = 0; i < slabs_.size(); ++i) {
      slabs_[i]->step(now);
      devices_[i]->queue().flush();  // every device at work before the exchange waits
    }
    exchange();
    iterations_ += now;
    n -= now;
  }
}

void SlabSolver::copyAcross(std::size_t from, const cl::Buffer& src, std::size_t srcAt,
                            std::size_t to, const cl::Buffer& dst, std::size_t dstAt,
                            std::size_t size) {
  if (copies_)  // all on one in-order queue: no two devices write one buffer at once
    return void(queue().enqueueCopyBuffer(src, dst, srcAt, dstAt, size));
  const auto host = std::make_unique_for_overwrite<char[]>(size);  // no zeroing: all overwritten
  devices_[from]->queue().enqueueReadBuffer(src, CL_TRUE, srcAt, size, host.get());
  devices_[to]->queue().enqueueWriteBuffer(dst, CL_TRUE, dstAt, size, host.get());
}

const cl::Buffer& SlabSolver::field() {
  if (gatheredAt_ == iterations_) return gathered_;
  try {
    if (!gathered_())
      gathered_ = cl::Buffer(devices_.front()->context(), CL_MEM_READ_WRITE,
                             input_.pixelCount() * 3 * sizeof(float));
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      const Slab& s = plan_[i];
      const cl::Buffer& slabField = part(i).field();
      devices_[i]->queue().finish();  // the slab's field made
      const PlaneBytes local = interleavedPlanes(input_, s.z0 - s.lo, s.z1 - s.z0, 3);
      copyAcross(i, slabField, local.offset, 0, gathered_,
                 interleavedPlanes(input_, s.z0, s.z1 - s.z0, 3).offset, local.size);
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "gathering the field from the devices");
  }
  gatheredAt_ = iterations_;
  return gathered_;
}

Field3D SlabSolver::readField3D() {
  Field3D out(input_.width, input_.height, input_.depth);
  const std::size_t plane = std::size_t(input_.width) * input_.height;
  try {
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      ComputeContext& device = *devices_[i];
      const Slab& s = plan_[i];
      const FieldStorage& st = storage(i, 0);
      const PlaneLayout from = storageLayout(st);
      // Pieces whose float32 export is at most half a field in the storage.
      const int step = int(std::clamp<std::uint64_t>(
          std::min<std::uint64_t>(device.info().maxAllocBytes, st.bytes()) / (24 * plane), 1,
          std::uint64_t(s.z1 - s.z0)));
      for (int z = s.z0; z < s.z1; z += step) {
        const int z1 = std::min(z + step, s.z1);
        // Planes [lo, hi) exported: two at least, as a storage of one plane is 2D.
        const int hi = std::min(std::max(z1, z + 2), s.hi), lo = std::min(z, hi - 2);
        FieldStorage piece(device, {input_.width, input_.height, hi - lo}, st.precision(), false,
                           st.rowOrder());
        const PlaneLayout to = storageLayout(piece);
        for (int b = 0; b < from.blocks; ++b)
          device.queue().enqueueCopyBuffer(from.buffer, to.buffer,
                                           b * from.blockBytes + (lo - s.lo) * from.planeBytes,
                                           b * to.blockBytes, (hi - lo) * to.planeBytes);
        const cl::Buffer f32(device.context(), CL_MEM_READ_WRITE, plane * (hi - lo) * 12);
        piece.exportTo(f32);
        device.queue().enqueueReadBuffer(f32, CL_TRUE, plane * (z - lo) * 12, plane * (z1 - z) * 12,
                                         out.data.data() + plane * z * 3);
      }
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the split field from the devices");
  }
  return out;
}

double SlabSolver::error() {
  // ε of each slab's owned planes on its device, summed on the host in double: no device holds
  // the whole V or V0. The halo plane beside each cut (which the Laplacian reads) is made fresh
  // first: a multigrid sweep leaves it stale.
  double sum = 0;
  try {
    exchange(0, 1);
    for (std::size_t i = metrics_.size(); i < plan_.size(); ++i) {
      const FieldStorage& v0 = storage(i, 1);
      metrics_.push_back(
          std::make_unique<ErrorMetric>(devices_[i], v0.shape(), v0.memory(),
                                        v0.buildOptions() + spacingBuildOptions(input_.spacing, 3),
                                        plan_[i].z0 - plan_[i].lo, plan_[i].z1 - plan_[i].lo));
    }
    for (std::size_t i = 0; i < plan_.size(); ++i)
      sum += metrics_[i]->compute(storage(i, 0).memory(), mu()) * (plan_[i].z1 - plan_[i].z0);
  } catch (const cl::Error& e) {
    rethrowClError(e, "measuring the split field's error");
  }
  return sum / input_.depth;
}

void SlabSolver::setMu(double mu) {
  for (std::size_t i = 0; i < plan_.size(); ++i) part(i).setMu(mu);
}

void SlabSolver::reset() {
  for (std::size_t i = 0; i < plan_.size(); ++i) part(i).reset();
  iterations_ = 0;
  gatheredAt_ = -1;
}

std::vector<std::uint64_t> SlabSolver::deviceBytesEach() const {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < plan_.size(); ++i) out.push_back(part(i).deviceBytes());
  if (gathered_()) out.front() += input_.pixelCount() * 3 * sizeof(float);
  return out;
}

std::uint64_t SlabSolver::deviceBytes() const {
  std::uint64_t sum = 0;
  for (std::uint64_t b : deviceBytesEach()) sum += b;
  return sum;
}

std::string SlabSolver::structure() const {
  return "z-slabs on " + std::to_string(plan_.size()) + " devices, halo " + std::to_string(halo_);
}

std::vector<SolverFact> SlabSolver::facts() const {
  std::vector<SolverFact> out = lead().facts();
  for (SolverFact& f : out)
    if (f.key == "device_bytes") f.value = std::int64_t(deviceBytes());
  std::string split;
  const auto bytes = deviceBytesEach();
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    const DeviceInfo& d = devices_[i]->info();
    split += (i ? "; " : "") + std::string("z ") + planeRange(plan_[i]) + " on " + d.name + " (" +
             std::to_string(d.platformIndex) + "." + std::to_string(d.deviceIndex) + ", " +
             std::to_string(bytes[i] >> 20) + " MiB)";
  }
  out.push_back({"split", split});
  out.push_back({"split_halo", std::int64_t(halo_)});
  out.push_back({"split_exchange", std::string(copies_ ? "copy" : "host")});
  out.push_back({"halo_ms", haloSeconds() * 1e3});
  return out;
}

std::unique_ptr<Solver> makeSplitSolver(std::shared_ptr<ComputeContext> main, const GvfInput& input,
                                        double mu, const SolverConfig& config) {
  if (input.depth <= 1)
    throw ParameterError(
        "A split over devices is for volumes; this input is 2D: use one "
        "device.");
  auto devices = openSplitDevices(std::move(main), config.devices);
  if (devices.size() == 1) return nullptr;
  return makeSplitSolver(devices, {input.width, input.height, input.depth},
                         planesOf(devices.front(), input), mu, config);
}

std::unique_ptr<SlabSolver> makeSplitSolver(
    const std::vector<std::shared_ptr<ComputeContext>>& devices, FieldShape shape,
    SlabInputSource source, double mu, const SolverConfig& config) {
  if (config.kind == SolverKind::Multigrid)  // each slab's and the coarse levels' fit checked
    return std::make_unique<SlabMultigridSolver>(devices, shape, std::move(source), mu,
                                                 config.multigridOptions(), config.splitLevels);
  checkSlabsFit(devices, shape, config.precision, config.splitHalo);
  return std::make_unique<SlabEulerSolver>(devices, shape, std::move(source), mu,
                                           config.eulerOptions(), config.splitHalo);
}

std::vector<DeviceInfo> splitCandidates(const DeviceInfo& main) {
  std::vector<DeviceInfo> same = listDevices();
  std::erase_if(same, [&](auto& d) { return d.platformIndex != main.platformIndex; });
  const bool gpus = std::any_of(same.begin(), same.end(), [](auto& d) { return d.isGpu; });
  std::erase_if(same, [&](auto& d) { return gpus && !d.isGpu; });
  return same;
}

std::vector<std::shared_ptr<ComputeContext>> openSplitDevices(
    std::shared_ptr<ComputeContext> main, const std::vector<std::string>& selectors,
    bool oneContext) {
  std::vector<std::shared_ptr<ComputeContext>> out{main};
  std::vector<DeviceInfo> chosen;
  if (selectors.size() == 1 && selectors.front() == "all")
    chosen = splitCandidates(main->info());
  else
    for (const std::string& s : selectors) chosen.push_back(chooseDevice(s));
  std::set<std::pair<int, int>> seen{{main->info().platformIndex, main->info().deviceIndex}};
  for (const DeviceInfo& d : chosen) {
    if (!seen.insert({d.platformIndex, d.deviceIndex}).second) continue;
    ContextOptions options = main->options();
    options.deviceSelector = std::to_string(d.platformIndex) + "." + std::to_string(d.deviceIndex);
    out.push_back(ComputeContext::create(options));
  }
  if (oneContext) intoOneContext(out);
  return out;
}

std::vector<std::shared_ptr<ComputeContext>> openSubDevices(const ContextOptions& options,
                                                            int count, bool oneContext) {
  const DeviceInfo info = chooseDevice(options.deviceSelector);
  std::vector<std::shared_ptr<ComputeContext>> out;
  try {
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(std::size_t(info.platformIndex)).getDevices(CL_DEVICE_TYPE_ALL, &devices);
    cl::Device parent = devices.at(std::size_t(info.deviceIndex));
    const cl_uint units = parent.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    if (count < 1 || units < cl_uint(count))
      throw DeviceError(info.name + " has " + std::to_string(units) +
                        " compute units, too few for " + std::to_string(count) + " sub-devices.");
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  cl_device_partition_property(units / count), 0};
    std::vector<cl::Device> parts;
    parent.createSubDevices(props, &parts);
    parts.resize(std::min(parts.size(), std::size_t(count)));
    for (std::size_t i = 0; i < parts.size(); ++i)
      out.push_back(ComputeContext::createOn(
          parts[i], deviceInfo(parts[i], info.platformIndex, info.deviceIndex), options));
  } catch (const cl::Error& e) {
    rethrowClError(e, "partitioning " + info.name + " into sub-devices");
  }
  if (int(out.size()) != count)
    throw DeviceError(info.name + " gave " + std::to_string(out.size()) + " sub-devices, not " +
                      std::to_string(count) + ".");
  if (oneContext) intoOneContext(out);
  return out;
}

}  // namespace gvflab
