#include "gvf/tile3d.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab::detail {
namespace {

// The fastest shapes measured on an H200 (docs/BENCHMARKS.md), each with its time at 256³ x 256
// (0: a fallback for devices where none with a time fits, taken in order), each precision's
// from one call: the estimate below then picks the fastest of a precision's timed presets, or
// one within 9 %, at the 17 sizes timed there (64-512³). f16 steps half-precision pairs where
// the device has f16x2 instructions and the grid unit spacing: pairs of columns
// (gvf_euler3d_tiled_h2c.cl) where the width is even, 66 x 20 x 4, 34 x 36 x 2, 34 x 36 x 3 or
// 34 x 42 x 3 (lanes of two columns), faster than pairs of rows at 16 of 17 sizes (256³ x 256:
// 12.51 against 17.45 ms, twenty-third session); pairs of rows (gvf_euler3d_tiled_h2.cl) on odd
// widths: 36 x 20 x 4, two groups a unit, or 36 x 40 x 4 where its 36 written rows cover the
// volume better (384³ x 64: 14.04 against 15.11 ms) and 68 x 20 x 4; either faster than float32
// arithmetic at every size (256³ x 256: 17.59 against 19.97 ms, twenty-second session).
// Otherwise 16 bit holds
// the next planes raw a loop turn ahead (RAW_PREFETCH): 68 wide with 4 rows per work-item, or 36
// wide, with 39 rows where their 35 written ones cover the volume better; snorm16 the same
// shapes with 4 rows at 36 wide and branchless plane indices (384³ x 64: 36 x 39 x 3 18.61
// against 20.26 and 20.99 ms). float32 gains nothing from raw planes: with V0 copied
// asynchronously (NVIDIA, compute capability 8.0 and later) it runs best 68 wide, else with
// smaller groups, two per compute unit, and branchless plane indices. The last two are for
// devices with small work-groups.
struct Preset {
  Tile3D tile;
  double ms256 = 0;
};

std::vector<Preset> presets(Precision p) {
  const Tile3D wide{.tx = 36, .ty = 36, .rows = 3, .rawPrefetch = true};
  const Tile3D wider{.tx = 68, .ty = 20, .rows = 4, .rawPrefetch = true};
  const Tile3D tall{.tx = 36, .ty = 39, .rows = 3, .rawPrefetch = true};
  const Tile3D narrow{.tx = 20, .ty = 36, .rows = 3, .branchlessPlanes = true};
  const Tile3D async{.tx = 68, .ty = 20, .rows = 4, .branchlessPlanes = true, .asyncV0 = true};
  const Tile3D snormWide{
      .tx = 68, .ty = 20, .rows = 4, .rawPrefetch = true, .branchlessPlanes = true};
  const Tile3D snorm{.tx = 36, .ty = 36, .rows = 4, .rawPrefetch = true, .branchlessPlanes = true};
  const Tile3D snormTall{
      .tx = 36, .ty = 39, .rows = 3, .rawPrefetch = true, .branchlessPlanes = true};
  const Tile3D small{.tx = 24, .ty = 16, .rows = 1}, tiny{.tx = 12, .ty = 8, .rows = 1};
  if (p == Precision::F32) return {{async, 24.10}, {narrow, 26.13}, {wide}, {small}, {tiny}};
  if (p == Precision::SNorm16)
    return {{snormWide, 23.58}, {snorm, 24.47}, {snormTall, 25.21}, {wide}, {small}, {tiny}};
  // f16 in half-precision pairs where the device has f16x2 instructions and the grid unit
  // spacing: pairs of columns where the width is even, else pairs of rows; elsewhere float32
  // arithmetic's presets (all six timed in one call).
  const auto columns = [](int tx, int ty, int rows) {
    return Tile3D{.tx = tx, .ty = ty, .rows = rows, .halfPairs = true, .pairColumns = true};
  };
  const Tile3D pairs{.tx = 36, .ty = 20, .rows = 4, .branchlessPlanes = true, .halfPairs = true};
  const Tile3D pairsWide{
      .tx = 68, .ty = 20, .rows = 4, .branchlessPlanes = true, .halfPairs = true};
  const Tile3D pairsTall{
      .tx = 36, .ty = 40, .rows = 4, .branchlessPlanes = true, .halfPairs = true};
  return {{columns(66, 20, 4), 12.51},
          {columns(34, 36, 2), 12.60},
          {columns(34, 36, 3), 12.70},
          {columns(34, 42, 3), 13.35},
          {pairs, 17.59},
          {pairsWide, 18.04},
          {pairsTall, 18.87},
          {wider, 19.97},
          {wide, 20.41},
          {tall, 21.26},
          {narrow},
          {small},
          {tiny}};
}

int workItems(const Tile3D& t) { return t.tx * (t.ty / std::max(1, t.rows)); }

// Work-groups of a tile that run at once: groups of up to 256 work-items are assumed to fit
// twice on a compute unit.
std::uint64_t slots(const Tile3D& t, const DeviceInfo& device) {
  return std::uint64_t(std::max(1, device.computeUnits)) * (workItems(t) <= 256 ? 2 : 1);
}

// A work-group walks its chunk plus about four planes (two read before it, the pipeline's fill).
constexpr std::uint64_t kPlanesAChunk = 4;

// The planes each of `slots` running groups walks over all waves of a launch, for `layer` groups
// a layer in chunks of z planes.
std::uint64_t planesWalked(std::uint64_t layer, std::uint64_t slots, int depth, int z) {
  const std::uint64_t chunks = (std::uint64_t(depth) + z - 1) / z;
  const std::uint64_t waves = (layer * chunks + slots - 1) / std::max<std::uint64_t>(1, slots);
  return waves * (z + kPlanesAChunk);
}

std::uint64_t groupsALayer(const Tile3D& t, FieldShape shape) {
  return tile3dGroups(t, shape, 0) * tile3dGroups(t, shape, 1);
}

// The same for a tile, with its chunk or, where it has none, the one tile3dChunk picks.
std::uint64_t walkedPlanes(const Tile3D& t, FieldShape shape, const DeviceInfo& device) {
  const std::uint64_t layer = groupsALayer(t, shape), s = slots(t, device);
  const int z = t.zChunk > 0 ? t.zChunk : tile3dChunk(layer, s, shape.depth);
  return planesWalked(layer, s, shape.depth, z);
}

// A preset's time at 256³ scaled by the planes its groups walk, one wave after another, against
// 256³: a turn of a tile costs about the same wherever it runs. H200, ms of f32 68 x 20 x 4 async
// against 20 x 36 x 3 (estimated): 96³ x 512 4.83 / 4.41 (4.84 / 4.36), 160³ x 128 3.99 / 3.74
// (4.09 / 3.57), 200³ x 128 7.61 / 7.92 (8.18 / 8.62). It picked the faster preset in f32 and
// snorm16 at all seven sizes timed after it was written (80-352³); scaled by the columns
// covered (bytes) instead, the slower one at 200³, 208³ and 352³ (35.6 against 31.7 ms).
double estimatedMs(const Preset& p, FieldShape shape, const DeviceInfo& device) {
  return p.ms256 * double(walkedPlanes(p.tile, shape, device)) /
         double(walkedPlanes(p.tile, FieldShape{256, 256, 256}, device));
}

// Pairs of rows: a 32-bit word holds two rows of a column.
bool pairRows(const Tile3D& t) { return t.halfPairs && !t.pairColumns; }

// The tiles' rows of 32-bit words.
int wordRows(const Tile3D& t) { return pairRows(t) ? t.ty / 2 : t.ty; }

// The two tiles of gvf_euler3d_tiled.cl, input and once-stepped plane, three components each.
std::uint64_t tilesBytes(const Tile3D& t) {
  return 2ull * 3 * wordRows(t) * tile3dPitch(t) * sizeof(float);
}

std::string text(const Tile3D& t) {
  return std::to_string(t.tx) + "x" + std::to_string(t.ty) + " with " + std::to_string(t.rows) +
         (t.rows == 1 ? " row" : " rows") + " per work-item" +
         (t.pairColumns ? " in pairs of columns" : "");
}

}  // namespace

