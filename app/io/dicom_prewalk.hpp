#pragma once
// Our own structural walk of a DICOM file, before GDCM sees a byte of it. Debian's GDCM is built
// with assertions, and a file cut short inside a sequence, an item past its sequence's end, a
// sequence with no end, an odd length, a fragment past the end or a truncated deflated data set
// aborts (or crashes) inside it. The walk follows every element, sequence, item and encapsulated
// fragment to the end of the stream (inflating a deflated data set with a bound) and throws
// InputError naming the file at the first thing GDCM could trip on.
//
// Bounds: nesting at most kMaxDicomDepth sequences deep, at most kMaxDicomElements elements and
// fragments in all, at most kMaxHeaderBytes (gvflab/input_limits.hpp) of values besides the pixel
// data; a deflated data set inflates to at most that plus the pixel data its header declares.
#include "gvflab/input_file.hpp"

namespace gvflab::app {

inline constexpr int kMaxDicomDepth = 16;
inline constexpr std::uint64_t kMaxDicomElements = 1u << 20;

void prewalkDicom(const InputFile& file);

}  // namespace gvflab::app
