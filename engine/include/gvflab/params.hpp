#pragma once
// One description per parameter (name, range, default, help). It drives the CLI, the ImGui
// panel, saved settings and the tests, instead of four hand-written copies.
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gvflab {

struct ParamSpec {
  std::string key;    // CLI flag without dashes, settings key
  std::string label;  // UI label
  double minValue;
  double maxValue;
  double defaultValue;
  bool integer;
  std::string help;
};

// Throws ParameterError when value is NaN, infinite or outside [minValue, maxValue].
void validate(const ParamSpec& spec, double value);
const ParamSpec& findSpec(const std::vector<ParamSpec>& specs, const std::string& key);

// How V0 is made from the smoothed image.
enum class V0Mode {
  EdgeGradient,   // V0 = ∇f with f = |∇(G_σ * I)| / max (Xu & Prince; the default)
  ImageGradient,  // V0 = ∇(G_σ * I) (tube detection, first paper)
};

struct GvfParams {
  double mu = 0.15;    // diffusion weight μ
  double sigma = 1.0;  // Gaussian σ in pixels before the gradient; 0 = no smoothing
  // σ chosen from the image's noise instead (noise_sigma.hpp): the command line and the viewer
  // set it when the user gave no σ; an explicit σ clears it.
  bool sigmaFromNoise = false;
  V0Mode v0Mode = V0Mode::EdgeGradient;
  // World units per sample along x, y, z instead of the input's geometry.spacing (--spacing,
  // spacing=); gvflab/grid_spacing.hpp.
  std::optional<std::array<double, 3>> spacing;
};

// mu, sigma, iterations (per frame in the viewer, total headless).
const std::vector<ParamSpec>& gvfParamSpecs();

}  // namespace gvflab
