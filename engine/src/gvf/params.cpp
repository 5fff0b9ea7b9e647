#include "gvflab/params.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {

void validate(const ParamSpec& spec, double value) {
  std::ostringstream msg;
  if (!std::isfinite(value)) {
    msg << spec.label << " must be a finite number.";
    throw ParameterError(msg.str());
  }
  if (value < spec.minValue || value > spec.maxValue) {
    msg << spec.label << " = " << value << " is outside its range [" << spec.minValue << ", "
        << spec.maxValue << "].";
    throw ParameterError(msg.str());
  }
  if (spec.integer && value != std::floor(value)) {
    msg << spec.label << " must be a whole number, not " << value << ".";
    throw ParameterError(msg.str());
  }
}

const ParamSpec& findSpec(const std::vector<ParamSpec>& specs, const std::string& key) {
  for (const auto& s : specs)
    if (s.key == key) return s;
  throw ParameterError("Unknown parameter " + quotedText(key) + ".");
}

double choiceValue(const ParamSpec& spec, const std::string& text) {
  std::string names;
  for (std::size_t i = 0; i < spec.choices.size(); ++i) {
    const double value = spec.minValue + static_cast<double>(i);
    if (text == spec.choices[i] || text == std::to_string(static_cast<int>(value))) return value;
    names += (i ? ", " : "") + spec.choices[i];
  }
  throw ParameterError(spec.label + " is one of " + names + ", not " + quotedText(text) + ".");
}

const std::string& choiceName(const ParamSpec& spec, double value) {
  return spec.choices.at(static_cast<std::size_t>(value - spec.minValue));
}

const std::string& choiceName(const ParamSpec& spec) { return choiceName(spec, spec.defaultValue); }

std::string paramKeyword(std::string_view key) {
  std::string name(key.starts_with("snake-") ? key.substr(6) : key);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

const char* v0ModeName(V0Mode mode) { return mode == V0Mode::ImageGradient ? "image" : "edge"; }

std::optional<V0Mode> parseV0Mode(std::string_view name) {
  if (name == "edge") return V0Mode::EdgeGradient;
  if (name == "image") return V0Mode::ImageGradient;
  return std::nullopt;
}

const std::vector<ParamSpec>& gvfParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      // The range is Euler's in 2D (mu_rule.hpp); checks go through the rule, not this.
      {"mu", "mu", 0.0, eulerStabilityBound(0.0, 2), 0.15, false,
       "GVF regularisation weight; larger diffuses further per iteration. The explicit Euler "
       "step is stable only for mu <= (2 - max|V0|^2) / 8 in 2D."},
      {"sigma", "sigma", 0.0, 20.0, 1.0, false,
       "Gaussian smoothing (pixels) before the edge map; 0 = none. Not given: chosen from the "
       "image's noise (1 on clean images, up to 4 at SNR 5; shown in the panel and report)."},
      {"iterations", "iterations", 0, 10000000, 500, true,
       "Solver iterations. Headless: exactly N (Euler unless --solver); not given, the field "
       "is solved to --target-error; with --target-error, the most to run. Viewer: per frame."},
  };
  return specs;
}

const std::vector<ParamField<GvfParams>>& gvfParamFields() {
  static const std::vector<ParamField<GvfParams>> fields = {{"mu", &GvfParams::mu},
                                                            {"sigma", &GvfParams::sigma}};
  return fields;
}

}  // namespace gvflab
