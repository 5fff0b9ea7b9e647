// How the 3D Euler tile is chosen (engine/src/gvf/tile3d.cpp): presets per precision, the
// bank-free row pitch, and z chunks that spread the work over the device's compute units.
#include <doctest/doctest.h>

#include <numeric>
#include <set>
#include <utility>

#include "cl/cl_fixture.hpp"
#include "gvf/tile3d.hpp"
#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"

using namespace gvflab;

namespace {

// Every lane column of every work-item row of a tile 12 rows high has exactly one lane.
void checkLanesCoverTile(const Tile3D& t) {
  const int items = t.tx * (12 / t.rows);
  std::set<std::pair<int, int>> cells;
  for (int l = 0; l < items; ++l) {
    const detail::TileLane at = detail::tile3dLane(t, l);
    CHECK(at.column >= 0);
    CHECK(at.column < t.tx);
    CHECK(at.row % t.rows == 0);
    CHECK(at.row < 12);
    cells.insert({at.column, at.row});
  }
  CHECK(cells.size() == static_cast<std::size_t>(items));
}

}  // namespace

TEST_CASE("3D tile lanes cover the tile once, and the pitch puts each warp on distinct banks") {
  for (int tx = 5; tx <= 70; ++tx)
    for (int rows = 1; rows <= 4; ++rows) {
      CAPTURE(tx);
      CAPTURE(rows);
      const Tile3D t{.tx = tx, .ty = 12, .rows = rows, .zChunk = 8};
      checkLanesCoverTile(t);
      // Whole warps a row: a warp's 32 lanes read 32 consecutive floats of one row.
      if ((tx - 4) % 32 == 0)
        for (int l = 0; l < (tx - 4) * (12 / rows); l += 32) {
          const detail::TileLane first = detail::tile3dLane(t, l);
          CHECK(first.column == 2 + l % (tx - 4));
          CHECK(detail::tile3dLane(t, l + 31).column == first.column + 31);
          CHECK(detail::tile3dLane(t, l + 31).row == first.row);
        }
      // The first pitch of tx .. tx + 31 with the fewest conflicts; in the tile's order the
      // work-item rows run through the banks in turn at rows * p = tx mod 32, where that exists.
      const int p = detail::tile3dPitch(t);
      CHECK(p >= tx);
      CHECK(p < tx + 32);
      for (int q = tx; q < tx + 32; ++q)
        CHECK(detail::tile3dBankConflicts(t, q) >= detail::tile3dBankConflicts(t, p) + (q < p));
      if ((tx - 4) % 32 != 0 && tx % std::gcd(rows, 32) == 0)
        CHECK(detail::tile3dBankConflicts(t, p) == 0);
    }
  // Half pairs: a local word holds two rows, so a work-item's rows are rows / 2 words apart and
  // the tiles take half the bytes at the same pitch.
  for (int tx = 5; tx <= 70; ++tx)
    for (int rows : {2, 4}) {
      CAPTURE(tx);
      CAPTURE(rows);
      const Tile3D t{.tx = tx, .ty = 12, .rows = rows, .zChunk = 8, .halfPairs = true};
      const int p = detail::tile3dPitch(t);
      CHECK(p >= tx);
      CHECK(p < tx + 32);
      for (int q = tx; q < tx + 32; ++q)
        CHECK(detail::tile3dBankConflicts(t, q) >= detail::tile3dBankConflicts(t, p) + (q < p));
      if ((tx - 4) % 32 != 0 && tx % std::gcd(rows / 2, 32) == 0)
        CHECK(detail::tile3dBankConflicts(t, p) == 0);
      CHECK(detail::tile3dLocalBytes(t) == 2ull * 3 * 6 * p * 4);
    }
  // Pairs of columns: a lane holds two columns and the frame is one lane a side, so whole warps a
  // row where tx - 2 is a multiple of 32, the frame's lanes (columns 0 and tx - 1) after them;
  // a tile covers 2 tx - 4 columns of the volume.
  for (int tx = 3; tx <= 70; ++tx)
    for (int rows = 1; rows <= 4; ++rows) {
      CAPTURE(tx);
      CAPTURE(rows);
      const Tile3D t{.tx = tx, .ty = 12, .rows = rows, .halfPairs = true, .pairColumns = true};
      checkLanesCoverTile(t);
      if ((tx - 2) % 32 == 0) {
        for (int l = 0; l < (tx - 2) * (12 / rows); l += 32) {
          CHECK(detail::tile3dLane(t, l).column == 1 + l % (tx - 2));
          CHECK(detail::tile3dLane(t, l + 31).row == detail::tile3dLane(t, l).row);
        }
        const detail::TileLane frame = detail::tile3dLane(t, (tx - 2) * (12 / rows) + 1);
        CHECK(frame.column == tx - 1);
      }
      const int p = detail::tile3dPitch(t);
      CHECK(p >= tx);
      CHECK(detail::tile3dLocalBytes(t) == 2ull * 3 * 12 * p * 4);
      CHECK(detail::tile3dGroups(t, FieldShape{256, 20, 9}, 0) ==
            std::uint64_t((256 + 2 * tx - 5) / (2 * tx - 4)));
    }
  // Tiles refused still have their lanes and bytes named in the sentence: no division by zero
  // (rows 0 with whole warps a row crashed the H200 host's build with SIGFPE).
  for (const Tile3D& bad :
       {Tile3D{.tx = 36, .ty = 16, .rows = 0}, Tile3D{.tx = 4, .ty = 4},
        Tile3D{.tx = 2, .ty = 16, .rows = 0, .halfPairs = true, .pairColumns = true}}) {
    CHECK(detail::tile3dLocalBytes(bad) > 0);
    CHECK(detail::tile3dGroups(bad, FieldShape{64, 64, 64}, 0) >= 1);
    CHECK(detail::tile3dGroups(bad, FieldShape{64, 64, 64}, 2) >= 1);
  }
  // The f16 preset: whole warps a row, and its frame's 48 lanes on distinct banks unpadded.
  const Tile3D wide{.tx = 36, .ty = 36, .rows = 3, .zChunk = 0};
  CHECK(detail::tile3dPitch(wide) == 36);
  CHECK(detail::tile3dBankConflicts(wide, 36) == 0);
  CHECK(detail::tile3dLocalBytes(wide) == 2ull * 3 * 36 * 36 * 4);
  // A conflict the rule sees: 20 x 36 x 3 unpadded puts work-item rows 60 floats apart, so a
  // warp spanning two of them reads some banks twice; padded to 28 it does not.
  const Tile3D narrow{.tx = 20, .ty = 36, .rows = 3};
  CHECK(detail::tile3dBankConflicts(narrow, 20) > 0);
  CHECK(detail::tile3dPitch(narrow) == 28);
  CHECK(detail::tile3dBankConflicts(narrow, 28) == 0);
}

