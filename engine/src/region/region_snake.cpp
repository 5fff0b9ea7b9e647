#include "gvflab/region_snake.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/polygon_geometry.hpp"
#include "gvflab/profiler.hpp"
#include "region/polygon_ops.hpp"
#include "region/start_rule.hpp"

namespace gvflab {
namespace {

constexpr int kRowsPerItem = 4;     // rows a work-item sums per segment chunk (chunk count)
constexpr int kMaxLocal = 256;      // = MAX_LOCAL in region_common.clh and PREFIX_MAX_G
constexpr int kPhaseMaxLocal = 64;  // = SCRATCH_G in region_phase.cl
constexpr int kStateLongs = 16;
constexpr std::size_t kStateBytes = kStateLongs * 8;
constexpr int kFirstBatch = 2, kMaxBatch = 32;  // steps queued per read of the state

std::size_t powerOfTwoAtMost(std::size_t n) { return std::bit_floor(std::max<std::size_t>(n, 1)); }

}  // namespace

std::vector<std::uint16_t> RegionSnake::quantise(const Image2D& image) {
  std::vector<std::uint16_t> z(image.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    // As buildGvfInput: a NaN or infinity is refused, never read as 0.
    if (!std::isfinite(image.pixels[i]))
      throw InputError("The image contains NaN or infinite values.");
    const float v = std::clamp(image.pixels[i], 0.0f, 1.0f);
    z[i] = static_cast<std::uint16_t>(std::lround(v * 65535.0f));
  }
  return z;
}

RegionSnake::RegionSnake(std::shared_ptr<ComputeContext> ctx, const Image2D& image,
                         RegionSnakeParams params, RegionSnakeOptions options)
    : RegionSnake(std::move(ctx), quantise(image).data(), image.width, image.height, params,
                  options) {}

void RegionSnake::checkImageSize(std::int64_t width, std::int64_t height) {
  if (width < 4 || height < 4)
    throw InputError("The region snake needs an image of at least 4 x 4 pixels.");
  if (width > kMaxWidth)
    throw InputError("The region snake handles images up to " + std::to_string(kMaxWidth) +
                     " pixels wide (a row's sum must fit 32 bits); this one is " +
                     std::to_string(width) + " wide.");
  if (height > kMaxVoxels / width)
    throw InputError("The region snake handles images up to 2^31 pixels; this one has " +
                     std::to_string(static_cast<std::uint64_t>(width) * height) + ".");
}

RegionSnake::RegionSnake(std::shared_ptr<ComputeContext> ctx, const std::uint16_t* z, int width,
                         int height, RegionSnakeParams params, RegionSnakeOptions options)
    : ctx_(std::move(ctx)), width_(width), height_(height), params_(params), options_(options) {
  validate(params_);
  if (!z) throw InputError("The region snake needs an image of at least 4 x 4 pixels.");
  checkImageSize(width, height);
  for (const auto& [extension, need] :
       {std::pair{"cl_khr_fp64", "double precision (cl_khr_fp64) for its criterion"},
        std::pair{"cl_khr_int64_base_atomics",
                  "64-bit atomics (cl_khr_int64_base_atomics) to sum its segments"}})
    if (!ctx_->info().hasExtension(extension))
      throw DeviceError(std::string("The region snake needs ") + need + ", which " +
                        ctx_->info().name + " does not offer.");
  scan_ = options_.scan;
  if (scan_ == PrefixScan::Auto)
    scan_ = ctx_->info().isGpu ? PrefixScan::WorkGroup : PrefixScan::Sequential;
  const std::size_t maxLocal = powerOfTwoAtMost(std::min<std::size_t>(
      kMaxLocal, ctx_->info().maxWorkGroupSize ? ctx_->info().maxWorkGroupSize : 1));
  // Short segments dominate late iterations; CPUs pay for every idle item of a group.
  contribLocal_ = std::min<std::size_t>(ctx_->info().isGpu ? kPhaseMaxLocal : 16, maxLocal);
  if (contribLocal_ < 8)
    throw DeviceError(ctx_->info().name + " runs work-groups of at most " +
                      std::to_string(maxLocal) + " items; the region snake needs 8.");
  applyLocal_ = ctx_->info().isGpu ? maxLocal : std::min<std::size_t>(64, maxLocal);
  // Defaults of the launch shapes (-1), as measured in docs/BENCHMARKS.md ("Issue 29 item 4,
  // second round").
  // GPUs, images of 50 MP or more: 8 upload bands (150 MP on an H200: upload + prefixes
  // 5.8 against 6.5 ms wall, 8 of 8 pairs; 15 MP 0.1-0.2 ms slower, so small images keep one
  // upload; the prefix there takes 0.1 ms, all that overlap could save).
  if (options_.uploadBands < 0)
    options_.uploadBands =
        ctx_->info().isGpu && static_cast<std::int64_t>(width) * height >= 50'000'000 ? 8 : 0;
  // GPUs: the per-node buffers and pinned staging once, not at every doubling (15 MP on an
  // H200: faster in 8 of 10 and 8 of 8 pairs of two runs; 150 MP even; CPUs not measured).
  if (options_.nodeReserve < 0) options_.nodeReserve = ctx_->info().isGpu ? 4096 : 0;
  build(z);
  const auto t0 = std::chrono::steady_clock::now();
  start_ = initialRectangle(width_, height_);
  reset(start_);
  buildWall_.startMs = msSince(t0);
}

RegionSnake::~RegionSnake() {
  // The last upload may still be reading the staging memory.
  try {
    if (ctx_) ctx_->queue().finish();
  } catch (...) {
  }
}

void RegionSnake::build(const std::uint16_t* z) {
  const std::uint64_t px = static_cast<std::uint64_t>(width_) * height_;
  // Largest single buffer: Σz or the low part of Σz², 4 bytes per pixel.
  ctx_->checkAllocation(px * 4, "A cumulated image of the region snake (4 bytes per pixel)");
  // Whole footprint at the peak: image 2 B + Σz 4 B + Σz² 6 B per pixel.
  if (px * 12 > ctx_->info().globalMemBytes)
    throw ResourceError("The region snake needs " + std::to_string((px * 12) >> 20) +
                        " MiB (12 bytes per pixel while it prepares), more than the " +
                        std::to_string(ctx_->info().globalMemBytes >> 20) + " MiB of " +
                        ctx_->info().name + ".");
  try {
    const auto t0 = std::chrono::steady_clock::now();
    auto& cl = ctx_->context();
    cl::Buffer image(cl, CL_MEM_READ_ONLY, px * 2);
    cz_ = cl::Buffer(cl, CL_MEM_READ_WRITE, px * 4);
    cz2lo_ = cl::Buffer(cl, CL_MEM_READ_WRITE, px * 4);
    cz2hi_ = cl::Buffer(cl, CL_MEM_READ_WRITE, px * 2);
    state_ = cl::Buffer(cl, CL_MEM_READ_WRITE, kStateLongs * 8);
    buildWall_.allocMs = msSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    // Balanced slices, as the paper found faster than full slices plus a remainder. With
    // upload bands, a slice is at most a band: its prefix waits only for its own rows.
    const int bands = std::clamp(options_.uploadBands, 1, height_);
    int maxRows = options_.maxRowsPerLaunch > 0 ? options_.maxRowsPerLaunch : 32768;
    if (bands > 1) maxRows = std::min(maxRows, (height_ + bands - 1) / bands);
    const int slices = (height_ + maxRows - 1) / maxRows;
    const int rowsPerSlice = (height_ + slices - 1) / slices;
    std::vector<cl::Event> events, uploads;
    // Bands: the writes go on a queue of their own (a copy engine on GPUs) so that the prefix
    // of one band, on the main queue, runs while the next band is on the bus.
    cl::CommandQueue copyQueue;
    if (bands > 1)
      copyQueue = cl::CommandQueue(cl, ctx_->device(),
                                   ctx_->options().profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
    else {
      cl::Event up;
      ctx_->queue().enqueueWriteBuffer(image, CL_FALSE, 0, px * 2, z, nullptr, &up);
      uploads.push_back(up);
    }
    // Enqueues the prefix of rows [r0, r0 + rows) after their upload.
    auto slice = [&](const cl::Kernel& k, int r0, int rows, const cl::NDRange& global,
                     const cl::NDRange& local) {
      std::vector<cl::Event> wait;
      if (bands > 1) {
        const std::size_t off = static_cast<std::size_t>(r0) * width_;
        cl::Event up;
        copyQueue.enqueueWriteBuffer(image, CL_FALSE, off * 2,
                                     static_cast<std::size_t>(rows) * width_ * 2, z + off, nullptr,
                                     &up);
        copyQueue.flush();
        uploads.push_back(up);
        wait.push_back(up);
      }
      cl::Event ev;
      ctx_->queue().enqueueNDRangeKernel(k, cl::NullRange, global, local,
                                         wait.empty() ? nullptr : &wait, &ev);
      ctx_->profiler().record("region_prefix", ev);
      events.push_back(ev);
    };
    if (scan_ == PrefixScan::WorkGroup) {
      std::size_t local = options_.scanLocalSize > 0 ? options_.scanLocalSize
                          : ctx_->info().isGpu       ? 256
                                                     : 64;
      if (local > kMaxLocal || std::popcount(local) != 1 || local > ctx_->info().maxWorkGroupSize)
        throw ParameterError(
            "The prefix-scan work-group size must be a power of two up to 256 "
            "that the device accepts.");
      // z, cz, cz2lo, cz2hi, width, rowOffset
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int> k =
          ctx_->kernels().kernel("region_prefix.cl", "region_prefix_rows_group");
      for (int r0 = 0; r0 < height_; r0 += rowsPerSlice) {
        const int rows = std::min(rowsPerSlice, height_ - r0);
        k.set(image, cz_, cz2lo_, cz2hi_, width_, r0);
        slice(k, r0, rows, cl::NDRange(rows * local), cl::NDRange(local));
      }
    } else {
      // z, cz, cz2lo, cz2hi, width, rowOffset, rows
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int> k =
          ctx_->kernels().kernel("region_prefix.cl", "region_prefix_rows_seq");
      for (int r0 = 0; r0 < height_; r0 += rowsPerSlice) {
        const int rows = std::min(rowsPerSlice, height_ - r0);
        k.set(image, cz_, cz2lo_, cz2hi_, width_, r0, rows);
        slice(k, r0, rows, cl::NDRange(detail::roundUp(rows, 16)), cl::NDRange(16));
      }
    }
    // cz, cz2lo, cz2hi, width, height, state, scratch
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl::Buffer, cl::LocalSpaceArg>
        total = ctx_->kernels().kernel("region_prefix.cl", "region_total");
    const std::size_t tl = std::min<std::size_t>(applyLocal_, 256);
    total.set(cz_, cz2lo_, cz2hi_, width_, height_, state_, cl::Local(tl * 8));
    cl::Event tev;
    ctx_->queue().enqueueNDRangeKernel(total, cl::NullRange, cl::NDRange(tl), cl::NDRange(tl),
                                       nullptr, &tev);
    ctx_->profiler().record("region_total", tev);
    events.push_back(tev);
    ctx_->queue().enqueueReadBuffer(state_, CL_TRUE, 0, sizeof hostState_, hostState_);
    buildWall_.prefixMs = msSince(t1);
    uploadMs_ = 0;  // the time on the bus (banded: the writes' sum, overlapped with prefixes)
    for (auto& e : uploads) {
      ctx_->profiler().record("region_upload", e);
      uploadMs_ += eventMs(e);
    }
    precomputeMs_ = 0;
    for (auto& e : events) precomputeMs_ += eventMs(e);
    total_ = {hostState_[3], hostState_[4], hostState_[5]};

    contrib_ = ctx_->kernels().kernel("region_snake.cl", "region_contrib");
    sumCurrent_ = ctx_->kernels().kernel("region_snake.cl", "region_sum_current");
    // NVIDIA: coherent loads in PTX (region_moves.clh says why).
    const bool nvidia = ctx_->info().platformName.find("NVIDIA") != std::string::npos;
    const std::string phaseOptions = nvidia ? "-DGVFLAB_PTX_LOADS" : "";
    phase_ = ctx_->kernels().kernel("region_phase.cl", "region_phase", phaseOptions);
  } catch (const cl::Error& e) {
    rethrowClError(e, "building the cumulated images of a " + std::to_string(width_) + " x " +
                          std::to_string(height_) + " image");
  }
  peakBytes_ = px * 12 + kStateLongs * 8;
  deviceBytes_ = px * 10 + kStateLongs * 8;  // the 16-bit image is released here
}

double RegionSnake::bytesPerPixel() const {
  return static_cast<double>(deviceBytes_) / (static_cast<double>(width_) * height_);
}
double RegionSnake::peakBytesPerPixel() const {
  return static_cast<double>(std::max(peakBytes_, deviceBytes_)) /
         (static_cast<double>(width_) * height_);
}

void RegionSnake::setParams(const RegionSnakeParams& params) {
  validate(params);
  params_ = params;
  reset(start_);
}

void RegionSnake::reset(const std::vector<Point2i>& start) {
  if (start.size() < 4) throw ParameterError("The starting polygon needs at least 4 nodes.");
  for (const auto& p : start)
    if (p.x < 0 || p.y < 0 || p.x >= width_ || p.y >= height_)
      throw ParameterError("The starting polygon must lie inside the " + std::to_string(width_) +
                           " x " + std::to_string(height_) + " image.");
  if (!polygonIsSimple(start)) throw ParameterError("The starting polygon crosses itself.");
  start_ = start;
  restarted_ = false;
  n_ = static_cast<int>(start.size());
  d_ = params_.dMax;
  iteration_ = 0;
  steps_ = stepsInIteration_ = 0;
  converged_ = finished_ = false;
  try {
    ctx_->queue().finish();  // no upload may still read the staging memory
    // Index 9, the last step that moved, starts before the first step.
    const std::int64_t zeroState[kStateLongs] = {0,         0, 0, total_.n, total_.s1,
                                                 total_.s2, 0, 0, 0,        -1};
    ctx_->queue().enqueueWriteBuffer(state_, CL_TRUE, 0, sizeof zeroState, zeroState);
    std::memcpy(hostState_, zeroState, sizeof zeroState);
    lastMoves_ = 0;
    hostNodes_ = start;
    nodeCapacity_ = 0;
    uploadNodes();
    prepareIteration();
  } catch (const cl::Error& e) {
    rethrowClError(e, "starting the region snake");
  }
}

int RegionSnake::chunksFor(long extent) const {
  const long rows = std::clamp<long>(extent, 1, height_);
  const long per = static_cast<long>(contribLocal_) * kRowsPerItem;
  return static_cast<int>((rows + per - 1) / per);
}

void RegionSnake::ensurePartial(std::size_t segments, int chunks) {
  const std::size_t need = segments * static_cast<std::size_t>(chunks) * 3 * 8;
  if (need <= partialCapacity_) return;
  partialCapacity_ = std::max(need, 2 * partialCapacity_);
  ctx_->checkAllocation(partialCapacity_, "The region snake's segment sums");
  partial_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, partialCapacity_);
}

// The nodes (hostNodes_) go to the device, in the order of the queue, from pinned staging that
// stays untouched until the next read of the state has waited for them.
void RegionSnake::uploadNodes() {
  n_ = static_cast<int>(hostNodes_.size());
  if (nodeCapacity_ < hostNodes_.size()) {
    nodeCapacity_ = std::max<std::size_t>(
        {64, 2 * hostNodes_.size(), static_cast<std::size_t>(std::max(0, options_.nodeReserve))});
    nodes_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, nodeCapacity_ * 8);
    // Per-node work space of region_phase, at most half the nodes per phase (plus the odd one).
    auto& cl = ctx_->context();
    const std::size_t maxM = nodeCapacity_ / 2 + 1;
    cur_ = cl::Buffer(cl, CL_MEM_READ_WRITE, nodeCapacity_ * 3 * 8);
    // The accumulators and counters start at zero and region_phase leaves them so.
    segAcc_ = cl::Buffer(cl, CL_MEM_READ_WRITE, maxM * 16 * 3 * 8);
    counters_ = cl::Buffer(cl, CL_MEM_READ_WRITE, (maxM + 2) * 4);
    ctx_->queue().enqueueFillBuffer(segAcc_, std::int64_t(0), 0, maxM * 16 * 3 * 8);
    ctx_->queue().enqueueFillBuffer(counters_, 0, 0, (maxM + 2) * 4);
    moveGeom_ = cl::Buffer(cl, CL_MEM_READ_WRITE, maxM * 8 * 4);  // records: region_moves.clh
    moveBest_ = cl::Buffer(cl, CL_MEM_READ_WRITE, maxM * 8);
    moveSums_ = cl::Buffer(cl, CL_MEM_READ_WRITE, maxM * 9 * 8);
    keep_ = cl::Buffer(cl, CL_MEM_READ_WRITE, maxM * 4);
  }
  if (staging_.size() < stagingBytes())  // the queue is idle here (after a read or finish)
    staging_ = PinnedHostBuffer(*ctx_, stagingBytes());
  auto* up = staging_.as<Point2i>(slotBytes());
  std::copy(hostNodes_.begin(), hostNodes_.end(), up);
  ctx_->queue().enqueueWriteBuffer(nodes_, CL_FALSE, 0, hostNodes_.size() * 8, up);
}

