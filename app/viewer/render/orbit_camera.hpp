#pragma once
// The 3D view's camera: it orbits a target point (drag), moves nearer or farther (wheel) and
// pans the target across the view (right or middle drag, or Shift + drag). World coordinates
// are voxel coordinates (surface_mesh.hpp: x along a row, y down the rows, z across the
// planes); "up" on screen is +z, as on the coronal and sagittal slices, so at yaw = pitch = 0
// the view looks along +y and shows the coronal slice as the slice view does.
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace gvflab::viewer {

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 1.0f;
  // The default view: from in front of the coronal slice (-y), a little to the side and above,
  // so the cut-away at the coronal slice (surface_view.hpp) shows what lies inside.
  float yaw = 0.5f;    // radians about the screen's up axis
  float pitch = 0.5f;  // radians; > 0 looks down on the volume (from +z)
  float fovY = 0.61f;  // radians (35 degrees)

  // Looks at the box [0, size] from the default angle, the whole box in view.
  void frame(const glm::vec3& size);
  // Screen pixels of drag (orbit, pan) and wheel steps (> 0: nearer).
  void orbit(glm::vec2 pixels);
  void pan(glm::vec2 pixels, float viewHeightPixels);
  void zoom(float steps);

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  // A world point in the viewport's pixels (x right, y down from the top-left); z: depth in
  // [0, 1] (outside: clipped).
  glm::vec3 project(const glm::vec3& world, float width, float height) const;

 private:
  float boxRadius_ = 1.0f;  // for the near and far planes
};

}  // namespace gvflab::viewer
