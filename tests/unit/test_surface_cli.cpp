// --surface and --save-surfaces on the command line, their checks before a run, and sessions
// that keep surfaces (issue 30). The runs themselves: tests/cli/surface_outputs.py.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "cli/run_checks.hpp"
#include "cli/session_snakes.hpp"
#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/surface_mesh.hpp"
#include "io/run_outputs.hpp"
#include "io/session_file.hpp"
#include "io/surface_file.hpp"
#include "test_support.hpp"
#include "volume_support.hpp"

using namespace gvflab;
using namespace gvflab::app;

TEST_CASE("--surface parses spheres and boxes, each with its own force") {
  const Options o = parseOptions({"--surface", "sphere:10,12.5,8,5@traditional", "--surface",
                                  "box:9,2,3,1,8,7", "--save-surfaces", "out/s.ply"});
  REQUIRE(o.snakes.surfaces.size() == 2);
  const SurfaceSpec& s = o.snakes.surfaces[0];
  CHECK(s.shape == SurfaceSpec::Shape::Sphere);
  CHECK(s.centre == glm::dvec3(10, 12.5, 8));
  CHECK(s.radius == 5);
  CHECK(s.forceOr(SnakeForce::Gvf) == SnakeForce::Traditional);
  const SurfaceSpec& b = o.snakes.surfaces[1];
  CHECK(b.shape == SurfaceSpec::Shape::Box);
  CHECK(b.lo == glm::dvec3(1, 2, 3));  // corners in any order
  CHECK(b.hi == glm::dvec3(9, 8, 7));
  CHECK(!b.force);
  CHECK(*o.snakes.saveSurfaces == "out/s.ply");
  CHECK(surfaceFileName("out/s.ply", 2) == "out/s-2.ply");
}

