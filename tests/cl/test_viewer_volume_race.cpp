// The viewer's Session with both solvers and with volumes (slices of the 3D field, refusals
// that leave the session running), and the race on real solvers: the same OpenCL time each,
// multigrid ahead in ε and capture range at equal time (the multigrid paper's Figs. 6, 7).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/surface_spec.hpp"
#include "gvflab/error.hpp"
#include "gvflab/field_slice.hpp"
#include "gvflab/slice_reference.hpp"
#include "viewer/model/race_session.hpp"
#include "viewer/model/session.hpp"
#include "viewer/modes/race_mode.hpp"
#include "viewer/ui/error_log.hpp"
#include "viewer/window/viewer_startup.hpp"
#include "volume_support.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

app::Options smallPhantom() {
  app::Options o;
  o.phantomSize = 64;
  return o;
}

std::vector<float> readPlane(Session& s) {
  const GvfInput& p = s.planeInput();
  std::vector<float> out(static_cast<std::size_t>(p.width) * p.height * 2);
  s.context().queue().enqueueReadBuffer(s.planeField(), CL_TRUE, 0, out.size() * sizeof(float),
                                        out.data());
  return out;
}

// A uchar 3D MetaImage of the ball volume, written by hand (the loader must read it).
std::filesystem::path writeBall(const std::string& name, int w, int h, int d) {
  Volume v = test::ballVolumeOf(w, h, d);
  auto path = test::scratchDir("viewer_volume") / name;
  std::ofstream out(path, std::ios::binary);
  out << "ObjectType = Image\nNDims = 3\nDimSize = " << w << " " << h << " " << d
      << "\nElementType = MET_UCHAR\nElementDataFile = LOCAL\n";
  for (float x : v.voxels) out.put(static_cast<char>(x > 0.5f ? 200 : 20));
  return path;
}

}  // namespace

TEST_CASE("a volume opens in 3D and each slice shows the field's in-plane components") {
  Session s(sessionStartup(smallPhantom()));
  const auto path = writeBall("ball.mha", 24, 20, 14);
  s.openFile(path);
  REQUIRE(s.isVolume());
  CHECK(s.input().depth == 14);
  CHECK(s.solver().depth() == 14);
  CHECK(s.imageName() == "ball.mha");
  // The middle axial slice to start with.
  CHECK(s.volumeSlices()->axis() == SliceAxis::Axial);
  CHECK(s.volumeSlices()->index() == 7);
  CHECK(s.image().width == 24);
  CHECK(s.image().height == 20);
  for (int i = 0; i < 3; ++i) s.advanceFrame();
  REQUIRE(s.iterations() > 0);

  const Field3D field = s.solver().readField3D();
  reference::Field ref{field.width, field.height,
                       std::vector<double>(field.data.begin(), field.data.end()), field.depth};
  for (auto [axis, index] : {std::pair{SliceAxis::Axial, 7}, std::pair{SliceAxis::Coronal, 0},
                             std::pair{SliceAxis::Sagittal, 23}}) {
    CAPTURE(sliceAxisName(axis));
    const long imageVersion = s.imageVersion();
    s.setSlice(axis, index);
    if (!(axis == SliceAxis::Axial && index == 7)) CHECK(s.imageVersion() > imageVersion);
    const PlaneSize p = planeSize(24, 20, 14, axis);
    CHECK(s.planeInput().width == p.width);
    CHECK(s.planeInput().height == p.height);
    CHECK(s.image().width == p.width);
    reference::Field expected = reference::sliceField(ref, axis, index);
    std::vector<float> got = readPlane(s);
    REQUIRE(got.size() == expected.values.size());
    CHECK(test::maxAbsDiff(got, expected.values) == 0.0);
  }
  // The field moves on; the slice follows.
  s.advanceFrame();
  const Field3D later = s.solver().readField3D();
  reference::Field refLater{later.width, later.height,
                            std::vector<double>(later.data.begin(), later.data.end()), 14};
  CHECK(test::maxAbsDiff(readPlane(s),
                         reference::sliceField(refLater, SliceAxis::Sagittal, 23).values) == 0.0);

  // A bad index is refused; the slice stays.
  CHECK_THROWS_AS(s.setSlice(SliceAxis::Sagittal, 24), ParameterError);
  CHECK(s.volumeSlices()->index() == 23);
  // σ rebuilds the 3D input and keeps the slice the user chose.
  s.setSigma(1.5);
  CHECK(s.volumeSlices()->axis() == SliceAxis::Sagittal);
  CHECK(s.volumeSlices()->index() == 23);
  // Back to an image: 2D again.
  s.openPhantom("u", 32);
  CHECK_FALSE(s.isVolume());
  CHECK(s.planeInput().depth == 1);
}

