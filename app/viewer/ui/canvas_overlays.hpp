#pragma once
// What the viewer writes on the canvas itself (ImGui windows over the view, dark backed so
// they read on every colormap): the snake legend, a demo's two-line explanation, the
// first-start hint, the error toast and the shortcut overlay (F1 or ?).
#include <string>
#include <vector>

#include "gvflab/parametric_snake.hpp"
#include "io/snake_palette.hpp"
#include "viewer/render/legend_placement.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

// The view's rectangle in ImGui units.
struct CanvasRect {
  float left = 0, top = 0, width = 0, height = 0;
};

// One legend line: a snake (colour, #id, force, state, iterations) or, with many snakes, a
// force's summary ("9 GVF: 7 converged, 2 stalled").
struct LegendRow {
  SnakeRgba color;       // the line's colour (its force)
  std::string label;     // "#3 GVF" or "9 GVF"
  SnakeRgba stateColor;  // of the state word
  std::string state;     // "converged", or the summary's counts
  std::string iterations;
  bool selected = false;
};
inline constexpr std::size_t kLegendSnakes = 6;  // above this, one summary row per force
// waiting: the snakes are held until the field is ready (moving ones read "waiting").
std::vector<LegendRow> snakeLegendRows(const std::vector<SnakeContour>& contours, int selectedId,
                                       bool waiting = false);

// The canvas legend's place: automatic (placeLegend: off the snakes, the image if the view
// has room) until the user drags it; a double-click gives it back to the rule.
struct CanvasLegendState {
  bool shown = true;        // View > Legend on the view
  bool userPlaced = false;  // dragged: kept at offset from the view's top-left corner
  float offsetX = 0, offsetY = 0;
  float lastW = 0, lastH = 0;  // last frame's size (ImGui sizes windows after drawing them)
  bool dragging = false;
  bool placed = false;  // the automatic place is kept while it still covers no snake
  Box automatic, area;  // and the view it was chosen for (a new view chooses again)
};

// In view (view.top: below the demo's explanation), placed by placeLegend against the
// snakes' boxes and the image's (ImGui units, absolute); fieldLine names the field the layers
// show (empty: none). Returns the box it was drawn in (empty when not drawn).
Box drawSnakeLegend(const std::vector<LegendRow>& rows, const std::string& fieldLine,
                    const CanvasRect& view, const std::vector<Box>& snakes, const Box& image,
                    CanvasLegendState& state, const Box& object = {});

// Top-left of the view: title and two lines with a close button. Returns the bottom edge (the
// legend goes below it); sets *open false when closed.
float drawExplanation(const std::string& title, const std::string& line1, const std::string& line2,
                      bool* open, const CanvasRect& view);

// At the top of an empty view, off the image's middle (where the U is and a first drag
// starts); it takes no input, so a drag that starts on it places a snake.
void drawFirstStartHint(const CanvasRect& view);

// The height of the cursor readout's line at the view's bottom (drawCursorReadout): the legend
// and the pause badge stay above it, so the readout never covers them.
float cursorReadoutHeight();
// "Paused" in the view's bottom-left corner, above the readout's line, while the field and the
// snakes are paused (Space).
void drawPauseBadge(const CanvasRect& view);

// The toast's state: the newest error of an ErrorLog, or a note, shown for a few seconds and
// fading. Times in seconds on any steady clock.
class Toast {
 public:
  void note(const std::string& message, double now);
  // Picks up an error added to errors since the last look, then draws the current toast.
  void draw(const ErrorLog& errors, double now, const CanvasRect& view);

 private:
  long seen_ = 0;  // errors.added() when the last error toast started
  double start_ = -1;
  std::string text_;
  bool error_ = true;
};

struct Shortcut {
  const char* keys;
  const char* action;
};
const std::vector<Shortcut>& shortcuts();  // every key and gesture of the viewer
void drawShortcutOverlay(bool* open, const CanvasRect& view);

}  // namespace gvflab::viewer
