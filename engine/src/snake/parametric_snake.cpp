#include "gvflab/parametric_snake.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <sstream>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {
constexpr std::size_t kLocal = 64;
// = SNAKE_MOVING, SNAKE_OPEN, SNAKE_FIX_START, SNAKE_FIX_END, FORCE_SHIFT in the .cl
constexpr int kMoving = 1, kOpen = 4, kFixStart = 8, kFixEnd = 16, kForceShift = 5;
}  // namespace

ParametricSnake::ParametricSnake(std::shared_ptr<ComputeContext> ctx, int width, int height,
                                 SnakeParams params)
    : ctx_(std::move(ctx)), width_(width), height_(height), params_(params) {
  if (width < 1 || height < 1) throw InputError("Snakes need an image of at least 1x1 pixels.");
  params_.validate();
  try {
    forceKernel_ = ctx_->kernels().kernel("snake_step.cl", "snake_rhs");
    solveKernel_ = ctx_->kernels().kernel("snake_step.cl", "snake_solve");
    holdKernel_ = ctx_->kernels().kernel("snake_step.cl", "snake_hold");
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the parametric snakes");
  }
}

ParametricSnake::~ParametricSnake() = default;

void ParametricSnake::setFields(const cl::Buffer& gvf, const cl::Buffer& traditional) {
  fields_ = {gvf, traditional};
  kernelFields(fields_, {}, fieldBytes(), "snakes");
  haveFields_ = true;
  haveEdge_ = false;
}

void ParametricSnake::setFields(const cl::Buffer& gvf, const GvfInput& edges) {
  setFields(ForceFieldSet{gvf, edges.v0}, edges);
}

void ParametricSnake::setFields(const ForceFieldSet& fields, const GvfInput& edges) {
  if (edges.width != width_ || edges.height != height_ || edges.depth != 1)
    throw InputError("The snakes' edge map does not match their image.");
  kernelFields(fields, {}, fieldBytes(), "snakes");
  // The viewer sets the fields every frame (the GVF buffers alternate); the noise of one edge
  // map is estimated once.
  const bool sameEdges = haveEdge_ && edge_() == edges.edge();
  fields_ = fields;
  haveFields_ = true;
  if (!sameEdges) levels_ = holdLevels(*ctx_, edges);
  edge_ = edges.edge;
  haveEdge_ = true;
}

std::size_t ParametricSnake::fieldBytes() const {
  return static_cast<std::size_t>(width_) * height_ * 2 * sizeof(float);
}

std::vector<SnakeForce> ParametricSnake::forces() const { return forcesOf(snakes_); }

ForceFieldSet ParametricSnake::boundFields() const {
  return kernelFields(fields_, forces(), fieldBytes(), "snakes");
}

void ParametricSnake::checkPointsIn(const std::vector<glm::vec2>& points, int width, int height,
                                    SnakeBoundary boundary) {
  for (const auto& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
      throw ParameterError("A snake point is NaN or infinite.");
    if (p.x < 0 || p.y < 0 || p.x > width || p.y > height) {
      std::ostringstream msg;
      msg << "The snake point (" << p.x << ", " << p.y << ") lies outside the " << width << "x"
          << height << " image.";
      throw ParameterError(msg.str());
    }
  }
  if (!isClosed(boundary)) {
    bool length = false;
    for (const auto& p : points) length = length || p != points.front();
    if (points.size() < static_cast<std::size_t>(kMinOpenNodes) || !length)
      throw ParameterError("An open snake needs at least 2 distinct points.");
    return;
  }
  if (points.size() < static_cast<std::size_t>(kMinNodes) || std::abs(signedArea2(points)) == 0)
    throw ParameterError("A snake needs at least 3 points that enclose an area.");
}

void ParametricSnake::checkNodeCount(std::size_t nodes) {
  if (nodes > static_cast<std::size_t>(kMaxNodes))
    throw ResourceError("The snake would have " + std::to_string(nodes) + " nodes; at most " +
                        std::to_string(kMaxNodes) + " are supported.");
}

