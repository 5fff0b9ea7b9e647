#include "io/mask_file.hpp"

#include <nifti2_io.h>
#include <teem/biff.h>
#include <teem/nrrd.h>

#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/file_formats.hpp"
#include "io/header_geometry.hpp"
#include "io/quiet_stderr.hpp"
#include "io/written_check.hpp"

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

std::string teemError() {
  std::unique_ptr<char, decltype(&std::free)> text(biffGetDone(NRRD), &std::free);
  std::string all = text ? text.get() : "";
  while (!all.empty() && (all.back() == '\n' || all.back() == ' ')) all.pop_back();
  return all.substr(all.find_last_of('\n') + 1);
}

struct NrrdNix {
  void operator()(Nrrd* n) const { nrrdNix(n); }  // the struct only: the data is ours
};
struct IoStateNix {
  void operator()(NrrdIoState* s) const { nrrdIoStateNix(s); }
};
struct NiftiImageDeleter {
  void operator()(nifti_image* nim) const { nifti_image_free(nim); }
};

}  // namespace

void checkMaskFileName(const fs::path& path) {
  requireFormat(path, FormatRole::MaskOutput, "--save-mask '" + path.string() + "'");
}

void writeMask(const fs::path& path, const LabelImage& mask) {
  const FileFormat& f =
      requireFormat(path, FormatRole::MaskOutput, "Cannot save a mask to '" + path.string() + "'");
  f.writeMask(path, mask);
}

void writeMaskPng(const fs::path& path, const LabelImage& m) {
  QImage image(m.width, m.height, wide(m) ? QImage::Format_Grayscale16 : QImage::Format_Grayscale8);
  if (image.isNull()) throw InputError("Cannot write '" + path.string() + "': out of memory.");
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
    throw InputError("Cannot write '" + path.string() + "': the PNG could not be encoded.");
  writeFileAtomically(path, std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

void writeMaskNrrd(const fs::path& path, const LabelImage& m) {
  std::vector<unsigned char> data = sampleBytes(m);
  writeFileAtomically(path, [&](const fs::path& tmp) {
    std::unique_ptr<Nrrd, NrrdNix> nrrd(nrrdNew());
    const std::size_t sizes[2] = {std::size_t(m.width), std::size_t(m.height)};
    if (nrrdWrap_nva(nrrd.get(), data.data(), wide(m) ? nrrdTypeUShort : nrrdTypeUChar, 2, sizes) !=
        0)
      throw InputError("Cannot write '" + path.string() + "': " + teemError() + ".");
    int kinds[2] = {nrrdKindSpace, nrrdKindSpace};
    nrrdAxisInfoSet_nva(nrrd.get(), nrrdAxisInfoKind, kinds);
    setNrrdSpace(*nrrd, m.geometry, 0);
    std::unique_ptr<NrrdIoState, IoStateNix> nio(nrrdIoStateNew());
    nio->encoding = nrrdEncodingGzip->available() ? nrrdEncodingGzip : nrrdEncodingRaw;
    if (nrrdSave(tmp.c_str(), nrrd.get(), nio.get()) != 0)
      throw InputError("Cannot write '" + path.string() + "': " + teemError() +
                       " (disk full?); nothing was replaced.");
    checkWrittenSize(tmp, path, data.size(), textHeaderEnd(tmp, path));
  });
}

void writeMaskNifti(const fs::path& path, const LabelImage& m) {
  nifti_set_debug_level(0);
  std::vector<unsigned char> data = sampleBytes(m);
  const std::int64_t dims[8] = {2, m.width, m.height, 1, 1, 1, 1, 1};
  writeFileAtomically(path, [&](const fs::path& tmp) {
    std::unique_ptr<nifti_image, NiftiImageDeleter> nim(
        nifti_make_new_nim(dims, wide(m) ? NIFTI_TYPE_UINT16 : NIFTI_TYPE_UINT8, 0));
    if (!nim) throw InputError("Cannot write '" + path.string() + "': out of memory.");
    nim->intent_code = NIFTI_INTENT_LABEL;
    nim->nifti_type = NIFTI_FTYPE_NIFTI1_1;
    if (m.geometry.known) setNiftiGeometry(*nim, m.geometry);
    if (nifti_set_filenames(nim.get(), tmp.c_str(), 0, 1) != 0)
      throw InputError("Cannot write '" + path.string() + "': bad file name.");
    nim->data = data.data();
    {
      QuietStderr quiet;  // its "wrote only N of M bytes": the read-back below says it in full
      nifti_image_write(nim.get());
    }
    nim->data = nullptr;  // ours, not the library's to free
    std::unique_ptr<nifti_image, NiftiImageDeleter> check(nifti_image_read(tmp.c_str(), 0));
    if (!check || check->nvox != static_cast<std::int64_t>(m.labels.size()))
      throw InputError("Cannot write '" + path.string() +
                       "': the written header cannot be read back (disk full?); nothing was "
                       "replaced.");
    checkWrittenSize(tmp, path, static_cast<std::uint64_t>(check->iname_offset) + data.size());
  });
}

}  // namespace gvflab::app