// Called once the nodes are uploaded: phases, current contributions, no wait for the device.
void RegionSnake::prepareIteration() {
  const std::vector<Point2i>& nodes = hostNodes_;
  orientation_ = detail::orientationOf(nodes);
  long extent = 0;
  for (int j = 0; j < n_; ++j)
    extent = std::max<long>(extent, std::abs(nodes[(j + 1) % n_].y - nodes[j].y));

  // Phases of non-adjacent nodes: even, odd, and the last alone when n is odd (the kernels
  // find phase node m as phase_node() in region_common.clh).
  phaseSize_ = {n_ / 2, n_ / 2};
  if (n_ % 2) phaseSize_.push_back(1);
  phase_.arg<0>(cz_), phase_.arg<1>(cz2lo_), phase_.arg<2>(cz2hi_);
  phase_.arg<3>(width_), phase_.arg<4>(height_), phase_.arg<5>(nodes_);
  phase_.arg<6>(n_), phase_.arg<10>(orientation_);
  phase_.arg<12>(static_cast<int>(params_.noise)), phase_.arg<13>(state_);
  phase_.arg<14>(cur_), phase_.arg<17>(segAcc_), phase_.arg<18>(counters_);
  phase_.arg<19>(moveGeom_), phase_.arg<20>(moveBest_), phase_.arg<21>(moveSums_);
  phase_.arg<22>(keep_);

  const int chunks = chunksFor(extent);
  ensurePartial(n_, chunks);
  contrib_.set(cz_, cz2lo_, cz2hi_, width_, nodes_, n_, orientation_, chunks, partial_);
  detail::enqueue1D(*ctx_, contrib_, "region_contrib", std::size_t(n_) * chunks * contribLocal_,
                    contribLocal_);
  sumCurrent_.set(partial_, chunks, n_, nodes_, cur_, state_, static_cast<int>(params_.noise));
  detail::enqueue1D(*ctx_, sumCurrent_, "region_sum_current", applyLocal_, applyLocal_);
  maxExtent_ = extent;
}