int tile3dLaneColumns(const Tile3D& t) { return t.pairColumns ? 2 : 1; }

int tile3dFrameLanes(const Tile3D& t) { return 2 / tile3dLaneColumns(t); }

Tile3DKernel tile3dKernel(const Tile3D& t) {
  if (!t.halfPairs) return {"gvf_euler3d_tiled.cl", "gvf_euler_2steps3d_tiled"};
  if (t.pairColumns) return {"gvf_euler3d_tiled_h2c.cl", "gvf_euler_2steps3d_tiled_h2c"};
  return {"gvf_euler3d_tiled_h2.cl", "gvf_euler_2steps3d_tiled_h2"};
}

TileLane tile3dLane(const Tile3D& t, int lane) {
  // Also asked of tiles refused (for the sentence that names their bytes): no division by 0.
  const int rows = std::max(1, t.rows), tx = std::max(1, t.tx);
  const int frame = tile3dFrameLanes(t), inner = t.tx - 2 * frame, items = inner * (t.ty / rows);
  if (inner <= 0 || inner % 32 != 0) return {lane % tx, lane / tx * rows};
  if (lane < items) return {frame + lane % inner, lane / inner * rows};
  const int f = lane - items, k = f % (2 * frame);
  return {k < frame ? k : inner + k, f / (2 * frame) * rows};
}

