#pragma once
// Move-only owners for the FFmpeg objects the recorder and its test use, so each is freed
// exactly once on every path (including errors half-way through opening an output).
#include <memory>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace gvflab::record {

struct CodecContextFree {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFree {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsFree {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};
// An input opened with avformat_open_input.
struct InputFormatClose {
  void operator()(AVFormatContext* f) const { avformat_close_input(&f); }
};
// An output made with avformat_alloc_output_context2 (its pb belongs to someone else).
struct OutputFormatFree {
  void operator()(AVFormatContext* f) const { avformat_free_context(f); }
};
struct AvioContextFree {
  void operator()(AVIOContext* io) const {
    if (io) av_freep(&io->buffer);
    avio_context_free(&io);
  }
};

using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextFree>;
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using SwsPtr = std::unique_ptr<SwsContext, SwsFree>;
using InputFormatPtr = std::unique_ptr<AVFormatContext, InputFormatClose>;
using OutputFormatPtr = std::unique_ptr<AVFormatContext, OutputFormatFree>;
using AvioPtr = std::unique_ptr<AVIOContext, AvioContextFree>;

// FFmpeg's text for an error code, e.g. "No space left on device".
inline std::string avErrorText(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

}  // namespace gvflab::record
