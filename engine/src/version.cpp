#include "gvflab/version.hpp"

namespace gvflab {
const char* versionString() { return GVFLAB_VERSION; }
}  // namespace gvflab
