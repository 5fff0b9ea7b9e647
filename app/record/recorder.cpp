#include "record/recorder.hpp"

#include <cstdio>

#include "gvflab/quoted.hpp"

namespace gvflab::record {
namespace {
constexpr std::size_t kQueueFrames = 8;
}

std::string formatBytes(std::uint64_t bytes) {
  char buf[32];
  if (bytes < 1000 * 1000)
    std::snprintf(buf, sizeof buf, "%.1f kB", static_cast<double>(bytes) / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

Recorder::Recorder(const EncoderSettings& settings, bool deterministic)
    : settings_(settings),
      deterministic_(deterministic),
      encoder_(std::make_unique<VideoEncoder>(settings)),
      start_(std::chrono::steady_clock::now()),
      worker_([this] { work(); }) {}

Recorder::~Recorder() {
  if (!stopped_) stop();
}

void Recorder::push(std::vector<std::uint8_t> rgba, bool bottomUp, std::int64_t pts) {
  std::unique_lock lock(mutex_);
  if (stopping_ || !error_.empty()) return;
  if (queue_.size() >= kQueueFrames) {
    if (!deterministic_) {
      ++dropped_;
      return;
    }
    changed_.wait(lock, [&] { return queue_.size() < kQueueFrames || !error_.empty(); });
    if (!error_.empty()) return;
  }
  queue_.push_back({std::move(rgba), bottomUp, pts});
  changed_.notify_all();
}

void Recorder::work() {
  for (;;) {
    Item item;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping and drained
      item = std::move(queue_.front());
      queue_.pop_front();
      changed_.notify_all();
    }
    try {
      encoder_->write(item.rgba.data(), item.bottomUp, item.pts);
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      error_ = e.what();
      queue_.clear();
      changed_.notify_all();
      return;
    }
  }
}

std::string Recorder::stop() {
  if (stopped_) return finalMessage_;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }
  if (worker_.joinable()) worker_.join();
  std::string finishError;
  try {
    encoder_->finish();
  } catch (const std::exception& e) {
    finishError = e.what();
  }
  stopped_ = true;
  const long frames = encoder_->framesWritten();
  const std::string where = quoted(settings_.path);
  const std::string size = formatBytes(encoder_->bytesWritten());
  std::lock_guard lock(mutex_);
  const std::string failure = error_.empty() ? finishError : error_;
  if (!failure.empty() && !encoder_->holdsFrames()) {
    // Failed before any frame reached the file: a file that plays nothing is not left behind.
    encoder_->discard();
    finalMessage_ = failure + " No frame was recorded, so " + where + " was not kept.";
  } else if (!failure.empty()) {
    // Frames reached the file: the cut-short recording is kept, playable up to the failure.
    finalMessage_ = failure + " The recording stopped there: " + where + " (" + size +
                    ") plays up to the last whole second written of the " + std::to_string(frames) +
                    " frames encoded.";
  } else {
    finalMessage_ = "Recorded " + std::to_string(frames) + " frames to " + where + " (" + size +
                    (dropped_ ? ", " + std::to_string(dropped_) +
                                    " frames dropped because encoding was too slow"
                              : std::string()) +
                    ").";
  }
  return finalMessage_;
}

RecordingStatus Recorder::status() const {
  RecordingStatus s;
  s.path = settings_.path.string();
  s.format = settings_.format;
  s.elapsedSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  s.bytes = encoder_->bytesWritten();  // a racy read of a counter, good enough for display
  s.framesWritten = encoder_->framesWritten();
  std::lock_guard lock(mutex_);
  s.framesDropped = dropped_;
  s.error = error_;
  return s;
}

bool Recorder::failed() const {
  std::lock_guard lock(mutex_);
  return !error_.empty();
}

}  // namespace gvflab::record