void ParametricSnake::checkContour(const std::vector<glm::vec2>& points, int width, int height,
                                   const SnakeParams& params, SnakeBoundary boundary) {
  checkPointsIn(points, width, height, boundary);
  checkNodeCount(resampledNodeCount(points, params.dmin, params.dmax, isClosed(boundary)));
}

void ParametricSnake::checkCircle(double cx, double cy, double radius, int width, int height,
                                  const SnakeParams& params) {
  if (!std::isfinite(cx) || !std::isfinite(cy) || !std::isfinite(radius) || !(radius > 0))
    throw ParameterError("A circle snake needs a finite centre and a radius > 0.");
  if (cx - radius < 0 || cy - radius < 0 || cx + radius > width || cy + radius > height) {
    std::ostringstream msg;
    msg << "The circle of centre (" << cx << ", " << cy << ") and radius " << radius
        << " lies outside the " << width << "x" << height << " image.";
    throw ParameterError(msg.str());
  }
  // circleContour's count: nodes (dmin + dmax) / 2 apart along the perimeter.
  const double nodes =
      std::ceil(2 * std::numbers::pi * radius / (0.5 * (params.dmin + params.dmax)));
  checkNodeCount(nodes > 1e12 ? std::size_t(1e12) : static_cast<std::size_t>(nodes));
}

namespace {
// `points` as a snake stores them: resampled to the spacing bounds; closed ones with a positive
// area, open ones in the order they were given.
std::vector<glm::vec2> storedContour(const std::vector<glm::vec2>& points,
                                     const SnakeParams& params, SnakeBoundary boundary) {
  auto pts = resampleContour(points, params.dmin, params.dmax, isClosed(boundary));
  if (isClosed(boundary) && signedArea2(pts) < 0) std::reverse(pts.begin(), pts.end());
  return pts;
}

// A closed contour that crept on (creptSteadily, its area by `step` px^2 a window) and lies
// farther than `tol` from its oldest window's start.
bool creptOn(const std::vector<glm::vec2>& now, const std::deque<std::vector<glm::vec2>>& past,
             double tol, double step) {
  std::vector<double> areas;
  for (const auto& c : past) areas.push_back(signedArea2(c));
  areas.push_back(signedArea2(now));
  return creptSteadily(areas, 2 * step) && progressMove(now, {past.front()}) > tol;
}
}  // namespace

int ParametricSnake::add(const std::vector<glm::vec2>& points, SnakeForce force,
                         std::optional<double> pressure, SnakeBoundary boundary) {
  checkPointsIn(points, width_, height_, boundary);
  checkSnakePressure(pressure);
  checkNodeCount(resampledNodeCount(points, params_.dmin, params_.dmax, isClosed(boundary)));
  download();
  const auto start = storedContour(points, params_, boundary);
  checkNodeCount(start.size());
  snakes_.push_back({nextId_++, force, boundary, pressure, start, start, {}, {}});
  layoutDirty_ = true;
  return snakes_.back().id;
}

void ParametricSnake::remove(int id) {
  download();
  std::erase_if(snakes_, [id](const Snake& s) { return s.id == id; });
  layoutDirty_ = true;
}

void ParametricSnake::clear() {
  snakes_.clear();
  deviceAhead_ = false;
  layoutDirty_ = true;
}

void ParametricSnake::setPoints(int id, const std::vector<glm::vec2>& points) {
  download();
  Snake* s = findMember(snakes_, id);
  if (!s) return;
  checkPointsIn(points, width_, height_, s->boundary);
  s->points = storedContour(points, params_, s->boundary);
  s->initial = s->points;
  s->stop.state = SnakeState::Moving;
  layoutDirty_ = true;
}

void ParametricSnake::setInitial(int id, const std::vector<glm::vec2>& points) {
  Snake* s = findMember(snakes_, id);
  if (!s) return;
  checkContour(points, width_, height_, params_, s->boundary);
  s->initial = storedContour(points, params_, s->boundary);
}

void ParametricSnake::setPressure(int id, std::optional<double> pressure) {
  checkSnakePressure(pressure);
  download();
  if (editMember(snakes_, id, [&](Snake& s) { s.pressure = pressure; })) layoutDirty_ = true;
}