TEST_CASE("3D presets per precision, and z chunks sized to the device") {
  auto ctx = test::sharedContext();
  const FieldShape first{61, 30, 200};
  const DeviceInfo& device = ctx->info();
  auto f16 = detail::resolveTile3D(Tile3D{}, Precision::F16, device, first);
  auto f32 = detail::resolveTile3D(Tile3D{}, Precision::F32, device, first);
  auto s16 = detail::resolveTile3D(Tile3D{}, Precision::SNorm16, device, first);
  REQUIRE(f16);
  REQUIRE(f32);
  REQUIRE(s16);
  // The development and CI machines' PoCL takes the H200's choices; f16 those for devices
  // without f16x2 instructions, float32 the one for devices without asynchronous copies, and
  // those only where the device has them.
  if (detail::halfPairInstructions(device))
    CHECK((f16->halfPairs && !f16->pairColumns && f16->tx == 36 && f16->rows == 4 &&
           f16->branchlessPlanes));  // 61 wide: pairs of rows
  else
    CHECK(*f16 ==
          Tile3D{.tx = 68, .ty = 20, .rows = 4, .zChunk = f16->zChunk, .rawPrefetch = true});
  if (detail::asyncCopies(ctx->info()))
    CHECK(*f32 == Tile3D{.tx = 68,
                         .ty = 20,
                         .rows = 4,
                         .zChunk = f32->zChunk,
                         .branchlessPlanes = true,
                         .asyncV0 = true});
  else
    CHECK(*f32 ==
          Tile3D{.tx = 20, .ty = 36, .rows = 3, .zChunk = f32->zChunk, .branchlessPlanes = true});
  CHECK(*s16 == Tile3D{.tx = 68,
                       .ty = 20,
                       .rows = 4,
                       .zChunk = s16->zChunk,
                       .rawPrefetch = true,
                       .branchlessPlanes = true});
  // Chunks: at least one plane, the whole depth covered, never fewer groups than half the
  // compute units hold (one per unit for 432 work-items, two for 240) where the depth allows.
  const int cus = std::max(1, device.computeUnits);
  for (const FieldShape& shape : {FieldShape{61, 30, 200}, FieldShape{20, 20, 200}})
    for (Precision p : {Precision::F16, Precision::F32, Precision::SNorm16}) {
      const Tile3D t = *detail::resolveTile3D(Tile3D{}, p, device, shape);
      const std::uint64_t perCu = t.tx * (t.ty / t.rows) <= 256 ? 2 : 1;
      CAPTURE(t.tx);
      CAPTURE(shape.width);
      const std::uint64_t layer =
          detail::tile3dGroups(t, shape, 0) * detail::tile3dGroups(t, shape, 1);
      const std::uint64_t groups = layer * detail::tile3dGroups(t, shape, 2);
      CHECK(t.zChunk >= 1);
      CHECK(detail::tile3dGroups(t, shape, 2) * t.zChunk >= std::uint64_t(shape.depth));
      CHECK(groups >= std::min<std::uint64_t>(layer * shape.depth,
                                              std::max<std::uint64_t>(layer, perCu * cus) / 2));
      // A layer that leaves compute units idle is split along z.
      if (2 * layer <= perCu * cus) CHECK(detail::tile3dGroups(t, shape, 2) >= 2);
    }
  // The chunk that walks the fewest planes over all waves of groups (about four planes a
  // chunk besides its own), on an H200's 132 units: 64 groups a layer (float32's 68 x 20 x 4 at
  // 256³) in two chunks; 144 (the same at 384³, one wave and 12 groups over) in 8 chunks of
  // 48 planes, 9 waves; 36 (192³) in 7 chunks of 28, 2 waves; a layer of one group in chunks
  // of 2 planes across the units; the whole depth where its groups fill the waves already.
  CHECK(detail::tile3dChunk(64, 132, 256) == 128);
  CHECK(detail::tile3dChunk(144, 132, 384) == 48);
  CHECK(detail::tile3dChunk(36, 132, 192) == 28);
  CHECK(detail::tile3dChunk(1, 132, 200) == 2);
  CHECK(detail::tile3dChunk(264, 132, 512) == 512);
  CHECK(detail::tile3dChunk(5, 4, 1) == 1);
  // A chosen chunk is kept; the solver reports what it resolved.
  auto fixed = detail::resolveTile3D(Tile3D{.tx = 24, .ty = 16, .rows = 1, .zChunk = 48},
                                     Precision::F32, device, first);
  REQUIRE(fixed);
  CHECK(fixed->zChunk == 48);
  CHECK(detail::tile3dOptions(*fixed, first, ctx->info()).find("-DZCHUNK=48") != std::string::npos);
}

