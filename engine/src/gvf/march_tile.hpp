#pragma once
// The marching warps' tile (gvf_euler2d_march.cl) for a grid on a device: strips of 56 written
// columns, one warp a group, and chunks of rows sized so that every warp of the grid is resident
// at once. Each warp marches its chunk plus 8 warm-up rows in turns of one row, so a launch
// takes (rows + 8) turns (the first four leave out steps); shorter chunks mean fewer turns until
// the grid needs a second wave.
#include <algorithm>

#include "gvflab/euler_solver.hpp"

namespace gvflab::detail {

// Warps an NVIDIA compute unit holds at the marching kernel's 96 registers (ptxas, H200, driver
// 580): 5 a scheduler of 16384 registers, 4 schedulers. H200, 4096² f32, µs an iteration:
// chunks of 118 rows (35 a strip, 2590 warps of 2640) 35.1, 120 35.3, 128 37.5, 114 (2664
// warps, a second wave) 46.9 (docs/BENCHMARKS.md, march-chunks).
inline constexpr int kMarchWarpsPerComputeUnit = 20;

inline TileShape marchTile(int width, int height, int computeUnits) {
  TileShape t{
      .width = 64, .height = 0, .rowsPerItem = 1, .halo = 4, .colsPerItem = 2, .march = true};
  const int inner = t.width - 2 * t.halo;
  const int strips = (width + inner - 1) / inner;
  const int chunks = std::max(1, computeUnits * kMarchWarpsPerComputeUnit / strips);
  // At least 2 * halo + 1 rows (a chunk's rule), and 16 so warm-up stays a small share.
  t.height = std::max(16, (height + chunks - 1) / chunks);
  return t;
}

// NVIDIA: each row fetched into L2 three turns before its load (MARCH_L2_AHEAD), and float32
// rows stored streaming (gvf_euler2d_march.cl's store_pixvec), in chunks of up to 128 rows. H200,
// f32, µs an iteration: 3000² (63-row chunks) 20.2 -> 19.1, 4096² (118) 35.0
// -> 33.5; slower in long chunks: 6144² (256) 74.8 -> 78.0, 8192² (482) 134.7 -> 142.3. Two
// and four rows ahead: 33.8-33.9 at 4096².
inline bool marchFetchesAhead(const TileShape& t) { return t.march && t.height <= 128; }

}  // namespace gvflab::detail