void ParametricSnake::restart() {
  download();
  for (auto& s : snakes_) {
    s.points = s.initial;
    s.stop.restart();
  }
  layoutDirty_ = true;
}

void ParametricSnake::setForce(int id, SnakeForce force) {
  download();
  if (editMember(snakes_, id, [&](Snake& s) { s.force = force; })) layoutDirty_ = true;
}

void ParametricSnake::setParams(const SnakeParams& params) {
  params.validate();
  download();
  const bool matrixChanged =
      params.alpha != params_.alpha || params.beta != params_.beta || params.gamma != params_.gamma;
  if (matrixChanged) coefCache_.clear();
  params_ = params;
  for (auto& s : snakes_) s.stop.state = SnakeState::Moving;
  layoutDirty_ = true;
}

bool ParametricSnake::allConverged() const { return allConvergedIn(snakes_); }

bool ParametricSnake::allStopped() const { return allStoppedIn(snakes_); }

std::size_t ParametricSnake::nodeCount() const {
  std::size_t n = 0;
  for (const auto& s : snakes_) n += s.points.size();
  return n;
}

const std::vector<float>& ParametricSnake::coefficients(int n, SnakeBoundary boundary) {
  const auto key = std::make_pair(n, boundary);
  auto it = coefCache_.find(key);
  if (it == coefCache_.end()) {
    auto row = isClosed(boundary)
                   ? circulantInverseRow(n, params_.alpha, params_.beta, params_.gamma)
                   : openSnakeFactors(n, params_.alpha, params_.beta, params_.gamma, boundary);
    it = coefCache_.emplace(key, std::vector<float>(row.begin(), row.end())).first;
  }
  return it->second;
}

void ParametricSnake::download() {
  if (!deviceAhead_) return;
  std::vector<glm::vec2> all(totalNodes_);
  try {
    ctx_->queue().enqueueReadBuffer(pos_[current_], CL_TRUE, 0, totalNodes_ * sizeof(glm::vec2),
                                    all.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the snake nodes");
  }
  std::size_t off = 0;
  for (auto& s : snakes_) {
    std::copy_n(all.begin() + off, s.points.size(), s.points.begin());
    off += s.points.size();
  }
  deviceAhead_ = false;
}

std::uint64_t ParametricSnake::deviceBytes(std::size_t snakes, std::size_t nodes) {
  // Per node: pos[2] and rhs, hold, nodeSnake, and at most 5 coefficients (an open snake's
  // factors); per snake: meta and pressure. Capacities double as they grow.
  const std::uint64_t perNode =
      3 * sizeof(glm::vec2) + sizeof(float) + sizeof(cl_int) + 5 * sizeof(float);
  const std::uint64_t perSnake = sizeof(cl_int4) + sizeof(float);
  return 2 * (perNode * nodes + perSnake * snakes);
}

void ParametricSnake::upload() {
  std::vector<glm::vec2> pos;
  std::vector<cl_int> nodeSnake;
  std::vector<cl_int4> meta;
  std::vector<float> coef, pressure;
  std::map<std::pair<int, SnakeBoundary>, int> coefOffset;
  for (std::size_t k = 0; k < snakes_.size(); ++k) {
    Snake& s = snakes_[k];
    const int n = static_cast<int>(s.points.size());
    const auto key = std::make_pair(n, s.boundary);
    if (!coefOffset.count(key)) {
      coefOffset[key] = static_cast<int>(coef.size());
      const auto& row = coefficients(n, s.boundary);
      coef.insert(coef.end(), row.begin(), row.end());
    }
    cl_int flags = (s.stop.moving() ? kMoving : 0) | (static_cast<int>(s.force) << kForceShift) |
                   (isClosed(s.boundary) ? 0 : kOpen) | (startFixed(s.boundary) ? kFixStart : 0) |
                   (endFixed(s.boundary) ? kFixEnd : 0);
    meta.push_back({{static_cast<cl_int>(pos.size()), n, coefOffset[key], flags}});
    pressure.push_back(static_cast<float>(s.pressure.value_or(params_.pressure)));
    nodeSnake.insert(nodeSnake.end(), n, static_cast<cl_int>(k));
    pos.insert(pos.end(), s.points.begin(), s.points.end());
  }
  totalNodes_ = pos.size();
  layoutDirty_ = false;
  if (pos.empty()) return;
  try {
    auto& c = ctx_->context();
    auto grow = [&](cl::Buffer& b, std::size_t& cap, std::size_t need, std::size_t elem) {
      if (need <= cap) return;
      cap = std::max(need, cap * 2);
      ctx_->checkAllocation(cap * elem, "the snake nodes");
      b = cl::Buffer(c, CL_MEM_READ_WRITE, cap * elem);
    };
    if (pos.size() > nodeCapacity_) {
      const std::size_t cap = std::max(pos.size(), nodeCapacity_ * 2);
      ctx_->checkAllocation(cap * sizeof(glm::vec2), "the snake nodes");
      for (auto* b : {&pos_[0], &pos_[1], &rhs_})
        *b = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(glm::vec2));
      hold_ = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(float));
      nodeSnake_ = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(cl_int));
      nodeCapacity_ = cap;
    }
    grow(meta_, snakeCapacity_, meta.size(), sizeof(cl_int4));
    grow(coef_, coefCapacity_, coef.size(), sizeof(float));
    grow(pressure_, pressureCapacity_, pressure.size(), sizeof(float));
    auto& q = ctx_->queue();
    current_ = 0;
    q.enqueueWriteBuffer(pos_[0], CL_FALSE, 0, pos.size() * sizeof(glm::vec2), pos.data());
    q.enqueueWriteBuffer(nodeSnake_, CL_FALSE, 0, nodeSnake.size() * sizeof(cl_int),
                         nodeSnake.data());
    q.enqueueWriteBuffer(meta_, CL_FALSE, 0, meta.size() * sizeof(cl_int4), meta.data());
    q.enqueueWriteBuffer(coef_, CL_FALSE, 0, coef.size() * sizeof(float), coef.data());
    q.enqueueWriteBuffer(pressure_, CL_FALSE, 0, pressure.size() * sizeof(float), pressure.data());
    q.finish();  // the host vectors die here
  } catch (const cl::Error& e) {
    rethrowClError(e, "uploading the snakes");
  }
}