// Two read slots (state, then the nodes; the pipelined run alternates them), then the nodes
// to upload.
std::size_t RegionSnake::slotBytes() const { return kStateBytes + nodeCapacity_ * 8; }
std::size_t RegionSnake::stagingBytes() const { return slotBytes() + nodeCapacity_ * 8; }

void RegionSnake::readState() const {
  ctx_->queue().enqueueReadBuffer(state_, CL_TRUE, 0, kStateBytes, staging_.as<void>());
  std::memcpy(hostState_, staging_.as<void>(), kStateBytes);
}

void RegionSnake::runPhase(int p, long stepIndex) {
  const int m = phaseSize_[p];
  if (m == 0) return;
  // Candidate segments are at most d taller than a current one; rows past the chunks still
  // get summed (segment_rows strides over them), so the count only balances the work.
  const int chunks = chunksFor(maxExtent_ + d_);
  phase_.arg<7>(p), phase_.arg<8>(m), phase_.arg<9>(d_);
  phase_.arg<11>(chunks), phase_.arg<15>(static_cast<int>(stepIndex));
  phase_.arg<16>(static_cast<int>(steps_ - stepsInIteration_));
  const std::size_t groups = std::size_t(16) * m * chunks;
  detail::enqueue1D(*ctx_, phase_, "region_phase", groups * contribLocal_, contribLocal_);
}

