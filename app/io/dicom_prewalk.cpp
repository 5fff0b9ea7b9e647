#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "io/image_structure.hpp"

namespace gvflab::app {
namespace {

constexpr std::uint32_t kUndefined = 0xFFFFFFFFu;
constexpr std::uint64_t kNoEnd = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint32_t kItem = 0xFFFEE000u, kItemEnd = 0xFFFEE00Du, kSequenceEnd = 0xFFFEE0DDu;
constexpr std::uint32_t kPixelData = 0x7FE00010u;

// The bytes of the data set, read in order: the file itself, or its inflated stream.
class Source {
 public:
  virtual ~Source() = default;
  // Exactly n bytes, or false when the stream ends first.
  virtual bool read(void* out, std::size_t n) = 0;
  virtual bool skip(std::uint64_t n) = 0;
  virtual bool atEnd() = 0;
  virtual void allowMore(std::uint64_t) {}
  std::uint64_t position() const { return position_; }

 protected:
  std::uint64_t position_ = 0;
};

class FileSource : public Source {
 public:
  FileSource(const InputFile& file, std::uint64_t start) : file_(file) { position_ = start; }
  bool read(void* out, std::size_t n) override {
    if (position_ + n > file_.size()) return false;
    file_.readExactly(out, n, position_);
    position_ += n;
    return true;
  }
  bool skip(std::uint64_t n) override {
    if (n > file_.size() - position_) return false;
    position_ += n;
    return true;
  }
  bool atEnd() override { return position_ >= file_.size(); }

 private:
  const InputFile& file_;
};

// A raw deflate stream (the deflated explicit VR little endian syntax) inflated a chunk at a
// time; it refuses to inflate more than `limit` bytes (a decompression bomb).
class InflateSource : public Source {
 public:
  InflateSource(const InputFile& file, std::uint64_t start) : file_(file), in_(start) {
    if (inflateInit2(&z_, -15) != Z_OK)
      throw InputError(file.label() + " cannot be decompressed (out of memory).");
  }
  ~InflateSource() override { inflateEnd(&z_); }
  InflateSource(const InflateSource&) = delete;
  InflateSource& operator=(const InflateSource&) = delete;

  void allowMore(std::uint64_t n) override { limit_ += n; }

  bool read(void* out, std::size_t n) override { return take(static_cast<unsigned char*>(out), n); }
  bool skip(std::uint64_t n) override { return take(nullptr, n); }
  bool atEnd() override { return !fill(); }

 private:
  // n bytes inflated, copied to out unless it is null; false when the stream ends first.
  bool take(unsigned char* out, std::uint64_t n) {
    while (n > 0) {
      if (!fill()) return false;
      const std::size_t part = std::size_t(std::min<std::uint64_t>(n, have_ - used_));
      if (out) {
        std::memcpy(out, buffer_.data() + used_, part);
        out += part;
      }
      used_ += part, n -= part, position_ += part;
    }
    return true;
  }
  // Bytes in the buffer, or false at the stream's end (throws when it ends early or is corrupt).
  bool fill() {
    if (used_ < have_) return true;
    if (ended_) return false;
    used_ = have_ = 0;
    while (have_ == 0 && !ended_) {
      if (z_.avail_in == 0) {
        const std::size_t got = file_.readSome(packed_.data(), packed_.size(), in_);
        in_ += got;
        if (got == 0)
          throw InputError(file_.label() +
                           " is truncated: its deflated data set ends before its end marker.");
        z_.next_in = packed_.data();
        z_.avail_in = uInt(got);
      }
      z_.next_out = buffer_.data();
      z_.avail_out = uInt(buffer_.size());
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        throw InputError(file_.label() + " has a corrupt deflated data set (bad zlib stream).");
      have_ = buffer_.size() - z_.avail_out;
      produced_ += have_;
      if (produced_ > limit_)
        throw InputError(file_.label() + "'s deflated data set inflates to more than " +
                         byteCount(limit_) +
                         ", more than its header and pixel data need; refused as a "
                         "decompression bomb.");
      ended_ = rc == Z_STREAM_END;
    }
    return have_ > 0;
  }

