#include "io/tiff_file.hpp"

#include <tiffio.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/luminance.hpp"
#include "gvflab/quoted.hpp"
#include "io/image_structure.hpp"

namespace gvflab::app {
namespace {

constexpr int kMaxPages = static_cast<int>(kMaxSide);

// libtiff's first error on this file, kept for our sentence; its warnings are dropped (what
// they warn about either works or ends in an error).
int keepError(TIFF*, void* user, const char*, const char* fmt, va_list ap) {
  auto* last = static_cast<std::string*>(user);
  if (!last->empty()) return 1;
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  *last = text;
  while (!last->empty() && (last->back() == '.' || last->back() == '\n')) last->pop_back();
  return 1;
}
int dropWarning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

// An open TIFF file with libtiff's messages kept for our sentences.
class TiffFile {
 public:
  explicit TiffFile(const std::filesystem::path& path) : file_(path) {
    if (file_.size() == 0) throw InputError(quoted(path) + " is empty.");
    const std::string head = file_.head(4);
    if (head != std::string("II*\0", 4) && head != std::string("MM\0*", 4) &&
        head != std::string("II+\0", 4) && head != std::string("MM\0+", 4))
      throw InputError(quoted(path) + " is not a TIFF file (bad header).");
    std::unique_ptr<TIFFOpenOptions, decltype(&TIFFOpenOptionsFree)> options(TIFFOpenOptionsAlloc(),
                                                                             &TIFFOpenOptionsFree);
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), keepError, &error_);
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), dropWarning, nullptr);
    // libtiff's own buffers (a strip, a tile) stay below what our largest page needs.
    TIFFOpenOptionsSetMaxSingleMemAlloc(options.get(), tmsize_t(1) << 31);
    const int fd = dup(file_.fd());
    if (fd < 0) throw InputError(quoted(path) + " cannot be opened (out of file descriptors).");
    // "m": no memory map, so a file cut short while it is read is an error, not a crash.
    pages_ = prewalkTiff(file_, kMaxPages);  // linear, bounded: before libtiff reads a page
    tif_ = TIFFFdOpenExt(fd, path.string().c_str(), "rm", options.get());
    if (!tif_) {
      close(fd);
      fail("is not a readable TIFF file");
    }
  }
  ~TiffFile() { TIFFClose(tif_); }
  TiffFile(const TiffFile&) = delete;
  TiffFile& operator=(const TiffFile&) = delete;

  TIFF* get() const { return tif_; }
  const std::filesystem::path& path() const { return file_.path(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_.label() + " " + what +
                     (error_.empty() ? "" : " (libtiff: " + error_ + ")") + ".");
  }

  // The pages our own walk counted (libtiff is at the first).
  int countPages() const { return pages_; }
  // Page `page` from the first: O(page), so loops over pages use nextPage.
  void setPage(int page) {
    if (!TIFFSetDirectory(tif_, static_cast<tdir_t>(page)))
      fail("cannot read page " + std::to_string(page));
  }
  // The page after the current one, which is page - 1.
  void nextPage(int page) {
    if (!TIFFReadDirectory(tif_)) fail("is corrupt after page " + std::to_string(page - 1));
  }

 private:
  InputFile file_;
  std::string error_;
  TIFF* tif_ = nullptr;
  int pages_ = 0;
};

// What one page holds.
struct Page {
  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 1, samples = 1, format = SAMPLEFORMAT_UINT, photometric = 0, planar = 1;
  bool tiled = false;

  // Grey 1 to 16-bit unsigned is scaled by its type's range; everything else by its own.
  bool fixedRange() const {
    return (format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_VOID) && bits <= 16;
  }
  // libtiff's RGBA interface reads every 8-bit-or-less layout (palette, YCbCr, CMYK, 1-bit).
  bool viaRgba() const {
    return (format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_VOID) && bits <= 8;
  }
  bool sameKind(const Page& o) const {
    return width == o.width && height == o.height && bits == o.bits && samples == o.samples &&
           format == o.format && photometric == o.photometric;
  }
  std::string describe() const {
    return std::to_string(width) + "x" + std::to_string(height) + ", " + std::to_string(bits) +
           "-bit " +
           (format == SAMPLEFORMAT_IEEEFP ? "float"
            : format == SAMPLEFORMAT_INT  ? "signed"
                                          : "unsigned") +
           (samples > 1 ? ", " + std::to_string(samples) + " samples" : "");
  }
};

