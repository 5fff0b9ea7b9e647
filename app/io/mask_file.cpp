#include "io/mask_file.hpp"

#include <nifti2_io.h>
#include <teem/nrrd.h>

#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <cstring>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/nifti_file.hpp"
#include "io/nrrd_file.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;
namespace {

bool wide(const LabelImage& m) { return m.maxLabel > 255; }

// The labels at the file's sample size (1 or 2 bytes, native order: the libraries say which).
std::vector<unsigned char> sampleBytes(const LabelImage& m) {
  std::vector<unsigned char> out;
  if (wide(m)) {
    out.resize(m.labels.size() * 2);
    std::memcpy(out.data(), m.labels.data(), out.size());
  } else {
    out.reserve(m.labels.size());
    for (std::uint16_t v : m.labels) out.push_back(static_cast<unsigned char>(v));
  }
  return out;
}

}  // namespace

void checkMaskFileName(const fs::path& path) {
  requireFormat(path, FormatRole::MaskOutput, "--save-mask " + quoted(path));
}

void writeMask(const fs::path& path, const LabelImage& mask) {
  const FileFormat& f =
      requireFormat(path, FormatRole::MaskOutput, "Cannot save a mask to " + quoted(path));
  f.writeMask(path, mask);
}

void writeMaskPng(const fs::path& path, const LabelImage& m) {
  QImage image(m.width, m.height, wide(m) ? QImage::Format_Grayscale16 : QImage::Format_Grayscale8);
  if (image.isNull()) throw InputError("Cannot write " + quoted(path) + ": out of memory.");
  for (int y = 0; y < m.height; ++y) {
    uchar* row = image.scanLine(y);
    for (int x = 0; x < m.width; ++x) {
      if (wide(m))
        reinterpret_cast<quint16*>(row)[x] = m.at(x, y);
      else
        row[x] = static_cast<uchar>(m.at(x, y));
    }
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG"))
    throw InputError("Cannot write " + quoted(path) + ": the PNG could not be encoded.");
  writeFileAtomically(path, std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

void writeMaskNrrd(const fs::path& path, const LabelImage& m) {
  const std::vector<unsigned char> data = sampleBytes(m);
  writeNrrdFile(path, data.data(), wide(m) ? nrrdTypeUShort : nrrdTypeUChar,
                {std::size_t(m.width), std::size_t(m.height)}, {nrrdKindSpace, nrrdKindSpace},
                m.geometry, data.size());
}

void writeMaskNifti(const fs::path& path, const LabelImage& m) {
  std::vector<unsigned char> data = sampleBytes(m);
  const std::int64_t dims[8] = {2, m.width, m.height, 1, 1, 1, 1, 1};
  writeNiftiFile(path, dims, wide(m) ? NIFTI_TYPE_UINT16 : NIFTI_TYPE_UINT8, NIFTI_INTENT_LABEL,
                 m.geometry, data.data(), m.labels.size());
}

}  // namespace gvflab::app