void ParametricSnake::runIterations(int n) {
  const cl_int total = static_cast<cl_int>(totalNodes_);
  try {
    const ForceFieldSet f = boundFields();
    forceKernel_.set(pos_[current_], rhs_, nodeSnake_, meta_, f[0], f[1], f[2], f[3], f[4], total,
                     width_, height_, static_cast<float>(params_.gamma),
                     static_cast<float>(params_.kappa), pressure_,
                     static_cast<cl_int>(params_.normalize ? 1 : 0));
    solveKernel_.set(rhs_, pos_[current_], pos_[1 - current_], nodeSnake_, meta_, coef_, total,
                     width_, height_);
    for (int it = 0; it < n; ++it) {
      forceKernel_.arg<0>(pos_[current_]);
      detail::enqueue1D(*ctx_, forceKernel_, "snake_rhs", totalNodes_, kLocal);
      solveKernel_.arg<1>(pos_[current_]);
      solveKernel_.arg<2>(pos_[1 - current_]);
      detail::enqueue1D(*ctx_, solveKernel_, "snake_solve", totalNodes_, kLocal);
      current_ = 1 - current_;
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "moving the snakes");
  }
  for (auto& s : snakes_) s.stop.advance(n);
  sinceResample_ += n;
  deviceAhead_ = true;
}

std::vector<float> ParametricSnake::deviceHold() {
  std::vector<float> out(totalNodes_);
  try {
    const ForceFieldSet f = boundFields();
    holdKernel_.set(pos_[current_], hold_, nodeSnake_, meta_, f[0], f[1], f[2], f[3], f[4],
                    static_cast<cl_int>(totalNodes_), width_, height_,
                    static_cast<float>(kHoldDistance),
                    haveEdge_ ? edge_ : f[0],  // any buffer when unused
                    static_cast<cl_int>(haveEdge_ ? 1 : 0), static_cast<float>(levels_.edge),
                    static_cast<float>(levels_.edgeNoise), static_cast<float>(levels_.strength));
    detail::enqueue1D(*ctx_, holdKernel_, "snake_hold", totalNodes_, kLocal);
    ctx_->queue().enqueueReadBuffer(hold_, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "testing whether the snakes are held");
  }
  return out;
}

