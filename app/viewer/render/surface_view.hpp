#pragma once
// The 3D view beside the slice view (issue 30): the surfaces shaded in their states' colours
// (io/snake_palette.hpp, the 2D snakes' rule), the volume's three orthogonal slices as
// textured quads where the slices are, and the volume's outline, seen through an OrbitCamera.
// It draws into its own framebuffer with a depth buffer (the window's has none) and copies
// that into the viewport. GL objects are made once and when sizes change, never per frame.
#include <QOpenGLFramebufferObject>
#include <array>
#include <memory>
#include <vector>

#include "gvflab/image.hpp"
#include "gvflab/surface_snake.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/layer.hpp"
#include "viewer/render/orbit_camera.hpp"

namespace gvflab::viewer {

struct SurfaceScene {
  const std::vector<SurfaceContour>* surfaces = nullptr;
  long surfacesVersion = 0;        // bumped when the meshes changed
  int selectedId = 0;              // drawn opaque, the others see-through (0: all opaque)
  const Volume* volume = nullptr;  // the slices' grey levels; null: no slices
  long volumeVersion = 0;          // bumped when the volume changed
  // The slice shown across each axis (axial: z, coronal: y, sagittal: x); -1: not drawn.
  std::array<int, 3> slices = {-1, -1, -1};
  std::array<int, 3> dims = {0, 0, 0};  // the volume's width, height, depth
  float brightness = 1.0f;
  // The cut-away: the half in front of the coronal slice (y < its plane) is not drawn, nor that
  // slice, so the surfaces show in section inside the volume (a well, a pocket).
  bool cutAway = false;
};

class SurfaceView {
 public:
  SurfaceView();  // GL context current; throws DeviceError on shader errors
  ~SurfaceView();
  SurfaceView(const SurfaceView&) = delete;
  SurfaceView& operator=(const SurfaceView&) = delete;

  // Draws the scene into `area` of the framebuffer bound now (GL convention, origin bottom-left).
  void draw(const Viewport& area, const OrbitCamera& camera, const SurfaceScene& scene);

 private:
  void uploadSurfaces(const SurfaceScene& scene);
  void uploadSlices(const SurfaceScene& scene);
  void ensureTarget(int width, int height);

  GlProgram surfaceProgram_, sliceProgram_;
  GlVertexArray meshVao_, sliceVao_, lineVao_;
  GlBuffer meshVbo_, meshEbo_, sliceVbo_, lineVbo_;
  std::array<GlTexture, 3> sliceTextures_;
  std::array<std::array<int, 2>, 3> sliceSizes_{};  // of each texture's storage
  struct Range {
    int id = 0;
    SnakeState state = SnakeState::Moving;
    SnakeForce force = SnakeForce::Gvf;
    std::size_t first = 0, count = 0;  // indices
  };
  std::vector<Range> ranges_;
  long surfacesVersion_ = -1;
  const std::vector<SurfaceContour>* surfacesFrom_ = nullptr;
  const Volume* volumeFrom_ = nullptr;
  long volumeVersion_ = -1;
  std::array<int, 3> slicesCut_ = {-2, -2, -2};
  std::unique_ptr<QOpenGLFramebufferObject> target_;
};

}  // namespace gvflab::viewer