int tile3dBankConflicts(const Tile3D& t, int pitch) {
  const int lanes = workItems(t);
  int extra = 0;
  for (int w = 0; w < lanes; w += 32) {
    int perBank[32] = {};
    int most = 0;
    for (int l = w; l < std::min(lanes, w + 32); ++l) {
      const TileLane at = tile3dLane(t, l);
      const int wordRow = pairRows(t) ? at.row / 2 : at.row;
      most = std::max(most, ++perBank[(wordRow * pitch + at.column) % 32]);
    }
    extra += most - 1;
  }
  return extra;
}

int tile3dPitch(const Tile3D& t) {
  // With V0's plane beside the tiles, padding would put the float32 preset over 48 KB; at its
  // width it takes 48,960 B (24.6 against 24.3 ms with the padding, in the lanes' old order).
  if (t.asyncV0) return t.tx;
  int best = t.tx, fewest = tile3dBankConflicts(t, t.tx);
  for (int p = t.tx + 1; p < t.tx + 32 && fewest > 0; ++p)
    if (const int c = tile3dBankConflicts(t, p); c < fewest) best = p, fewest = c;
  return best;
}

std::uint64_t tile3dLocalBytes(const Tile3D& t) {
  const std::uint64_t v0Plane = t.asyncV0 ? 3ull * t.tx * t.ty * sizeof(float) : 0;
  return tilesBytes(t) + v0Plane;
}

bool asyncCopies(const DeviceInfo& device) { return device.nvidiaComputeCapability >= 80; }

bool halfPairInstructions(const DeviceInfo& device) { return device.nvidiaComputeCapability >= 53; }

bool tile3dFits(const Tile3D& t, const DeviceInfo& device) {
  return t.tx > 2 * tile3dFrameLanes(t) && t.ty > 4 && t.rows >= 1 && t.ty % t.rows == 0 &&
         t.zChunk >= 0 && (!pairRows(t) || t.rows % 2 == 0) && (!t.pairColumns || t.halfPairs) &&
         static_cast<std::size_t>(workItems(t)) <= device.maxWorkGroupSize &&
         tile3dLocalBytes(t) <= device.localMemBytes && (!t.asyncV0 || asyncCopies(device));
}

std::uint64_t tile3dGroups(const Tile3D& t, FieldShape shape, int axis) {
  const int frame = 4;  // the inner part of a tile is written (a frame of two voxels)
  if (axis == 0) {
    const int inner = std::max(1, tile3dLaneColumns(t) * t.tx - frame);
    return roundUp(shape.width, inner) / inner;
  }
  if (axis == 1) {
    const int inner = std::max(1, t.ty - frame);
    return roundUp(shape.height, inner) / inner;
  }
  return roundUp(shape.depth, std::max(1, t.zChunk)) / std::max(1, t.zChunk);
}

int tile3dChunk(std::uint64_t layerGroups, std::uint64_t slots, int depth) {
  // The groups run in waves of `slots`: the chunk with the fewest planes walked in all waves,
  // the longest of equals. H200, f32 at 68 x 20 x 4 (144 groups a layer on 132 units), 384³ x 64:
  // the whole depth 34.0 ms, chunks of 77 / 39 / 35 / 18 planes 22.2 / 21.3 / 21.6 / 22.7; 192³ x
  // 256 (36 a layer): 64 / 28 / 18 planes 12.3 / 12.1 / 12.5.
  int best = std::max(1, depth);
  std::uint64_t bestCost = std::numeric_limits<std::uint64_t>::max();
  for (int z = std::max(1, depth); z >= 1; --z) {
    const std::uint64_t cost = planesWalked(layerGroups, slots, depth, z);
    if (cost < bestCost) best = z, bestCost = cost;
  }
  return best;
}

