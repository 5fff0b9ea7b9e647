// The 3D view of surfaces (issue 30), drawn offscreen with the viewer's own SurfaceView: a
// sphere lies where the orbit camera projects it, shaded (brighter where it faces the eye
// than near its rim) in its state's colour; a slice of the volume is drawn as a quad where the
// slice is. Also the pure parts: the surface's cut with a slice and the split of the view.
// Needs an X server for GL (xvfb-run -a).
#include <QOpenGLFramebufferObject>
#include <cmath>
#include <glm/geometric.hpp>

#include "gvflab/error.hpp"
#include "io/snake_palette.hpp"
#include "render/render_support.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/surface_cut.hpp"
#include "viewer/model/surface_session.hpp"
#include "viewer/render/orbit_camera.hpp"
#include "viewer/render/surface_view.hpp"
#include "viewer/render/view_geometry.hpp"
#include "volume_support.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {
constexpr int kSize = 160;  // the view, pixels
constexpr int kVolume = 32;

QImage render(const SurfaceScene& scene, const OrbitCamera& camera) {
  QOpenGLFramebufferObject target(kSize, kSize);
  REQUIRE(target.bind());
  static SurfaceView* view = nullptr;  // one per context, as in the viewer
  if (!view) view = new SurfaceView();
  view->draw({0, 0, kSize, kSize}, camera, scene);
  QImage image = target.toImage().convertToFormat(QImage::Format_RGB888);
  target.release();
  return image;
}

glm::vec3 rgb(const QImage& image, int x, int y) {
  const QColor c = image.pixelColor(x, y);
  return {c.redF(), c.greenF(), c.blueF()};
}

SurfaceContour sphere(SnakeState state) {
  SurfaceContour c;
  c.id = 1;
  c.state = state;
  c.mesh = sphereMesh({16.0, 16.0, 16.0}, 7.0, 1.5);
  return c;
}
}  // namespace

TEST_CASE("the 3D view draws a sphere where the camera projects it, shaded in its state colour") {
  auto& env = test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  OrbitCamera camera;
  camera.frame(glm::vec3(kVolume));

  for (SnakeState state : {SnakeState::Converged, SnakeState::Stalled}) {
    CAPTURE(snakeStateName(state));
    const std::vector<SurfaceContour> surfaces = {sphere(state)};
    SurfaceScene scene;
    scene.surfaces = &surfaces;
    scene.surfacesVersion = static_cast<long>(state);  // no outline: nothing else on the row
    const QImage image = render(scene, camera);

    const glm::vec3 centre = camera.project({16, 16, 16}, kSize, kSize);
    const int cx = static_cast<int>(centre.x), cy = static_cast<int>(centre.y);
    REQUIRE(cx > 10);
    REQUIRE(cx < kSize - 10);
    // The state's colour, shaded: its hue (the strongest channel is the palette's), and at
    // least half as bright as the colour itself where the sphere faces the eye.
    const SnakeRgba want = stateColor(state);
    const glm::vec3 at = rgb(image, cx, cy);
    const int strongest = want[1] > want[0] ? 1 : 0;
    CHECK(at[strongest] > 0.5f * want[strongest]);
    CHECK(at[strongest] > at[strongest == 1 ? 0 : 1] + 0.2f);
    CHECK(at[strongest] > at[2] + 0.2f);

    // The sphere's silhouette along the row through its centre: about its projected radius,
    // and darker just inside the rim than at the centre (Lambert on the vertex normals).
    auto onSphere = [&](int x) {
      const glm::vec3 c = rgb(image, x, cy);
      return c[strongest] > c[2] + 0.1f;
    };
    int left = cx, right = cx;
    while (left > 0 && onSphere(left - 1)) --left;
    while (right < kSize - 1 && onSphere(right + 1)) ++right;
    const glm::vec3 rim = camera.project(
        glm::vec3(16, 16, 16) +
            7.0f * glm::normalize(glm::cross(glm::vec3(16, 16, 16) - camera.eye(), {0, 0, 1})),
        kSize, kSize);
    const float projectedRadius = std::abs(rim.x - centre.x);
    CHECK(std::abs(0.5f * static_cast<float>(right - left) - projectedRadius) < 3.0f);
    const glm::vec3 nearRim = rgb(image, left + 2, cy);
    CHECK(nearRim[strongest] < at[strongest] - 0.1f);
    // Off the sphere: the background, not the state's colour.
    CHECK_FALSE(onSphere(2));
  }
}