class ParametricSnake::Stops : public StopGeometry {
 public:
  explicit Stops(ParametricSnake& snakes) : s_(snakes) {}
  std::size_t members() const override { return s_.snakes_.size(); }
  StopStatus& status(std::size_t k) override { return s_.snakes_[k].stop; }
  std::size_t nodes(std::size_t k) const override { return s_.snakes_[k].points.size(); }
  bool collapsed(std::size_t k) override {
    const Snake& s = s_.snakes_[k];
    return collapsedContour(s.points, s.initial, s_.params_.dmin, isClosed(s.boundary));
  }
  // The references are contours before resampling: removing a node cuts a corner, and nodes
  // that come back to it should not count as moving.
  bool still(std::size_t k) override {
    Snake& s = s_.snakes_[k];
    const double tol = s_.params_.tolerance;
    const bool closed = isClosed(s.boundary);
    const bool still = progressMove(s.points, s.references, closed, tol) <= tol &&
                       !(closed && creptOn(s.points, s.references, tol, tol * s_.params_.dmin));
    s.references.push_back(s.points);
    if (s.references.size() > static_cast<std::size_t>(kProgressWindows)) s.references.pop_front();
    return still;
  }
  std::vector<float> holdStrengths() override { return s_.deviceHold(); }
  double unheldExtent(std::size_t k, const std::vector<bool>& held) override {
    const Snake& s = s_.snakes_[k];
    return unheldContourExtent(s.points, held, isClosed(s.boundary));
  }

 private:
  ParametricSnake& s_;
};

void ParametricSnake::checkAndResample() {
  download();
  std::vector<Snake*> moving;
  for (auto& s : snakes_)
    if (s.stop.moving()) moving.push_back(&s);
  // The hold test runs on the device positions, which are the nodes before resampling.
  Stops stops(*this);
  checkStops(stops, params_);
  for (Snake* active : moving) {
    Snake& s = *active;
    auto resampled = resampleContour(s.points, params_.dmin, params_.dmax, isClosed(s.boundary));
    if (resampled.size() <= static_cast<std::size_t>(kMaxNodes)) s.points = std::move(resampled);
  }
  sinceResample_ = 0;
  upload();
}

void ParametricSnake::step(int n) {
  if (n <= 0 || snakes_.empty()) return;
  if (!haveFields_) throw InputError("The snakes have no force field yet (call setFields).");
  syncLayout();
  while (n > 0 && !allStopped()) {
    const int chunk = std::max(1, std::min(n, params_.resample - sinceResample_));
    runIterations(chunk);
    n -= chunk;
    if (sinceResample_ >= params_.resample) checkAndResample();
  }
}

void ParametricSnake::syncLayout() {
  if (!layoutDirty_) return;
  download();
  for (auto& s : snakes_) {  // every window starts from the current nodes
    s.references.assign(1, s.points);
    s.stop.sinceWindow = 0;
  }
  sinceResample_ = 0;
  upload();
}

std::vector<std::vector<float>> ParametricSnake::holdStrengths() {
  if (!haveFields_) throw InputError("The snakes have no force field yet (call setFields).");
  syncLayout();
  if (snakes_.empty()) return {};
  return perMember(deviceHold(), snakes_, [](const Snake& s) { return s.points.size(); });
}

std::vector<SnakeContour> ParametricSnake::contours() {
  download();
  std::vector<SnakeContour> out;
  out.reserve(snakes_.size());
  for (const auto& s : snakes_)
    out.push_back({s.id, s.points, s.force, s.stop.iterations, s.stop.state, s.initial,
                   s.pressure.value_or(params_.pressure), s.stop.held, s.stop.holdGap,
                   s.pressure.has_value(), s.boundary});
  return out;
}

}  // namespace gvflab