std::optional<Tile3D> resolveTile3D(Tile3D t, Precision precision, const DeviceInfo& device,
                                    FieldShape shape, bool unitSpacing) {
  if (t.tx != 0 && t.halfPairs && (precision != Precision::F16 || !unitSpacing))
    throw ParameterError("3D tile " + text(t) +
                         ": half-precision pairs (+h2) step f16 values on a grid of unit "
                         "spacing, so they need precision f16 and a volume without spacing.");
  if (t.tx != 0 && t.pairColumns && shape.width % 2 != 0)
    throw ParameterError("3D tile " + text(t) + ": pairs of columns (+h2c) load two columns a " +
                         "word, so they need an even width; this volume is " +
                         std::to_string(shape.width) + " wide.");
  if (t.tx != 0 && t.asyncV0 && (precision != Precision::F32 || t.rawPrefetch))
    throw ParameterError("3D tile " + text(t) +
                         ": asynchronous V0 copies (+async) hold float32 values, so they need "
                         "precision f32 and no raw prefetch (+raw).");
  if (t.tx == 0) {
    // The timed preset that fits with the shortest estimate, else the first fallback that fits.
    // Where half pairs can run, f16 takes them only: one arithmetic at every shape, so a volume
    // split into slabs steps as it does whole.
    const bool pairs = precision == Precision::F16 && unitSpacing && halfPairInstructions(device);
    std::optional<Tile3D> timed, fallback;
    double best = 0;
    for (Preset c : presets(precision)) {
      c.tile.zChunk = t.zChunk;
      c.tile.wideIndices = t.wideIndices;
      // Pairs of columns where the width is even (words aligned), else pairs of rows.
      if (!tile3dFits(c.tile, device) || (c.ms256 > 0 && c.tile.halfPairs != pairs) ||
          (c.tile.halfPairs && c.tile.pairColumns != (shape.width % 2 == 0)))
        continue;
      if (c.ms256 <= 0) {
        if (!fallback) fallback = c.tile;
      } else if (const double ms = estimatedMs(c, shape, device); !timed || ms < best) {
        timed = c.tile, best = ms;
      }
    }
    const std::optional<Tile3D> preset = timed ? timed : fallback;
    if (!preset) return std::nullopt;
    t = *preset;
  } else if (!tile3dFits(t, device)) {
    throw ParameterError("3D tile " + text(t) +
                         " does not fit this device: TX and TY above 4 (TX above 2 and +h2 with "
                         "+h2c), TY a multiple of the rows (of 2 rows with +h2 alone), at most " +
                         std::to_string(device.maxWorkGroupSize) + " work-items and " +
                         std::to_string(device.localMemBytes) + " B of local memory (it needs " +
                         std::to_string(workItems(t)) + " and " +
                         std::to_string(tile3dLocalBytes(t)) + " B)" +
                         (t.asyncV0 && !asyncCopies(device)
                              ? "; asynchronous V0 copies (+async) need an NVIDIA GPU of "
                                "compute capability 8.0 or later."
                              : "."));
  }
  if (t.zChunk == 0) t.zChunk = tile3dChunk(groupsALayer(t, shape), slots(t, device), shape.depth);
  return t;
}

std::string tile3dOptions(const Tile3D& t, FieldShape shape, const DeviceInfo& device) {
  // 32-bit element indices where the three component planes allow them (fewer instructions).
  const bool narrow = !t.wideIndices && 3 * shape.count() <= 0xFFFFFFFFull;
  // One barrier a plane where the tiles fit twice (on the H200: 20 x 36 x 3 in float32, 48 KB).
  const bool oneBarrier = tile3dLocalBytes(t) + tilesBytes(t) <= device.localMemBytes;
  return " -DTX=" + std::to_string(t.tx) + " -DTY=" + std::to_string(t.ty) +
         " -DROWS=" + std::to_string(t.rows) + " -DTP=" + std::to_string(tile3dPitch(t)) +
         " -DZCHUNK=" + std::to_string(t.zChunk) + (narrow ? " -DINDEX32" : "") +
         (t.rawPrefetch ? " -DRAW_PREFETCH" : "") +
         (t.branchlessPlanes ? " -DBRANCHLESS_PLANES" : "") + (t.asyncV0 ? " -DASYNC_V0" : "") +
         (device.isGpu ? " -DUNROLL_PLANES" : "") + (oneBarrier ? " -DONE_BARRIER" : "") +
         (t.pairColumns ? " -DPAIR_COLUMNS" : "") +
         (t.halfPairs && halfPairInstructions(device) ? " -DHALF2_PTX" : "");
}

}  // namespace gvflab::detail
