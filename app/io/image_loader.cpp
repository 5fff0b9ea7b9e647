#include "io/image_loader.hpp"

#include <QImage>
#include <QImageReader>
#include <QString>
#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <algorithm>
#include <fstream>
#include <string_view>
#include <system_error>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/input_limits.hpp"
#include "io/nrrd_file.hpp"
#include "io/png_check.hpp"
#include "io/qt_messages.hpp"

namespace gvflab::app {
namespace {
constexpr qint64 kMaxPixels = 16384LL * 16384LL;

std::string lowerExt(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}
// Qt fills the missing part of a truncated PNG or JPEG and reports success, so check that
// the file reaches its end marker (IEND chunk, JPEG EOI) before decoding.
void checkEndMarker(const std::filesystem::path& path, const std::string& ext) {
  const bool png = ext == ".png", jpeg = ext == ".jpg" || ext == ".jpeg";
  if (!png && !jpeg) return;
  std::ifstream in(path, std::ios::binary);
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff tail = std::min<std::streamoff>(size, 4096);
  std::string bytes(static_cast<std::size_t>(tail), '\0');
  in.seekg(size - tail);
  in.read(bytes.data(), tail);
  const bool ok = png ? bytes.find("IEND") != std::string::npos
                      : bytes.find("\xFF\xD9") != std::string::npos;
  if (!ok) throw InputError("'" + path.string() + "' is truncated or corrupt.");
}

// Refuses more than 16384 per side or too much for this computer, from the header.
void checkPixelCount(const std::filesystem::path& path, qint64 width, qint64 height) {
  if (width > 16384 || height > 16384 || width * height > kMaxPixels)
    throw InputError("'" + path.string() + "' is " + std::to_string(width) + "x" +
                     std::to_string(height) + " pixels, too large: at most 16384 per side fit.");
  // Decoded (up to 8 bytes a pixel), as 16-bit grey and as floats.
  checkHostMemory(path, std::uint64_t(width * height) * (8 + 2 + 4));
}

}  // namespace

namespace {

// The format a file's first bytes say it is ("" when none we know).
std::string signatureFormat(const std::string& head) {
  auto starts = [&](std::string_view magic) { return head.rfind(magic, 0) == 0; };
  if (starts("\x89PNG\r\n\x1a\n")) return "PNG";
  if (starts("\xFF\xD8\xFF")) return "JPEG";
  if (starts("BM")) return "BMP";
  if (starts("GIF8")) return "GIF";
  if (starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4))) return "TIFF";
  if (head.size() >= 2 && head[0] == 'P' && head[1] >= '1' && head[1] <= '6') return "PNM";
  return "";
}

// The format an extension promises ("" for others: Qt then decides by content).
std::string extensionFormat(const std::string& ext) {
  if (ext == ".png") return "PNG";
  if (ext == ".jpg" || ext == ".jpeg") return "JPEG";
  if (ext == ".bmp") return "BMP";
  if (ext == ".tif" || ext == ".tiff") return "TIFF";
  if (ext == ".pgm" || ext == ".ppm" || ext == ".pnm" || ext == ".pbm") return "PNM";
  return "";
}

// P2, P3, P5, P6: read by the engine (Qt reads PBM, P1 and P4).
bool isBinaryOrAsciiPnm(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char m[2] = {0, 0};
  in.read(m, 2);
  return m[0] == 'P' && (m[1] == '2' || m[1] == '3' || m[1] == '5' || m[1] == '6');
}

// Qt's BMP reader says only "cannot be decoded": check the header's fields ourselves.
void checkBmpHeader(const std::filesystem::path& path, const std::string& head16) {
  const std::string name = "'" + path.string() + "'";
  std::ifstream in(path, std::ios::binary);
  std::string h(54, '\0');
  in.read(h.data(), 54);
  if (in.gcount() < 30) throw InputError(name + " is truncated (its BMP header is incomplete).");
  auto u32 = [&](int at) {
    return std::uint32_t(std::uint8_t(h[at])) | std::uint32_t(std::uint8_t(h[at + 1])) << 8 |
           std::uint32_t(std::uint8_t(h[at + 2])) << 16 | std::uint32_t(std::uint8_t(h[at + 3])) << 24;
  };
  const auto i32 = [&](int at) { return static_cast<std::int32_t>(u32(at)); };
  const int bpp = std::uint8_t(h[28]) | std::uint8_t(h[29]) << 8;
  const std::int64_t width = u32(14) >= 40 ? i32(18) : (std::uint8_t(h[18]) | std::uint8_t(h[19]) << 8);
  const std::int64_t height =
      u32(14) >= 40 ? std::abs(std::int64_t(i32(22))) : (std::uint8_t(h[20]) | std::uint8_t(h[21]) << 8);
  if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    throw InputError(name + " has an unsupported depth of " + std::to_string(bpp) +
                     " bits per pixel (1, 4, 8, 16, 24 or 32 are read).");
  if (width < 1 || height < 1)
    throw InputError(name + " has a bad header (its size is " + std::to_string(width) + "x" +
                     std::to_string(height) + ").");
  checkPixelCount(path, width, height);
  const bool compressed = u32(14) >= 40 && in.gcount() >= 34 && u32(30) != 0 && u32(30) != 3;
  const std::uint64_t rowBytes = (std::uint64_t(width) * bpp + 31) / 32 * 4;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!compressed && !ec && u32(10) + rowBytes * std::uint64_t(height) > size)
    throw InputError(name + " is truncated: its header promises " +
                     byteCount(u32(10) + rowBytes * std::uint64_t(height)) + ", the file holds " +
                     byteCount(size) + ".");
  (void)head16;
}

