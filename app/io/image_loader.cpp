#include "io/image_loader.hpp"

#include <QImage>
#include <QImageReader>
#include <QString>
#include <algorithm>
#include <fstream>
#include <string_view>
#include <system_error>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/input_limits.hpp"
#include "io/nrrd_file.hpp"
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
  if (promised.empty() && found.empty())
    throw InputError("'" + name + "' is not an image gvflab reads (PNG, JPEG, BMP, TIFF, "
                     "PGM/PPM, MetaImage, NRRD; volumes: NIfTI, MetaImage, NRRD).");
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
  checkFile(path);
  if (lowerExt(path) == ".mha" || lowerExt(path) == ".mhd") {
    const auto dims = metaImageSize(path);
    return {dims[0], dims[1], dims.size() > 2 ? dims[2] : 1};
  }
  if (isNrrdFile(path)) return nrrdShape(path);
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
  checkFile(path);
  const std::string ext = lowerExt(path);
  if (ext == ".mha" || ext == ".mhd") return readMetaImage(path);
  if (isNrrdFile(path)) return readNrrdImage(path);

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