Page readPage(const TiffFile& f, int index) {
  TIFF* t = f.get();
  Page p;
  const std::string which = "page " + std::to_string(index);
  if (!TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &p.width) ||
      !TIFFGetField(t, TIFFTAG_IMAGELENGTH, &p.height))
    f.fail("has no image size on " + which);
  TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &p.bits);
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &p.samples);
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &p.format);
  TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &p.planar);
  if (!TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &p.photometric))
    p.photometric = p.samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
  p.tiled = TIFFIsTiled(t) != 0;
  if (p.width < 1 || p.height < 1)
    throw InputError(quoted(f.path()) + " has an empty " + which + ".");
  if (p.width > kMaxImageSide || p.height > kMaxImageSide)
    throw InputError(quoted(f.path()) + " is " + std::to_string(p.width) + "x" +
                     std::to_string(p.height) + " pixels, too large: at most " +
                     std::to_string(kMaxImageSide) + " per side fit.");
  if (p.samples < 1 || p.samples > 16)
    throw InputError(quoted(f.path()) + " has " + std::to_string(p.samples) +
                     " samples per pixel on " + which + " (1 to 16 are read).");
  return p;
}

// A sample of `bits` bits and format at p, in the machine's order (libtiff swaps for us).
double sampleAt(const unsigned char* p, const Page& page) {
  const auto as = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  if (page.format == SAMPLEFORMAT_IEEEFP) return page.bits == 32 ? as(float()) : as(double());
  const bool s = page.format == SAMPLEFORMAT_INT;
  switch (page.bits) {
    case 8:
      return s ? as(std::int8_t()) : as(std::uint8_t());
    case 16:
      return s ? as(std::int16_t()) : as(std::uint16_t());
    case 32:
      return s ? as(std::int32_t()) : as(std::uint32_t());
    default:
      return s ? as(std::int64_t()) : as(std::uint64_t());
  }
}

// Luminance with the project's rule (gvflab/luminance.hpp); grey stays exact.
double greyOf(double r, double g, double b) { return r == g && g == b ? r : luminance(r, g, b); }

// 8-bit-or-less pages through TIFFReadRGBAImage: grey levels in [0, 255].
void readRgbaPage(const TiffFile& f, const Page& p, int index, std::vector<double>& out) {
  char why[1024] = "";
  if (!TIFFRGBAImageOK(f.get(), why))
    throw InputError(quoted(f.path()) + " has an unsupported layout on page " +
                     std::to_string(index) + " (libtiff: " + why + ").");
  std::vector<std::uint32_t> rgba(std::size_t(p.width) * p.height);
  if (!TIFFReadRGBAImageOriented(f.get(), p.width, p.height, rgba.data(), ORIENTATION_TOPLEFT, 1))
    f.fail("is corrupt or truncated on page " + std::to_string(index));
  for (const std::uint32_t v : rgba) out.push_back(greyOf(TIFFGetR(v), TIFFGetG(v), TIFFGetB(v)));
}

