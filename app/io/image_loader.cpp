#include "io/image_loader.hpp"

#include <QFile>
#include <QImage>
#include <QImageReader>
#include <algorithm>
#include <climits>
#include <optional>
#include <string_view>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/image_structure.hpp"
#include "io/qt_messages.hpp"

namespace gvflab::app {
namespace {
// Refuses more than kMaxImageSide per side or too much for this computer, from the header.
void checkPixelCount(const std::filesystem::path& path, qint64 width, qint64 height) {
  if (width > kMaxImageSide || height > kMaxImageSide)
    throw InputError(quoted(path) + " is " + std::to_string(width) + "x" + std::to_string(height) +
                     " pixels, too large: at most " + std::to_string(kMaxImageSide) +
                     " per side fit.");
  // Decoded (up to 8 bytes a pixel), as 16-bit grey and as floats.
  checkHostMemory(path, std::uint64_t(width * height) * (8 + 2 + 4));
}

// The raster format a file's first bytes say it is (nullptr when none we know).
const FileFormat* signatureFormat(const std::string& head) {
  for (const FileFormat& f : fileFormats())
    for (std::string_view magic : f.signatures)
      if (head.rfind(magic, 0) == 0) return &f;
  return nullptr;
}

// The raster format an extension promises (nullptr for others: then the content decides).
const FileFormat* extensionFormat(const std::filesystem::path& path) {
  const FileFormat* f = findFormat(path, FormatRole::ImageInput);
  return f && !f->signatures.empty() ? f : nullptr;
}

// P2, P3, P5, P6: read by the engine (Qt reads PBM, P1 and P4).
bool isBinaryOrAsciiPnm(const std::string& head) {
  return head.size() >= 2 && head[0] == 'P' &&
         (head[1] == '2' || head[1] == '3' || head[1] == '5' || head[1] == '6');
}

// Qt's BMP reader says only "cannot be decoded": check the header's fields ourselves.
void checkBmpHeader(const InputFile& file) {
  const std::filesystem::path& path = file.path();
  const std::string& name = file.label();  // 'PATH'
  std::string h = file.head(54);
  const std::size_t got = h.size();
  h.resize(54, '\0');
  if (got < 30) throw InputError(name + " is truncated (its BMP header is incomplete).");
  auto u32 = [&](int at) {
    return std::uint32_t(std::uint8_t(h[at])) | std::uint32_t(std::uint8_t(h[at + 1])) << 8 |
           std::uint32_t(std::uint8_t(h[at + 2])) << 16 |
           std::uint32_t(std::uint8_t(h[at + 3])) << 24;
  };
  const auto i32 = [&](int at) { return static_cast<std::int32_t>(u32(at)); };
  const int bpp = std::uint8_t(h[28]) | std::uint8_t(h[29]) << 8;
  const std::int64_t width =
      u32(14) >= 40 ? i32(18) : (std::uint8_t(h[18]) | std::uint8_t(h[19]) << 8);
  const std::int64_t height = u32(14) >= 40 ? std::abs(std::int64_t(i32(22)))
                                            : (std::uint8_t(h[20]) | std::uint8_t(h[21]) << 8);
  if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    throw InputError(name + " has an unsupported depth of " + std::to_string(bpp) +
                     " bits per pixel (1, 4, 8, 16, 24 or 32 are read).");
  if (width < 1 || height < 1)
    throw InputError(name + " has a bad header (its size is " + std::to_string(width) + "x" +
                     std::to_string(height) + ").");
  checkPixelCount(path, width, height);
  const bool compressed = u32(14) >= 40 && got >= 34 && u32(30) != 0 && u32(30) != 3;
  const std::uint64_t rowBytes = (std::uint64_t(width) * bpp + 31) / 32 * 4;
  const auto size = file.size();
  if (!compressed && u32(10) + rowBytes * std::uint64_t(height) > size)
    throw InputError(name + " is truncated: its header promises " +
                     byteCount(u32(10) + rowBytes * std::uint64_t(height)) + ", the file holds " +
                     byteCount(size) + ".");
}

// An image file opened for the checks and for Qt, with what its first bytes say it is.
struct OpenedImage {
  InputFile file;
  std::string head;           // its first 16 bytes
  std::string found;          // the format its signature says ("" when none we know)
  std::string_view qtFormat;  // Qt's reader for it ("": Qt decides by content)
};

// A format that reads images with a reader of its own (MetaImage, NRRD), nullptr for rasters.
const FileFormat* ownReader(const std::filesystem::path& path) {
  const FileFormat* f = findFormat(path, FormatRole::ImageInput);
  return f && f->readImage ? f : nullptr;
}

// Missing, a folder, a FIFO or device, empty, or a header that is not the format its name says;
// PNG chunks and JPEG markers walked (truncation, metadata bounds) before any decoder.
// MetaImage and NRRD are left to their readers, which open the file themselves.
std::optional<OpenedImage> openImage(const std::filesystem::path& path) {
  InputFile file(path);
  if (file.size() == 0) throw InputError(file.label() + " is empty.");
  if (ownReader(path)) return std::nullopt;
  std::string head = file.head(16);
  const FileFormat* promised = extensionFormat(path);
  const FileFormat* signature = signatureFormat(head);
  const std::string found(signature ? signature->name : "");
  if (promised && signature != promised) {
    std::string why = file.label() + " is not a " + std::string(promised->name);
    why += " file (bad header";
    if (signature) why += "; it looks like " + found;
    throw InputError(why + ").");
  }
  if (!promised && !signature) {
    std::string why = file.label() + " is not an image gvflab reads: it reads images as ";
    why += formatList(FormatRole::ImageInput);
    why += ", and volumes as ";
    why += formatList(FormatRole::VolumeInput);
    throw InputError(why + ".");
  }
  if (found == "PNG") {
    checkPngChunks(file);
    checkPngFile(file);  // libpng's verdict in our words, before Qt
  }
  if (found == "JPEG") checkJpegMarkers(file);
  if (found == "BMP") checkBmpHeader(file);
  return OpenedImage{std::move(file), std::move(head), found,
                     signature ? signature->qtFormat : std::string_view()};
}

// Qt's reader on our open descriptor, never the name (which may name another file by now).
struct QtReader {
  QFile device;
  QImageReader reader;
  explicit QtReader(const OpenedImage& image) {
    if (!device.open(image.file.fd(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
      throw InputError(image.file.label() + " cannot be opened.");
    device.seek(0);
    reader.setDevice(&device);
    if (!image.qtFormat.empty())
      reader.setFormat(QByteArray(image.qtFormat.data(), qsizetype(image.qtFormat.size())));
  }
};

// Qt's reason, in the user's terms, with the library's own line when it gave one.
std::string readFailure(const QImageReader& reader, const std::string& libraryLine) {
  const QImageReader::ImageReaderError error = reader.error();
  const std::string why =
      error == QImageReader::UnsupportedFormatError ? "its format or sample depth is not supported"
      : error == QImageReader::InvalidDataError     ? "its image data is corrupt or truncated"
      : error == QImageReader::FileNotFoundError    ? "it cannot be opened"
                                                    : "it cannot be decoded";
  return libraryLine.empty() ? why : why + " (" + libraryLine + ")";
}

}  // namespace

FieldShape imageHeaderShape(const std::filesystem::path& path) {
  const std::optional<OpenedImage> image = openImage(path);
  if (!image) return ownReader(path)->headerShape(path);  // MetaImage, NRRD, TIFF, DICOM
  if (const FileFormat* f = signatureFormat(image->head); f && f->headerShape)
    return f->headerShape(path);  // a TIFF by content, under another name
  if (isBinaryOrAsciiPnm(image->head)) {
    const auto size = pnmSize(path);  // the header alone; a short file is refused there
    checkPixelCount(path, size[0], size[1]);
    return {size[0], size[1], 1};
  }
  QtMessageCapture messages;
  QtReader qt(*image);
  const QSize size = qt.reader.size();
  if (!size.isValid())
    throw InputError(quoted(path) +
                     " has a bad header: " + readFailure(qt.reader, messages.last()) + ".");
  checkPixelCount(path, size.width(), size.height());
  return {size.width(), size.height(), 1};
}

Image2D loadImage(const std::filesystem::path& path) {
  const std::string name = quoted(path);
  const std::optional<OpenedImage> image = openImage(path);
  if (!image) return ownReader(path)->readImage(path);  // MetaImage, NRRD, TIFF, DICOM
  if (const FileFormat* f = signatureFormat(image->head); f && f->readImage)
    return f->readImage(path);            // a TIFF by content, under another name
  if (isBinaryOrAsciiPnm(image->head)) {  // the engine's reader says what is wrong
    const auto size = pnmSize(path);
    checkPixelCount(path, size[0], size[1]);  // before a pixel is read
    return readPnm(path);
  }

  QtMessageCapture messages;  // libpng/libjpeg/libtiff lines become part of our sentence
  QtReader qt(*image);
  QImageReader& reader = qt.reader;
  reader.setAutoTransform(true);
  const QSize size = reader.size();
  if (size.isValid()) {
    checkPixelCount(path, size.width(), size.height());
    // Qt refuses images over 128 MB by default; our checks above decide instead.
    const qint64 mib = qint64(size.width()) * size.height() * 8 / (1 << 20) + 16;
    reader.setAllocationLimit(static_cast<int>(std::min<qint64>(mib, INT_MAX)));
  }
  QImage img;
  if (!reader.read(&img) || img.isNull())
    throw InputError("Cannot read " + name + ": " + readFailure(reader, messages.last()) + ".");
  // libjpeg fills a truncated scan with grey and only warns: that is a truncated file.
  if (const std::string line =
          messages.find({"Premature end of JPEG file", "premature end of data segment"});
      !line.empty())
    throw InputError(name + " is truncated (libjpeg: " + line + ").");
  // Qt quietly returns partial images for some truncated files; insist on the declared size.
  if (size.isValid() && img.size() != size) throw InputError(name + " is truncated or corrupt.");
  QImage grey = img.convertToFormat(QImage::Format_Grayscale16);
  img = QImage();  // the decoded copy is no longer needed
  Image2D out(grey.width(), grey.height());
  for (int y = 0; y < grey.height(); ++y) {
    const auto* row = reinterpret_cast<const quint16*>(grey.constScanLine(y));
    for (int x = 0; x < grey.width(); ++x) out.at(x, y) = row[x] / 65535.0f;
  }
  return out;
}

const char* imageFileFilter() {
  static const std::string filter =
      fileDialogFilter(FormatRole::ImageInput | FormatRole::VolumeInput, "Images and volumes",
                       /*eachFormat=*/false, /*allFiles=*/true);
  return filter.c_str();
}

}  // namespace gvflab::app
