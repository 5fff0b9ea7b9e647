// The viewer's lesson model without a window: per-snake forces (start-up @FORCE, Compare's
// twin, which field the layers show), the replay (R), sessions restarted from their starting
// or current contours, and every demo loaded into a live session as its data says.
#include <doctest/doctest.h>

#include <glm/geometric.hpp>

#include "cli/options.hpp"
#include "demos/demos.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "viewer/model/lesson.hpp"
#include "viewer/model/session_io.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/model/surface_session.hpp"
#include "viewer/window/demo_loader.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

// Small images: PoCL on two cores runs these. The field counts as done at once (--target-error
// 1): these tests are about the snakes; their wait for the field has its own test.
app::Options uOptions(std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--phantom", "u", "--phantom-size", "64", "--target-error", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return app::parseOptions(args);
}

std::vector<float> readField(Session& session, const cl::Buffer& field) {
  const GvfInput& plane = session.planeInput();
  std::vector<float> out(static_cast<std::size_t>(plane.width) * plane.height * 2);
  session.context().queue().enqueueReadBuffer(field, CL_TRUE, 0, out.size() * sizeof(float),
                                              out.data());
  return out;
}

float largestGap(const std::vector<glm::vec2>& a, const std::vector<glm::vec2>& b) {
  REQUIRE(a.size() == b.size());
  float worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
  return worst;
}

// Mean distance from a's nodes to the nearest node of b (node counts may differ).
float meanDistance(const std::vector<glm::vec2>& a, const std::vector<glm::vec2>& b) {
  float sum = 0;
  for (const auto& p : a) {
    float best = 1e9f;
    for (const auto& q : b) best = std::min(best, glm::length(p - q));
    sum += best;
  }
  return sum / static_cast<float>(a.size());
}

void run(Session& session, SnakeSession& snakes, int frames) {
  for (int i = 0; i < frames; ++i) {
    session.advanceFrame();
    snakes.advanceFrame();
  }
}

}  // namespace

