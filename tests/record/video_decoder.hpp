#pragma once
// Test helper: decodes every frame of a video file to RGB24 with FFmpeg's libraries.
#include <cstdint>
#include <string>
#include <vector>

#include "record/ffmpeg_handles.hpp"

namespace gvflab::test {

struct DecodedVideo {
  int width = 0, height = 0;
  std::vector<std::vector<std::uint8_t>> frames;  // RGB24, top-down rows
  std::string error;                              // first decoding problem, if any
};

inline DecodedVideo decodeVideo(const std::string& path) {
  using namespace gvflab::record;
  DecodedVideo out;
  av_log_set_level(AV_LOG_FATAL);  // a cut-off file is expected in some tests
  AVFormatContext* raw = nullptr;
  if (avformat_open_input(&raw, path.c_str(), nullptr, nullptr) < 0) {
    out.error = "cannot open";
    return out;
  }
  InputFormatPtr fmt(raw);
  if (avformat_find_stream_info(fmt.get(), nullptr) < 0) {
    out.error = "no stream info";
    return out;
  }
  int stream = av_find_best_stream(fmt.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (stream < 0) {
    out.error = "no video stream";
    return out;
  }
  const AVCodecParameters* par = fmt->streams[stream]->codecpar;
  const AVCodec* codec = avcodec_find_decoder(par->codec_id);
  CodecContextPtr dec(avcodec_alloc_context3(codec));
  avcodec_parameters_to_context(dec.get(), par);
  if (avcodec_open2(dec.get(), codec, nullptr) < 0) {
    out.error = "cannot open decoder";
    return out;
  }
  out.width = par->width;
  out.height = par->height;
  FramePtr frame(av_frame_alloc());
  PacketPtr packet(av_packet_alloc());
  SwsPtr sws;
  auto receive = [&] {
    while (avcodec_receive_frame(dec.get(), frame.get()) == 0) {
      if (!sws)
        sws.reset(sws_getContext(frame->width, frame->height,
                                 static_cast<AVPixelFormat>(frame->format), out.width, out.height,
                                 AV_PIX_FMT_RGB24, SWS_POINT, nullptr, nullptr, nullptr));
      std::vector<std::uint8_t> rgb(static_cast<std::size_t>(out.width) * out.height * 3);
      std::uint8_t* dst[1] = {rgb.data()};
      int stride[1] = {out.width * 3};
      sws_scale(sws.get(), frame->data, frame->linesize, 0, frame->height, dst, stride);
      out.frames.push_back(std::move(rgb));
    }
  };
  while (av_read_frame(fmt.get(), packet.get()) >= 0) {
    if (packet->stream_index == stream && avcodec_send_packet(dec.get(), packet.get()) >= 0)
      receive();
    av_packet_unref(packet.get());
  }
  avcodec_send_packet(dec.get(), nullptr);
  receive();
  return out;
}

}  // namespace gvflab::test