TEST_CASE("bad --surface specifications give one short sentence showing the form") {
  const std::string huge(100000, '7');
  const std::vector<std::string> bad = {
      "sphere:1,2,3",        "sphere:1,2,3,0",   "sphere:1,2,3,-4",
      "sphere:1,x,3,4",      "ball:1,2,3,4",     "sphere",
      "sphere:1,,3,4",       "box:1,2,3,4,5",    "box:1,2,3,1,5,6",
      "sphere:1,2,3,4@snow", "sphere:1,2,3,4,5", "box:1,2,3,4,5,6,7",
      "sphere:1e99,2,3,4",   "sphere:" + huge,   huge,
      "sphere:nan,1,1,1"};
  for (const std::string& spec : bad) {
    CAPTURE(spec.substr(0, 40));
    try {
      parseOptions({"--surface", spec});
      FAIL("accepted");
    } catch (const ParameterError& e) {
      const std::string what = e.what();
      CHECK(what.rfind("--surface '", 0) == 0);
      CHECK(what.size() <= 300);
      CHECK(what.find('\n') == std::string::npos);
    }
  }
  CHECK_THROWS_WITH_AS(parseOptions({"--surface", "cube:1,2,3"}),
                       doctest::Contains("use sphere:X,Y,Z,R or box:X0,Y0,Z0,X1,Y1,Z1"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--save-surfaces", "s.vtk"}),
                       doctest::Contains(".ply, .obj or .stl"), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--save-surfaces", "a.ply", "--save-surfaces", "b.ply"}),
                  ParameterError);
  std::vector<std::string> many;
  for (int i = 0; i < 65; ++i) many.insert(many.end(), {"--surface", "sphere:8,8,8,4"});
  CHECK_THROWS_WITH_AS(parseOptions(many), doctest::Contains("at most 64"), ParameterError);
}

TEST_CASE("surfaces are refused before a run: 2D input, outside, too fine, no surfaces") {
  const auto dir = test::scratchDir("surface_run_checks");
  const auto volume = dir / "ball.mha";
  writeMetaImageVolume(volume, test::ballVolumeOf(24, 20, 16));
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"--headless", volume.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return checkHeadlessRun(parseOptions(args));
  };
  const auto out = (dir / "s.ply").string();
  CHECK_NOTHROW(run({"--surface", "sphere:10,10,8,5", "--surface", "box:2,2,2,20,18,14",
                     "--save-surfaces", out}));
  CHECK_THROWS_WITH_AS(run({"--surface", "sphere:20,10,8,6"}),
                       doctest::Contains("--surface 'sphere:20,10,8,6'"), ParameterError);
  CHECK_THROWS_WITH_AS(run({"--surface", "box:2,2,2,30,18,14"}),
                       doctest::Contains("outside the 24x20x16 volume"), ParameterError);
  // Too many vertices at the finest edges: refused from the numbers, before a mesh is built.
  const auto big = dir / "big.mha";
  writeMetaImageVolume(big, test::ballVolumeOf(100, 100, 100));
  CHECK_THROWS_WITH_AS(
      checkHeadlessRun(parseOptions({"--headless", big.string(), "--surface",
                                     "box:0,0,0,100,100,100", "--dmin", "0.1", "--dmax", "0.2"})),
      doctest::Contains("at most"), ParameterError);
  std::filesystem::remove(big);
  CHECK_THROWS_WITH_AS(run({"--save-surfaces", out}),
                       doctest::Contains("--save-surfaces needs at least one --surface"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(run({"--surface", "sphere:10,10,8,5", "--save-surfaces", out, "--report",
                            (dir / "s-1.ply").string()}),
                       doctest::Contains("same file"), ParameterError);
  CHECK_THROWS_WITH_AS(checkHeadlessRun(parseOptions(
                           {"--headless", "--phantom", "u", "--surface", "sphere:10,10,8,5"})),
                       doctest::Contains("is a 2D image"), ParameterError);
  CHECK_THROWS_WITH_AS(
      checkHeadlessRun(parseOptions(
          {"--headless", "--phantom", "u", "--region-snake", "--surface", "sphere:10,10,8,5"})),
      doctest::Contains("--region-snake"), ParameterError);
  std::filesystem::remove(volume);
  CHECK(std::filesystem::is_empty(dir));  // no check wrote anything
}

TEST_CASE("sessions keep surfaces' current and starting meshes and restart from either") {
  SessionFile f;
  f.image = "/data/cup.mha";
  SavedSurface a;
  a.force = SnakeForce::Traditional;
  a.pressure = -0.1;
  a.mesh = SurfaceMesh{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1.5f}},
                       {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}};
  a.initial = sphereMesh({8, 8, 8}, 4, 2);
  f.surfaces = {a};
  const std::string text = sessionToJson(f);
  const SessionFile back = sessionFromJson(text);
  REQUIRE(back.surfaces.size() == 1);
  CHECK(back.surfaces[0].force == SnakeForce::Traditional);
  CHECK(*back.surfaces[0].pressure == -0.1);
  CHECK(back.surfaces[0].mesh.vertices == a.mesh.vertices);
  CHECK(back.surfaces[0].mesh.faces == a.mesh.faces);
  CHECK(back.surfaces[0].initial.faces == a.initial.faces);

  Options current, initial;
  applySession(back, current);
  applySession(back, initial, SessionStart::Initial);
  REQUIRE(current.snakes.surfaces.size() == 1);
  CHECK(current.snakes.surfaces[0].mesh(current.snakes.params).vertices.size() == 4);
  CHECK(initial.snakes.surfaces[0].mesh(initial.snakes.params).vertices.size() ==
        a.initial.vertices.size());
  CHECK(current.snakes.surfaces[0].initial.vertices.size() == a.initial.vertices.size());
  CHECK(current.snakes.surfaces[0].forceOr(SnakeForce::Gvf) == SnakeForce::Traditional);

  // A 2D session has no "surfaces" member: its file is as before.
  SessionFile plain;
  plain.phantom = "u";
  CHECK(sessionToJson(plain).find("surfaces") == std::string::npos);
  // Malformed surfaces: one sentence naming the member.
  const auto refused = [](const std::string& surfaces, const std::string& what) {
    CAPTURE(surfaces);
    CHECK_THROWS_WITH_AS(
        sessionFromJson(R"({"gvflab_session": 1, "phantom": "u", "surfaces": )" + surfaces + "}"),
        doctest::Contains(what.c_str()), InputError);
  };
  const std::string v = R"("vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]])";
  refused("[{" + v + "}]", "surfaces[0].faces");
  refused("[{" + v + R"(, "faces": [[0,2,1],[0,1,3],[0,3,2],[1,2,4]]}])",
          "surfaces[0].faces[3][2]");
  refused("[{" + v + R"(, "faces": [[0,2,1],[0,1,3],[0,3,2],[1,2,0.5]]}])", "whole number");
  refused(
      R"([{"vertices": [[0,0],[1,0,0],[0,1,0],[0,0,1]], "faces": [[0,2,1],[0,1,3],[0,3,2],[1,2,3]]}])",
      "surfaces[0].vertices[0]");
  refused(R"([{"vertices": [[0,0,0]], "faces": [[0,0,0]]}])", "at least 4");
  refused("[3]", "surfaces[0]");
  refused("[{" + v + R"(, "faces": [[0,2,1],[0,1,3],[0,3,2],[1,2,3]], "force": "x"}])", "force");
}

