#include "viewer/render/legend_placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gvflab::viewer {

float overlapArea(const Box& a, const Box& b) {
  const float w = std::min(a.right(), b.right()) - std::max(a.x, b.x);
  const float h = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0.0f;
}

Box unite(const Box& a, const Box& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  const float x = std::min(a.x, b.x), y = std::min(a.y, b.y);
  return {x, y, std::max(a.right(), b.right()) - x, std::max(a.bottom(), b.bottom()) - y};
}

std::vector<Box> snakeBoxes(const std::vector<SnakeContour>& snakes, const ViewTransform& view) {
  std::vector<Box> out;
  for (const auto& c : snakes) {
    float x0 = std::numeric_limits<float>::max(), y0 = x0, x1 = -x0, y1 = -x0;
    for (const auto* points : {&c.points, &c.initial})
      for (const auto& p : *points) {
        const Vec2 s = view.imageToScreen({p.x, p.y});
        x0 = std::min(x0, s.x), y0 = std::min(y0, s.y);
        x1 = std::max(x1, s.x), y1 = std::max(y1, s.y);
      }
    if (x1 < x0) continue;
    // The line is drawn a few pixels wide: a little room around it.
    constexpr float kLine = 4;
    out.push_back({x0 - kLine, y0 - kLine, x1 - x0 + 2 * kLine, y1 - y0 + 2 * kLine});
  }
  return out;
}

Box contentBox(const Image2D& image) {
  if (image.empty()) return {};
  const int step = std::max(1, std::max(image.width, image.height) / 256);
  std::vector<float> sample;
  for (int y = 0; y < image.height; y += step)
    for (int x = 0; x < image.width; x += step) sample.push_back(image.at(x, y));
  const auto at = [&](double q) {
    const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(sample.size() - 1));
    std::nth_element(sample.begin(), sample.begin() + k, sample.end());
    return sample[static_cast<std::size_t>(k)];
  };
  const float background = at(0.5), level = 0.5f * (at(0.99) - at(0.01));
  if (!(level > 0)) return {};
  int x0 = image.width, y0 = image.height, x1 = -1, y1 = -1;
  for (int y = 0; y < image.height; y += step)
    for (int x = 0; x < image.width; x += step)
      if (std::abs(image.at(x, y) - background) > level)
        x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  if (x1 < 0) return {};
  // A sampled pixel stands for the step x step block it starts.
  x0 = std::max(0, x0 - step + 1), y0 = std::max(0, y0 - step + 1);
  return {static_cast<float>(x0), static_cast<float>(y0),
          static_cast<float>(std::min(image.width, x1 + step) - x0),
          static_cast<float>(std::min(image.height, y1 + step) - y0)};
}

Box objectBox(const std::vector<SnakeContour>& snakes, const ViewTransform& view,
              const Box& content) {
  const auto bounds = [&](const std::vector<glm::vec2>& points) {
    Box b;
    for (const auto& p : points) {
      const Vec2 s = view.imageToScreen({p.x, p.y});
      b = unite(b, Box{s.x, s.y, 1e-3f, 1e-3f});
    }
    return b;
  };
  Box travelled, every;
  const float pixel = view.pixelsPerImagePixel();
  for (const auto& c : snakes) {
    const Box now = bounds(c.points), start = bounds(c.initial);
    every = unite(every, unite(now, start));
    // Moved by more than two image pixels on some side of its box.
    const bool moved = std::abs(now.x - start.x) > 2 * pixel ||
                       std::abs(now.y - start.y) > 2 * pixel ||
                       std::abs(now.right() - start.right()) > 2 * pixel ||
                       std::abs(now.bottom() - start.bottom()) > 2 * pixel;
    if (moved) travelled = unite(travelled, now);
  }
  if (!content.empty()) {
    const Vec2 a = view.imageToScreen({content.x, content.y});
    const Vec2 b = view.imageToScreen({content.right(), content.bottom()});
    return unite(travelled, Box{a.x, a.y, b.x - a.x, b.y - a.y});
  }
  return travelled.empty() ? every : travelled;
}

Box imageBox(const ViewTransform& view) {
  const Vec2 a = view.imageToScreen({0, 0}), b = view.imageToScreen(view.imageSize);
  return {a.x, a.y, b.x - a.x, b.y - a.y};
}

bool coversNoSnake(const Box& legend, const std::vector<Box>& snakes) {
  return std::all_of(snakes.begin(), snakes.end(),
                     [&](const Box& s) { return overlapArea(legend, s) <= 0; });
}

Box placeLegend(const Box& area, const Box& image, const std::vector<Box>& snakes, float w, float h,
                float margin, const Box& object) {
  const float x0 = area.x + margin, y0 = area.y + margin;
  const float x1 = area.right() - margin - w, y1 = area.bottom() - margin - h;
  if (x1 < x0 || y1 < y0) return {area.x, area.y, w, h};
  Box all = object;
  if (all.empty())
    for (const Box& s : snakes) all = unite(all, s);
  // Candidates: a grid of about 24 steps per side, and every place touching a snake box's
  // edge or the area's. A free place, slid left and up until it touches something, lands on
  // one of the latter: if the legend fits anywhere off the snakes, a candidate is off them.
  const float stepX = std::max((x1 - x0) / 24, 1.0f), stepY = std::max((y1 - y0) / 24, 1.0f);
  std::vector<float> xs, ys;
  for (float x = x0; x < x1; x += stepX) xs.push_back(x);
  for (float y = y0; y < y1; y += stepY) ys.push_back(y);
  xs.push_back(x1), ys.push_back(y1);
  for (const Box& s : snakes) {
    for (float x : {s.right(), s.x - w})
      if (x >= x0 && x <= x1) xs.push_back(x);
    for (float y : {s.bottom(), s.y - h})
      if (y >= y0 && y <= y1) ys.push_back(y);
  }
  // Corners in order of preference: top right, top left, bottom right, bottom left.
  const Box corners[] = {{x1, y0, 0, 0}, {x0, y0, 0, 0}, {x1, y1, 0, 0}, {x0, y1, 0, 0}};
  const float span = std::hypot(x1 - x0, y1 - y0) + 1;
  Box best{x1, y0, w, h};
  double bestScore = std::numeric_limits<double>::max();
  for (float y : ys)
    for (float x : xs) {
      const Box b{x, y, w, h};
      double snakesHit = 0;
      for (const Box& s : snakes) snakesHit += overlapArea(b, s);
      // Weights: a snake's own box outranks the object, which outranks the image; the corner term
      // (below one pixel of image overlap) only breaks ties.
      double score = 1e6 * snakesHit + 1e3 * overlapArea(b, all) + overlapArea(b, image);
      double nearest = std::numeric_limits<double>::max();
      for (int i = 0; i < 4; ++i)
        nearest =
            std::min(nearest, std::hypot(x - corners[i].x, y - corners[i].y) / span + 0.01 * i);
      score += 0.5 * nearest;
      if (score < bestScore) bestScore = score, best = b;
    }
  return best;
}

}  // namespace gvflab::viewer
