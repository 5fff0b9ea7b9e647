// PNG through libpng (Debian's libpng-dev): real deflate compression and filtering, encoded in
// memory and written atomically.
#include "io/png_writer.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab {
namespace {

struct PngWriteDeleter {
  png_infop info = nullptr;
  void operator()(png_structp png) { png_destroy_write_struct(&png, &info); }
};

void appendToString(png_structp png, png_bytep data, png_size_t size) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), size);
}

// libpng is C: its errors come back through longjmp to encodePng, never as exceptions.
void keepPngError(png_structp png, png_const_charp message) {
  *static_cast<std::string*>(png_get_error_ptr(png)) = message;
  png_longjmp(png, 1);
}

std::string encodePng(int width, int height, int channels, const unsigned char* pixels) {
  std::string error;
  std::unique_ptr<png_struct, PngWriteDeleter> png(
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, keepPngError, nullptr));
  if (!png) throw InputError("PNG encoding failed: out of memory.");
  png.get_deleter().info = png_create_info_struct(png.get());
  if (!png.get_deleter().info) throw InputError("PNG encoding failed: out of memory.");
  png_infop info = png.get_deleter().info;
  std::string bytes;
  if (setjmp(png_jmpbuf(png.get()))) throw InputError("PNG encoding failed: " + error + ".");
  png_set_write_fn(png.get(), &bytes, appendToString, nullptr);
  png_set_IHDR(png.get(), info, width, height, 8,
               channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png.get(), info);
  const std::size_t stride = static_cast<std::size_t>(width) * channels;
  for (int y = 0; y < height; ++y)
    png_write_row(png.get(), const_cast<png_bytep>(pixels + y * stride));
  png_write_end(png.get(), nullptr);
  return bytes;
}

void writePng(const std::filesystem::path& path, int width, int height, int channels,
              const unsigned char* pixels) {
  if (width < 1 || height < 1) throw InputError("Cannot write an empty image to PNG.");
  writeFileAtomically(path, encodePng(width, height, channels, pixels));
}

}  // namespace

void writePngGray(const std::filesystem::path& path, const Image2D& image) {
  std::vector<unsigned char> px(image.size());
  for (std::size_t i = 0; i < px.size(); ++i) {
    float v = std::isfinite(image.pixels[i]) ? std::clamp(image.pixels[i], 0.0f, 1.0f) : 0.0f;
    px[i] = static_cast<unsigned char>(std::lround(v * 255.0f));
  }
  writePng(path, image.width, image.height, 1, px.data());
}

void writePngRgb(const std::filesystem::path& path, int width, int height,
                 const std::vector<unsigned char>& rgb) {
  if (rgb.size() != static_cast<std::size_t>(width) * height * 3)
    throw InputError("RGB buffer size does not match the image size.");
  writePng(path, width, height, 3, rgb.data());
}

void writeMagnitudePng(const std::filesystem::path& path, const Field2D& field) {
  Image2D mag = magnitude(field);
  float m = 0;
  for (float v : mag.pixels) m = std::max(m, v);
  for (float& v : mag.pixels) v = m > 0 ? v / m : 0.0f;
  writePngGray(path, mag);
}

}  // namespace gvflab