// Other pages sample by sample: grey (1 sample) or RGB (the first 3), strips or tiles.
void readRawPage(const TiffFile& f, const Page& p, int index, std::vector<double>& out) {
  const std::string which = " on page " + std::to_string(index);
  const bool floatOk = p.format != SAMPLEFORMAT_IEEEFP || p.bits == 32 || p.bits == 64;
  if ((p.bits != 8 && p.bits != 16 && p.bits != 32 && p.bits != 64) || !floatOk ||
      (p.format != SAMPLEFORMAT_UINT && p.format != SAMPLEFORMAT_INT &&
       p.format != SAMPLEFORMAT_IEEEFP && p.format != SAMPLEFORMAT_VOID))
    throw InputError(quoted(f.path()) + " has unsupported samples" + which + " (" + p.describe() +
                     "; 8, 16, 32 or 64-bit integers and 32 or 64-bit floats are read).");
  const bool rgb = p.photometric == PHOTOMETRIC_RGB && p.samples >= 3;
  if (!rgb && p.photometric != PHOTOMETRIC_MINISBLACK && p.photometric != PHOTOMETRIC_MINISWHITE)
    throw InputError(quoted(f.path()) + " has an unsupported colour model" + which +
                     " (photometric " + std::to_string(p.photometric) +
                     "; grey or RGB are read at this depth).");
  const int used = rgb ? 3 : 1;
  const std::size_t bytes = p.bits / 8;
  const bool separate = p.planar == PLANARCONFIG_SEPARATE && p.samples > 1;
  const std::size_t stride = separate ? bytes : bytes * p.samples;  // between pixels in a buffer
  std::vector<double> samples(std::size_t(p.width) * p.height * used);
  const auto store = [&](const unsigned char* row, std::uint32_t x0, std::uint32_t y,
                         std::uint32_t n, int s) {
    for (std::uint32_t i = 0; i < n && x0 + i < p.width; ++i)
      for (int c = separate ? s : 0; c < (separate ? s + 1 : used); ++c)
        samples[(std::size_t(y) * p.width + x0 + i) * used + c] =
            sampleAt(row + i * stride + (separate ? 0 : c * bytes), p);
  };
  const int planes = separate ? used : 1;
  if (p.tiled) {
    std::uint32_t tw = 0, th = 0;
    TIFFGetField(f.get(), TIFFTAG_TILEWIDTH, &tw);
    TIFFGetField(f.get(), TIFFTAG_TILELENGTH, &th);
    const tmsize_t size = TIFFTileSize(f.get());
    if (tw == 0 || th == 0 || size <= 0 || std::uint64_t(size) < std::uint64_t(tw) * th * stride)
      f.fail("has a bad tile size" + which);
    std::vector<unsigned char> tile(static_cast<std::size_t>(size));
    for (int s = 0; s < planes; ++s)
      for (std::uint32_t ty = 0; ty < p.height; ty += th)
        for (std::uint32_t tx = 0; tx < p.width; tx += tw) {
          if (TIFFReadTile(f.get(), tile.data(), tx, ty, 0, static_cast<std::uint16_t>(s)) < 0)
            f.fail("is corrupt or truncated" + which);
          for (std::uint32_t r = 0; r < th && ty + r < p.height; ++r)
            store(tile.data() + std::size_t(r) * tw * stride, tx, ty + r, tw, s);
        }
  } else {
    const tmsize_t size = TIFFScanlineSize(f.get());
    if (size <= 0 || std::uint64_t(size) < std::uint64_t(p.width) * stride)
      f.fail("has a bad row size" + which);
    std::vector<unsigned char> row(static_cast<std::size_t>(size));
    for (int s = 0; s < planes; ++s)
      for (std::uint32_t y = 0; y < p.height; ++y) {
        if (TIFFReadScanline(f.get(), row.data(), y, static_cast<std::uint16_t>(s)) < 0)
          f.fail("is corrupt or truncated" + which);
        store(row.data(), 0, y, p.width, s);
      }
  }
  const bool inverted = p.photometric == PHOTOMETRIC_MINISWHITE;
  const double top = p.fixedRange() ? double((1u << p.bits) - 1) : 0.0;
  for (std::size_t i = 0; i < samples.size(); i += used) {
    double v = rgb ? greyOf(samples[i], samples[i + 1], samples[i + 2]) : samples[i];
    if (inverted) v = p.fixedRange() ? top - v : -v;
    out.push_back(v);
  }
}

void readPageValues(const TiffFile& f, const Page& p, int index, std::vector<double>& out) {
  if (p.viaRgba())
    readRgbaPage(f, p, index, out);
  else
    readRawPage(f, p, index, out);
}

// Values of a fixed-range type divided by its maximum; the others rescaled from their range.
std::vector<float> toUnit(const std::vector<double>& values, const Page& p,
                          const std::filesystem::path& path) {
  std::vector<float> out;
  if (!p.fixedRange()) {
    normaliseToUnit(values, out, path);  // refuses NaN and infinities
    return out;
  }
  const double top = p.viaRgba() ? 255.0 : double((1u << p.bits) - 1);
  out.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<float>(values[i] / top);
  return out;
}

