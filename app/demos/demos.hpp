#pragma once
// The built-in demos (--demo NAME headless and in the viewer, the viewer's Demos menu), as
// data in one place. A demo is the command line it stands for, parsed by the same parser as
// the user's flags (flags after --demo override it), plus what the viewer shows with it.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace gvflab::app {

// The viewer layers a demo turns on (the others off).
struct DemoLayers {
  bool magnitude = true;
  bool glyphs = true;
  bool streamlines = false;
  bool capture = false;  // capture-range overlay
};

struct Demo {
  std::string name;                        // --demo NAME
  std::string title;                       // menu entry
  std::array<std::string, 2> explanation;  // two lines for the canvas (hidable)
  std::vector<std::string> args;           // flags; "{assets}" stands for assetDir()
  DemoLayers layers;
  // A volume demo's first slice in the viewer: the middle one across this axis (as
  // gvflab::SliceAxis: 0 axial, 1 coronal, 2 sagittal).
  int sliceAxis = 0;
};

const std::vector<Demo>& demos();
// Throws ParameterError naming the known demos.
const Demo& findDemo(const std::string& name);
// The demo's flags with {assets} replaced by assetDir().
std::vector<std::string> demoArgs(const Demo& demo);

// The folder of the shipped images and volumes: $GVFLAB_ASSETS when set, else the source
// tree's assets/ (compiled in).
std::filesystem::path assetDir();

}  // namespace gvflab::app