TEST_CASE("start-up snakes keep their own force (SPEC@FORCE)") {
  const app::Options o = uOptions({"--snake", "circle:32,32,20@traditional", "--snake",
                                   "circle:32,32,24", "--snake-force", "gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  REQUIRE(snakes.contours().size() == 2);
  CHECK(snakes.contours()[0].force == SnakeForce::Traditional);
  CHECK(snakes.contours()[1].force == SnakeForce::Gvf);
  CHECK(snakes.selectedId() == snakes.contours()[0].id);  // the first one is selected
}

TEST_CASE("snakes wait until the field is solved to its target, then move") {
  const app::Options o = app::parseOptions(
      {"--phantom", "u", "--phantom-size", "64", "--snake", "circle:32,32,27@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  REQUIRE(session.fieldWatch().target() == doctest::Approx(1e-6));  // the default target
  run(session, snakes, 3);
  CHECK_FALSE(session.fieldReady());
  CHECK(snakes.waitingForField());
  CHECK(snakes.contours()[0].iterations == 0);  // not one step on an unfinished field
  int frames = 3;
  for (; frames < 5000 && !session.fieldReady(); ++frames) run(session, snakes, 1);
  REQUIRE(session.fieldReady());
  CHECK(session.epsilon() <= 1e-6);
  MESSAGE("field done after " << frames << " frames, " << session.iterations() << " iterations");
  run(session, snakes, 3);
  CHECK_FALSE(snakes.waitingForField());
  CHECK(snakes.contours()[0].iterations > 0);

  // A new μ is a new field: the snakes wait again; unticking the box lets them go.
  session.setMu(0.1);
  run(session, snakes, 1);
  const long before = snakes.contours()[0].iterations;
  CHECK(snakes.waitingForField());
  snakes.setWaitForField(false);
  run(session, snakes, 2);
  CHECK(snakes.contours()[0].iterations > before);
}

TEST_CASE("with a fixed --iterations (a demo's count) the snakes start after that many") {
  // The demos give Euler 1500 iterations and no target: the viewer must not wait for 1e-6,
  // which Euler reaches only after many thousands (the lesson sat still), but for the count,
  // as the headless run does (field_solve.hpp's rule, through app::fieldSolvePlan).
  const app::Options o =
      app::parseOptions({"--phantom", "u", "--phantom-size", "64", "--iterations", "60",
                         "--steps-per-frame", "20", "--snake", "circle:32,32,27@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  REQUIRE(session.fieldIterations() == 60);
  run(session, snakes, 2);  // 40 field iterations: not yet
  CHECK(session.iterations() < 60);
  CHECK(snakes.waitingForField());
  CHECK(snakes.contours()[0].iterations == 0);
  run(session, snakes, 3);  // past 60: the snakes move, far above 1e-6
  CHECK(session.iterations() >= 60);
  CHECK(session.epsilon() > 1e-6);
  CHECK_FALSE(snakes.waitingForField());
  CHECK(snakes.contours()[0].iterations > 0);
}

TEST_CASE("Compare adds a twin with the other force from the same starting contour") {
  const app::Options o = uOptions({"--snake", "polygon:14,12,50,12,50,52,14,52@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  run(session, snakes, 5);  // the original moves away from its start
  REQUIRE(snakes.contours().size() == 1);
  const SnakeContour original = snakes.contours()[0];
  REQUIRE(original.iterations > 0);

  const int twin = snakes.compare(original.id);
  REQUIRE(snakes.contours().size() == 2);
  const SnakeContour& a = snakes.contours()[0];
  const SnakeContour& b = snakes.contours()[1];
  CHECK(b.id == twin);
  // The original keeps its number and the selection: the field shown stays its force's.
  CHECK(a.id == original.id);
  CHECK(snakes.selectedId() == original.id);
  CHECK(snakes.shownForce() == SnakeForce::Gvf);
  CHECK(a.force == SnakeForce::Gvf);
  CHECK(b.force == SnakeForce::Traditional);
  // Both start again from the original's starting contour, at iteration 0.
  CHECK(largestGap(a.initial, original.initial) < 1e-4f);
  CHECK(largestGap(b.initial, original.initial) < 1e-4f);
  CHECK(largestGap(b.points, original.initial) < 1e-4f);
  CHECK(a.iterations == 0);
  CHECK(b.iterations == 0);
  // One undo takes the comparison back.
  CHECK(snakes.undo());
  CHECK(snakes.contours().size() == 1);

  // A twin of the twin has GVF again; a missing snake is a sentence, not a crash.
  snakes.redo();
  CHECK(snakes.contours()[1].force == SnakeForce::Traditional);
  CHECK(snakes.contours()[0].id == original.id);  // numbers survive undo and redo
  CHECK(snakes.contours()[1].id == twin);
  CHECK_THROWS_AS(snakes.compare(9999), ParameterError);
}

TEST_CASE("the field layers show the selected snake's force") {
  const app::Options o =
      uOptions({"--snake", "circle:32,32,20@gvf", "--snake", "circle:32,32,20@traditional"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  run(session, snakes, 3);
  const int gvfId = snakes.contours()[0].id, tradId = snakes.contours()[1].id;
  const auto gradF = readField(session, session.planeInput().v0);  // the edge map's gradient
  const auto gvf = readField(session, session.planeField());
  REQUIRE(gradF != gvf);

  snakes.select(tradId);
  CHECK(snakes.shownForce() == SnakeForce::Traditional);
  CHECK(readField(session, snakes.forceField(snakes.shownForce())) == gradF);
  snakes.select(gvfId);
  CHECK(snakes.shownForce() == SnakeForce::Gvf);
  CHECK(readField(session, snakes.forceField(snakes.shownForce())) == gvf);
  // The selected snake's own force, changed in the panel, changes the field shown.
  snakes.setForce(gvfId, SnakeForce::Traditional);
  CHECK(snakes.shownForce() == SnakeForce::Traditional);
  // Without a selection: the force of new snakes.
  snakes.select(0);
  snakes.setNewForce(SnakeForce::Gvf);
  CHECK(snakes.shownForce() == SnakeForce::Gvf);
}

TEST_CASE("replay (R) puts the field and every snake back to the start") {
  const app::Options o =
      uOptions({"--snake", "circle:32,32,26@gvf", "--snake", "circle:32,32,26@traditional"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  run(session, snakes, 6);
  REQUIRE(session.iterations() > 0);
  for (const auto& c : snakes.contours()) REQUIRE(c.iterations > 0);
  REQUIRE(meanDistance(snakes.contours()[0].points, snakes.contours()[0].initial) > 0.5f);

  replay(session, snakes);
  CHECK(session.iterations() == 0);
  for (const auto& c : snakes.contours()) {
    CHECK(c.iterations == 0);
    CHECK(c.state == SnakeState::Moving);
    CHECK(largestGap(c.points, c.initial) < 1e-4f);
  }
}

TEST_CASE("replay (R) starts each snake's progress plot again") {
  const app::Options o = uOptions({"--snake", "circle:32,32,26@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  run(session, snakes, 6);
  const int id = snakes.contours()[0].id;
  REQUIRE(snakes.progress(id).size() >= 5);
  replay(session, snakes);
  CHECK(snakes.progress(id).empty());  // no old curve, no line back to the origin
  run(session, snakes, 2);
  REQUIRE_FALSE(snakes.progress(id).empty());
  // Its iterations only grow: the new run's curve alone.
  for (std::size_t i = 1; i < snakes.progress(id).size(); ++i)
    CHECK(snakes.progress(id)[i][0] > snakes.progress(id)[i - 1][0]);
  CHECK(snakes.progress(id).front()[0] <= snakes.frameIterations());
}

TEST_CASE("snake numbers stay with their snakes: Compare, undo, delete, a sigma change") {
  const app::Options o = uOptions({"--snake", "circle:20,20,8@gvf", "--snake", "circle:44,44,8@gvf",
                                   "--snake", "circle:20,44,8@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  const auto numbers = [&] {
    std::vector<int> ids;
    for (const auto& c : snakes.contours()) ids.push_back(c.id);
    return ids;
  };
  REQUIRE(numbers() == std::vector<int>{1, 2, 3});
  snakes.remove(2);
  CHECK(numbers() == std::vector<int>{1, 3});
  const int twin = snakes.compare(1);  // 1 starts again, its twin gets a new number
  CHECK(twin == 4);
  snakes.select(3);
  snakes.undo();
  CHECK(numbers() == std::vector<int>{1, 3});
  CHECK(snakes.selectedId() == 3);  // the selection stays with its snake
  snakes.undo();
  CHECK(numbers() == std::vector<int>{1, 2, 3});
  session.setSigma(1.5);  // rebuilds the snakes on the new edge map
  run(session, snakes, 1);
  CHECK(numbers() == std::vector<int>{1, 2, 3});
  snakes.setForce(3, SnakeForce::Traditional);  // edits reach the right snake
  CHECK(snakes.contours()[2].force == SnakeForce::Traditional);
  CHECK(snakes.contours()[0].force == SnakeForce::Gvf);
}

TEST_CASE("Space pauses the field and the snakes; S steps both once") {
  const app::Options o = uOptions({"--snake", "circle:32,32,26@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  run(session, snakes, 2);
  REQUIRE(lessonRunning(session, snakes));
  toggleRunning(session, snakes);  // Space
  CHECK_FALSE(session.running());
  CHECK_FALSE(snakes.running());
  const long field = session.iterations(), snake = snakes.contours()[0].iterations;
  run(session, snakes, 3);
  CHECK(session.iterations() == field);  // nothing moves while paused
  CHECK(snakes.contours()[0].iterations == snake);

  stepOnce(session, snakes);  // S: one field iteration, one frame of snake iterations
  run(session, snakes, 1);
  CHECK(session.iterations() == field + 1);
  CHECK(snakes.contours()[0].iterations == snake + snakes.frameIterations());
  run(session, snakes, 2);  // and then still paused
  CHECK(session.iterations() == field + 1);
  CHECK(snakes.contours()[0].iterations == snake + snakes.frameIterations());

  toggleRunning(session, snakes);  // Space again: both run
  run(session, snakes, 1);
  CHECK(session.iterations() > field + 1);
  CHECK(snakes.contours()[0].iterations > snake + snakes.frameIterations());
  // With the snakes alone running (the panel's "evolve"), Space pauses everything.
  session.setRunning(false);
  REQUIRE(lessonRunning(session, snakes));
  toggleRunning(session, snakes);
  CHECK_FALSE(lessonRunning(session, snakes));
}

TEST_CASE("the volume demo opens on a slice across the cup's opening") {
  Session session(sessionStartup(uOptions()));
  SnakeSession snakes(session, app::SnakeOptions{});
  LayerSettings layers;
  applyDemo(app::findDemo("volume"), session, snakes, layers);
  REQUIRE(session.volumeSlices());
  CHECK(session.volumeSlices()->axis() == SliceAxis::Coronal);
  // The cup in section is a bowl, open on one side: unlike an axial slice's ring, it is not
  // its own mirror image top to bottom.
  const Image2D& image = session.image();
  float brightest = 0;
  for (float v : image.pixels) brightest = std::max(brightest, v);
  const auto lit = [&](int x, int y) {
    return image.pixels[static_cast<std::size_t>(y) * image.width + x] > 0.5f * brightest;
  };
  int shell = 0, mirrored = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (lit(x, y)) ++shell, mirrored += lit(x, image.height - 1 - y);
  REQUIRE(shell > 50);
  CHECK(mirrored < 0.6 * shell);
}

TEST_CASE("a session opened in the viewer restarts from its starting or current contours") {
  const app::Options o = uOptions({"--snake", "circle:32,32,26@traditional", "--pressure", "0.1"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  snakes.setPressure(snakes.contours()[0].id, 0.3);
  run(session, snakes, 6);
  LayerSettings layers;
  const app::SessionFile saved = captureSession(session, snakes, layers);
  const SnakeContour before = snakes.contours()[0];
  REQUIRE(meanDistance(before.points, before.initial) > 0.5f);

  restoreSession(saved, session, snakes, layers, app::SessionStart::Initial);
  REQUIRE(snakes.contours().size() == 1);
  const SnakeContour fromStart = snakes.contours()[0];
  CHECK(fromStart.force == SnakeForce::Traditional);
  CHECK(fromStart.ownPressure);
  CHECK(fromStart.pressure == doctest::Approx(0.3));
  CHECK(largestGap(fromStart.points, before.initial) < 1e-3f);

  restoreSession(saved, session, snakes, layers, app::SessionStart::Current);
  const SnakeContour resumed = snakes.contours()[0];
  CHECK(largestGap(resumed.initial, before.initial) < 1e-3f);  // keeps its start for R
  // The current contour (resampled again on the way in) is where it was, not the start.
  CHECK(meanDistance(resumed.points, before.points) < 0.5f);
  CHECK(meanDistance(resumed.points, before.initial) > 0.5f);
}

TEST_CASE("each demo loads into the viewer as its data says") {
  Session session(sessionStartup(uOptions()));
  SnakeSession snakes(session, app::SnakeOptions{});
  for (const app::Demo& demo : app::demos()) {
    CAPTURE(demo.name);
    const app::Options want = app::parseOptions(app::demoArgs(demo));
    LayerSettings layers;
    layers.showImage = false;
    layers.showMagnitude = !demo.layers.magnitude;
    layers.showGlyphs = !demo.layers.glyphs;
    layers.showStreamlines = !demo.layers.streamlines;
    snakes.showCapture = !demo.layers.capture;
    const DemoShown shown = applyDemo(demo, session, snakes, layers);
    CHECK(shown.title == demo.title);
    CHECK(shown.explanation == demo.explanation);
    CHECK(shown.regionSnake == want.regionSnake);
    // The image.
    if (want.image) {
      REQUIRE(session.imagePath());
      CHECK(session.imagePath()->string() == *want.image);
    } else {
      REQUIRE(session.phantomName());
      CHECK(*session.phantomName() == want.phantom.value_or("u"));
      CHECK(session.phantomSize() == want.phantomSize);
    }
    // The parameters.
    CHECK(session.requestedMu() == doctest::Approx(want.gvf.mu));
    // Its own μ is valid for its solver: no warning (the surface demo's was clamped for Euler).
    if (want.solverGiven) CHECK(session.solverChoice().kind == want.solver);
    CHECK(session.notice().kind != Notice::Kind::MuClamped);
    // σ as the demo gives it, or from the image's noise where it gives none (noise_sigma.hpp).
    CHECK(session.sigmaFromNoise() == want.gvf.sigmaFromNoise);
    if (!want.gvf.sigmaFromNoise) CHECK(session.sigma() == doctest::Approx(want.gvf.sigma));
    CHECK(session.sigma() == doctest::Approx(session.sigmaChoice().sigma));
    CHECK(snakes.params().alpha == doctest::Approx(want.snakes.params.alpha));
    CHECK(snakes.params().beta == doctest::Approx(want.snakes.params.beta));
    // The snakes, each with its force.
    REQUIRE(snakes.contours().size() == want.snakes.snakes.size());
    for (std::size_t i = 0; i < want.snakes.snakes.size(); ++i)
      CHECK(snakes.contours()[i].force == want.snakes.snakes[i].forceOr(want.snakes.force));
    // The layers.
    CHECK(layers.showImage);
    CHECK(layers.showMagnitude == demo.layers.magnitude);
    CHECK(layers.showGlyphs == demo.layers.glyphs);
    CHECK(layers.showStreamlines == demo.layers.streamlines);
    CHECK(snakes.showCapture == demo.layers.capture);
  }
}

TEST_CASE("--demo in the viewer: the demo's layers, and its --iterations stays headless") {
  const ViewerStartup v = viewerStartup(app::parseOptions({"--demo", "capture-range"}));
  const app::Demo& demo = app::findDemo("capture-range");
  REQUIRE(v.window.demo);
  CHECK(*v.window.demo == "capture-range");
  CHECK(v.window.layers.showMagnitude == demo.layers.magnitude);
  CHECK(v.window.layers.showGlyphs == demo.layers.glyphs);
  CHECK_FALSE(v.window.rememberLayers);
  CHECK_FALSE(v.session.fixedIterationsPerFrame);  // the viewer keeps its frame budget
  CHECK(v.snakes.snakes.size() == 16);
  // A user's --iterations after the demo is per frame, as without a demo.
  const ViewerStartup mine =
      viewerStartup(app::parseOptions({"--demo", "u-concavity", "--iterations", "40"}));
  REQUIRE(mine.session.fixedIterationsPerFrame);
  CHECK(*mine.session.fixedIterationsPerFrame == 40);
}

TEST_CASE("a sigma, V0 or mu change starts the snakes again from their starts, as R does") {
  const app::Options o = uOptions({"--snake", "circle:32,32,27@gvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  snakes.setRunning(true);
  const std::vector<glm::vec2> start = snakes.contours()[0].points;
  auto moved = [&] {
    run(session, snakes, 4);
    REQUIRE(snakes.contours()[0].iterations > 0);
  };
  auto restarted = [&] {
    snakes.followImage();
    CHECK(snakes.contours()[0].iterations == 0);
    CHECK(largestGap(snakes.contours()[0].points, start) < 1e-4f);
  };
  moved();
  session.setSigma(2.0);
  restarted();
  moved();
  session.setV0Mode(V0Mode::ImageGradient);
  restarted();
  moved();
  session.setMu(0.1);
  restarted();
  // Nothing changed: they go on.
  moved();
  const long before = snakes.contours()[0].iterations;
  snakes.followImage();
  CHECK(snakes.contours()[0].iterations == before);
}

TEST_CASE("a force parameter change gives the force's new field and tells the view to copy it") {
  // Before, the view copied a field only when the solve or the shown force changed: after a new
  // GGVF K it kept showing the old field (issue 43).
  const app::Options o = uOptions({"--snake", "circle:32,32,27@ggvf"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  run(session, snakes, 2);
  REQUIRE(snakes.shownForce() == SnakeForce::Ggvf);
  const std::vector<float> before = readField(session, snakes.forceField(SnakeForce::Ggvf));
  const long version = snakes.forcesVersion(), field = session.fieldVersion();
  ForceParams p = snakes.forceParams();
  p.ggvf.k = 1.0;
  snakes.setForceParams(p);
  CHECK(snakes.forcesVersion() != version);
  CHECK(session.fieldVersion() == field);  // the solve alone would not copy it again
  const std::vector<float> after = readField(session, snakes.forceField(SnakeForce::Ggvf));
  double change = 0;
  for (std::size_t i = 0; i < after.size(); ++i) change += std::abs(after[i] - before[i]);
  CHECK(change > 1.0);
}

TEST_CASE("a demo's surfaces get its force parameters, as its snakes do") {
  // Before, the surface session kept its own (default) K and VFC radius under a demo's.
  Session session(sessionStartup(uOptions()));
  SnakeSession snakes(session, app::SnakeOptions{});
  SurfaceSession surfaces(session, {});
  LayerSettings layers;
  app::Demo demo = app::findDemo("surface");
  demo.args.insert(demo.args.end(), {"--ggvf-k", "0.3", "--vfc-radius", "7", "--surface",
                                     "sphere:32,32,32,29@ggvf"});
  applyDemo(demo, session, snakes, layers, &surfaces);
  surfaces.advanceFrame();  // builds the surfaces and their fields on the demo's volume
  REQUIRE(surfaces.surfaces().size() == 3);
  CHECK(surfaces.surfaces()[2].force == SnakeForce::Ggvf);
  CHECK(surfaces.forceParams().ggvf.k == doctest::Approx(0.3));
  CHECK(surfaces.forceParams().vfc.radius == 7);
  CHECK(snakes.forceParams().ggvf.k == doctest::Approx(0.3));
}
