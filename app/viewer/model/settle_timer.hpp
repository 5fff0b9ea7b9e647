#pragma once
// A recording that ends by itself: a set time (of video) after every snake stopped, so a
// convergence video needs no guessed frame count. Fed once per recorded frame; a snake that
// starts moving again (an edit, a replay) starts the wait over. Only a stop seen after some
// snake moved counts: a recording started on a finished lesson waits for R (the replay).
#include <optional>

namespace gvflab::viewer {

class SettleTimer {
 public:
  explicit SettleTimer(double seconds = 2.0) : seconds_(seconds) {}
  // stopped: there are snakes and none is moving; videoSeconds: the recording's time so far.
  // True once videoSeconds has run seconds() past the first frame of the current stop.
  bool update(bool stopped, double videoSeconds) {
    if (!stopped) {
      since_.reset();
      sawMoving_ = true;
      return false;
    }
    if (!sawMoving_) return false;
    if (!since_) since_ = videoSeconds;
    return videoSeconds - *since_ >= seconds_;
  }
  double seconds() const { return seconds_; }
  void setSeconds(double s) { seconds_ = s > 0 ? s : 0; }
  void reset() { since_.reset(), sawMoving_ = false; }

 private:
  double seconds_;
  bool sawMoving_ = false;
  std::optional<double> since_;
};

}  // namespace gvflab::viewer
