#pragma once
// The comma-separated numbers of a --snake or --surface spec, refused with one sentence that
// names the flag: both shapes' coordinates follow the same rule. So does their "@FORCE" tail.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/snake_types.hpp"

namespace gvflab::app {

struct SpecNumberRule {
  std::string flag;      // "--snake 'circle:...'", as the refusal names it
  const char* forms;     // the accepted forms, said when an item is not a number
  const char* unit;      // "pixels" or "voxels"
  std::size_t maxCount;  // more numbers than this are refused with tooMany
  std::string tooMany;   // the sentence's end for too many numbers
};

std::vector<double> parseSpecNumbers(const std::string& list, const SpecNumberRule& rule);

// The shape before "@FORCE" in `text`; the force after it goes into `force` (left as it is
// without '@'). `flag` names the spec in the ParameterError for an unknown force.
std::string splitSpecForce(const std::string& text, const std::string& flag,
                           std::optional<SnakeForce>& force);

}  // namespace gvflab::app
