#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "io/image_structure.hpp"

namespace gvflab::app {
namespace {

constexpr std::uint64_t kMaxTileSide = kMaxImageSide;
constexpr std::uint64_t kMaxEntries = 4096;           // entries in one page's directory
constexpr std::uint64_t kMaxCompressionRatio = 4096;  // LZW's worst is below, deflate's 1032

// Bytes per value of field types 0..18 (SHORT 2, LONG 4, RATIONAL 8, ..., IFD8 8); 1 for BYTE,
// ASCII, SBYTE, UNDEFINED and unknown types.
unsigned typeSize(unsigned type) {
  constexpr unsigned kBytes[] = {1, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 1, 1, 8, 8, 8};
  return type < std::size(kBytes) ? kBytes[type] : 1;
}

struct Entry {
  unsigned tag = 0, type = 0;
  std::uint64_t count = 0, valueAt = 0;  // valueAt: where the values are (inline or not)
};

struct Page {
  std::uint64_t width = 0, height = 0, bits = 1, samples = 1, compression = 1, planar = 1;
  std::uint64_t tileWidth = 0, tileHeight = 0;
  std::vector<std::uint64_t> offsets, counts;
};

constexpr std::pair<unsigned, std::uint64_t Page::*> kPageNumbers[] = {
    {256, &Page::width},   {257, &Page::height}, {258, &Page::bits},      {259, &Page::compression},
    {277, &Page::samples}, {284, &Page::planar}, {322, &Page::tileWidth}, {323, &Page::tileHeight}};

}  // namespace

int prewalkTiff(const InputFile& file, int maxPages) {
  const std::string head = file.head(16);
  if (head.size() < 8) throw InputError(file.label() + " is not a TIFF file (bad header).");
  const bool bigEndian = head[0] == 'M';
  // n bytes at `at`, read at once (one system call for a directory or an array).
  const auto block = [&](std::uint64_t at, std::uint64_t n) {
    std::vector<unsigned char> b(n);
    file.readExactly(b.data(), b.size(), at);
    return b;
  };
  const bool bigTiff = unpackAt(file, 2, 2, bigEndian) == 43;
  const unsigned word = bigTiff ? 8 : 4;  // offsets and counts
  const unsigned entrySize = bigTiff ? 20 : 12, countSize = bigTiff ? 8 : 2;
  if (bigTiff && head.size() < 16) throw InputError(file.label() + " is truncated (its header).");
  std::uint64_t next = unpackAt(file, bigTiff ? 8 : 4, word, bigEndian);
  const std::uint64_t size = file.size();
  const auto refuse = [&](int page, const std::string& what) {
    throw InputError(file.label() + ": page " + std::to_string(page) + " " + what + ".");
  };
  std::unordered_set<std::uint64_t> seen;
  std::uint64_t tagBytes = 0;
  int pages = 0;
  while (next != 0) {
    if (pages == maxPages)
      throw InputError(file.label() + " has more than " + std::to_string(maxPages) +
                       " pages, too many.");
    if (!seen.insert(next).second) refuse(pages, "links back to an earlier page (a loop)");
    if (next + countSize > size) refuse(pages, "lies past the end of the file");
    const std::uint64_t entries = unpackAt(file, next, countSize, bigEndian);
    if (entries > kMaxEntries)
      refuse(pages, "has " + std::to_string(entries) + " entries (at most " +
                        std::to_string(kMaxEntries) + " are read)");
    const std::uint64_t first = next + countSize;
    if (first + entries * entrySize + word > size) refuse(pages, "runs past the end of the file");
    Page p;
    const std::vector<unsigned char> dir = block(first, entries * entrySize + word);
    for (std::uint64_t i = 0; i < entries; ++i) {
      const std::uint64_t at = first + i * entrySize;
      const unsigned char* raw = dir.data() + i * entrySize;
      Entry e;
      e.tag = unsigned(unpack(raw, 2, bigEndian));
      e.type = unsigned(unpack(raw + 2, 2, bigEndian));
      e.count = unpack(raw + 4, word, bigEndian);
      const std::uint64_t unit = typeSize(e.type);
      if (e.count > size) refuse(pages, "has a tag of " + std::to_string(e.count) + " values");
      const std::uint64_t bytes = e.count * unit;
      e.valueAt = bytes <= word ? at + 4 + word : unpack(raw + 4 + word, word, bigEndian);
      if (bytes > word) {
        if (e.valueAt > size || bytes > size - e.valueAt)
          refuse(pages, "has tag " + std::to_string(e.tag) + " whose data runs past the end");
        tagBytes += bytes;
        if (tagBytes > std::uint64_t(kMaxHeaderBytes))
          throw InputError(file.label() + " holds more than " + byteCount(kMaxHeaderBytes) +
                           " of tags over its pages (up to page " + std::to_string(pages) +
                           "); refused.");
      }
      if (e.count == 0 || (unit != 2 && unit != 4 && unit != 8)) continue;
      // The entry's values: inline in the directory, else read at once.
      const std::vector<unsigned char> outside =
          bytes > word && (e.tag == 273 || e.tag == 279 || e.tag == 324 || e.tag == 325)
              ? block(e.valueAt, bytes)
              : std::vector<unsigned char>{};
      const auto value = [&](std::uint64_t k) {
        if (bytes <= word) return unpack(raw + 4 + word + k * unit, unsigned(unit), bigEndian);
        return outside.empty() ? unpackAt(file, e.valueAt + k * unit, unsigned(unit), bigEndian)
                               : unpack(outside.data() + k * unit, unsigned(unit), bigEndian);
      };
      const auto values = [&] {
        std::vector<std::uint64_t> v(e.count);
        for (std::uint64_t k = 0; k < e.count; ++k) v[k] = value(k);
        return v;
      };
      // The tags read: the page's numbers, its strips' or tiles' offsets and byte counts.
      for (const auto& [tag, field] : kPageNumbers)
        if (e.tag == tag) p.*field = value(0);
      if (e.tag == 273 || e.tag == 324) p.offsets = values();
      if (e.tag == 279 || e.tag == 325) p.counts = values();
    }
    next = unpack(dir.data() + entries * entrySize, word, bigEndian);
    // The page's data, where its header says its size is within the readers' limits (the
    // readers refuse the others by their size).
    if (p.width > 0 && p.height > 0 && p.width <= kMaxImageSide && p.height <= kMaxImageSide &&
        p.bits > 0 && p.bits <= 64 && p.samples > 0 && p.samples <= 16) {
      if (p.tileWidth > kMaxTileSide || p.tileHeight > kMaxTileSide)
        refuse(pages, "has " + std::to_string(p.tileWidth) + "x" + std::to_string(p.tileHeight) +
                          " tiles (at most " + std::to_string(kMaxTileSide) + " per side)");
      for (std::size_t k = 0; k < std::min(p.offsets.size(), p.counts.size()); ++k)
        if (p.offsets[k] > size || p.counts[k] > size - p.offsets[k])
          refuse(pages,
                 "has data past the end of the file (strip or tile " + std::to_string(k) + ")");
      std::uint64_t stored = 0;
      for (const std::uint64_t c : p.counts) stored += c;
      const std::uint64_t need = (p.width * p.samples * p.bits + 7) / 8 * p.height;
      if (!p.counts.empty() && p.compression == 1 && p.tileWidth == 0 && stored < need)
        refuse(pages, "is truncated: its strips hold " + byteCount(stored) + ", its size needs " +
                          byteCount(need));
      if (!p.counts.empty() && stored * kMaxCompressionRatio < need)
        refuse(pages, "holds " + byteCount(stored) + " of data for " + byteCount(need) +
                          " of samples, more than any compression expands to");
    }
    ++pages;
  }
  if (pages == 0) throw InputError(file.label() + " is not a TIFF file (no page).");
  return pages;
}

}  // namespace gvflab::app