TEST_CASE("the 3D view shows the selected surface through the others") {
  auto& env = test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  OrbitCamera camera;
  camera.frame(glm::vec3(kVolume));
  std::vector<SurfaceContour> surfaces = {sphere(SnakeState::Converged),
                                          sphere(SnakeState::Stalled)};
  surfaces[0].mesh = sphereMesh({16.0, 16.0, 16.0}, 4.0, 1.0);  // inside the other
  surfaces[1].id = 2;
  SurfaceScene scene;
  scene.surfaces = &surfaces;
  scene.surfacesVersion = 100;
  scene.selectedId = 1;  // the inner, converged one: green through the stalled red
  const glm::vec3 centre = camera.project({16, 16, 16}, kSize, kSize);
  const glm::vec3 mixed =
      rgb(render(scene, camera), static_cast<int>(centre.x), static_cast<int>(centre.y));
  CHECK(mixed.g > mixed.r);
  scene.selectedId = 2;  // the outer one opaque: red
  scene.surfacesVersion = 101;
  const glm::vec3 outer =
      rgb(render(scene, camera), static_cast<int>(centre.x), static_cast<int>(centre.y));
  CHECK(outer.r > outer.g + 0.3f);
}

TEST_CASE("the 3D view draws a slice of the volume as a quad where the slice is") {
  auto& env = test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  Volume volume(kVolume, kVolume, kVolume, 0.0f);
  for (int z = 0; z < kVolume; ++z)  // bright in the half x < 16, dark elsewhere
    for (int y = 0; y < kVolume; ++y)
      for (int x = 0; x < kVolume / 2; ++x) volume.at(x, y, z) = 1.0f;
  OrbitCamera camera;
  camera.frame(glm::vec3(kVolume));
  camera.yaw = 0, camera.pitch = 0;  // facing the coronal slice, as the slice view shows it
  SurfaceScene scene;
  scene.volume = &volume;
  scene.dims = {kVolume, kVolume, kVolume};
  scene.slices = {-1, kVolume / 2, -1};  // the coronal slice only
  const QImage image = render(scene, camera);

  const glm::vec3 bright = camera.project({8, 16.5f, 16}, kSize, kSize);
  const glm::vec3 dark = camera.project({24, 16.5f, 16}, kSize, kSize);
  const glm::vec3 b = rgb(image, static_cast<int>(bright.x), static_cast<int>(bright.y));
  const glm::vec3 d = rgb(image, static_cast<int>(dark.x), static_cast<int>(dark.y));
  CHECK(b.r > 0.6f);                   // the slice's grey, a little see-through
  CHECK(std::abs(b.r - b.b) < 0.05f);  // grey, not a surface's colour
  CHECK(d.r < 0.25f);
  CHECK(b.r - d.r > 0.4f);
  // Nothing without slices: the background there.
  scene.slices = {-1, -1, -1};
  const QImage empty = render(scene, camera);
  CHECK(rgb(empty, static_cast<int>(bright.x), static_cast<int>(bright.y)).r < 0.2f);
}

TEST_CASE("the cut-away leaves out what lies in front of the coronal slice, and that slice") {
  auto& env = test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  OrbitCamera camera;
  camera.frame(glm::vec3(kVolume));
  std::vector<SurfaceContour> surfaces = {sphere(SnakeState::Converged)};
  surfaces[0].mesh = sphereMesh({16.0, 8.0, 16.0}, 4.0, 1.0);  // wholly in front of y = 20.5
  Volume volume(kVolume, kVolume, kVolume, 1.0f);
  SurfaceScene scene;
  scene.surfaces = &surfaces;
  scene.surfacesVersion = 200;
  scene.volume = &volume;
  scene.dims = {kVolume, kVolume, kVolume};
  scene.slices = {-1, 20, -1};
  const glm::vec3 at = camera.project({16, 8, 16}, kSize, kSize);
  const glm::vec3 whole =
      rgb(render(scene, camera), static_cast<int>(at.x), static_cast<int>(at.y));
  CHECK(whole.g > 0.3f);  // the sphere (or the slice over it)
  scene.cutAway = true;
  const glm::vec3 cut = rgb(render(scene, camera), static_cast<int>(at.x), static_cast<int>(at.y));
  CHECK(cut.g < 0.2f);  // neither the sphere nor the bright slice: the background
}

TEST_CASE("a surface's cut with a slice lies on the surface, in the slice's pixels") {
  const SurfaceMesh mesh = sphereMesh({10.0, 12.0, 14.0}, 5.0, 1.0);
  // Axial slice 13: the plane z = 13.5, 0.5 from the centre: a circle of radius sqrt(24.75).
  const auto cut = sliceCut(mesh, SliceAxis::Axial, 13, 40);
  REQUIRE(cut.size() >= 20);
  CHECK(cut.size() % 2 == 0);
  for (const glm::vec2& p : cut)
    CHECK(std::abs(glm::length(p - glm::vec2(10, 12)) - std::sqrt(24.75f)) < 0.2f);
  // Sagittal slices show (y, depth - z), +z up: centre (12, 40 - 14); a slice beyond the
  // sphere cuts nothing.
  for (const glm::vec2& p : sliceCut(mesh, SliceAxis::Sagittal, 9, 40))
    CHECK(std::abs(glm::length(p - glm::vec2(12, 26)) - std::sqrt(24.75f)) < 0.2f);
  CHECK(sliceCut(mesh, SliceAxis::Coronal, 30, 40).empty());
  // A point placed on a slice is in the volume at that slice's plane; the slice's top row is
  // the volume's top plane.
  const glm::dvec3 v = sliceToVoxel(SliceAxis::Coronal, 7, {3.0f, 4.0f}, 40);
  CHECK(v.x == 3.0);
  CHECK(v.y == 7.5);
  CHECK(v.z == 36.0);
  CHECK(voxelToSlice(SliceAxis::Sagittal, glm::vec3(v), 40) == glm::vec2(7.5f, 4.0f));
}