TEST_CASE("the multigrid solver in 3D and its slices") {
  Session s(sessionStartup(smallPhantom()));
  s.setSolverKind(SolverKind::Multigrid);
  s.setVolume(test::ballVolumeOf(17, 15, 9), "ball");
  REQUIRE(s.solver().name() == "multigrid");
  s.advanceFrame();
  CHECK(s.iterations() == 1);
  s.setSlice(SliceAxis::Coronal, 3);
  const Field3D field = s.solver().readField3D();
  reference::Field ref{17, 15, std::vector<double>(field.data.begin(), field.data.end()), 9};
  CHECK(test::maxAbsDiff(readPlane(s), reference::sliceField(ref, SliceAxis::Coronal, 3).values) ==
        0.0);
}

TEST_CASE("a volume the device or the engine cannot take is refused; the session runs on") {
  Session s(sessionStartup(smallPhantom()));
  s.advanceFrame();
  const long iterations = s.iterations();
  ErrorLog errors;
  // Wider than the engine's 3D limit: refused with a sentence, nothing changes.
  CHECK_FALSE(
      errors.guard("Opening 'wide.mha'", [&] { s.setVolume(Volume(4097, 2, 2), "wide.mha"); }));
  REQUIRE(errors.messages().size() == 1);
  MESSAGE(errors.messages().front());
  CHECK(errors.messages().front().find("4096") != std::string::npos);
  CHECK_FALSE(s.isVolume());
  CHECK(s.iterations() == iterations);
  s.advanceFrame();
  CHECK(s.iterations() > iterations);

  // Beyond the device's memory: the up-front check names the size and the device's limit.
  try {
    checkFits(s.context(), FieldShape{4096, 4096, 4096}, s.solverChoice());
    FAIL("a 4096^3 solve was not refused");
  } catch (const ResourceError& e) {
    const std::string m = e.what();
    MESSAGE(m);
    CHECK(m.find("4096x4096x4096") != std::string::npos);
    CHECK(m.find(s.device().name) != std::string::npos);
  }
}

TEST_CASE("the panel asks the solver what it has, not which class it is") {
  Session s(sessionStartup(smallPhantom()));
  // Euler: a memory kind, no settings of its own, no breakdown; its report keys.
  Solver& euler = s.solver();
  REQUIRE(euler.memoryKind().has_value());
  CHECK(s.memory() == *euler.memoryKind());
  CHECK(euler.ownParams().empty());
  CHECK_THROWS_AS(s.setSolverParams({1}), ParameterError);
  CHECK(euler.structure().empty());
  CHECK(euler.deviceBytes() > 0);
  REQUIRE(findFact(euler.facts(), "memory") != nullptr);
  CHECK(findFact(euler.facts(), "device_bytes") != nullptr);
  CHECK(findFact(euler.facts(), "levels") == nullptr);
  // Multigrid: a, b, c, cycle from its ParamSpec table, its levels, one timing row per level.
  s.setSolverKind(SolverKind::Multigrid);
  Solver& mg = s.solver();
  CHECK_FALSE(mg.memoryKind().has_value());
  REQUIRE(mg.ownParams().size() == 4);
  CHECK(mg.ownParams()[0].key == "mg-a");
  CHECK(mg.ownParams()[3].key == "mg-cycle");
  CHECK(mg.ownParamValues() == std::vector<double>{1, 2, 2, 0});
  REQUIRE(findFact(mg.facts(), "mg_cycle") != nullptr);  // auto, resolved: 2D
  CHECK(std::get<std::string>(findFact(mg.facts(), "mg_cycle")->value) == "fmg");
  const std::vector<SolverFact> facts = mg.facts();
  const SolverFact* levels = findFact(facts, "levels");
  REQUIRE(levels != nullptr);
  CHECK(mg.structure() == std::to_string(std::get<std::int64_t>(levels->value)) + " levels");
  s.advanceFrame();
  const auto rows = mg.timingRows();
  REQUIRE_FALSE(rows.empty());
  CHECK(rows.front().label == "0");
  CHECK(rows.front().size == "64x64");
}

TEST_CASE("a start-up file that cannot be opened leaves the phantom and a message") {
  app::Options o = smallPhantom();
  o.image = (test::scratchDir("viewer_missing") / "nothing_here.nii.gz").string();
  Session s(sessionStartup(o));
  CHECK(s.imageName() == "phantom 'u'");
  CHECK(s.startupError().find("nothing_here.nii.gz") != std::string::npos);
}