  const InputFile& file_;
  std::uint64_t in_;
  z_stream z_{};
  std::array<unsigned char, 1 << 16> packed_{}, buffer_{};
  std::size_t have_ = 0, used_ = 0;
  std::uint64_t produced_ = 0, limit_ = std::uint64_t(kMaxHeaderBytes);
  bool ended_ = false;
};

[[noreturn]] void truncatedElement(const InputFile& file) {
  throw InputError(file.label() + " is truncated or corrupt (a DICOM element runs past the end).");
}

// Whether the two letters at vr are one of a list of VRs (two letters each).
bool vrIn(std::string_view list, const char* vr) {
  for (std::size_t i = 0; i < list.size(); i += 2)
    if (list[i] == vr[0] && list[i + 1] == vr[1]) return true;
  return false;
}

// GDCM reads an unknown VR as the start of an implicit element and asserts (the fuzzer's
// finds): an explicit stream must name known VRs only.
bool isKnownVr(const char* vr) {
  return vrIn("AEASATCSDADSDTFLFDISLOLTOBODOFOLOVOWPNSHSLSQSSSTSVTMUCUIULUNURUSUTUV", vr);
}
bool isLongVr(const char* vr) { return vrIn("OBOWOFODOLOVSQUNUTUCURSVUV", vr); }

class Walk {
 public:
  Walk(const InputFile& file, Source& src, bool bigEndian)
      : file_(file), src_(src), big_(bigEndian) {}

  void dataSet(int depth, std::uint64_t end, bool delimited, bool explicitVr) {
    for (;;) {
      if (end != kNoEnd && src_.position() == end) {
        if (delimited) corrupt("an item with no end marker");
        return;
      }
      if (end == kNoEnd && src_.atEnd()) {
        if (!delimited) return;
        throw InputError(file_.label() +
                         " is truncated or corrupt (a DICOM item or sequence has no end marker).");
      }
      const std::uint32_t t = tag();
      if (t == kItemEnd) {
        length32();
        if (!delimited) corrupt("an item end marker outside an item");
        return;
      }
      if (t == kItem || t == kSequenceEnd) corrupt("an item marker outside a sequence");
      element(t, depth, end, explicitVr);
    }
  }

  // What the top level declared: the native pixel data's size (0 when unknown).
  std::uint64_t pixelNeed() const {
    if (rows_ == 0 || cols_ == 0 || rows_ > kMaxImageSide || cols_ > kMaxImageSide ||
        frames_ > static_cast<unsigned long>(kMaxSide))
      return 0;
    if (subsampled_) return 0;  // YBR 4:2:2 and 4:2:0 hold fewer bytes than samples
    // 1-bit data is packed.
    return (std::uint64_t(rows_) * cols_ * frames_ * std::max(1u, samples_) * std::max(1u, bits_) +
            7) /
           8;
  }

 private:
  [[noreturn]] void corrupt(const std::string& what) const {
    throw InputError(file_.label() + " is corrupt: " + what + " at byte " +
                     std::to_string(src_.position()) + " of its data set.");
  }

  void bytes(void* out, std::size_t n) {
    if (!src_.read(out, n)) truncatedElement(file_);
  }
  // An unsigned integer of n bytes (2 or 4) from the stream.
  std::uint32_t next(unsigned n) {
    unsigned char b[4];
    bytes(b, n);
    return std::uint32_t(unpack(b, n, big_));
  }
  std::uint32_t u16() { return next(2); }
  std::uint32_t length32() { return next(4); }
  std::uint32_t tag() {
    // Item markers are little endian in every little-endian syntax and big endian in the big.
    const std::uint32_t group = u16();
    return group << 16 | u16();
  }
  void count() {
    if (++elements_ > kMaxDicomElements)
      throw InputError(file_.label() + " holds more than " + std::to_string(kMaxDicomElements) +
                       " DICOM elements; refused.");
  }
  void within(std::uint64_t end, std::uint64_t length) {
    if (end != kNoEnd && length > end - src_.position())
      corrupt("an element runs past the end of its item or sequence");
  }
  void skipValue(std::uint64_t length) {
    nonPixel_ += length;
    if (nonPixel_ > std::uint64_t(kMaxHeaderBytes))
      throw InputError(file_.label() + " holds more than " + byteCount(kMaxHeaderBytes) +
                       " of values besides its pixel data; refused.");
    if (!src_.skip(length)) truncatedElement(file_);
  }

  void element(std::uint32_t t, int depth, std::uint64_t end, bool explicitVr) {
    count();
    char vr[2] = {0, 0};
    std::uint32_t length = 0;
    if (explicitVr) {
      bytes(vr, 2);
      if (!isKnownVr(vr)) corrupt("an element of unknown VR");
      if (isLongVr(vr)) {
        u16();
        length = length32();
      } else {
        length = u16();
      }
    } else {
      length = length32();
    }
    if (length == kUndefined) {
      if (depth == 0 && t == kPixelData) return fragments(end);
      if (vr[0] != 0 && !vrIn("SQUNOBOW", vr))
        corrupt("an element of undefined length that is no sequence");
      // UN of undefined length holds implicit VR little endian items.
      return sequence(depth + 1, kNoEnd, explicitVr && !vrIn("UN", vr));
    }
    if (length % 2 != 0) corrupt("an element of odd length " + std::to_string(length));
    if (depth == 0) checkImageAttribute(t, explicitVr ? vr : nullptr, length);
    within(end, length);
    if (depth == 0 && t == kPixelData) return pixels(length);
    if (depth == 0 && length <= 64 && (t >> 16) == 0x0028) return attribute(t, length);
    if (vrIn("SQ", vr)) return sequence(depth + 1, src_.position() + length, explicitVr);
    if (!explicitVr && length >= 8) {
      // Implicit VR: a value that starts with an item marker is read as a sequence.
      const std::uint64_t start = src_.position();
      const std::uint32_t first = tag();
      if (first == kItem) return sequence(depth + 1, start + length, explicitVr, true);
      return skipValue(length - 4);
    }
    skipValue(length);
  }

