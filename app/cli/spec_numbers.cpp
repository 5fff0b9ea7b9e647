#include "cli/spec_numbers.hpp"

#include <cmath>

#include "cli/cli_params.hpp"
#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {

std::vector<double> parseSpecNumbers(const std::string& list, const SpecNumberRule& rule) {
  std::vector<double> out;
  for (const std::string& item : commaItems(list)) {
    const std::optional<double> v = finiteNumber(item);
    if (!v)
      throw ParameterError(rule.flag + ": " + quotedText(item, 20) + " is not a number; " +
                           rule.forms + ".");
    if (std::abs(*v) > kMaxSnakeCoordinate)
      throw ParameterError(rule.flag + ": " + quotedText(item, 20) + " is too large (" + rule.unit +
                           ": at most " + std::to_string(static_cast<long>(kMaxSnakeCoordinate)) +
                           ").");
    if (out.size() >= rule.maxCount) throw ParameterError(rule.flag + rule.tooMany);
    out.push_back(*v);
  }
  return out;
}

std::string splitSpecForce(const std::string& text, const std::string& flag,
                           std::optional<SnakeForce>& force) {
  const std::size_t at = text.find('@');
  if (at == std::string::npos) return text;
  try {
    force = parseForce(text.substr(at + 1));
  } catch (const ParameterError&) {
    throw ParameterError(flag + ": the force after '@' must be gvf, traditional, " +
                         "ggvf, vfc or distance, not " + quotedText(text.substr(at + 1), 20) + ".");
  }
  return text.substr(0, at);
}

}  // namespace gvflab::app