TEST_CASE("the start's surfaces count in the fit check, as a headless run's") {
  // A 20 MiB device (read when the context opens) takes the 64^3 field (about 14 MB) but not
  // four surfaces at their vertex budgets beside it: the volume is refused before its field
  // is built, naming them, and the phantom stands in; without the surfaces it opens.
  setenv("GVFLAB_TEST_DEVICE_MIB", "20", 1);
  app::Options o = smallPhantom();
  o.image = writeBall("fit.mha", 64, 64, 64).string();
  o.snakes.surfaces.assign(4, app::parseSurfaceSpec("sphere:32,32,32,12"));
  Session refused(sessionStartup(o));
  o.snakes.surfaces.clear();
  Session opened(sessionStartup(o));
  unsetenv("GVFLAB_TEST_DEVICE_MIB");
  MESSAGE(refused.startupError());
  CHECK(refused.imageName() == "phantom 'u'");
  CHECK(refused.startupError().find("4 surfaces") != std::string::npos);
  CHECK(opened.isVolume());
}

TEST_CASE("the solver choice: Euler's bound on mu, multigrid's a, b, c, cycle") {
  Session s(sessionStartup(smallPhantom()));
  REQUIRE(s.solver().name() == "euler");
  const double bound = s.muBound();
  s.setSolverKind(SolverKind::Multigrid);
  CHECK(s.solver().name() == "multigrid");
  CHECK(s.muBound() > bound);  // no stability bound
  s.setMu(0.9 * s.muBound());
  CHECK(s.notice().empty());
  CHECK(s.solver().mu() == doctest::Approx(0.9 * s.muBound()));
  s.setSolverParams({2, 3, 1, kCycleTwoGrid});
  CHECK(s.solver().ownParamValues() == std::vector<double>{2, 3, 1, kCycleTwoGrid});
  CHECK_THROWS_AS(s.setSolverParams({1, 0, 0, 1}), ParameterError);
  CHECK_THROWS_AS(s.setSolverParams({1, 2, 2, 4}), ParameterError);  // cycle is 0-3
  CHECK_THROWS_AS(s.setSolverParams({1, 2, 2}), ParameterError);
  CHECK(s.solver().ownParamValues() == std::vector<double>{2, 3, 1, kCycleTwoGrid});
  CHECK(s.solverChoice().b == 3);
  CHECK(s.solverChoice().cycle == kCycleTwoGrid);
  CHECK(std::get<std::string>(findFact(s.solver().facts(), "mg_cycle")->value) == "twogrid");
  s.advanceFrame();
  CHECK(s.iterations() == s.iterationsPerFrame());
  // Back to Euler: μ is clamped to its bound, and the session says so.
  s.setSolverKind(SolverKind::Euler);
  REQUIRE(s.solver().name() == "euler");
  CHECK(s.mu() == doctest::Approx(bound));
  CHECK(s.notice().kind == Notice::Kind::MuClamped);
  CHECK(s.notice().text.find("stability bound") != std::string::npos);
  CHECK(s.iterations() == 0);
}

TEST_CASE("the race charges each lane its measured OpenCL time, at any speed") {
  // Real kernels, real event times; only what holds however long they take (on a loaded
  // machine one Euler iteration took 43.6 ms of a 3 ms budget): each chunk is charged what
  // was measured, the time not spent (or overspent) is carried, and the curves follow. The
  // second pass makes every chunk 20 times slower, as such a load would.
  for (const double slowdown : {1.0, 20.0}) {
    CAPTURE(slowdown);
    app::Options o;
    o.phantom = "room";
    o.phantomSize = 64;
    Session s(sessionStartup(o));
    RaceSession race(s);
    race.budgetMs = 3;
    std::array<double, 2> charged = {0, 0};
    std::array<long, 2> stepped = {0, 0};
    race.chargeMs = [&](int lane, int n, double ms) {
      CHECK(ms >= 0);
      charged[lane] += slowdown * ms;
      stepped[lane] += n;
      return slowdown * ms;
    };
    const int frames = 4;
    for (int f = 0; f < frames; ++f) race.advanceFrame();
    for (int i = 0; i < 2; ++i) {
      const RaceLane& lane = race.lane(i);
      CAPTURE(lane.solver->name());
      CHECK(lane.solver->iterations() >= 1);  // the first frame always steps once, to measure
      CHECK(lane.solver->iterations() == stepped[i]);
      CHECK(lane.budget.totalMs() == doctest::Approx(charged[i]));
      CHECK(lane.budget.totalMs() + lane.budget.creditMs() ==
            doctest::Approx(frames * race.budgetMs));
      CHECK(lane.curve.back().ms == lane.budget.totalMs());
      CHECK(lane.curve.back().iterations == lane.solver->iterations());
      for (std::size_t k = 1; k < lane.curve.size(); ++k)
        CHECK(lane.curve[k].ms >= lane.curve[k - 1].ms);
    }
  }
}

