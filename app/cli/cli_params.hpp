#pragma once
// The command line's own numeric flags (phantom size, frames, recording pace, viewer budget,
// synthetic region image, target error, window/frame size), described once like the engine's
// parameters: the flag table (cli/flag_table.hpp) validates with these and --help prints them.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/params.hpp"

namespace gvflab::app {

const std::vector<ParamSpec>& cliParamSpecs();

// The comma-separated items of text, empty ones included ("" is one empty item).
std::vector<std::string> commaItems(const std::string& text);
// The whole text as a finite number, or nullopt.
std::optional<double> finiteNumber(const std::string& text);

// The number after a flag, the whole text a finite number: ParameterError "--FLAG needs a
// number, not 'TEXT'." (flag without dashes).
double flagNumber(const std::string& flag, const std::string& text);

// The text after a flag as a number checked against spec (ParameterError naming the flag).
double parseFlag(const ParamSpec& spec, const std::string& text);

// --region-snake's X,Y,W,H: whole pixels, X, Y in [0, kMaxRegionRect], W, H in
// [3, kMaxRegionRect], each checked as a double before it becomes an int (ParameterError).
constexpr double kMaxRegionRect = 1000000;
std::array<int, 4> parseRegionRect(const std::string& text);
// --spacing's SX,SY[,SZ] (SZ = 1 when left out), each within the spec's range
// (ParameterError naming --spacing).
std::array<double, 3> parseSpacing(const std::string& text);

}  // namespace gvflab::app