TEST_CASE("3D tiles take one barrier a plane where they fit twice in local memory") {
  // The H200's 48 KB: float32's preset (20 x 36, 3 rows: 24192 B) fits twice, f16's (36 x 36:
  // 38016 B) once.
  const DeviceInfo h200{.isGpu = true, .localMemBytes = 49152};
  const FieldShape shape{256, 256, 256};
  const Tile3D f32{.tx = 20, .ty = 36, .rows = 3, .zChunk = 128, .branchlessPlanes = true};
  const Tile3D f16{.tx = 36, .ty = 36, .rows = 3, .zChunk = 128, .rawPrefetch = true};
  CHECK(detail::tile3dLocalBytes(f32) == 24192);
  const auto has = [&](const Tile3D& t, const DeviceInfo& d, const char* option) {
    return detail::tile3dOptions(t, shape, d).find(option) != std::string::npos;
  };
  CHECK(has(f32, h200, "-DONE_BARRIER"));
  CHECK_FALSE(has(f16, h200, "-DONE_BARRIER"));
  CHECK(has(f16, DeviceInfo{.isGpu = true, .localMemBytes = 2 * 38016}, "-DONE_BARRIER"));
  // The plane loop is unrolled on GPUs only (CPU compilers warn that they cannot).
  CHECK(has(f32, h200, "-DUNROLL_PLANES"));
  CHECK_FALSE(has(f32, DeviceInfo{.localMemBytes = 49152}, "-DUNROLL_PLANES"));
}

