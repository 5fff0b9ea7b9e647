#include "viewer/model/settle_timer.hpp"

namespace gvflab::viewer {

bool SettleTimer::update(bool stopped, double videoSeconds) {
  if (!stopped) {
    since_.reset();
    sawMoving_ = true;
    return false;
  }
  if (!sawMoving_) return false;
  if (!since_) since_ = videoSeconds;
  return videoSeconds - *since_ >= seconds_;
}

}  // namespace gvflab::viewer
