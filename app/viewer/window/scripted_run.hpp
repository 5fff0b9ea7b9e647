#pragma once
// A run the command line drives: --frames N quits after N frames, --screenshot keeps the last
// frame's picture (the view, or the window with --screenshot-panels), --stats prints the frame
// statistics at the end. The frame loop counts its frames here.
#include <QImage>

#include "viewer/model/frame_stats.hpp"
#include "viewer/modes/viewer_modes.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/ui/error_log.hpp"
#include "viewer/ui/recording_control.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::viewer {

// What the end of a run reports on.
struct RunEnd {
  const Session& session;
  const Presenter* presenter;
  const char* glRenderer;  // GL_RENDERER: on a GPU machine, whether the GPU or a software GL drew
  const FrameStats& stats;
  const ViewerModes& modes;
  RecordingControl& recording;
  const ErrorLog& errors;
};

class ScriptedRun {
 public:
  explicit ScriptedRun(const WindowStartup& startup) : startup_(startup) {}
  bool countFrame();  // true after the last frame --frames asked for
  int frames() const { return frames_; }
  // Whether the frame being drawn is the screenshot's, of the window (panels) or the view.
  bool shootsNow(bool panels) const;
  FigureOptions viewShotLook() const;  // legend, caption and --size
  void keepShot(QImage shot) { shot_ = std::move(shot); }
  // Ends the recording, prints the stats and saves the screenshot; the exit code.
  int finish(const RunEnd& run) const;

 private:
  const WindowStartup& startup_;
  int frames_ = 0;
  QImage shot_;
};

}  // namespace gvflab::viewer
