#pragma once
// The snake and capture-range part of the flag table (cli/flag_table.hpp): --snake,
// --snake-force, --save-contours, --capture-map and one flag per snakeParamSpecs() and
// captureParamSpecs() entry.
#include <vector>

#include "cli/flag_table.hpp"

namespace gvflab::app {

std::vector<Flag> snakeFlags();

}  // namespace gvflab::app