Image2D pageImage(TiffFile& f, int page) {
  f.setPage(page);
  const Page p = readPage(f, page);
  checkHostMemory(f.path(), std::uint64_t(p.width) * p.height * (8 + 4 + 4 + 8 * 3));
  std::vector<double> values;
  values.reserve(std::size_t(p.width) * p.height);
  readPageValues(f, p, page, values);
  Image2D img;
  img.width = static_cast<int>(p.width);
  img.height = static_cast<int>(p.height);
  img.pixels = toUnit(values, p, f.path());
  return img;
}

// InputError "--page N: ..." unless f has that page.
void checkPage(const TiffFile& f, const std::filesystem::path& path, int page) {
  const int pages = f.countPages();
  if (page < 0 || page >= pages)
    throw InputError("--page " + std::to_string(page) + ": " + quoted(path) + " has " +
                     std::to_string(pages) + (pages == 1 ? " page" : " pages") + " (0 to " +
                     std::to_string(pages - 1) + ").");
}

}  // namespace

int tiffDimensions(const std::filesystem::path& path) {
  return TiffFile(path).countPages() > 1 ? 3 : 2;
}

FieldShape tiffShape(const std::filesystem::path& path) {
  TiffFile f(path);
  const int pages = f.countPages();
  const Page p = readPage(f, 0);
  if (pages > 1 && std::int64_t(p.width) * p.height * pages > kMaxVoxels)
    throw InputError(quoted(path) + " is " + std::to_string(p.width) + "x" +
                     std::to_string(p.height) + "x" + std::to_string(pages) +
                     ", too large: at most " + std::to_string(kMaxVoxels) + " voxels are read.");
  return {static_cast<int>(p.width), static_cast<int>(p.height), pages};
}

FieldShape tiffPageShape(const std::filesystem::path& path, int page) {
  TiffFile f(path);
  checkPage(f, path, page);
  f.setPage(page);
  const Page p = readPage(f, page);
  return {static_cast<int>(p.width), static_cast<int>(p.height), 1};
}

Image2D readTiffImage(const std::filesystem::path& path) {
  TiffFile f(path);
  const int pages = f.countPages();
  if (pages > 1)
    throw InputError(quoted(path) + " is a stack of " + std::to_string(pages) +
                     " pages: read it as a volume, or pick one page with --page N.");
  return pageImage(f, 0);
}

Image2D readTiffPage(const std::filesystem::path& path, int page) {
  TiffFile f(path);
  checkPage(f, path, page);
  return pageImage(f, page);
}

Volume readTiffVolume(const std::filesystem::path& path) {
  TiffFile f(path);
  const int pages = f.countPages();
  const Page first = readPage(f, 0);
  // Every page's header first: a stack of mixed pages is refused before any is decoded.
  for (int z = 1; z < pages; ++z) {
    f.nextPage(z);  // linear: one page after the other
    const Page p = readPage(f, z);
    if (!p.sameKind(first))
      throw InputError(quoted(path) + " mixes pages: page 0 is " + first.describe() + ", page " +
                       std::to_string(z) + " is " + p.describe() +
                       "; a volume's pages must match (pick one with --page N).");
  }
  const std::uint64_t voxels = std::uint64_t(first.width) * first.height * pages;
  if (voxels > std::uint64_t(kMaxVoxels))
    throw InputError(quoted(path) + " is " + std::to_string(first.width) + "x" +
                     std::to_string(first.height) + "x" + std::to_string(pages) +
                     ", too large: at most " + std::to_string(kMaxVoxels) + " voxels are read.");
  checkHostMemory(path, voxels * (8 + 4) + std::uint64_t(first.width) * first.height * 8 * 3);
  std::vector<double> values;
  values.reserve(voxels);
  f.setPage(0);
  for (int z = 0; z < pages; ++z) {
    if (z > 0) f.nextPage(z);
    readPageValues(f, readPage(f, z), z, values);  // strips or tiles may differ by page
  }
  Volume v;
  v.width = static_cast<int>(first.width);
  v.height = static_cast<int>(first.height);
  v.depth = pages;
  v.voxels = toUnit(values, first, path);
  return v;
}

}  // namespace gvflab::app
