#pragma once
// Round tick values for legends and plot axes: 1-2-5 steps on a linear scale, whole decades
// on a log scale, with labels that show just the digits the step needs (0.05, not 0.06159).
#include <string>
#include <vector>

namespace gvflab::viewer {

struct Tick {
  double value;
  std::string label;
};

// The round step (1, 2 or 5 times a power of ten) that cuts span into about `target` parts.
double niceStep(double span, int target);
// Multiples of niceStep(hi - lo, target) within [lo, hi]; empty when hi <= lo.
std::vector<Tick> linearTicks(double lo, double hi, int target = 5);
// Powers of ten within [lo, hi] (lo > 0), every k-th decade so at most maxTicks remain; when
// the range holds no power of ten, linear ticks instead.
std::vector<Tick> logTicks(double lo, double hi, int maxTicks = 8);
// value printed with the decimals that step needs (2.5e-6 style below 1e-4 steps or from 1e6).
std::string tickLabel(double value, double step);

// The colour legend's ticks: linear over [0, rangeMax], or the decades within the log scale's
// range [rangeMax * 10^-decades, rangeMax] when decades > 0.
std::vector<Tick> legendTicks(double rangeMax, double decades);

// Which ticks keep a label: at positions (pixels along the axis, in tick order), greedily from
// the first, each at least minGap from the last kept one, so labels never overlap (a colour bar
// squeezed into a 768x768 figure). The first tick always stays.
std::vector<std::size_t> readableTicks(const std::vector<double>& positions, double minGap);

// A plot's extent and ticks. With logY the y values are log10 of the data, the extent whole
// decades around them and the ticks at powers of ten (labels of the data, e.g. 1e-4).
struct PlotAxes {
  double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
  std::vector<Tick> xTicks, yTicks;
  bool logY = false;
};
// Non-positive y values are left out on a log axis. yFromZero: a linear y axis starts at 0.
// xTicks: about how many x ticks fit (the plot's width over a label's).
PlotAxes plotAxes(const std::vector<double>& xs, const std::vector<double>& ys, bool logY,
                  bool yFromZero = false, int xTicks = 4);

}  // namespace gvflab::viewer
