#include "io/image_loader.hpp"

#include <QImage>
#include <QImageReader>
#include <QString>
#include <algorithm>
#include <fstream>
#include <system_error>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/nrrd_file.hpp"

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
}  // namespace

Image2D loadImage(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError("'" + name + "' does not exist.");
  if (std::filesystem::is_directory(path, ec)) throw InputError("'" + name + "' is a folder.");
  if (std::filesystem::file_size(path, ec) == 0) throw InputError("'" + name + "' is empty.");
  const std::string ext = lowerExt(path);
  if (ext == ".mha" || ext == ".mhd") return readMetaImage(path);
  if (isNrrdFile(path)) return readNrrdImage(path);

  checkEndMarker(path, ext);
  QImageReader reader(QString::fromStdString(name));
  reader.setAutoTransform(true);
  const QSize size = reader.size();
  if (size.isValid() && static_cast<qint64>(size.width()) * size.height() > kMaxPixels)
    throw InputError("'" + name + "' is " + std::to_string(size.width()) + "x" +
                     std::to_string(size.height()) + " pixels; at most 16384 per side fit.");
  QImage img;
  if (!reader.read(&img) || img.isNull())
    throw InputError("Cannot read '" + name + "': " + reader.errorString().toStdString() + ".");
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
