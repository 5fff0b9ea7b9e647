#include "gvflab/image.hpp"

#include <cmath>

namespace gvflab {

Image2D magnitude(const Field2D& field) {
  Image2D out(field.width, field.height);
  for (std::size_t i = 0; i < out.size(); ++i) out.pixels[i] = std::hypot(field.x(i), field.y(i));
  return out;
}

}  // namespace gvflab
