#pragma once
// What the window asks of a viewer mode: plain GVF + snakes (PlainMode), the race of the two
// solvers (RaceMode) and the region snake (RegionMode). ViewerModes (viewer_modes.hpp) builds
// them and holds them in a fixed order, top first (race, region, plain): the top-most mode that
// draws the picture draws it, and input goes down the modes until one takes it. Modes step and draw
// their panels bottom first. A mode that is off draws nothing and takes nothing.
#include <QPointF>
#include <Qt>
#include <glm/vec2.hpp>
#include <ostream>

#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/view_transform.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

// One frame's drawing into the view. GL context current.
struct ViewFrame {
  Renderer* renderer;    // null when OpenGL could not be set up
  Presenter* presenter;  // null when the CL->GL transfer could not be set up
  Viewport area;         // the view, framebuffer pixels
  int framebufferHeight;
  float dpr;  // framebuffer pixels per ImGui unit
  ViewTransform& view;
  const LayerSettings& layers;  // as the user set them
  const LayerSettings& shown;   // less what a mode hides (the field under the region snake)
  float range;                  // the magnitude at the top of the colour scale
  bool fieldHidden;             // a mode hides the field (magnitude, glyphs, streamlines)
  bool snakesHidden;            // a mode hides the parametric snakes
  long shownFieldVersion;       // the field version on the GL side
  ErrorLog& errors;
};

// Where the panels go: the view's extent in ImGui units, whether the side panels are shown
// (Tab hides them: docked sections are then skipped) and whether the snakes are on the canvas
// (no mode hides them or owns the picture).
struct PanelPlace {
  float viewLeft, viewWidth, height;
  bool panelsShown = true;
  bool snakesOnCanvas = true;
  bool hintAllowed = true;  // the first-start hint may show (no other mode, no demo text)
  float canvasTop = 0;      // where the canvas is free below the demo's explanation
  const ViewTransform* view = nullptr;   // where the image lies (the legend keeps off it)
  float dpr = 1;                         // framebuffer pixels per ImGui unit
  const char* layersWindow = "display";  // the panel window with the layer controls
};

struct PointerEvent {
  Qt::MouseButton button;
  Qt::KeyboardModifiers modifiers;
  QPointF logical;   // widget coordinates
  Vec2 viewPixel;    // framebuffer pixels from the view's top-left corner
  glm::vec2 image;   // image pixels
  float pickRadius;  // image pixels within a few screen pixels
  float dpr;
  ViewTransform& view;
  ErrorLog& errors;
};

struct KeyPress {
  int key;  // Qt::Key
  bool ctrl, shift;
  ErrorLog& errors;
};

class ViewerMode {
 public:
  virtual ~ViewerMode() = default;

  // Once per frame, after the session's solver step. Errors go to errors.
  virtual void advance(ErrorLog& errors) = 0;
  // Its ImGui window, section or toggle; every frame, on or off.
  virtual void drawPanels(const PanelPlace& place, ErrorLog& errors) = 0;

  // What this mode does to the view this frame.
  virtual bool ownsImage() const { return false; }  // its own image replaces the session's
  virtual Vec2 ownImageSize() const { return {}; }
  virtual bool hidesField() const { return false; }
  virtual bool hidesSnakes() const { return false; }

  // Draws the view's picture and returns true when this mode owns it this frame.
  virtual bool drawPicture(ViewFrame&) { return false; }
  virtual void drawOverlay(ViewFrame&) {}

  // True when taken (the modes below do not see it).
  virtual bool mousePress(PointerEvent&) { return false; }
  virtual bool mouseMove(PointerEvent&) { return false; }
  virtual bool mouseRelease(PointerEvent&) { return false; }
  virtual bool mouseDoubleClick(PointerEvent&) { return false; }
  virtual bool key(const KeyPress&) { return false; }

  // --stats at exit: what this mode measured, after the window's own line.
  virtual void printStats(std::ostream&) const {}
  // GVF iterations this mode's own solvers ran in the last advance (the race's two), for
  // --stats' iterations/s; the session's are counted apart.
  virtual long frameIterations() const { return 0; }
};

}  // namespace gvflab::viewer