  // GDCM reads the image attributes through typed accessors that assert on a wrong VR, a wrong
  // length or a sample count above 4 (the fuzzer's finds): they are checked here first.
  void checkImageAttribute(std::uint32_t t, const char* vr, std::uint32_t length) {
    struct Rule {
      std::uint32_t tag;
      const char* vr;
    };
    static constexpr Rule kRules[] = {
        {0x00280002, "US"}, {0x00280006, "US"}, {0x00280010, "US"}, {0x00280011, "US"},
        {0x00280100, "US"}, {0x00280101, "US"}, {0x00280102, "US"}, {0x00280103, "US"},
        {0x00280008, "IS"}, {0x00280004, "CS"}, {0x00280030, "DS"}, {0x00281052, "DS"},
        {0x00281053, "DS"}, {0x00200032, "DS"}, {0x00200037, "DS"}, {0x00200013, "IS"},
        {0x00180050, "DS"}, {0x00180088, "DS"}, {0x00181164, "DS"}, {0x00280034, "IS"}};
    for (const Rule& r : kRules) {
      if (r.tag != t) continue;
      if (vr && (vr[0] != r.vr[0] || vr[1] != r.vr[1]) && !(vr[0] == 'U' && vr[1] == 'N'))
        corrupt("an image attribute with VR " + std::string(vr, 2) + " (" + r.vr + " expected)");
      if (r.vr[0] == 'U' && length != 2)
        corrupt("an image attribute of " + std::to_string(length) + " bytes (one US expected)");
      return;
    }
  }

  // The items of a sequence, to its end (defined) or its end marker (undefined length).
  void sequence(int depth, std::uint64_t end, bool explicitVr, bool firstTagRead = false) {
    if (depth > kMaxDicomDepth)
      throw InputError(file_.label() + " nests DICOM sequences more than " +
                       std::to_string(kMaxDicomDepth) + " deep; refused.");
    for (bool first = true;; first = false) {
      if (end != kNoEnd && src_.position() == end && !(first && firstTagRead)) return;
      if (end == kNoEnd && src_.atEnd())
        throw InputError(file_.label() +
                         " is truncated or corrupt (a DICOM sequence has no end marker).");
      const std::uint32_t t = first && firstTagRead ? kItem : tag();
      count();
      const std::uint32_t length = length32();
      if (t == kSequenceEnd) {
        if (end != kNoEnd) corrupt("a sequence end marker in a sequence of defined length");
        return;
      }
      if (t != kItem) corrupt("a sequence holds something other than items");
      if (length == kUndefined) {
        dataSet(depth, end, true, explicitVr);
        continue;
      }
      if (length % 2 != 0) corrupt("an item of odd length " + std::to_string(length));
      within(end, length);
      dataSet(depth, src_.position() + length, false, explicitVr);
    }
  }

  // Encapsulated pixel data: an offset table and fragments, each within the stream.
  void fragments(std::uint64_t end) {
    for (;;) {
      if (src_.atEnd())
        throw InputError(file_.label() +
                         " is truncated or corrupt (its encapsulated pixel data has no end "
                         "marker).");
      const std::uint32_t t = tag();
      count();
      const std::uint32_t length = length32();
      if (t == kSequenceEnd) return;
      if (t != kItem) corrupt("encapsulated pixel data holds something other than fragments");
      if (length == kUndefined) corrupt("a pixel data fragment of undefined length");
      within(end, length);
      src_.allowMore(length);
      if (!src_.skip(length))
        throw InputError(file_.label() +
                         " is truncated or corrupt (a pixel data fragment runs past the end).");
    }
  }

  void pixels(std::uint32_t length) {
    const std::uint64_t need = pixelNeed();
    if (need > 0 && length < need)
      throw InputError(file_.label() + " is truncated: its pixel data holds " + byteCount(length) +
                       ", its size needs " + byteCount(need) + ".");
    // A deflated stream inflates to the pixel data its header declares, no more (a bomb).
    src_.allowMore(std::min<std::uint64_t>(length, need + 2));
    if (!src_.skip(length))
      throw InputError(file_.label() + " is truncated: its pixel data ends before the " +
                       byteCount(length) + " its header promises.");
  }

