#include "viewer/model/axis_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gvflab::viewer {

double niceStep(double span, int target) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / std::max(target, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / decade;
  const double nice = m <= 1.5 ? 1 : m <= 3.5 ? 2 : m <= 7.5 ? 5 : 10;
  return nice * decade;
}

std::string tickLabel(double value, double step) {
  char buf[32];
  if (std::abs(value) < step * 1e-6) value = 0;  // -0 and rounding noise
  const double a = std::abs(value);
  if (a != 0 && (a >= 1e6 || step < 1e-4)) {
    // Mantissa with the digits the step needs: 1e-5, 2.5e-5.
    const int e = static_cast<int>(std::floor(std::log10(a)));
    const double mant = value / std::pow(10.0, e);
    const int digits =
        std::clamp(static_cast<int>(std::ceil(-std::log10(step / std::pow(10.0, e)) - 1e-9)), 0, 6);
    std::snprintf(buf, sizeof buf, "%.*fe%d", digits, mant, e);
    return buf;
  }
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 8);
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::vector<Tick> linearTicks(double lo, double hi, int target) {
  std::vector<Tick> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double step = niceStep(hi - lo, target);
  const double eps = step * 1e-9;
  for (double k = std::ceil((lo - eps) / step); k * step <= hi + eps; ++k) {
    const double v = k * step;
    ticks.push_back({v, tickLabel(v, step)});
  }
  return ticks;
}

std::vector<Tick> logTicks(double lo, double hi, int maxTicks) {
  std::vector<Tick> ticks;
  if (!(lo > 0) || !(hi > lo)) return ticks;
  const int first = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  if (last < first) return linearTicks(lo, hi, 4);
  const int count = last - first + 1, most = std::max(maxTicks, 1);
  const int every = (count + most - 1) / most;
  for (int e = first; e <= last; ++e) {
    if ((e - first) % every) continue;
    const double v = std::pow(10.0, e);
    char buf[16];
    if (e >= -3 && e <= 3)
      ticks.push_back({v, tickLabel(v, v)});
    else
      std::snprintf(buf, sizeof buf, "1e%d", e), ticks.push_back({v, buf});
  }
  return ticks;
}

std::vector<Tick> legendTicks(double rangeMax, double decades) {
  if (!(rangeMax > 0)) return {};
  if (decades > 0) return logTicks(rangeMax * std::pow(10.0, -decades), rangeMax, 6);
  return linearTicks(0, rangeMax, 5);
}

PlotAxes plotAxes(const std::vector<double>& xs, const std::vector<double>& ys, bool logY,
                  bool yFromZero, int xTicks) {
  PlotAxes a;
  a.logY = logY;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (std::size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) {
    if (!std::isfinite(ys[i]) || (logY && !(ys[i] > 0))) continue;
    const double y = logY ? std::log10(ys[i]) : ys[i];
    x0 = std::min(x0, xs[i]), x1 = std::max(x1, xs[i]);
    y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  if (!(x1 >= x0)) return a;  // no points: the default unit square
  if (x1 == x0) x0 -= 0.5, x1 += 0.5;
  a.xMin = x0, a.xMax = x1;
  a.xTicks = linearTicks(x0, x1, xTicks);
  if (logY) {
    a.yMin = std::floor(y0), a.yMax = std::ceil(y1);
    if (a.yMax <= a.yMin) a.yMax = a.yMin + 1;
    for (const Tick& t : logTicks(std::pow(10.0, a.yMin), std::pow(10.0, a.yMax), 5))
      a.yTicks.push_back({std::log10(t.value), t.label});
    return a;
  }
  if (yFromZero) y0 = std::min(y0, 0.0);
  if (y1 == y0) y1 = y0 + (y0 == 0 ? 1 : std::abs(y0));
  const double step = niceStep(y1 - y0, 4);
  a.yMin = std::floor(y0 / step) * step, a.yMax = std::ceil(y1 / step) * step;
  a.yTicks = linearTicks(a.yMin, a.yMax, 4);
  return a;
}

std::vector<std::size_t> readableTicks(const std::vector<double>& positions, double minGap) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (kept.empty() || std::abs(positions[i] - positions[kept.back()]) >= minGap)
      kept.push_back(i);
  return kept;
}

}  // namespace gvflab::viewer
