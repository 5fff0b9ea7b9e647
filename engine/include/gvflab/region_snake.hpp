#pragma once
// Region-based polygonal snake on the device (third paper: PLH criterion, cumulated images,
// 8-neighbour node moves, node insertion). The image lives on the device only as its two
// cumulated images (row prefix sums of z as uint and z² as ulong: 12 bytes per pixel; the
// 16-bit image itself, 2 more, only while they are built). A step never reads the image:
// each candidate segment costs one prefix lookup per row it covers.
#include <cstdint>
#include <memory>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/image.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/pinned_host.hpp"
#include "gvflab/region_types.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

enum class PrefixScan {
  Auto,        // WorkGroup on GPUs, Sequential on CPUs
  Sequential,  // one work-item per row
  WorkGroup,   // one work-group per row, chunked scan in local memory
};

struct RegionSnakeOptions {
  PrefixScan scan = PrefixScan::Auto;
  int scanLocalSize = 0;     // WorkGroup scan: power of two <= 256 (0: 256 on GPUs, 64 else)
  int maxRowsPerLaunch = 0;  // rows per prefix launch, balanced slices (0: 32768)
  // The image goes up in this many row bands on a second queue, each band's row prefix
  // running while the next one uploads (0 or 1: one upload, then the prefix; -1: the
  // device's default, see region_snake.cpp).
  int uploadBands = -1;
  // Nodes the per-node buffers and the pinned staging are first sized for (0: 64, doubling as
  // insertion adds nodes; every growth reallocates them, pinned memory included). -1: the
  // device's default.
  int nodeReserve = -1;
};

class RegionSnake {
 public:
  // Largest width, the readers' kMaxSide: a row's Σz must fit 32 bits.
  static constexpr int kMaxWidth = static_cast<int>(kMaxSide);
  static_assert(kMaxSide * 65535 < (std::int64_t(1) << 32));
  // InputError with the constructor's sentence unless it takes an image of this size (at
  // least 4 x 4, at most kMaxWidth wide and kMaxVoxels pixels), before any pixel is copied.
  static void checkImageSize(std::int64_t width, std::int64_t height);

  // z: width × height 16-bit grey levels, row-major, origin top-left. Builds the cumulated
  // images on the device and starts from the default rectangle. Throws InputError on bad
  // sizes, ResourceError when the image does not fit the device, DeviceError without fp64.
  RegionSnake(std::shared_ptr<ComputeContext> ctx, const std::uint16_t* z, int width, int height,
              RegionSnakeParams params = {}, RegionSnakeOptions options = {});
  // A [0, 1] image, quantised to 16 bits (see quantise).
  RegionSnake(std::shared_ptr<ComputeContext> ctx, const Image2D& image,
              RegionSnakeParams params = {}, RegionSnakeOptions options = {});
  ~RegionSnake();
  RegionSnake(const RegionSnake&) = delete;
  RegionSnake& operator=(const RegionSnake&) = delete;

  // round(clamp(v, 0, 1) · 65535); InputError for a NaN or infinite value.
  static std::vector<std::uint16_t> quantise(const Image2D& image);

  // Starts again from a polygon (at least 4 nodes, inside the image, simple), d = d_max.
  void reset(const std::vector<Point2i>& start);
  void reset() { reset(initialRectangle(width_, height_)); }
  // Changes the parameters and restarts from the current start polygon.
  void setParams(const RegionSnakeParams& params);

  // One step: every node tries its 8 neighbours at distance d (in phases of non-adjacent
  // nodes). When nothing moved, ends the iteration: inserts nodes, halves d. Returns false
  // once converged (no node could be added) or at max iterations.
  bool step();
  // Steps until converged (several steps queued per read of the state); returns the steps.
  long run();

  std::vector<Point2i> nodes() const;  // the polygon (read back with every step's state)
  RegionStats stats() const;           // reads the device state (a few bytes)
  RegionSums targetSums() const { return stats().target; }
  double criterion() const;  // as the device computed it for the current polygon
  RegionSums imageSums() const { return total_; }
  bool converged() const { return converged_; }
  // Whether it started again inside the object: it grew out of a start drawn around an
  // object, taking the background as its target (region/start_rule.hpp); start() is then
  // that square, and the steps count from it.
  bool restarted() const { return restarted_; }
  const std::vector<Point2i>& start() const { return start_; }
  bool finished() const { return finished_; }
  int width() const { return width_; }
  int height() const { return height_; }
  const RegionSnakeParams& params() const { return params_; }

