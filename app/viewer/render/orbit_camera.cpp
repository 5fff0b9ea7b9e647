#include "viewer/render/orbit_camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace gvflab::viewer {
namespace {
constexpr float kOrbitPerPixel = 0.008f;
constexpr float kMaxPitch = 1.55f;
constexpr float kZoomPerStep = 0.87f;
const glm::vec3 kUp{0.0f, 0.0f, 1.0f};
}  // namespace

void OrbitCamera::frame(const glm::vec3& size) {
  target = size * 0.5f;
  boxRadius_ = std::max(0.5f * glm::length(size), 1.0f);
  distance = boxRadius_ / std::sin(0.5f * fovY) * 1.05f;
  yaw = OrbitCamera{}.yaw, pitch = OrbitCamera{}.pitch;
}

void OrbitCamera::orbit(glm::vec2 pixels) {
  yaw += pixels.x * kOrbitPerPixel;
  pitch = std::clamp(pitch + pixels.y * kOrbitPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(glm::vec2 pixels, float viewHeightPixels) {
  // One pixel moves the target by what one pixel spans at the target's depth.
  const float perPixel = 2.0f * distance * std::tan(0.5f * fovY) / std::max(viewHeightPixels, 1.0f);
  const glm::vec3 forward = glm::normalize(target - eye());
  const glm::vec3 right = glm::normalize(glm::cross(forward, kUp));
  const glm::vec3 up = glm::cross(right, forward);
  target += (-pixels.x * right + pixels.y * up) * perPixel;
}

void OrbitCamera::zoom(float steps) {
  distance =
      std::clamp(distance * std::pow(kZoomPerStep, steps), 0.05f * boxRadius_, 20.0f * boxRadius_);
}

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 offset{std::cos(pitch) * std::sin(yaw), -std::cos(pitch) * std::cos(yaw),
                         std::sin(pitch)};
  return target + distance * offset;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, kUp); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  const float reach = glm::length(target - eye()) + 2.0f * boxRadius_ + glm::length(target) +
                      1.0f;  // a panned target still sees the box
  const float nearPlane = std::max(0.01f * distance, 0.05f);
  return glm::perspective(fovY, std::max(aspect, 1e-3f), nearPlane, reach);
}

glm::vec3 OrbitCamera::project(const glm::vec3& world, float width, float height) const {
  const glm::vec4 clip = projection(width / std::max(height, 1.0f)) * view() * glm::vec4(world, 1);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * width, (0.5f - ndc.y * 0.5f) * height, ndc.z * 0.5f + 0.5f};
}

}  // namespace gvflab::viewer