TEST_CASE("the view splits into a slice and a 3D view both usable at 1024x768") {
  // A 1024x768 window with one side panel leaves a tall view: stacked; without panels: side
  // by side. Either way each part is at least a 350 px square, and they do not overlap.
  for (const Viewport area : {Viewport{300, 0, 724, 768}, Viewport{0, 0, 1024, 768}}) {
    const ViewSplit s = splitView(area, true);
    CHECK(std::min(s.slice.width, s.slice.height) >= 350);
    CHECK(std::min(s.side.width, s.side.height) >= 350);
    const bool apart =
        s.slice.x + s.slice.width <= s.side.x || s.side.y + s.side.height <= s.slice.y;
    CHECK(apart);
    // The slice keeps the top-left corner (screen pixels from there still address it).
    CHECK(s.slice.x == area.x);
    CHECK(s.slice.y + s.slice.height == area.y + area.height);
    CHECK(inSideView(s, area, static_cast<float>(area.width - 5),
                     static_cast<float>(area.height - 5)));
    CHECK_FALSE(inSideView(s, area, 5, 5));
  }
  const ViewSplit none = splitView({0, 0, 800, 600}, false);
  CHECK(none.slice.width == 800);
  CHECK(none.side.width == 0);
}

TEST_CASE("the viewer's surfaces: idle on an image, placed, compared and moved on a volume") {
  SessionStartup startup;
  startup.phantomSize = 32;
  startup.stepsPerFrame = 10;    // deterministic: no frame budget
  startup.fieldIterations = 20;  // the surfaces wait for this many field iterations
  Session session(startup);
  SurfaceSession surfaces(session, {});
  surfaces.advanceFrame();
  CHECK_FALSE(surfaces.active());  // an image: nothing to move
  CHECK_THROWS_AS(surfaces.addSphere({8, 8, 8}, 4), ParameterError);

  session.setVolume(test::ballVolumeOf(24, 24, 24), "ball");
  surfaces.advanceFrame();
  REQUIRE(surfaces.active());
  CHECK(surfaces.dims() == std::array<int, 3>{24, 24, 24});
  const int id = surfaces.addSphere({12, 12, 12}, 9);
  CHECK(surfaces.selectedId() == id);
  const int twin = surfaces.compare(id);
  REQUIRE(surfaces.surfaces().size() == 2);
  CHECK(twin != id);
  CHECK(surfaces.surfaces()[0].force != surfaces.surfaces()[1].force);
  // They wait for the field, then move by the frame's iterations.
  surfaces.advanceFrame();
  CHECK(surfaces.lastFrameIterations() == 0);
  for (int i = 0; i < 3; ++i) session.advanceFrame();
  REQUIRE(session.fieldReady());
  const long before = surfaces.version();
  surfaces.advanceFrame();
  CHECK(surfaces.lastFrameIterations() == surfaces.frameIterations());
  CHECK(surfaces.version() > before);
  for (const SurfaceContour& c : surfaces.surfaces()) CHECK(c.iterations > 0);
  // A new volume of another size: the surfaces go.
  session.setVolume(test::ballVolumeOf(20, 20, 20), "smaller");
  surfaces.advanceFrame();
  CHECK(surfaces.surfaces().empty());
}

TEST_CASE("a surface's Compare races the forces ticked, at most four, as a snake's does") {
  SessionStartup startup;
  startup.phantomSize = 32;
  Session session(startup);
  session.setVolume(test::ballVolumeOf(24, 24, 24), "ball");
  SurfaceSession surfaces(session, {});
  surfaces.advanceFrame();
  const int id = surfaces.addSphere({12, 12, 12}, 9, SnakeForce::Ggvf);
  // Its own force among them, and one more than a race holds.
  surfaces.compareForces.chosen = {SnakeForce::Gvf, SnakeForce::Ggvf, SnakeForce::Vfc,
                                   SnakeForce::Distance, SnakeForce::Traditional};
  const int twin = surfaces.compare(id);
  const auto& list = surfaces.surfaces();
  REQUIRE(list.size() == 4);
  CHECK(list.back().id == twin);
  const SnakeForce want[] = {SnakeForce::Ggvf, SnakeForce::Gvf, SnakeForce::Vfc,
                             SnakeForce::Distance};
  for (std::size_t i = 0; i < list.size(); ++i) {
    CHECK(list[i].force == want[i]);
    CHECK(list[i].initial.vertices.size() == list[0].initial.vertices.size());
  }
  // Only its own force ticked: the lesson's other one.
  surfaces.compareForces.chosen = {SnakeForce::Ggvf};
  surfaces.compare(id);
  CHECK(surfaces.surfaces().back().force == SnakeForce::Gvf);
}
