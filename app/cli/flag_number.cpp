#include "cli/flag_number.hpp"

#include <charconv>
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {

double flagNumber(const std::string& flag, const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v))
    throw ParameterError("--" + flag + " needs a number, not " + quotedText(text) + ".");
  return v;
}

}  // namespace gvflab::app
