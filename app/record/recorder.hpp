#pragma once
// A recording in progress: frames are queued by the caller (the viewer's paint or the headless
// loop) and encoded on a worker thread, so encoding does not stall the view. Deterministic
// recordings never drop a frame (the caller waits when the queue is full); live ones drop
// frames the encoder cannot keep up with, and say how many.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "record/video_encoder.hpp"

namespace gvflab::record {

struct RecordingStatus {
  std::string path;
  RecordFormat format = RecordFormat::Mp4;
  double elapsedSeconds = 0;  // since start
  std::uint64_t bytes = 0;    // written to disk so far
  long framesWritten = 0;
  long framesDropped = 0;
  std::string error;  // set once the encoder failed; no frame is taken after that
};

class Recorder {
 public:
  // Opens the output now (throws RecordingError/ParameterError with a sentence).
  Recorder(const EncoderSettings& settings, bool deterministic);
  ~Recorder();  // stop() if the caller did not
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // rgba holds width * height * 4 bytes (the size given at start). pts in frames at the fixed rate.
  void push(std::vector<std::uint8_t> rgba, bool bottomUp, std::int64_t pts);
  // Encodes what is queued, closes the file and returns a sentence for the user: where the
  // file is, how many frames, or why it stopped early. A recording that fails after frames
  // reached the file keeps it (it plays up to there); one that fails before leaves no file.
  std::string stop();

  RecordingStatus status() const;
  bool failed() const;
  bool deterministic() const { return deterministic_; }
  int width() const { return settings_.width; }
  int height() const { return settings_.height; }
  int fps() const { return settings_.fps; }

 private:
  struct Item {
    std::vector<std::uint8_t> rgba;
    bool bottomUp;
    std::int64_t pts;
  };
  void work();

  EncoderSettings settings_;
  bool deterministic_;
  std::unique_ptr<VideoEncoder> encoder_;
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  bool stopped_ = false;
  long dropped_ = 0;
  std::string error_;
  std::string finalMessage_;
  std::thread worker_;
};

std::string formatBytes(std::uint64_t bytes);  // "3.2 MB"

}  // namespace gvflab::record