TEST_CASE("a run failing at its second surface file puts back the first and leaves no file") {
  const auto dir = test::scratchDir("surface_rollback");
  const std::string first = surfaceFileName((dir / "s.stl").string(), 1);
  const std::string second = surfaceFileName((dir / "s.stl").string(), 2);
  writeFileAtomically(first, std::string("earlier"));
  {
    RunOutputs outputs;
    outputs.write(first, [&] { writeSurface(first, sphereMesh({8, 8, 8}, 4, 2)); });
    CHECK(std::filesystem::file_size(first) > 84);  // a binary STL's header and count
    // A writer that fails (no faces) after the first file was written: the run fails.
    CHECK_THROWS_WITH_AS(outputs.write(second, [&] { writeSurface(second, SurfaceMesh{}); }),
                         doctest::Contains("has no faces"), InputError);
  }
  CHECK(test::readFile(first) == "earlier");
  CHECK_FALSE(std::filesystem::exists(second));
  std::filesystem::remove(first);
  CHECK(std::filesystem::is_empty(dir));  // no temporary either
}

// --surface-coordinates (issue 37, item 4): world by default when the input has geometry; a
// world mesh is origin + direction . diag(spacing) . (p - 0.5), faces still outward where the
// direction mirrors, and each file's header says which coordinates it holds.
TEST_CASE("--surface-coordinates: world by default with geometry, stated in each file") {
  CHECK(parseOptions({}).snakes.surfaceCoordinates == SurfaceCoordinates::Auto);
  CHECK(parseOptions({"--surface-coordinates", "voxel"}).snakes.surfaceCoordinates ==
        SurfaceCoordinates::Voxel);
  CHECK(parseOptions({"--surface-coordinates", "world"}).snakes.surfaceCoordinates ==
        SurfaceCoordinates::World);
  CHECK_THROWS_WITH_AS(parseOptions({"--surface-coordinates", "mm"}),
                       doctest::Contains("--surface-coordinates"), ParameterError);
  WorldGeometry g;
  CHECK(resolveSurfaceCoordinates(SurfaceCoordinates::Auto, g) == SurfaceCoordinates::Voxel);
  g.known = true;
  g.spacing = {0.5, 0.5, 2.0};
  g.origin = {10, -20, 30};
  g.direction = {-1, 0, 0, 0, 1, 0, 0, 0, 1};  // x mirrored (as RAS -> LPS flips)
  CHECK(resolveSurfaceCoordinates(SurfaceCoordinates::Auto, g) == SurfaceCoordinates::World);
  CHECK(resolveSurfaceCoordinates(SurfaceCoordinates::Voxel, g) == SurfaceCoordinates::Voxel);

  const SurfaceMesh voxel = sphereMesh({8.5, 6.5, 4.5}, 3, 1.5);
  const SurfaceMesh world = surfaceInWorld(voxel, g);
  // Voxel centre (8, 6, 4) + 0.5 sits at origin + (-0.5 * 8, 0.5 * 6, 2 * 4).
  SurfaceMesh centre;
  centre.vertices = {{8.5f, 6.5f, 4.5f}};
  const glm::vec3 c = surfaceInWorld(centre, g).vertices[0];
  CHECK(c.x == doctest::Approx(6));
  CHECK(c.y == doctest::Approx(-17));
  CHECK(c.z == doctest::Approx(38));
  CHECK(meshVolume(voxel) > 0);
  CHECK(meshVolume(world) > 0);  // still outward after the mirror
  CHECK(meshVolume(world) == doctest::Approx(meshVolume(voxel) * 0.5 * 0.5 * 2).epsilon(1e-4));

  const auto dir = test::scratchDir("surface_coordinates");
  for (const char* ext : {".ply", ".obj", ".stl"}) {
    const auto file = dir / (std::string("w") + ext);
    writeSurface(file, world, surfaceCoordinatesNote(SurfaceCoordinates::World));
    CHECK(test::readFile(file).find("SPACE=LPS") != std::string::npos);
    writeSurface(file, voxel, surfaceCoordinatesNote(SurfaceCoordinates::Voxel));
    const std::string bytes = test::readFile(file);
    CHECK(bytes.find("voxel coordinates") != std::string::npos);
    CHECK(bytes.find("SPACE=LPS") == std::string::npos);
  }
}
