#pragma once
// Recording from the window: the panel section (start/stop, format, deterministic mode,
// elapsed time, file size) and the per-frame capture of the view or the whole window.
// Encoding runs on the recorder's thread; the capture is one glReadPixels per frame.
#include <QImage>
#include <memory>
#include <string>

#include "record/recorder.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/settle_timer.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

class RecordingControl {
 public:
  explicit RecordingControl(Session& session) : session_(session) {}
  ~RecordingControl();  // a window closed while recording still leaves a finished file

  // Starts recording to path (throws RecordingError/ParameterError). width x height is the
  // size of what capture() will read. deterministic: stepsPerFrame solver iterations per frame
  // and every frame recorded at fps; otherwise frames are stamped by wall time.
  void start(const std::string& path, int width, int height, bool deterministic, int fps,
             int stepsPerFrame);
  // Stops and returns the message for the user (also kept in lastMessage()).
  std::string stop();
  bool active() const { return recorder_ != nullptr; }
  bool withPanel() const { return look_.panels; }
  // What goes in the frames: size (0: the view's), legend, caption, panels.
  const FigureOptions& look() const { return look_; }
  void setLook(const FigureOptions& look) { look_ = look; }
  int width() const;  // of the recording being made (0 when none)
  int height() const;

  // After the frame is drawn: reads rect (framebuffer pixels, GL origin bottom-left) of the
  // bound framebuffer and queues it. Stops (with the reason in errors) when the encoder failed.
  void capture(const Viewport& rect, ErrorLog& errors);
  // A view-only frame drawn apart (any size; padded or cropped to the recording's size).
  void captureImage(const QImage& frame, ErrorLog& errors);
  // False when this frame is not recorded (live recordings: the same wall-time stamp).
  bool wantsFrame() const;

  // Starts with the section's settings (file, format, look, pace): the Start button and the
  // record key. Sizes as drawSection's. Errors go to errors.
  void startFromSettings(ErrorLog& errors, int viewWidth, int viewHeight, int windowWidth,
                         int windowHeight);
  // After each recorded frame: when ending after the snakes stopped is on and they have been
  // stopped that long (in video time), stops and returns true (the message in lastMessage()).
  bool endIfSettled(bool snakesStopped);
  void setEndWhenSettled(bool on) { endWhenSettled_ = on; }

  // The "Recording" section of the left panel.
  void drawSection(ErrorLog& errors, int viewWidth, int viewHeight, int windowWidth,
                   int windowHeight);
  // While recording: a badge at the top of the view (time, frames, Stop), so the control
  // never scrolls out of sight. ImGui units. True when Stop was clicked.
  bool drawBadge(float viewLeft, float viewWidth, float top);
  const std::string& lastMessage() const { return lastMessage_; }

 private:
  Session& session_;
  std::unique_ptr<record::Recorder> recorder_;
  FigureOptions look_;
  bool nextPts(long& pts, ErrorLog& errors);
  bool deterministic_ = true;
  int stepsPerFrame_ = 20;
  int fps_ = 30;
  int formatIndex_ = 0;  // mp4, webm, png
  char path_[512] = "";  // empty: a dated name in the recordings folder (recording_path.hpp)
  long frameIndex_ = 0;
  long lastPts_ = -1;
  double savedBudget_ = 0;
  int savedIterations_ = 0;
  std::string lastMessage_;
  bool endWhenSettled_ = true;
  SettleTimer settle_{2.0};
  std::vector<std::uint8_t> pixels_;
};

}  // namespace gvflab::viewer
