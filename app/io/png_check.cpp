#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "io/image_structure.hpp"

namespace gvflab::app {
namespace {

struct Messages {
  std::string error, warning;
};

void onError(png_structp png, png_const_charp text) {
  static_cast<Messages*>(png_get_error_ptr(png))->error = text;
  png_longjmp(png, 1);
}

void onWarning(png_structp png, png_const_charp text) {
  static_cast<Messages*>(png_get_error_ptr(png))->warning = text;
}

// libpng's words, in the user's terms.
std::string problem(const Messages& m) {
  const std::string& e = m.error;
  if (e == "Read Error" || e.find("Not enough image data") != std::string::npos ||
      e.find("unexpected end") != std::string::npos)
    return "is truncated";
  if (e.find("IHDR") != std::string::npos)
    return "has a bad header (" + (m.warning.empty() ? e : m.warning) + ")";
  if (e.find("chunk data is too large") != std::string::npos ||
      e.find("no space in chunk cache") != std::string::npos)
    return "has too much metadata (libpng: " + e + ")";
  if (e.find("exceeds user limit") != std::string::npos || e.find("too large") != std::string::npos)
    return "is too large: at most " + std::to_string(kMaxImageSide) + " pixels per side fit";
  return "is corrupt (" + e + ")";
}

// The part that longjmps: only C objects and objects made before setjmp live here.
bool decode(std::FILE* file, Messages& messages, std::vector<png_byte>& row,
            const std::filesystem::path& path, std::string& sizeError) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &messages, onError, onWarning);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
    return false;
  }
  png_init_io(png, file);
  png_set_user_limits(png, kMaxImageSide, kMaxImageSide);
  // Metadata bounds (a tEXt chunk declaring 2 GiB is refused before it is allocated).
  png_set_chunk_cache_max(png, kMaxMetadataSegments);
  png_set_chunk_malloc_max(png, kMaxPngChunkBytes);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  try {
    checkHostMemory(path, std::uint64_t(width) * height * (8 + 2 + 4));
  } catch (const InputError& e) {
    sizeError = e.what();
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  row.resize(png_get_rowbytes(png, info));
  for (int p = 0; p < passes; ++p)
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, row.data(), nullptr);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

}  // namespace

void checkPngFile(const InputFile& input) {
  std::unique_ptr<std::FILE, decltype(&std::fclose)> file(input.stdioStream(), &std::fclose);
  Messages messages;
  std::vector<png_byte> row;
  std::string sizeError;
  if (decode(file.get(), messages, row, input.path(), sizeError)) return;
  if (!sizeError.empty()) throw InputError(sizeError);
  throw InputError(input.label() + " " + problem(messages) + ".");
}

}  // namespace gvflab::app