  // Device memory held now / at the peak (while the cumulated images were built), per pixel.
  std::uint64_t deviceBytes() const { return deviceBytes_; }
  double bytesPerPixel() const;
  double peakBytesPerPixel() const;
  // OpenCL time of the upload and of building the cumulated images (ms).
  double uploadMs() const { return uploadMs_; }
  double precomputeMs() const { return precomputeMs_; }

  // Reads of the state by run() and step() so far (each one a wait for the device).
  long stateReads() const { return stateReads_; }
  // Wall time of the constructor's parts (ms): creating the buffers; the upload and cumulated
  // images until the image sums are read back; the start (reset: per-node buffers, pinned
  // staging, the first contributions).
  struct BuildWall {
    double allocMs = 0, prefixMs = 0, startMs = 0;
  };
  BuildWall buildWall() const { return buildWall_; }

  // For the tests: the cumulated images as the device built them.
  void readPrefix(std::vector<std::uint32_t>& cz, std::vector<std::uint64_t>& cz2) const;

 private:
  void build(const std::uint16_t* z);
  std::size_t slotBytes() const;
  std::size_t stagingBytes() const;
  void uploadNodes();       // hostNodes_ to the device; per-node buffers when they grow
  void prepareIteration();  // phase sizes, orientation, current contributions and sums
  void finishIteration();
  void restartInsideStart();
  void runPhase(int phase, long stepIndex);
  // Queues steps firstStep.. and the read of the nodes and the state into staging; returns the
  // state read's event.
  cl::Event queueSteps(long firstStep, int batch);
  bool runSteps(int batch);  // queues batch steps, then one read of the state
  bool finishSteps(int batch);
  void ensurePartial(std::size_t segments, int chunks);
  int chunksFor(long extent) const;
  void readState() const;

  std::shared_ptr<ComputeContext> ctx_;
  int width_, height_;
  RegionSnakeParams params_;
  RegionSnakeOptions options_;
  PrefixScan scan_ = PrefixScan::Auto;
  std::vector<Point2i> start_;

  std::vector<Point2i> hostNodes_;  // the nodes as of the last read of the state
  // Pinned staging of the small transfers: state (kStateBytes), nodes read, nodes uploaded.
  mutable PinnedHostBuffer staging_;
  cl::Buffer cz_, cz2lo_, cz2hi_, state_, nodes_, cur_, partial_;
  // region_phase's per-node work space (region_phase.cl).
  cl::Buffer segAcc_, counters_, moveGeom_, moveBest_, moveSums_, keep_;
  std::size_t partialCapacity_ = 0, nodeCapacity_ = 0;
  // cz, cz2lo, cz2hi, width, nodes, n, orient, chunks, partial
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl::Buffer, cl_int, cl_int, cl_int,
              cl::Buffer>
      contrib_;
  // partial, chunks, n, nodes, cur, state, model
  TypedKernel<cl::Buffer, cl_int, cl_int, cl::Buffer, cl::Buffer, cl::Buffer, cl_int> sumCurrent_;
  // cz, cz2lo, cz2hi, width, height, nodes, n, phase, mcount, d, orient, chunks, model, state,
  // cur, stepIndex, iterationFirstStep, segAcc, counters, moveGeom, moveBest, moveSums, keep
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl::Buffer, cl_int, cl_int,
              cl_int, cl_int, cl_int, cl_int, cl_int, cl::Buffer, cl::Buffer, cl_int, cl_int,
              cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer>
      phase_;
  std::size_t contribLocal_ = 64, applyLocal_ = 256;

  RegionSums total_;
  int n_ = 0;                   // nodes
  std::vector<int> phaseSize_;  // nodes in each phase of a step
  int orientation_ = 1;
  int d_ = 1;
  int iteration_ = 0;
  long steps_ = 0, stepsInIteration_ = 0;
  bool converged_ = false, finished_ = false;
  bool restarted_ = false;
  mutable std::int64_t hostState_[16] = {};
  long lastMoves_ = 0;
  long maxExtent_ = 0;

  std::uint64_t deviceBytes_ = 0, peakBytes_ = 0;
  double uploadMs_ = 0, precomputeMs_ = 0;
  long stateReads_ = 0;
  BuildWall buildWall_;
};

}  // namespace gvflab
