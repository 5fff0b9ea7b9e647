#pragma once
// Choosing and checking the 3D local-memory tile of the Euler solver (gvf_euler3d_tiled.cl).
#include <cstdint>
#include <optional>
#include <string>

#include "gvflab/euler_solver.hpp"

namespace gvflab {

struct DeviceInfo;

namespace detail {

// Where lane `lane` of a work-group works in the tile (the kernel's tile_lane): where the inner
// lanes of a row (tx less the frame's) are a multiple of 32 (whole warps a row), the inner lanes
// of each work-item row in turn, then the frame's lanes a row; otherwise in the tile's order.
struct TileLane {
  int column = 0;
  int row = 0;  // its first row
};
TileLane tile3dLane(const Tile3D& t, int lane);
// Columns a lane holds (2 with pairColumns) and the frame's lanes on each side (2 voxels).
int tile3dLaneColumns(const Tile3D& t);
int tile3dFrameLanes(const Tile3D& t);
// The two-steps kernel of a tile: its file and name.
struct Tile3DKernel {
  const char* file;
  const char* name;
};
Tile3DKernel tile3dKernel(const Tile3D& t);
// Local-memory accesses a work-group's warps (32 lanes) make beyond one each, reading a tile
// row at this pitch: the bank conflicts.
int tile3dBankConflicts(const Tile3D& t, int pitch);
// Row pitch of the kernel's local tiles: of tx to tx + 31, the first with the fewest bank
// conflicts; tx itself with asyncV0 (V0's plane beside the tiles leaves no room for padding).
int tile3dPitch(const Tile3D& t);
// Local memory of a work-group: the two tiles, and V0's plane with asyncV0.
std::uint64_t tile3dLocalBytes(const Tile3D& t);
// Whether the device runs the asynchronous copies of asyncV0 (cp.async: NVIDIA sm_80 and later).
bool asyncCopies(const DeviceInfo& device);
// Whether the device steps half pairs with PTX f16x2 instructions (NVIDIA sm_53 and later);
// elsewhere the halfPairs kernel rounds float arithmetic to half after each operation.
bool halfPairInstructions(const DeviceInfo& device);
// Whether a tile with its fields set can run on this device.
bool tile3dFits(const Tile3D& t, const DeviceInfo& device);
// The tile a launch uses: the preset for the precision where t.tx is 0 (of the timed presets
// that fit, the one with the shortest time scaled by the planes its groups walk in this shape
// on this device, wave after wave; else the first fallback that fits; nullopt when none does),
// t itself otherwise (ParameterError, with a sentence, when it cannot run); zChunk 0 becomes
// tile3dChunk's chunk. Half pairs need unit spacing: presets with them are passed over on other
// grids.
std::optional<Tile3D> resolveTile3D(Tile3D t, Precision precision, const DeviceInfo& device,
                                    FieldShape shape, bool unitSpacing = true);
// The z chunk (planes a work-group walks) for layerGroups work-groups a layer, slots of them
// running at once and the depth: the fewest planes walked over all waves, ties to the longest.
int tile3dChunk(std::uint64_t layerGroups, std::uint64_t slots, int depth);
// Build options of the kernel for a resolved tile on a device (GPUs: the plane loop unrolled;
// one barrier a plane where the tiles fit twice in local memory).
std::string tile3dOptions(const Tile3D& t, FieldShape shape, const DeviceInfo& device);
// Work-groups of a resolved tile along x, y and z.
std::uint64_t tile3dGroups(const Tile3D& t, FieldShape shape, int axis);

}  // namespace detail
}  // namespace gvflab
