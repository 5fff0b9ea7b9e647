#pragma once
// The number after a command-line flag: the whole text must be a finite number.
#include <string>

namespace gvflab::app {

// Throws ParameterError "--FLAG needs a number, not 'TEXT'." (flag without dashes).
double flagNumber(const std::string& flag, const std::string& text);

}  // namespace gvflab::app
