#pragma once
// One description per parameter (name, range, default, help). It drives the CLI, the ImGui
// panel, saved settings and the tests, instead of four hand-written copies.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
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
  // An integer setting's values minValue, minValue + 1, ... by name (the CLI takes either, the
  // viewer draws a combo); empty for plain numbers.
  std::vector<std::string> choices = {};
};

// Throws ParameterError when value is NaN, infinite or outside [minValue, maxValue].
void validate(const ParamSpec& spec, double value);
const ParamSpec& findSpec(const std::vector<ParamSpec>& specs, const std::string& key);
// A spec with choices: the value `text` names (a choice's name, or its number as text);
// ParameterError naming the label and the choices otherwise.
double choiceValue(const ParamSpec& spec, const std::string& text);
// A spec with choices: the name of `value` (its default when omitted).
const std::string& choiceName(const ParamSpec& spec, double value);
const std::string& choiceName(const ParamSpec& spec);

// A table entry bound to the field of T it sets (a double, an int or a bool held as 0/1). The
// CLI, session files, Python and the viewer's panels read and write T through these bindings,
// so no client can forget a key; the unit tests check that every key is bound.
template <class T>
struct ParamField {
  const char* key;  // the ParamSpec's
  std::variant<double T::*, int T::*, bool T::*> member;

  double get(const T& t) const {
    return std::visit([&](auto m) { return static_cast<double>(t.*m); }, member);
  }
  void set(T& t, double v) const {
    std::visit([&](auto m) { t.*m = static_cast<std::remove_reference_t<decltype(t.*m)>>(v); },
               member);
  }
  bool isBool() const { return std::holds_alternative<bool T::*>(member); }
};

// The table's defaults set into `t`, and each bound field checked against its range.
template <class T>
void setDefaults(T& t, const std::vector<ParamSpec>& specs,
                 const std::vector<ParamField<T>>& fields) {
  for (const auto& f : fields) f.set(t, findSpec(specs, f.key).defaultValue);
}
template <class T>
void validateFields(const T& t, const std::vector<ParamSpec>& specs,
                    const std::vector<ParamField<T>>& fields) {
  for (const auto& f : fields) validate(findSpec(specs, f.key), f.get(t));
}

// A key's name in session files and Python keywords: "snake-hold-gap" is hold_gap (the
// "snake-" prefix dropped, dashes as underscores).
std::string paramKeyword(std::string_view key);

// How V0 is made from the smoothed image.
enum class V0Mode {
  EdgeGradient,   // V0 = ∇f with f = |∇(G_σ * I)| / max (Xu & Prince; the default)
  ImageGradient,  // V0 = ∇(G_σ * I) (tube detection, first paper)
};
// "edge", "image" (--v0, session "v0", Python v0=); nullopt for any other name.
const char* v0ModeName(V0Mode mode);
std::optional<V0Mode> parseV0Mode(std::string_view name);

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

// Multigrid's iteration schedules (MultigridSweeps::cycle, key mg-cycle; multigrid_schedule.hpp
// has the steps of each): every iteration full multigrid on the residual equation, then a
// V-cycle on V (the paper's); full multigrid first, then V-cycles on V; a two-grid iteration
// on level 0 whose coarse solve is full multigrid from level 1 (the paper's iteration less its
// V-cycle's own visit of level 1). Auto: two-grid in 3D, full multigrid in 2D, where each
// reached Euler's error sooner on the H200 (docs/BENCHMARKS.md, twelfth session): a V-cycle
// cuts the error only 2-4x on the U (its coarse solve too inexact there), and the two-grid
// iteration needs one more iteration than full multigrid on most 2D scenes, which its lower cost
// pays for in 3D only.
enum MultigridCycle : int { kCycleAuto, kCycleFull, kCycleVCycles, kCycleTwoGrid };
inline constexpr int resolveMultigridCycle(int cycle, bool is3d) {
  return cycle != kCycleAuto ? cycle : is3d ? kCycleTwoGrid : kCycleFull;
}

// Multigrid's cycles and sweeps, the defaults of multigridParamSpecs and of every options struct:
// the paper's a = 1, b = 2, but c = 2 (the paper's 1): on the H200 two post-sweeps reach
// Euler's error in fewer iterations at 512^2-2048^2 and 256^3-512^3, 17-39 % sooner
// (docs/BENCHMARKS.md, "Multigrid's post-smoothing").
struct MultigridSweeps {
  int a = 1, b = 2, c = 2;
  int cycle = kCycleAuto;
};
inline constexpr MultigridSweeps kMultigridSweeps{};

}  // namespace gvflab
