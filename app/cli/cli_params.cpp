#include "cli/cli_params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {
namespace {
constexpr double kNoDefault =
    std::numeric_limits<double>::quiet_NaN();  // the flag is off unless given
}  // namespace

const std::vector<ParamSpec>& cliParamSpecs() {
  // Labels name the flag, so validate()'s sentences say which flag is wrong.
  static const std::vector<ParamSpec> specs = {
      {"phantom-size", "--phantom-size", kMinPhantomSide, kMaxImageSide, 256, true,
       "side of the built-in phantom in pixels"},
      {"page", "--page", 0, 65535, kNoDefault, true,
       "headless: read page N (0 = the first) of a multi-page TIFF as a 2D image, instead of "
       "its pages as a volume"},
      {"target-error", "--target-error", 1e-12, 1e6, 1e-6, false,
       "headless and viewer snakes: the field is solved until its error (the multigrid paper's "
       "eq. 9, the mean residual) <= V, by multigrid unless --solver names one; at most "
       "--iterations. Without --iterations this is the default"},
      {"frames", "--frames", 1, 1e7, kNoDefault, true,
       "viewer: quit after N frames; with --record: frames to record"},
      {"record-tail", "--record-tail", 0, 3600, kNoDefault, false,
       "headless --record: stop V seconds after every snake stopped (--frames: at most)"},
      {"steps-per-frame", "--steps-per-frame", 1, 100000, 1, true,
       "fixed solver iterations per frame (deterministic recording)"},
      {"fps", "--fps", 1, 240, 30, true, "frame rate of a recording"},
      {"frame-budget", "--frame-budget", 1, 1000, 12, false,
       "viewer: run as many iterations per frame as fit this many ms"},
      {"race-budget", "--race-budget", 0.1, 200, kNoDefault, false,
       "viewer race: OpenCL ms per solver per frame (default 2 on GPUs, 20 on CPUs)"},
      {"region-mpix", "--region-mpix", 0.01, 1000, kNoDefault, false,
       "viewer: region snake on a synthetic star image of this many megapixels"},
      {"trails", "--trails", 0, 1000000, 0, true,
       "draw each snake every N of its iterations, faded (viewer, figures, recordings); 0: off"},
      {"spacing", "--spacing", kMinSpacing, kMaxSpacing, kNoDefault, false,
       "SX,SY[,SZ]: world units (e.g. mm) per pixel or voxel along x, y, z; the edge map's "
       "gradients and GVF's Laplacian are taken in these units. Default: the input's own "
       "spacing (NIfTI, NRRD, MetaImage), 1 for images without one; SZ = 1 when left out"},
      {"size", "--size", 16, 8192, 512, true,
       "WxH: headless recording or --screenshot size (the window keeps its own); otherwise, in the "
       "viewer, the window"},
  };
  return specs;
}

std::vector<std::string> commaItems(const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    items.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return items;
}

std::optional<double> finiteNumber(const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

double flagNumber(const std::string& flag, const std::string& text) {
  const std::optional<double> v = finiteNumber(text);
  if (!v) throw ParameterError("--" + flag + " needs a number, not " + quotedText(text) + ".");
  return *v;
}

double parseFlag(const ParamSpec& spec, const std::string& text) {
  if (!spec.choices.empty()) {  // a name or its number
    try {
      return choiceValue(spec, text);
    } catch (const ParameterError& e) {
      throw ParameterError("--" + spec.key + ": " + e.what());
    }
  }
  const double v = flagNumber(spec.key, text);
  try {
    validate(spec, v);
  } catch (const ParameterError& e) {
    const std::string what = e.what(), flag = "--" + spec.key;
    if (what.find(flag) != std::string::npos) throw;
    throw ParameterError(flag + ": " + what);  // "--sigma: sigma = -1 is outside ..."
  }
  return v;
}

std::array<int, 4> parseRegionRect(const std::string& text) {
  const std::vector<std::string> items = commaItems(text);
  std::array<int, 4> r{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    const std::optional<double> v =
        items.size() == r.size() ? finiteNumber(items[i]) : std::nullopt;
    const double low = i < 2 ? 0 : 3;
    if (!v || !(*v >= low && *v <= kMaxRegionRect && *v == std::floor(*v))) {
      std::ostringstream msg;
      msg << "--region-snake takes X,Y,W,H in whole pixels (X, Y from 0, W, H from 3, each at "
             "most "
          << kMaxRegionRect << "), not " << quotedText(text) << ".";
      throw ParameterError(msg.str());
    }
    r[i] = static_cast<int>(*v);
  }
  return r;
}

std::array<double, 3> parseSpacing(const std::string& text) {
  const ParamSpec& spec = findSpec(cliParamSpecs(), "spacing");
  const std::vector<std::string> items = commaItems(text);
  std::array<double, 3> h{1.0, 1.0, 1.0};
  bool ok = items.size() == 2 || items.size() == 3;
  for (std::size_t i = 0; ok && i < items.size(); ++i) {
    const std::optional<double> v = finiteNumber(items[i]);
    ok = v && *v >= spec.minValue && *v <= spec.maxValue;
    if (ok) h[i] = *v;
  }
  if (!ok) {
    std::ostringstream msg;
    msg << "--spacing takes SX,SY or SX,SY,SZ, world units per pixel or voxel, each positive "
           "and finite ("
        << spec.minValue << " to " << spec.maxValue << "), not " << quotedText(text) << ".";
    throw ParameterError(msg.str());
  }
  return h;
}

}  // namespace gvflab::app