TEST_CASE("the race on a logical clock: the same time each, multigrid ahead at equal time") {
  // The room: a wide box with a door, so the field must diffuse far to fill it.
  app::Options o;
  o.phantom = "room";
  o.phantomSize = 256;
  Session s(sessionStartup(o));
  RaceSession race(s);
  CHECK(race.lane(RaceSession::kEuler).solver->name() == "euler");
  CHECK(race.lane(RaceSession::kMultigrid).solver->name() == "multigrid");
  // Each iteration costs a fixed logical time, so the schedule is the same on any machine
  // under any load. The costs are PoCL's on the 2-core development machine at 256^2 (0.33 and
  // 7.55 ms measured; the message below prints this machine's).
  const std::array<double, 2> msPerIteration = {0.33, 7.5};
  std::array<double, 2> measured = {0, 0};  // for the message only: no time is asserted
  race.chargeMs = [&](int lane, int n, double ms) {
    measured[lane] += ms;
    return n * msPerIteration[lane];
  };
  race.budgetMs = 3;
  const int frames = 8;
  for (int f = 0; f < frames; ++f) race.advanceFrame();
  const RaceLane& e = race.lane(RaceSession::kEuler);
  const RaceLane& m = race.lane(RaceSession::kMultigrid);
  const double target = frames * race.budgetMs;
  MESSAGE("Euler " << e.solver->iterations() << " iterations, " << e.budget.totalMs() << " ms, eps "
                   << e.epsilon << "; multigrid " << m.solver->iterations() << " iterations, "
                   << m.budget.totalMs() << " ms, eps " << m.epsilon << "; measured OpenCL ms "
                   << "per iteration: Euler " << measured[0] / e.solver->iterations()
                   << ", multigrid " << measured[1] / m.solver->iterations());
  // With exact costs the budget rule is exact: within one iteration of frames x budget.
  CHECK(std::abs(e.budget.totalMs() - target) <= msPerIteration[0]);
  CHECK(std::abs(m.budget.totalMs() - target) <= msPerIteration[1]);
  CHECK(e.budget.totalMs() == doctest::Approx(e.solver->iterations() * msPerIteration[0]));
  CHECK(m.budget.totalMs() == doctest::Approx(m.solver->iterations() * msPerIteration[1]));
  CHECK(e.solver->iterations() > m.solver->iterations());
  CHECK(m.epsilon < e.epsilon);
  // The curves start at V0 (time 0, the same ε) and only move forward in time.
  REQUIRE(e.curve.size() >= 2);
  CHECK(e.curve.front().ms == 0);
  CHECK(e.curve.front().epsilon == doctest::Approx(m.curve.front().epsilon));
  for (std::size_t i = 1; i < e.curve.size(); ++i) CHECK(e.curve[i].ms > e.curve[i - 1].ms);

  // Whole maps of both fields, the reference for the bands below.
  const CaptureParams params = CaptureParams::defaults();
  CaptureRange whole(s.sharedContext(), s.planeInput());
  const long eulerArea = whole.compute(race.planeField(RaceSession::kEuler), params);
  const long multigridArea = whole.compute(race.planeField(RaceSession::kMultigrid), params);
  MESSAGE("capture areas: Euler " << eulerArea << ", multigrid " << multigridArea);
  CHECK(multigridArea > eulerArea);
  CHECK(eulerArea > 0);
  CHECK(e.captureArea == -1);  // none asked for yet

  // The same maps in bands over frames (no frame carries a whole map), from copies of both
  // fields taken at the start: the lanes step on meanwhile and the areas are still those of
  // the fields at the start. A tiny target per call: bands of the fewest rows.
  race.beginCapture(params);
  CHECK(race.capturing());
  int calls = 1;
  bool eulerFirst = false;
  CHECK_FALSE(race.continueCapture(1e-9));
  race.advanceFrame();  // both fields move on
  race.advanceFrame();
  while (!race.continueCapture(1e-9)) {
    ++calls;
    if (e.captureArea >= 0 && m.captureArea < 0) eulerFirst = true;
    REQUIRE(calls < 1000);
  }
  MESSAGE("capture in bands: " << calls << " calls");
  CHECK(calls > 2);
  CHECK(eulerFirst);
  CHECK_FALSE(race.capturing());
  CHECK(e.captureArea == eulerArea);
  CHECK(m.captureArea == multigridArea);

  race.reset();
  CHECK(e.solver->iterations() == 0);
  CHECK(e.curve.size() == 1);
  CHECK(e.budget.totalMs() == 0);
}