bool RegionSnake::step() { return runSteps(1); }

cl::Event RegionSnake::queueSteps(long firstStep, int batch) {
  for (int s = 0; s < batch; ++s)
    for (std::size_t p = 0; p < phaseSize_.size(); ++p)
      runPhase(static_cast<int>(p), firstStep + s);
  char* base = staging_.as<char>(0);
  ctx_->queue().enqueueReadBuffer(nodes_, CL_FALSE, 0, n_ * 8, base + kStateBytes);
  ++stateReads_;
  cl::Event read;
  ctx_->queue().enqueueReadBuffer(state_, CL_FALSE, 0, kStateBytes, base, nullptr, &read);
  ctx_->queue().flush();
  return read;
}

bool RegionSnake::runSteps(int batch) {
  if (finished_) return false;
  batch = static_cast<int>(
      std::clamp<long>(batch, 1, params_.maxStepsPerIteration - stepsInIteration_));
  try {
    queueSteps(steps_, batch).wait();  // the state's read waits for the nodes' (in order)
  } catch (const cl::Error& e) {
    rethrowClError(e, "moving the region snake's nodes");
  }
  return finishSteps(batch);
}

// The batch of steps from steps_ whose state and nodes are in staging.
bool RegionSnake::finishSteps(int batch) {
  char* base = staging_.as<char>(0);
  std::memcpy(hostState_, base, kStateBytes);
  auto* read = reinterpret_cast<Point2i*>(base + kStateBytes);
  std::copy(read, read + n_, hostNodes_.begin());
  maxExtent_ = hostState_[8];
  const bool moved = hostState_[7] != lastMoves_;
  lastMoves_ = hostState_[7];
  // A step that moves nothing leaves everything as it was, so all later ones do the same: the
  // iteration ended at the first step after the last one that moved.
  const long lastMoving = moved ? hostState_[9] : steps_ - 1;
  const bool lastStepMoved = moved && lastMoving == steps_ + batch - 1;
  const long done = lastStepMoved ? batch : lastMoving + 2 - steps_;
  steps_ += done, stepsInIteration_ += done;
  if (!lastStepMoved || stepsInIteration_ >= params_.maxStepsPerIteration) {
    finishIteration();
    return !finished_;
  }
  return true;
}