// Missing, a folder, empty, or a header that is not the format its name says.
void checkFile(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError("'" + name + "' does not exist.");
  if (std::filesystem::is_directory(path, ec)) throw InputError("'" + name + "' is a folder.");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("'" + name + "' cannot be opened (permission denied?).");
  if (std::filesystem::file_size(path, ec) == 0) throw InputError("'" + name + "' is empty.");
  const std::string ext = lowerExt(path);
  if (ext == ".mha" || ext == ".mhd" || isNrrdFile(path)) return;
  std::string head(16, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const std::string promised = extensionFormat(ext), found = signatureFormat(head);
  if (!promised.empty() && found != promised)
    throw InputError("'" + name + "' is not a " + promised + " file (bad header" +
                     (found.empty() ? "" : "; it looks like " + found) + ").");
  if (found == "PNG") checkPngFile(path);  // libpng's verdict in our words, before Qt
  if (found == "BMP") checkBmpHeader(path, head);
  if (promised.empty() && found.empty())
    throw InputError("'" + name + "' is not an image gvflab reads (PNG, JPEG, BMP, TIFF, "
                     "PGM/PPM, MetaImage, NRRD; volumes: NIfTI, MetaImage, NRRD).");
}

// libtiff (under Qt's TIFF plugin) prints its errors and warnings itself: send its errors to
// Qt's message handler, where QtMessageCapture makes them part of our sentence, and drop its
// warnings (what they warn about either works or fails with an error).
void tiffError(const char* module, const char* fmt, va_list ap) {
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  // Qt's plugin opens every TIFF under the name "foo": that module name says nothing.
  const bool named = module && *module && std::string(module) != "foo";
  qWarning("libtiff: %s%s%s", named ? module : "", named ? ": " : "", text);
}

void routeLibtiffMessages() {
  static std::once_flag once;
  std::call_once(once, [] {
    TIFFSetErrorHandler(tiffError);
    TIFFSetWarningHandler(nullptr);
  });
}

// Qt's reason, in the user's terms, with the library's own line when it gave one.
std::string readFailure(const QImageReader& reader, const std::string& libraryLine) {
  std::string why;
  switch (reader.error()) {
    case QImageReader::UnsupportedFormatError:
      why = "its format or sample depth is not supported";
      break;
    case QImageReader::InvalidDataError: why = "its image data is corrupt or truncated"; break;
    case QImageReader::FileNotFoundError: why = "it cannot be opened"; break;
    default: why = "it cannot be decoded"; break;
  }
  return libraryLine.empty() ? why : why + " (" + libraryLine + ")";
}

}  // namespace

FieldShape imageHeaderShape(const std::filesystem::path& path) {
  routeLibtiffMessages();
  checkFile(path);
  if (lowerExt(path) == ".mha" || lowerExt(path) == ".mhd") {
    const auto dims = metaImageSize(path);
    return {dims[0], dims[1], dims.size() > 2 ? dims[2] : 1};
  }
  if (isNrrdFile(path)) return nrrdShape(path);
  if (isBinaryOrAsciiPnm(path)) {
    const Image2D image = readPnm(path);  // refuses a short file before allocating
    checkPixelCount(path, image.width, image.height);
    return {image.width, image.height, 1};
  }
  QtMessageCapture messages;
  QImageReader reader(QString::fromStdString(path.string()));
  const QSize size = reader.size();
  if (!size.isValid())
    throw InputError("'" + path.string() + "' has a bad header: " +
                     readFailure(reader, messages.last()) + ".");
  checkPixelCount(path, size.width(), size.height());
  return {size.width(), size.height(), 1};
}

Image2D loadImage(const std::filesystem::path& path) {
  const std::string name = path.string();
  routeLibtiffMessages();
  checkFile(path);
  const std::string ext = lowerExt(path);
  if (ext == ".mha" || ext == ".mhd") return readMetaImage(path);
  if (isNrrdFile(path)) return readNrrdImage(path);
  if (isBinaryOrAsciiPnm(path)) {  // the engine's reader says what is wrong
    Image2D image = readPnm(path);
    checkPixelCount(path, image.width, image.height);
    return image;
  }

  checkEndMarker(path, ext);
  QtMessageCapture messages;  // libpng/libtiff lines become part of our sentence
  QImageReader reader(QString::fromStdString(name));
  reader.setAutoTransform(true);
  const QSize size = reader.size();
  if (size.isValid()) checkPixelCount(path, size.width(), size.height());
  QImage img;
  if (!reader.read(&img) || img.isNull())
    throw InputError("Cannot read '" + name + "': " + readFailure(reader, messages.last()) + ".");
  // Qt quietly returns partial images for some truncated files; insist on the declared size.
  if (size.isValid() && img.size() != size)
    throw InputError("'" + name + "' is truncated or corrupt.");
  QImage grey = img.convertToFormat(QImage::Format_Grayscale16);
  Image2D out(grey.width(), grey.height());
  for (int y = 0; y < grey.height(); ++y) {
    const auto* row = reinterpret_cast<const quint16*>(grey.constScanLine(y));
    for (int x = 0; x < grey.width(); ++x) out.at(x, y) = row[x] / 65535.0f;
  }
  return out;
}

const char* imageFileFilter() {
  return "Images and volumes (*.png *.jpg *.jpeg *.bmp *.pgm *.ppm *.pnm *.tif *.tiff *.mha "
         "*.mhd *.nrrd *.nhdr *.nii *.nii.gz *.hdr *.hdr.gz);;"
         "All files (*)";
}

}  // namespace gvflab::app
