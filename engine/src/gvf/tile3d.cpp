#include "gvf/tile3d.hpp"

#include <algorithm>
#include <array>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab::detail {
namespace {

// The fastest shapes measured on an H200 at 256³ x 256 (docs/BENCHMARKS.md): in 16 bit the
// next planes are held raw a loop turn ahead (RAW_PREFETCH); float32 gains nothing from that
// and runs best with smaller groups, two per compute unit, and branchless plane indices;
// snorm16 runs best with 4 rows per work-item and both (25.4 ms against 26.9 for f16's shape,
// the best of 79 shapes and flags tried). The last two are for devices with small work-groups.
std::array<Tile3D, 4> presets(Precision p) {
  const Tile3D wide{.tx = 36, .ty = 36, .rows = 3, .rawPrefetch = true};
  const Tile3D narrow{.tx = 20, .ty = 36, .rows = 3, .branchlessPlanes = true};
  const Tile3D snorm{.tx = 36, .ty = 36, .rows = 4, .rawPrefetch = true, .branchlessPlanes = true};
  const Tile3D small{.tx = 24, .ty = 16, .rows = 1}, tiny{.tx = 12, .ty = 8, .rows = 1};
  if (p == Precision::F32) return {narrow, wide, small, tiny};
  if (p == Precision::SNorm16) return {snorm, wide, small, tiny};
  return {wide, narrow, small, tiny};
}

int workItems(const Tile3D& t) { return t.tx * (t.ty / std::max(1, t.rows)); }

std::string text(const Tile3D& t) {
  return std::to_string(t.tx) + "x" + std::to_string(t.ty) + " with " + std::to_string(t.rows) +
         (t.rows == 1 ? " row" : " rows") + " per work-item";
}

}  // namespace

int tile3dPitch(const Tile3D& t) {
  for (int p = t.tx; p < t.tx + 32; ++p)
    if ((t.rows * p - t.tx) % 32 == 0) return p;
  return t.tx;  // no pitch helps (even rows, odd width)
}

std::uint64_t tile3dLocalBytes(const Tile3D& t) {
  return 2ull * 3 * t.ty * tile3dPitch(t) * sizeof(float);
}

bool tile3dFits(const Tile3D& t, const ComputeContext& ctx) {
  return t.tx > 4 && t.ty > 4 && t.rows >= 1 && t.ty % t.rows == 0 && t.zChunk >= 0 &&
         static_cast<std::size_t>(workItems(t)) <= ctx.info().maxWorkGroupSize &&
         tile3dLocalBytes(t) <= ctx.info().localMemBytes;
}

std::uint64_t tile3dGroups(const Tile3D& t, FieldShape shape, int axis) {
  const int frame = 4;  // the inner part of a tile is written (a frame of two voxels)
  if (axis == 0) return roundUp(shape.width, t.tx - frame) / (t.tx - frame);
  if (axis == 1) return roundUp(shape.height, t.ty - frame) / (t.ty - frame);
  return roundUp(shape.depth, t.zChunk) / t.zChunk;
}

std::optional<Tile3D> resolveTile3D(Tile3D t, Precision precision, const ComputeContext& ctx,
                                    FieldShape shape) {
  if (t.tx == 0) {
    std::optional<Tile3D> preset;  // the first that fits
    for (Tile3D c : presets(precision)) {
      c.zChunk = t.zChunk;
      c.wideIndices = t.wideIndices;
      if (!preset && tile3dFits(c, ctx)) preset = c;
    }
    if (!preset) return std::nullopt;
    t = *preset;
  } else if (!tile3dFits(t, ctx)) {
    throw ParameterError("3D tile " + text(t) +
                         " does not fit this device: TX and TY above 4, "
                         "TY a multiple of the rows, at most " +
                         std::to_string(ctx.info().maxWorkGroupSize) + " work-items and " +
                         std::to_string(ctx.info().localMemBytes) +
                         " B of local memory (it needs " + std::to_string(workItems(t)) + " and " +
                         std::to_string(tile3dLocalBytes(t)) + " B).");
  }
  if (t.zChunk == 0) {
    // Split the depth so the work-groups fill the compute units about once: each holds a
    // whole group's z chunk, and every chunk costs two extra planes. Groups of up to 256
    // work-items are assumed to fit twice on a compute unit.
    const std::uint64_t perLayer = tile3dGroups(t, shape, 0) * tile3dGroups(t, shape, 1);
    const std::uint64_t slots =
        std::uint64_t(std::max(1, ctx.info().computeUnits)) * (workItems(t) <= 256 ? 2 : 1);
    const std::uint64_t chunks =
        std::clamp<std::uint64_t>(slots / perLayer, 1, std::uint64_t(shape.depth));
    t.zChunk = static_cast<int>((shape.depth + chunks - 1) / chunks);
  }
  return t;
}

std::string tile3dOptions(const Tile3D& t, FieldShape shape, const DeviceInfo& device) {
  // 32-bit element indices where the three component planes allow them (fewer instructions).
  const bool narrow = !t.wideIndices && 3 * shape.count() <= 0xFFFFFFFFull;
  // One barrier a plane where the tiles fit twice (on the H200: float32's preset, 48 KB).
  const bool oneBarrier = 2 * tile3dLocalBytes(t) <= device.localMemBytes;
  return " -DTX=" + std::to_string(t.tx) + " -DTY=" + std::to_string(t.ty) +
         " -DROWS=" + std::to_string(t.rows) + " -DTP=" + std::to_string(tile3dPitch(t)) +
         " -DZCHUNK=" + std::to_string(t.zChunk) + (narrow ? " -DINDEX32" : "") +
         (t.rawPrefetch ? " -DRAW_PREFETCH" : "") +
         (t.branchlessPlanes ? " -DBRANCHLESS_PLANES" : "") +
         (device.isGpu ? " -DUNROLL_PLANES" : "") + (oneBarrier ? " -DONE_BARRIER" : "");
}

}  // namespace gvflab::detail
