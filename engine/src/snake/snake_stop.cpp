#include "gvflab/snake_stop.hpp"

#include <algorithm>
#include <cmath>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/snake_state_rule.hpp"

namespace gvflab {
namespace {

// The median and the robust standard deviation (1.4826 MAD) of the values (reordered).
std::pair<double, double> robustSpread(std::vector<float>& v) {
  if (v.empty()) return {0, 0};
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  const double median = *mid;
  for (float& x : v) x = static_cast<float>(std::abs(x - median));
  std::nth_element(v.begin(), mid, v.end());
  return {median, 1.4826 * *mid};
}

// Whole rows (`elements` values of `floats` / `elements` floats each), every `stride`-th, so
// that at most about kNoiseSamples values come back: noise spreads over the whole image, and
// rows spread over it estimate it.
std::vector<float> sampleRows(ComputeContext& ctx, const cl::Buffer& buffer, std::size_t rows,
                              std::size_t floats, std::size_t elements) {
  const std::size_t stride = std::max<std::size_t>(1, rows * elements / kNoiseSamples);
  std::vector<float> out;
  out.resize(((rows + stride - 1) / stride) * floats);
  std::size_t at = 0;
  for (std::size_t r = 0; r < rows; r += stride, at += floats)
    ctx.queue().enqueueReadBuffer(buffer, CL_FALSE, r * floats * sizeof(float),
                                  floats * sizeof(float), out.data() + at);
  ctx.queue().finish();
  out.resize(at);
  return out;
}

}  // namespace

HoldLevels holdLevelsOf(std::vector<float> edge, std::vector<float> gradient, double maxGradient) {
  HoldLevels levels;
  const auto [edgeMedian, edgeSpread] = robustSpread(edge);
  const auto [gradMedian, gradSpread] = robustSpread(gradient);
  levels.edgeNoise = edgeSpread;
  levels.edge = std::max(kHoldEdge, edgeMedian + kNoiseSpread * edgeSpread);
  levels.strength = std::max(kHoldStrength * maxGradient, gradMedian + kNoiseSpread * gradSpread);
  return levels;
}

HoldLevels holdLevels(ComputeContext& ctx, const GvfInput& edges) {
  const int dims = edges.dims();
  const std::size_t rows = static_cast<std::size_t>(edges.height) * edges.depth;
  const std::size_t width = static_cast<std::size_t>(edges.width);
  std::vector<float> f, v0;
  try {
    f = sampleRows(ctx, edges.edge, rows, width, width);
    // A user's V0 is not grad f: its spread says nothing of the edge map's noise.
    if (!edges.userV0) v0 = sampleRows(ctx, edges.v0, rows, width * dims, width);
  } catch (const cl::Error& e) {
    rethrowClError(e, "estimating the edge map's noise");
  }
  std::vector<float> gradient(v0.size() / dims);
  for (std::size_t i = 0; i < gradient.size(); ++i) {
    double s = 0;
    for (int c = 0; c < dims; ++c) s += double(v0[i * dims + c]) * v0[i * dims + c];
    gradient[i] = static_cast<float>(std::sqrt(s));
  }
  return holdLevelsOf(std::move(f), std::move(gradient), std::sqrt(edges.maxV0Squared));
}

std::vector<std::size_t> checkStops(StopGeometry& batch, const SnakeParams& params) {
  std::vector<std::size_t> stopped;
  for (std::size_t k = 0; k < batch.members(); ++k) {
    StopStatus& s = batch.status(k);
    if (!s.moving()) continue;
    // A member that shrank to a dot or a line stops at once (named below).
    if (batch.collapsed(k)) {
      stopped.push_back(k);
      continue;
    }
    if (s.windowEnds(params)) {
      if (batch.still(k)) stopped.push_back(k);
      s.sinceWindow = 0;
    }
  }
  if (stopped.empty()) return stopped;
  const std::vector<float> hold = batch.holdStrengths();
  std::size_t off = 0, next = 0;
  for (std::size_t k = 0; k < batch.members(); off += batch.nodes(k++))
    if (next < stopped.size() && stopped[next] == k)
      nameStop(batch, stopped[next++], hold.data() + off, params);
  return stopped;
}

void nameStop(StopGeometry& batch, std::size_t k, const float* hold, const SnakeParams& params) {
  const std::size_t n = batch.nodes(k);
  std::vector<bool> held(n);
  bool offEdge = false;  // a node held at a sink off any edge
  for (std::size_t i = 0; i < n; ++i) {
    held[i] = hold[i] >= kHoldLevel;
    offEdge = offEdge || hold[i] == kHoldOffEdge;
  }
  StopStatus& s = batch.status(k);
  s.held = static_cast<double>(std::count(held.begin(), held.end(), true)) /
           static_cast<double>(std::max<std::size_t>(n, 1));
  s.holdGap = batch.unheldExtent(k, held);
  s.state = stoppedState(batch.collapsed(k), s.held, s.holdGap, params.holdGap, offEdge);
}

bool creptSteadily(const std::vector<double>& sizes, double step) {
  if (sizes.size() < 3) return false;
  double sign = 0;
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    const double change = (sizes[i] > sizes[i - 1] + step) - (sizes[i] < sizes[i - 1] - step);
    if (change == 0 || change * sign < 0) return false;
    sign = change;
  }
  return true;
}

bool creptOverall(const std::vector<double>& sizes, double step) {
  if (sizes.size() < 3) return false;
  const double net = sizes.back() - sizes.front();
  const double mean = std::abs(net) / static_cast<double>(sizes.size() - 1);
  if (mean < step) return false;
  for (std::size_t i = 1; i < sizes.size(); ++i)
    if ((sizes[i] - sizes[i - 1]) * (net > 0 ? -1 : 1) > mean) return false;
  return true;
}

void checkSnakePressure(std::optional<double> pressure) {
  if (pressure) validate(findSpec(snakeParamSpecs(), "pressure"), *pressure);
}

}  // namespace gvflab