void RegionSnake::finishIteration() {
  ++iteration_;
  stepsInIteration_ = 0;
  if (iteration_ >= params_.maxIterations) {
    finished_ = true;
    restartInsideStart();
    return;
  }
  std::vector<Point2i> nodes = hostNodes_;
  if (detail::insertMidpoints(nodes, params_.minSegment) == 0) {
    converged_ = finished_ = true;
    restartInsideStart();
    return;
  }
  d_ = std::max(1, d_ / 2);
  try {
    hostNodes_ = std::move(nodes);
    uploadNodes();
    prepareIteration();
  } catch (const cl::Error& e) {
    rethrowClError(e, "inserting region snake nodes");
  }
}

// The target is the inside of the start (region/start_rule.hpp): a snake that grew out of a
// start drawn around an object runs once more, from a square inside that object.
void RegionSnake::restartInsideStart() {
  if (restarted_) return;
  const detail::PixelBox box = detail::startBox(start_);
  if (box.pixels() > detail::kMaxStartBoxPixels) return;
  // The start's box of grey levels, from the cumulated rows (z = cz[x] - cz[x - 1]).
  const int left = box.x0 > 0 ? 1 : 0, w = box.width() + left, h = box.height();
  std::vector<std::uint32_t> cz(std::size_t(w) * h);
  try {
    const std::array<cl::size_type, 3> origin{std::size_t(box.x0 - left) * 4, std::size_t(box.y0),
                                              0};
    const std::array<cl::size_type, 3> region{std::size_t(w) * 4, std::size_t(h), 1};
    ctx_->queue().enqueueReadBufferRect(cz_, CL_TRUE, origin, {0, 0, 0}, region,
                                        std::size_t(width_) * 4, 0, std::size_t(w) * 4, 0,
                                        cz.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the region snake's start");
  }
  std::vector<std::uint16_t> z(std::size_t(box.pixels()));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < box.width(); ++x) {
      const std::size_t i = std::size_t(y) * w + x + left;
      z[std::size_t(y) * box.width() + x] =
          static_cast<std::uint16_t>(cz[i] - (x + left > 0 ? cz[i - 1] : 0));
    }
  const auto retry = detail::startAroundObject(start_, hostState_[0], z);
  if (!retry) return;
  reset(*retry);
  restarted_ = true;
}