  // Rows, Columns, NumberOfFrames, SamplesPerPixel, BitsAllocated: the pixel data's size.
  void attribute(std::uint32_t t, std::uint32_t length) {
    std::string v(length, '\0');
    bytes(v.data(), length);
    nonPixel_ += length;
    const auto us = [&] {
      return length < 2 ? 0u
                        : unsigned(unpack(reinterpret_cast<unsigned char*>(v.data()), 2, big_));
    };
    switch (t & 0xFFFF) {
      case 0x0002:
        samples_ = us();
        if (samples_ < 1 || samples_ > 4) corrupt("SamplesPerPixel " + std::to_string(samples_));
        break;
      case 0x0010:
        rows_ = us();
        break;
      case 0x0011:
        cols_ = us();
        break;
      case 0x0100:
        bits_ = us();
        break;
      case 0x0101:  // BitsStored, HighBit: GDCM asserts past BitsAllocated (8 when absent)
      case 0x0102: {
        const bool stored = (t & 0xFFFF) == 0x0101;
        if (us() + (stored ? 0 : 1) > (bits_ ? bits_ : 8u))
          corrupt(std::string(stored ? "BitsStored " : "HighBit ") + std::to_string(us()) +
                  " beyond BitsAllocated " + std::to_string(bits_ ? bits_ : 8u));
        break;
      }
      case 0x0008:
        frames_ = std::max(1ul, std::strtoul(v.c_str(), nullptr, 10));
        break;
      case 0x0004:
        subsampled_ = v.rfind("YBR_", 0) == 0 && v.find("42") != std::string::npos;
        break;
      default:
        break;
    }
  }

  const InputFile& file_;
  Source& src_;
  bool big_;
  std::uint64_t elements_ = 0, nonPixel_ = 0;
  unsigned rows_ = 0, cols_ = 0, samples_ = 1, bits_ = 0;
  unsigned long frames_ = 1;
  bool subsampled_ = false;
};

}  // namespace

void prewalkDicom(const InputFile& file) {
  const std::uint64_t size = file.size();
  const auto u16 = [&](std::uint64_t at) { return unsigned(unpackAt(file, at, 2, false)); };
  const std::string head = file.head(132);
  std::uint64_t at = head.size() == 132 && head.substr(128) == "DICM" ? 132 : 0;
  std::string syntax = "1.2.840.10008.1.2";  // implicit VR little endian without a meta group
  if (at == 0) {
    if (size < 8 || (u16(0) != 0x0002 && u16(0) != 0x0008))
      throw InputError(file.label() + " is not a DICOM file (no DICM marker, no data set).");
    // A meta group is explicit VR in every syntax: GDCM asserts on one without a VR (fuzz
    // finding dicom-4).
    if (u16(0) == 0x0002 && !isKnownVr(head.data() + 4))
      throw InputError(file.label() + " is corrupt: its meta header has an element of unknown VR.");
    if (std::isupper(static_cast<unsigned char>(head[4])) &&
        std::isupper(static_cast<unsigned char>(head[5])))
      syntax = "1.2.840.10008.1.2.1";  // explicit VR without a meta group, as GDCM guesses
  } else {
    // The meta group: explicit VR little endian in every syntax.
    syntax.clear();
    if (size < at + 8) truncatedElement(file);
    while (at + 8 <= size && u16(at) == 0x0002) {
      const unsigned element = u16(at + 2);
      char vr[2];
      file.readExactly(vr, 2, at + 4);
      if (!isKnownVr(vr))
        throw InputError(file.label() +
                         " is corrupt: its meta header has an element of unknown VR.");
      const bool wide = isLongVr(vr);
      if (wide && at + 12 > size) truncatedElement(file);
      const std::uint64_t length = unpackAt(file, at + (wide ? 8 : 6), wide ? 4 : 2, false);
      const std::uint64_t value = at + (wide ? 12 : 8);
      if (length == 0xFFFFFFFFu || value + length > size) truncatedElement(file);
      if (element == 0x0010) {
        syntax.resize(length);
        file.readExactly(syntax.data(), length, value);
        while (!syntax.empty() && (syntax.back() == '\0' || syntax.back() == ' '))
          syntax.pop_back();
      }
      at = value + length;
    }
    if (at + 8 > size) truncatedElement(file);  // a meta group and no data set
  }
  const bool implicitVr = syntax == "1.2.840.10008.1.2";
  const bool bigEndian = syntax == "1.2.840.10008.1.2.2";
  const bool deflated = syntax == "1.2.840.10008.1.2.1.99";
  FileSource raw(file, at);
  std::unique_ptr<InflateSource> inflated;
  if (deflated) inflated = std::make_unique<InflateSource>(file, at);
  Walk walk(file, inflated ? static_cast<Source&>(*inflated) : raw, bigEndian);
  walk.dataSet(0, kNoEnd, false, !implicitVr);
}

}  // namespace gvflab::app