TEST_CASE("3D asynchronous V0 copies: NVIDIA sm_80+ only, V0's plane within local memory") {
  DeviceInfo h200{.isGpu = true, .localMemBytes = 49152, .nvidiaComputeCapability = 90};
  CHECK(detail::asyncCopies(h200));
  CHECK(detail::asyncCopies(DeviceInfo{.nvidiaComputeCapability = 80}));
  CHECK_FALSE(detail::asyncCopies(DeviceInfo{.nvidiaComputeCapability = 75}));
  CHECK_FALSE(detail::asyncCopies(DeviceInfo{.isGpu = true, .localMemBytes = 65536}));
  // float32's preset there: the tiles at their width (no bank padding) and V0's plane, within
  // the H200's 48 KB, so one work-group a unit with two barriers a plane.
  const Tile3D async{.tx = 68, .ty = 20, .rows = 4, .zChunk = 128, .asyncV0 = true};
  CHECK(detail::tile3dPitch(async) == 68);
  CHECK(detail::tile3dLocalBytes(async) == 2ull * 3 * 20 * 68 * 4 + 3ull * 68 * 20 * 4);
  CHECK(detail::tile3dLocalBytes(async) <= h200.localMemBytes);
  Tile3D plain = async;
  plain.asyncV0 = false;
  // Without V0's plane: 69, where the frame's lanes (every fourth work-item row 16 banks on at
  // 68) fall on distinct banks.
  CHECK(detail::tile3dBankConflicts(plain, 68) > 0);
  CHECK(detail::tile3dPitch(plain) == 69);
  const FieldShape shape{256, 256, 256};
  const std::string opts = detail::tile3dOptions(async, shape, h200);
  CHECK(opts.find("-DASYNC_V0") != std::string::npos);
  CHECK(opts.find("-DONE_BARRIER") == std::string::npos);
  CHECK(detail::tile3dOptions(plain, shape, h200).find("-DASYNC_V0") == std::string::npos);
}