long RegionSnake::run() {
  // Several steps per read of the state: fewer round trips, same result as single steps.
  // Steps queued past the end of an iteration return at once on the device.
  const long before = steps_;
  // Each queued step past the iteration's end still costs a launch (~10 µs on an H200), each
  // read a drained queue: 2, 4, 8, 16, 32 steps per read measured best at 15 MP without
  // profiling (docs/BENCHMARKS.md).
  int batch = kFirstBatch, iteration = iteration_;
  while (runSteps(batch)) {
    batch = iteration_ == iteration ? std::min(2 * batch, kMaxBatch) : kFirstBatch;
    iteration = iteration_;
  }
  return steps_ - before;
}

double RegionSnake::criterion() const {
  readState();
  double c;
  std::memcpy(&c, &hostState_[6], sizeof c);
  return c;
}

std::vector<Point2i> RegionSnake::nodes() const { return hostNodes_; }

RegionStats RegionSnake::stats() const {
  try {
    readState();
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the region snake's state");
  }
  RegionStats st;
  st.target = {hostState_[0], hostState_[1], hostState_[2]};
  fillRegionStats(st, total_, params_.noise);
  st.step = d_;
  st.iteration = iteration_;
  st.steps = steps_;
  st.nodes = n_;
  st.converged = converged_;
  return st;
}

void RegionSnake::readPrefix(std::vector<std::uint32_t>& cz,
                             std::vector<std::uint64_t>& cz2) const {
  const std::size_t px = static_cast<std::size_t>(width_) * height_;
  cz.resize(px), cz2.resize(px);
  std::vector<std::uint32_t> lo(px);
  std::vector<std::uint16_t> hi(px);
  try {
    ctx_->queue().enqueueReadBuffer(cz_, CL_FALSE, 0, px * 4, cz.data());
    ctx_->queue().enqueueReadBuffer(cz2lo_, CL_FALSE, 0, px * 4, lo.data());
    ctx_->queue().enqueueReadBuffer(cz2hi_, CL_TRUE, 0, px * 2, hi.data());
    for (std::size_t i = 0; i < px; ++i) cz2[i] = (std::uint64_t(hi[i]) << 32) | lo[i];
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the cumulated images");
  }
}

}  // namespace gvflab
