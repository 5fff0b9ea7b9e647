#include "record/video_encoder.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

extern "C" {
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
}

#include "gvflab/quoted.hpp"

namespace gvflab::record {

RecordFormat formatForMuxer(std::string_view muxer) {
  if (muxer == "mp4") return RecordFormat::Mp4;
  if (muxer == "webm") return RecordFormat::WebM;
  if (muxer.empty()) return RecordFormat::PngSequence;
  throw ParameterError("Cannot record through FFmpeg's muxer '" + std::string(muxer) + "'.");
}

VideoEncoder::VideoEncoder(const EncoderSettings& s)
    : path_(s.path),
      format_(s.format),
      srcWidth_(s.width),
      srcHeight_(s.height),
      byteLimit_(s.byteLimit) {
  // Errors reach the user as RecordingError sentences; the encoders' chatter is not for them.
  av_log_set_level(AV_LOG_ERROR);
  if (s.width < 2 || s.height < 2 || s.fps < 1 || s.fps > 240)
    throw ParameterError("A recording needs a frame of at least 2x2 pixels and 1 to 240 fps.");
  frame_.reset(av_frame_alloc());
  packet_.reset(av_packet_alloc());
  if (!frame_ || !packet_) throw RecordingError("Out of memory while starting the recording.");
  try {
    if (format_ == RecordFormat::PngSequence)
      openPng(s);
    else
      openVideo(s);
  } catch (...) {
    discard();  // no half-written header or empty directory is left behind
    throw;
  }
}

VideoEncoder::~VideoEncoder() {
  try {
    if (!finished_) finish();
  } catch (...) {
    // The caller that wanted the message called finish() itself.
  }
}

bool VideoEncoder::holdsFrames() const {
  return format_ == RecordFormat::PngSequence ? packets_ > 0 : bytes_ > headerBytes_;
}

void VideoEncoder::discard() noexcept {
  finished_ = true;
  file_.reset();
  if (!createdPath_) return;
  std::error_code ec;
  if (format_ == RecordFormat::PngSequence) {
    if (std::filesystem::is_empty(path_, ec)) std::filesystem::remove(path_, ec);
  } else {
    std::filesystem::remove(path_, ec);
  }
}

void VideoEncoder::fail(const std::string& doing, int code) {
  std::string why = code == AVERROR(ENOSPC) ? "the disk is full" : avErrorText(code);
  throw RecordingError("Recording to " + quoted(path_) + " failed while " + doing + ": " + why +
                       ".");
}

void VideoEncoder::openPng(const EncoderSettings& s) {
  std::error_code ec;
  createdPath_ = !std::filesystem::exists(path_, ec);
  std::filesystem::create_directories(path_, ec);
  if (!std::filesystem::is_directory(path_))
    throw RecordingError("Cannot create the directory " + quoted(path_) + " for PNG frames.");
  width_ = s.width;
  height_ = s.height;
  const AVCodec* codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
  if (!codec) throw RecordingError("This FFmpeg build has no PNG encoder.");
  codec_.reset(avcodec_alloc_context3(codec));
  codec_->width = width_;
  codec_->height = height_;
  codec_->pix_fmt = AV_PIX_FMT_RGB24;
  codec_->time_base = {1, s.fps};
  if (int r = avcodec_open2(codec_.get(), codec, nullptr); r < 0)
    fail("opening the PNG encoder", r);
}

void VideoEncoder::openVideo(const EncoderSettings& s) {
  // 4:2:0 chroma needs even sizes: drop the last column/row rather than rescale.
  width_ = s.width & ~1;
  height_ = s.height & ~1;
  const bool mp4 = format_ == RecordFormat::Mp4;
  AVFormatContext* fc = nullptr;
  if (int r = avformat_alloc_output_context2(&fc, nullptr, mp4 ? "mp4" : "webm", nullptr); r < 0)
    fail("choosing the container", r);
  format_ctx_.reset(fc);

  const AVCodec* codec = nullptr;
  if (mp4) {
    codec = avcodec_find_encoder_by_name("libx264");
    if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_H264);
  } else {
    codec = avcodec_find_encoder_by_name("libvpx-vp9");
    if (!codec) codec = avcodec_find_encoder_by_name("libvpx");
  }
  if (!codec)
    throw RecordingError(std::string("This FFmpeg build has no ") + (mp4 ? "H.264" : "VP9/VP8") +
                         " encoder; record to a PNG directory instead.");
  codec_.reset(avcodec_alloc_context3(codec));
  AVCodecContext* c = codec_.get();
  c->width = width_;
  c->height = height_;
  c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->time_base = {1, s.fps};
  c->framerate = {s.fps, 1};
  c->gop_size = s.fps;  // a keyframe (and an MP4 fragment) every second
  c->max_b_frames = 0;  // frames leave the encoder in order: nothing held back at a crash
  c->thread_count = 2;
  c->colorspace = AVCOL_SPC_BT470BG;
  c->color_range = AVCOL_RANGE_MPEG;
  if (mp4) {
    av_opt_set(c->priv_data, "preset", "veryfast", 0);
    av_opt_set(c->priv_data, "crf", "18", 0);
  } else {
    av_opt_set(c->priv_data, "deadline", "realtime", 0);
    av_opt_set(c->priv_data, "cpu-used", "8", 0);
    av_opt_set(c->priv_data, "crf", "24", 0);
    c->bit_rate = 0;
  }
  if (format_ctx_->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (int r = avcodec_open2(c, codec, nullptr); r < 0) fail("opening the video encoder", r);

  stream_ = avformat_new_stream(format_ctx_.get(), nullptr);
  if (!stream_) throw RecordingError("Out of memory while starting the recording.");
  stream_->time_base = c->time_base;
  if (int r = avcodec_parameters_from_context(stream_->codecpar, c); r < 0)
    fail("describing the stream", r);

  file_.reset(std::fopen(path_.string().c_str(), "wb"));
  if (!file_)
    throw RecordingError("Cannot create " + quoted(path_) + ": " + std::strerror(errno) + ".");
  createdPath_ = true;
  constexpr int kBuffer = 1 << 16;
  auto* buffer = static_cast<unsigned char*>(av_malloc(kBuffer));
  avio_.reset(avio_alloc_context(buffer, kBuffer, 1, this, nullptr, &writeCallback, &seekCallback));
  if (!avio_) {
    av_free(buffer);
    throw RecordingError("Out of memory while starting the recording.");
  }
  format_ctx_->pb = avio_.get();
  format_ctx_->flags |= AVFMT_FLAG_CUSTOM_IO;

  AVDictionary* opts = nullptr;
  // Fragments: what was written before an interruption plays without the trailer.
  if (mp4) av_dict_set(&opts, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
  int r = avformat_write_header(format_ctx_.get(), &opts);
  av_dict_free(&opts);
  if (r < 0) fail("writing the file header", r);
  headerWritten_ = true;
  avio_flush(format_ctx_->pb);  // the header on disk: every byte after it is frames
  if (format_ctx_->pb->error < 0) fail("writing the file header", format_ctx_->pb->error);
  headerBytes_ = bytes_;

  sws_.reset(sws_getContext(width_, height_, AV_PIX_FMT_RGBA, width_, height_, AV_PIX_FMT_YUV420P,
                            SWS_POINT | SWS_ACCURATE_RND, nullptr, nullptr, nullptr));
  if (!sws_) throw RecordingError("Cannot set up the colour conversion for the recording.");
}

int VideoEncoder::writeCallback(void* opaque, std::uint8_t* buf, int size) {
  auto* self = static_cast<VideoEncoder*>(opaque);
  std::size_t n = static_cast<std::size_t>(size);
  bool full = false;
  const std::uint64_t written = self->bytes_;
  if (self->byteLimit_ && written + n > self->byteLimit_) {
    n = static_cast<std::size_t>(self->byteLimit_ - std::min(written, self->byteLimit_));
    full = true;
  }
  std::size_t done = std::fwrite(buf, 1, n, self->file_.get());
  self->bytes_ += done;
  // Flushed so the bytes are on disk (and the size on screen is true) at any interruption.
  if (std::fflush(self->file_.get()) != 0 || done != n) return AVERROR(EIO);
  return full ? AVERROR(ENOSPC) : size;
}

std::int64_t VideoEncoder::seekCallback(void* opaque, std::int64_t offset, int whence) {
  auto* self = static_cast<VideoEncoder*>(opaque);
  if (whence & AVSEEK_SIZE) return static_cast<std::int64_t>(self->bytes_);
  whence &= ~AVSEEK_FORCE;
  if (std::fseek(self->file_.get(), static_cast<long>(offset), whence) != 0) return AVERROR(errno);
  return std::ftell(self->file_.get());
}

void VideoEncoder::write(const std::uint8_t* rgba, bool bottomUp, std::int64_t pts) {
  if (finished_) throw RecordingError("The recording to " + quoted(path_) + " is closed.");
  AVFrame* f = frame_.get();
  av_frame_unref(f);
  f->format = codec_->pix_fmt;
  f->width = width_;
  f->height = height_;
  if (int r = av_frame_get_buffer(f, 0); r < 0) fail("allocating a frame", r);
  const int stride = srcWidth_ * 4;
  // bottom-up rows: start at the last row (of the cropped frame) and walk backwards.
  const std::uint8_t* first =
      bottomUp ? rgba + static_cast<std::size_t>(srcHeight_ - 1) * stride : rgba;
  const int step = bottomUp ? -stride : stride;
  if (format_ == RecordFormat::PngSequence) {
    for (int y = 0; y < height_; ++y) {
      const std::uint8_t* src = first + static_cast<std::ptrdiff_t>(y) * step;
      std::uint8_t* dst = f->data[0] + static_cast<std::size_t>(y) * f->linesize[0];
      for (int x = 0; x < width_; ++x) std::memcpy(dst + 3 * x, src + 4 * x, 3);
    }
  } else {
    const std::uint8_t* planes[1] = {first};
    int strides[1] = {step};
    sws_scale(sws_.get(), planes, strides, 0, height_, f->data, f->linesize);
  }
  f->pts = pts;
  if (int r = avcodec_send_frame(codec_.get(), f); r < 0)
    fail("encoding frame " + std::to_string(frames_ + 1), r);
  ++frames_;
  drain(false);
}

void VideoEncoder::drain(bool flushing) {
  for (;;) {
    int r = avcodec_receive_packet(codec_.get(), packet_.get());
    if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
    if (r < 0) fail(flushing ? "flushing the encoder" : "encoding", r);
    writePacket(packet_.get());
    av_packet_unref(packet_.get());
  }
}

void VideoEncoder::writePacket(AVPacket* packet) {
  ++packets_;
  if (format_ == RecordFormat::PngSequence) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06ld.png", packets_);
    const auto file = path_ / name;
    const auto tmp = path_ / (std::string(name) + ".part");
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(reinterpret_cast<const char*>(packet->data), packet->size);
      out.flush();
      bool over = byteLimit_ && bytes_ + static_cast<std::uint64_t>(packet->size) > byteLimit_;
      if (!out || over) {
        out.close();
        std::filesystem::remove(tmp);
        fail("writing " + file.string(), over ? AVERROR(ENOSPC) : AVERROR(EIO));
      }
    }
    std::filesystem::rename(tmp, file);  // a frame file is whole or absent
    bytes_ += static_cast<std::uint64_t>(packet->size);
    return;
  }
  packet->duration = 1;  // one frame at the fixed rate
  av_packet_rescale_ts(packet, codec_->time_base, stream_->time_base);
  packet->stream_index = stream_->index;
  if (int r = av_interleaved_write_frame(format_ctx_.get(), packet); r < 0) fail("writing", r);
  if (format_ctx_->pb->error < 0) fail("writing", format_ctx_->pb->error);
}

void VideoEncoder::finish() {
  if (finished_) return;
  finished_ = true;
  if (!codec_) return;
  int r = avcodec_send_frame(codec_.get(), nullptr);
  if (r < 0 && r != AVERROR_EOF) fail("flushing the encoder", r);
  drain(true);
  if (headerWritten_) {
    if ((r = av_write_trailer(format_ctx_.get())) < 0) fail("writing the index", r);
    avio_flush(format_ctx_->pb);
    if (format_ctx_->pb->error < 0) fail("writing the index", format_ctx_->pb->error);
  }
}

}  // namespace gvflab::record
