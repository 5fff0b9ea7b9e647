#pragma once
// Encodes RGBA frames with FFmpeg's libraries: H.264 in fragmented MP4, VP9 (or VP8) in WebM,
// or one PNG per frame in a directory. Qt- and GL-free. Bytes go through our own AVIO writer,
// so the file size is known while recording and a full disk is seen at the write that failed.
// Fragmented MP4 and WebM stay playable up to the last complete fragment/cluster even when the
// trailer can no longer be written (disk full, process killed).
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "gvflab/error.hpp"
#include "record/ffmpeg_handles.hpp"

namespace gvflab::record {

// Opening or writing a recording failed; the message says what and where.
class RecordingError : public Error {
 public:
  using Error::Error;
};

enum class RecordFormat { Mp4, WebM, PngSequence };

// The format that encodes to FFmpeg's muxer "mp4" (H.264) or "webm" (VP9), or PNG frames for
// "". Which name records to which muxer is app::recordingMuxer's (io/file_formats.hpp), so
// that each extension is written once; this layer knows no file names. Throws ParameterError
// for any other muxer.
RecordFormat formatForMuxer(std::string_view muxer);

struct EncoderSettings {
  std::filesystem::path path;
  RecordFormat format = RecordFormat::Mp4;
  int width = 0, height = 0;  // of the frames given; video formats crop to even sizes
  int fps = 30;
  // Tests only: behave as if the disk were full after this many bytes (0: no limit).
  std::uint64_t byteLimit = 0;
};

class VideoEncoder {
 public:
  explicit VideoEncoder(const EncoderSettings& settings);  // throws RecordingError
  ~VideoEncoder();  // finishes if finish() was not called; never throws
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;

  // rgba: width * height * 4 bytes; bottomUp for rows as glReadPixels returns them.
  // pts counts frames at the fixed rate and must increase. Throws RecordingError.
  void write(const std::uint8_t* rgba, bool bottomUp, std::int64_t pts);
  // Drains the encoder and writes the trailer (index); throws RecordingError when that fails.
  void finish();
  // Whether frame data reached the output (bytes after the container header; PNG sequences:
  // a frame file). A fragmented MP4 or WebM cut short plays the frames whose bytes are whole;
  // a recording that fails before any reached the file is discarded, not left playing nothing.
  bool holdsFrames() const;
  // Closes the output and removes what this encoder created (the file, or the empty directory
  // of a PNG sequence). Never throws.
  void discard() noexcept;

  std::uint64_t bytesWritten() const { return bytes_; }
  long framesWritten() const { return frames_; }
  int width() const { return width_; }  // encoded size
  int height() const { return height_; }

 private:
  void openVideo(const EncoderSettings& s);
  void openPng(const EncoderSettings& s);
  void drain(bool flushing);
  void writePacket(AVPacket* packet);
  static int writeCallback(void* opaque, std::uint8_t* buf, int size);
  static std::int64_t seekCallback(void* opaque, std::int64_t offset, int whence);
  [[noreturn]] void fail(const std::string& doing, int code);
  struct FileClose {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };

  std::filesystem::path path_;
  RecordFormat format_;
  int srcWidth_ = 0, srcHeight_ = 0, width_ = 0, height_ = 0;
  std::uint64_t byteLimit_ = 0;
  // Read by other threads for the on-screen size and count.
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<long> frames_{0};
  long packets_ = 0;
  bool finished_ = false;
  bool createdPath_ = false;       // the file or directory at path_ is ours to remove
  std::uint64_t headerBytes_ = 0;  // of the container header, flushed before any frame
  std::unique_ptr<std::FILE, FileClose> file_;
  OutputFormatPtr format_ctx_;
  AvioPtr avio_;
  AVStream* stream_ = nullptr;
  CodecContextPtr codec_;
  FramePtr frame_;
  PacketPtr packet_;
  SwsPtr sws_;
  bool headerWritten_ = false;
};

}  // namespace gvflab::record
