#include "demos/demos.hpp"

#include <cstdlib>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {
namespace {

// The lesson phantoms are 128 px (Xu & Prince's were 64): GVF diffuses into the whole notch
// within the demo's 1500 iterations (at 256 px it needs about four times as many). The U spans
// x 32..96, y 25.6..102.4; the rectangle 3 px around it lies within the traditional force's
// reach, so both twins start moving and only GVF enters the notch.
const char* kAroundU = "polygon:29,23,99,23,99,105,29,105";

// A 3x3 grid less its bottom middle: below the U, between the bottom corners' seeds, is the one
// place at 1024x768 where the legend covers neither a seed nor the U.
std::vector<std::string> captureSeeds() {
  std::vector<std::string> args;
  for (const char* y : {"14", "64", "114"})
    for (const char* x : {"14", "64", "114"})
      for (const char* force : {"@gvf", "@traditional"})
        if (std::string(x) != "64" || std::string(y) != "114")
          args.insert(args.end(), {"--snake", std::string("circle:") + x + "," + y + ",5" + force});
  return args;
}

// The forces' comparison (issue 43) on the u-slot phantom at 128 px (the U spans x 3.8..60.2,
// the slotted block x 67.8..124.2, both y 17.9..94.7): a rectangle across each, under
// GVF, GGVF (K 0.2: it spreads across the slot's walls), VFC and the distance force.
std::vector<std::string> forcesDemoArgs() {
  std::vector<std::string> args = {"--phantom",    "u-slot", "--phantom-size",     "128",
                                   "--iterations", "1500",   "--snake-iterations", "3000",
                                   "--ggvf-k",     "0.2",    "--snake-force",      "vfc"};
  for (const char* force : {"@gvf", "@ggvf", "@vfc", "@distance"})
    for (const char* around :
         {"polygon:5,28,59,28,59,92,5,92", "polygon:69,28,123,28,123,92,69,92"})
      args.insert(args.end(), {"--snake", std::string(around) + force});
  return args;
}

std::vector<Demo> makeDemos() {
  std::vector<Demo> d;
  d.push_back({"u-concavity",
               "U concavity: GVF against traditional",
               {"Two snakes from one contour: GVF follows the field into the notch and converges;",
                "the traditional grad-f snake stalls across its mouth, where grad f is zero."},
               {"--phantom", "u", "--phantom-size", "128", "--iterations", "1500", "--snake",
                std::string(kAroundU) + "@gvf", "--snake", std::string(kAroundU) + "@traditional",
                "--snake-iterations", "3000"},
               {true, true, false, false}});
  // No elasticity: the seeds travel along the force like the capture map's walkers (with any,
  // a grad-f seed where nothing holds it shrinks, slowly, to a dot: collapsed).
  std::vector<std::string> capture = {
      "--phantom",          "u",    "--phantom-size", "128", "--iterations", "1500",
      "--snake-iterations", "2000", "--alpha",        "0",   "--beta",       "0"};
  const auto seeds = captureSeeds();
  capture.insert(capture.end(), seeds.begin(), seeds.end());
  d.push_back(
      {"capture-range",
       "Capture range: seeds everywhere",
       {"Twin seeds on a grid: GVF carries every seed onto the U, where it collapses onto the",
        "edge (grey: captured, outlining nothing); grad-f seeds stall. Overlay: steps to an edge."},
       capture,
       {false, true, false, true}});
  d.push_back(
      {"room",
       "Subjective contours: the room",
       {"A small circle inside a room with one doorway: GVF inflates it to the walls",
        "and bridges the doorway; grad f is zero inside: its twin shrinks to a dot, collapsed."},
       {"--phantom", "room", "--phantom-size", "128", "--iterations", "1500", "--snake",
        "circle:64,64,5@gvf", "--snake", "circle:64,64,5@traditional", "--snake-iterations",
        "3000"},
       {true, false, true, false}});
  d.push_back(
      {"real-image",
       "Real image: coins (Brooklyn Museum)",
       {"Greek coins (Brooklyn Museum): GVF and grad-f twins from one circle close around a",
        "coin both outline it, and a GVF snake another. Drag circles further out: grad f stalls."},
       // Radius 26 around the coin's 24.5: nearer to its edge than to its neighbours'
       // (13 px away on both sides), so the GVF twin outlines this coin (34 grew spikes
       // to the neighbours).
       {"{assets}/images/coins.png", "--sigma", "2", "--iterations", "800", "--snake",
        "circle:212,190,26@gvf", "--snake", "circle:212,190,26@traditional", "--snake",
        "circle:272,118,33@gvf", "--snake-iterations", "3000"},
       {false, true, false, false}});  // the photo itself, not hidden under |V|
  d.push_back(
      {"forces",
       "Forces side by side: GVF, GGVF, VFC, distance",
       {"One start around the U and one around a long thin slot under each force (colours:",
        "GVF, GGVF, VFC, distance); the legend gives each state. Capture map: choose a force."},
       forcesDemoArgs(),
       {false, false, false, true}});
  d.push_back({"volume",
               "3D volume: a cup",
               {"GVF in 3D on a 64^3 cup (a hollow hemisphere): slices show the field reaching",
                "into the cavity from every side (mu 0.1: the 3D stability bound is lower)."},
               {"{assets}/volumes/cup64.mha", "--mu", "0.1", "--iterations", "300"},
               {true, true, false, false},
               1});  // coronal: the cup's cross-section (axial slices cut it into rings)
  // The 3D lesson (issue 30): the engine's cup (volume_phantoms.hpp, 64^3: radius 20.5 about
  // x = y = 32, z 11.5..52.5, a well 20.5 wide bored 25.6 deep from the top) in an asset written
  // by scripts/make_volume_phantom.py. Twin surfaces from one sphere around it.
  d.push_back({"surface",
               "3D surfaces: a cup with a deep well",
               {"Twin surfaces from one sphere around a cup: the GVF surface follows the field",
                "down the deep well; the traditional grad-f surface stays over its mouth."},
               // Multigrid to 1e-4 (two cycles; Euler needs 400 iterations, a minute and more on
               // a CPU) so the viewer's surfaces start within seconds, with the default mu, which
               // multigrid runs unclamped.
               {"{assets}/volumes/cup-well64.mha", "--solver", "multigrid", "--target-error",
                "1e-4", "--surface", "sphere:32,32,32,29@gvf", "--surface",
                "sphere:32,32,32,29@traditional", "--snake-iterations", "3000"},
               {true, false, false, false},
               1});  // coronal: the cup's cross-section, the well a U as in 2D
  d.push_back({"region",
               "Region snake on a large noisy image",
               {"The region snake (PLH) needs no edge map: it splits the image into a Gaussian",
                "inside and outside, here on a noisy 1024^2 blob, from the default rectangle."},
               {"--phantom", "blob", "--phantom-size", "1024", "--region-snake"},
               {false, false, false, false}});
  return d;
}

}  // namespace

const std::vector<Demo>& demos() {
  static const std::vector<Demo> all = makeDemos();
  return all;
}

const Demo& findDemo(const std::string& name) {
  std::string names;
  for (const auto& d : demos()) {
    if (d.name == name) return d;
    names += (names.empty() ? "" : ", ") + d.name;
  }
  throw ParameterError("--demo " + quotedText(name) + " is not a demo; use one of " + names + ".");
}

std::vector<std::string> demoArgs(const Demo& demo) {
  const std::string dir = assetDir().string();
  std::vector<std::string> out = demo.args;
  for (auto& a : out)
    if (const auto at = a.find("{assets}"); at != std::string::npos) a.replace(at, 8, dir);
  return out;
}

std::filesystem::path assetDir() {
  if (const char* env = std::getenv("GVFLAB_ASSETS"); env && *env) return env;
  return GVFLAB_ASSET_DIR;
}

}  // namespace gvflab::app
