#pragma once
// Level sizes and step codes shared by multigrid's launch path (multigrid_solver.cpp) and its
// one launch (multigrid_persistent.cpp).
#include <algorithm>
#include <cstdint>

#include "gvflab/field_storage.hpp"

namespace gvflab::detail {

inline FieldShape coarser(FieldShape s) {
  return {(s.width + 1) / 2, (s.height + 1) / 2, (s.depth + 1) / 2};
}

inline int maxSide(FieldShape s) { return std::max({s.width, s.height, s.depth}); }

// Float32 correction, right-hand side (dims components each) and S on one coarse level.
inline std::uint64_t coarseLevelBytes(FieldShape s, int dims) {
  return s.count() * (2ull * dims + 1) * sizeof(float);
}

constexpr int kMaxCoarseLevels = 16;  // MG_MAX_LEVELS in multigrid.cl
enum CoarseOp { kSmooth = 0, kRestrict = 1, kProlong = 2, kZero = 3, kRestrictS = 4 };  // MG_OP_*

}  // namespace gvflab::detail