TEST_CASE("--race-budget sets the race's OpenCL time; --stats prints both curves") {
  app::Options o = app::parseOptions({"--race", "--race-budget", "1.5", "--phantom-size", "64"});
  const ViewerStartup v = viewerStartup(o);
  CHECK(v.raceBudgetMs == 1.5);
  Session s(v.session);
  RaceMode mode(s, v.race, v.raceBudgetMs);
  REQUIRE(mode.enabled());
  ErrorLog errors;
  for (int f = 0; f < 3; ++f) mode.advance(errors);
  CHECK(errors.messages().empty());
  REQUIRE(mode.race()->budgetMs == 1.5);
  std::ostringstream out;
  mode.printStats(out);
  const std::string text = out.str();
  CHECK(text.rfind("race: 1.5 ms of OpenCL time per solver per frame", 0) == 0);
  // One line a point of each curve: solver, cumulative OpenCL ms, epsilon, iterations.
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  std::size_t counted[2] = {0, 0};
  double lastMs[2] = {-1, -1};
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string tag, solver;
    double ms = -1, eps = -1;
    long its = -1;
    REQUIRE((f >> tag >> solver >> ms >> eps >> its));
    CHECK(tag == "race");
    const int lane = solver == "euler" ? 0 : 1;
    CHECK((solver == "euler" || solver == "multigrid"));
    CHECK(ms > lastMs[lane]);
    CHECK(eps > 0);
    lastMs[lane] = ms;
    ++counted[lane];
  }
  CHECK(counted[0] == mode.race()->lane(RaceSession::kEuler).curve.size());
  CHECK(counted[1] == mode.race()->lane(RaceSession::kMultigrid).curve.size());
  CHECK(counted[0] >= 2);
  // Without --race-budget: the device's default (20 ms on a CPU, 2 on a GPU).
  RaceMode plain(s, false);
  plain.setEnabled(true, errors);
  REQUIRE(plain.race());
  CHECK(plain.race()->budgetMs == (s.device().isGpu ? 2.0 : 20.0));
}

TEST_CASE("the race on a volume shows the slice of both 3D fields") {
  Session s(sessionStartup(smallPhantom()));
  s.setVolume(test::ballVolumeOf(20, 18, 12), "ball");
  s.setSlice(SliceAxis::Coronal, 9);
  RaceSession race(s);
  race.budgetMs = 5;
  race.advanceFrame();
  for (int i = 0; i < 2; ++i) {
    const RaceLane& lane = race.lane(i);
    REQUIRE(lane.solver->depth() == 12);
    const Field3D field = lane.solver->readField3D();
    reference::Field ref{20, 18, std::vector<double>(field.data.begin(), field.data.end()), 12};
    reference::Field expected = reference::sliceField(ref, SliceAxis::Coronal, 9);
    std::vector<float> got(expected.values.size());
    s.context().queue().enqueueReadBuffer(race.planeField(i), CL_TRUE, 0,
                                          got.size() * sizeof(float), got.data());
    CHECK(test::maxAbsDiff(got, expected.values) == 0.0);
  }
}

TEST_CASE("the race counts its solvers' iterations for --stats (not 0 GVF iterations/s)") {
  app::Options o = app::parseOptions({"--race", "--phantom-size", "64"});
  const ViewerStartup v = viewerStartup(o);
  Session s(v.session);
  RaceMode mode(s, v.race, 1.0);
  ErrorLog errors;
  long counted = 0;
  for (int f = 0; f < 3; ++f) {
    mode.advance(errors);
    counted += mode.frameIterations();
  }
  REQUIRE(errors.messages().empty());
  const long ran = mode.race()->lane(RaceSession::kEuler).solver->iterations() +
                   mode.race()->lane(RaceSession::kMultigrid).solver->iterations();
  CHECK(ran > 0);
  CHECK(counted == ran);
  RaceMode off(s, false);
  off.advance(errors);
  CHECK(off.frameIterations() == 0);
}