TEST_CASE("3D presets per volume: the faster tile measured on an H200 at each size") {
  // The H200's limits (132 units, 48 KB, cp.async) and the presets timed at 17 sizes in
  // BENCHMARKS.md's twenty-first session (ms, 128 iterations unless named; 96³ x 512, 256³ x
  // 256, 320³-384³ x 64, 448³ and 512³ x 32). At 200³, 208³ and 352³ the waves decide: the
  // columns covered alone would pick the narrower tiles.
  const DeviceInfo h200{.isGpu = true,
                        .maxWorkGroupSize = 1024,
                        .localMemBytes = 49152,
                        .computeUnits = 132,
                        .nvidiaComputeCapability = 90};
  const auto tileAt = [&](Precision p, int side) {
    const auto t = detail::resolveTile3D(Tile3D{}, p, h200, FieldShape{side, side, side});
    REQUIRE(t);
    return *t;
  };
  const auto widthAt = [&](Precision p, int side) { return tileAt(p, side).tx; };
  // f32, 68 x 20 x 4 async against 20 x 36 x 3: 64³ 0.722 / 0.728, 96³ 4.70 / 4.46, 104³ 1.406 /
  // 1.498, 112³ 1.524 / 1.679, 128³ 1.963 / 2.056, 160³ 3.94 / 3.74, 192³ 5.90 / 6.31, 200³ 7.49 /
  // 8.34, 208³ 7.93 / 8.45, 224³ 9.57 / 9.65, 256³ 24.10 / 26.13, 288³ 19.43 / 19.58, 320³ 12.16 /
  // 13.40, 352³ 15.75 / 17.76, 384³ 20.91 / 23.37, 448³ 15.93 / 17.62, 512³ 23.84 / 27.03. The
  // estimate misses at 224³ and 288³, taking the narrower tile 0.8 % slower.
  for (int side : {96, 160, 224, 288}) CHECK(widthAt(Precision::F32, side) == 20);
  for (int side : {64, 104, 112, 128, 192, 200, 208, 256, 320, 352, 384, 448, 512})
    CHECK(widthAt(Precision::F32, side) == 68);
  // snorm16, 68 x 20 x 4 / 36 x 36 x 4 / 36 x 39 x 3 (raw, branchless): 64³ 0.783 / 0.833 /
  // 0.702, 96³ 5.05 / 4.48 / 4.55, 104³ 1.510 / 1.621 / 1.384, 112³ 1.548 / 1.736 / 1.756, 128³
  // 1.828 / 1.902 / 1.937, 160³ 4.01 / 3.49 / 3.54, 192³ 5.75 / 5.95 / 6.18, 200³ 7.94 / 7.87 /
  // 6.74, 208³ 8.19 / 8.22 / 6.97, 224³ 9.50 / 8.85 / 9.03, 256³ 23.58 / 24.47 / 25.21, 288³
  // 19.83 / 18.59 / 19.00, 320³ 11.84 / 12.38 / 12.71, 352³ 15.66 / 16.41 / 16.85, 384³ 20.26 /
  // 20.99 / 18.61, 448³ 15.12 / 15.92 / 15.52, 512³ 22.74 / 23.96 / 22.91. The estimate misses at
  // 64³ only, taking 68 x 20 x 4 (0.783 against 0.702 ms).
  for (int side : {64, 112, 128, 192, 256, 320, 352, 448, 512})
    CHECK(widthAt(Precision::SNorm16, side) == 68);
  for (int side : {96, 160, 224, 288}) CHECK(tileAt(Precision::SNorm16, side).ty == 36);
  for (int side : {104, 200, 208, 384}) CHECK(tileAt(Precision::SNorm16, side).ty == 39);
  // f16 in half-precision pairs of columns, 66 x 20 x 4 / 34 x 36 x 2 / 34 x 36 x 3 / 34 x 42 x 3,
  // against pairs of rows' 36 x 20 x 4 (branchless), one call (twenty-third session; 128
  // iterations unless named), ms: 64³ 0.725 / 0.670 / 0.615 / 0.634 against 0.650, 96³ x 512
  // 3.367 / 3.573 / 3.505 / 3.714 against 3.469, 104³ 0.949 / 1.045 / 1.032 / 0.927 against
  // 1.193, 112³ 1.006 / 1.041 / 1.004 / 1.030 against 1.228, 128³ 1.096 / 1.185 / 1.169 / 1.249
  // against 1.417, 160³ 2.722 / 2.213 / 2.245 / 2.407 against 2.609, 192³ 3.782 / 3.038 / 3.073 /
  // 3.253 against 4.326, 200³ 3.908 / 4.717 / 4.691 / 4.318 against 5.651, 208³ 4.129 / 4.807 /
  // 4.887 / 4.511 against 5.982, 224³ 5.175 / 5.208 / 5.244 / 4.892 against 6.520, 256³ x 256
  // 12.513 / 12.598 / 12.789 / 13.354 against 17.450, 288³ 11.539 / 10.525 / 10.661 / 9.770
  // against 13.199, 320³ x 64 6.937 / 6.233 / 6.280 / 6.488 against 8.859, 352³ x 64 8.079 /
  // 8.078 / 8.200 / 8.672 against 11.660, 384³ x 64 10.450 / 10.560 / 10.752 / 9.902 against
  // 15.032, 448³ x 32 8.800 / 8.496 / 8.469 / 7.828 against 11.319, 512³ x 32 11.423 / 11.483 /
  // 11.721 / 12.024 against 16.842. The estimate picks the fastest at 14 of 17, missing by 8.9 %
  // at 64³ (3 % slower than the pairs of rows there), 2.6 % at 112³ and 5.3 % at 512³.
  const auto columnsAt = [&](int side, int tx, int ty) {
    const Tile3D t = tileAt(Precision::F16, side);
    CAPTURE(side);
    CHECK((t.halfPairs && t.pairColumns && t.tx == tx && t.ty == ty));
  };
  for (int side : {96, 128, 200, 208, 256, 352}) columnsAt(side, 66, 20);
  for (int side : {64, 160, 192, 320}) columnsAt(side, 34, 36);
  for (int side : {104, 112, 224, 288, 384, 448, 512}) columnsAt(side, 34, 42);
  // Odd widths take pairs of rows (36 x 20 x 4 or 36 x 40 x 4 by the twenty-second session's
  // times), which give the same field.
  for (int side : {63, 255, 383}) {
    const Tile3D t = tileAt(Precision::F16, side);
    CHECK((t.halfPairs && !t.pairColumns && t.tx == 36));
  }
  // Without f16x2 instructions, or on a spaced grid, f16 keeps float32 arithmetic: 68 x 20 x 4,
  // 36 x 36 x 3 and 36 x 39 x 3 (raw), with the picks of the twenty-first session (its times at
  // these sizes in BENCHMARKS.md; this call's move none of them).
  DeviceInfo noPairs = h200;
  noPairs.nvidiaComputeCapability = 0;
  for (bool spaced : {false, true}) {
    const DeviceInfo& d = spaced ? h200 : noPairs;
    const auto f16At = [&](int side) {
      const auto t =
          detail::resolveTile3D(Tile3D{}, Precision::F16, d, FieldShape{side, side, side}, !spaced);
      REQUIRE(t);
      CHECK_FALSE(t->halfPairs);
      CHECK(t->rawPrefetch);
      return *t;
    };
    for (int side : {64, 112, 128, 192, 256, 320, 352, 448, 512}) CHECK(f16At(side).tx == 68);
    for (int side : {96, 160, 224, 288}) CHECK(f16At(side).ty == 36);
    for (int side : {104, 200, 208, 384}) CHECK(f16At(side).ty == 39);
  }
  // Without cp.async, float32 keeps its narrower tiles at every size.
  DeviceInfo older = h200;
  older.nvidiaComputeCapability = 75;
  for (int side : {96, 200, 256})
    CHECK(
        detail::resolveTile3D(Tile3D{}, Precision::F32, older, FieldShape{side, side, side})->tx ==
        20);
}
