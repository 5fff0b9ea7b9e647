#pragma once
// The colours of the snakes, one place for the canvas, its legend and the panel: a snake's
// line has its force's colour (so twins differ), and its state has a colour of its own that
// never makes a stalled or collapsed snake look like success. Here, below the viewer, so that
// the contour files (io/contour_formats.hpp) draw the same colours.
#include <array>
#include <string>

#include "gvflab/parametric_snake.hpp"

namespace gvflab::app {

using SnakeRgba = std::array<float, 4>;

// GVF magenta, grad f cyan, GGVF orange, VFC white, distance lime: none occurs in the gray,
// viridis or inferno colormaps next to them.
inline SnakeRgba forceColor(SnakeForce f) {
  constexpr SnakeRgba kColors[kSnakeForceCount] = {{1.0f, 0.30f, 0.85f, 1.0f},
                                                   {0.25f, 0.90f, 1.0f, 1.0f},
                                                   {1.0f, 0.55f, 0.10f, 1.0f},
                                                   {0.95f, 0.95f, 0.95f, 1.0f},
                                                   {0.70f, 1.0f, 0.20f, 1.0f}};
  return kColors[static_cast<int>(f)];
}

// The word the viewer shows for a snake's state: "waiting" while the viewer holds it until the
// field is ready (SnakeSession::waitingForField; the engine's state is still moving), else the
// engine's word. Legend, table, figures and recordings all take it from here.
inline const char* shownStateName(SnakeState s, bool waitingForField) {
  return waitingForField && s == SnakeState::Moving ? "waiting" : snakeStateName(s);
}

// Moving amber, converged green, stalled red, collapsed grey (it outlines nothing).
inline SnakeRgba stateColor(SnakeState s) {
  switch (s) {
    case SnakeState::Converged:
      return {0.35f, 0.95f, 0.45f, 1.0f};
    case SnakeState::Stalled:
      return {1.0f, 0.32f, 0.28f, 1.0f};
    case SnakeState::Collapsed:
      return {0.72f, 0.74f, 0.80f, 1.0f};
    case SnakeState::Moving:
      break;
  }
  return {1.0f, 0.75f, 0.25f, 1.0f};
}

// How the viewer names a force: "GVF", "grad f", "GGVF", "VFC" or "distance".
inline const char* forceLabel(SnakeForce f) {
  constexpr const char* kLabels[kSnakeForceCount] = {"GVF", "grad f", "GGVF", "VFC", "distance"};
  return kLabels[static_cast<int>(f)];
}
// The force menus' items, in SnakeSession's order (ImGui::Combo's "\0"-separated list).
inline constexpr const char* kForceMenuItems =
    "GVF\0traditional (grad f)\0GGVF (generalized GVF)\0VFC (vector field convolution)\0"
    "distance (Cohen's distance force)\0";

// The region snake's contour: green (the viewer's region mode).
inline SnakeRgba regionColor() { return {60 / 255.0f, 230 / 255.0f, 90 / 255.0f, 1.0f}; }

// "#rrggbb", for SVG.
inline std::string hexColor(const SnakeRgba& c) {
  static const char* digits = "0123456789abcdef";
  std::string out = "#";
  for (int i = 0; i < 3; ++i) {
    const int v = static_cast<int>(c[i] * 255.0f + 0.5f);
    out += digits[v >> 4];
    out += digits[v & 15];
  }
  return out;
}

}  // namespace gvflab::app

namespace gvflab::viewer {
using app::forceColor;
using app::forceLabel;
using app::kForceMenuItems;
using app::regionColor;
using app::shownStateName;
using app::SnakeRgba;
using app::stateColor;
}  // namespace gvflab::viewer
