#pragma once
// The viewer's race view: Euler and multigrid side by side on the session's image (or on the
// slice shown of its volume) with the same OpenCL time per frame, their magnitude maps above,
// and below them a window with the controls, the readouts and the live ε-against-time plot.
// While it is on, the session's own solver is paused, the snakes are hidden and the mouse does
// nothing in the view. Glue between RaceSession (compute), RaceView (GL) and race_panel (ImGui).
#include <memory>
#include <string>
#include <vector>

#include "gvflab/capture_range.hpp"
#include "viewer/model/race_session.hpp"
#include "viewer/model/session.hpp"
#include "viewer/modes/viewer_mode.hpp"
#include "viewer/render/race_view.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

class RaceMode : public ViewerMode {
 public:
  // --race: on from the start; budgetMs (--race-budget) 0: 2 ms on GPUs, 20 on CPUs.
  RaceMode(Session& session, bool startOn, double budgetMs = 0);
  ~RaceMode() override;

  bool enabled() const { return enabled_; }
  void setEnabled(bool on, ErrorLog& errors);

  // Once per frame: (re)builds the race when the session's input changed, steps it, and
  // refreshes the capture areas now and then. Errors go to errors and pause the race.
  void advance(ErrorLog& errors) override;
  // The race window: docked under the maps when on, a small toggle when off.
  void drawPanels(const PanelPlace& place, ErrorLog& errors) override;
  // The two maps in the view above the window.
  bool drawPicture(ViewFrame& frame) override;
  bool hidesSnakes() const override { return enabled_; }
  bool mousePress(PointerEvent&) override { return enabled_; }  // no snakes to edit
  // Space: run / pause the race, R: reset it. True when consumed (only when on).
  bool key(const KeyPress& k) override;
  // --stats: each solver's ε against OpenCL time, one line a point of the plot.
  void printStats(std::ostream& out) const override;
  long frameIterations() const override { return frameIterations_; }  // both solvers'

  const RaceSession* race() const { return race_.get(); }

 private:
  void rebuild();
  Session& session_;
  bool enabled_ = false;
  bool sessionWasRunning_ = false;
  bool running_ = true;
  double budgetMs_;
  std::unique_ptr<RaceSession> race_;
  std::unique_ptr<RaceView> view_;  // made on the first draw, when GL is current
  bool showCapture_ = true;
  CaptureParams captureParams_ = CaptureParams::defaults();
  int framesSinceCapture_ = 0;
  long captureFieldVersion_ = -1, captureImageVersion_ = -1;
  float windowHeight_ = 0;
  long frameIterations_ = 0;
  std::vector<std::string> pendingErrors_;  // from --race, before the panel exists
};

}  // namespace gvflab::viewer
