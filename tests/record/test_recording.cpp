// Recording: frames written through FFmpeg's libraries are decoded back and checked (count,
// size, content); an interrupted recording (a full disk) still plays up to where it stopped;
// the headless --record run is deterministic.
#include <doctest/doctest.h>

#include <QImage>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gvflab/error.hpp"
#include "io/file_formats.hpp"
#include "record/recorder.hpp"
#include "record/video_encoder.hpp"
#include "video_decoder.hpp"

using namespace gvflab;
using namespace gvflab::record;
namespace fs = std::filesystem;

namespace {

const fs::path kWork = fs::path(GVFLAB_BINARY_DIR) / "recording_test";

// Frame i: dark background with a bright square whose x position encodes i.
std::vector<std::uint8_t> syntheticFrame(int w, int h, int i) {
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
      bool in = x >= 8 * i && x < 8 * i + 16 && y >= 16 && y < 32;
      p[0] = in ? 240 : 20;
      p[1] = in ? 200 : static_cast<std::uint8_t>(y);  // a vertical ramp: rows in order
      p[2] = in ? 40 : 60;
      p[3] = 255;
    }
  return rgba;
}

double meanRed(const std::vector<std::uint8_t>& rgb, int w, int x0, int y0, int x1, int y1) {
  double s = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) s += rgb[(static_cast<std::size_t>(y) * w + x) * 3];
  return s / ((x1 - x0) * (y1 - y0));
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void encodeSynthetic(const fs::path& path, RecordFormat format, int w, int h, int frames,
                     std::uint64_t byteLimit = 0, std::string* error = nullptr) {
  EncoderSettings s;
  s.path = path;
  s.format = format;
  s.width = w;
  s.height = h;
  s.byteLimit = byteLimit;
  Recorder rec(s, /*deterministic=*/true);
  for (int i = 0; i < frames; ++i) rec.push(syntheticFrame(w, h, i), false, i);
  std::string message = rec.stop();
  if (error) *error = message;
}

}  // namespace

TEST_CASE("the output path chooses the format") {
  // The name picks the muxer (io/file_formats.cpp), the muxer the encoder.
  const auto formatForPath = [](const std::string& path) {
    return formatForMuxer(app::recordingMuxer(path));
  };
  CHECK(formatForPath("a/b.mp4") == RecordFormat::Mp4);
  CHECK(formatForPath("B.WEBM") == RecordFormat::WebM);
  CHECK(formatForPath("frames/") == RecordFormat::PngSequence);
  CHECK_THROWS_AS(formatForPath("movie.avi"), ParameterError);
}

TEST_CASE("MP4 and WebM recordings decode to the frames that were written") {
  fs::create_directories(kWork);
  const int w = 96, h = 64, n = 10;
  for (auto [name, format] : {std::pair{"synthetic.mp4", RecordFormat::Mp4},
                              std::pair{"synthetic.webm", RecordFormat::WebM}}) {
    CAPTURE(name);
    const fs::path path = kWork / name;
    std::string message;
    encodeSynthetic(path, format, w, h, n, 0, &message);
    CHECK(message.find("Recorded 10 frames") != std::string::npos);
    auto video = test::decodeVideo(path.string());
    REQUIRE(video.error.empty());
    CHECK(video.width == w);
    CHECK(video.height == h);
    REQUIRE(video.frames.size() == n);
    for (int i : {0, 4, 9}) {
      // The square is where frame i put it, and not where frame 0 had it.
      CHECK(meanRed(video.frames[i], w, 8 * i + 3, 19, 8 * i + 13, 29) > 180);
      if (i > 1) CHECK(meanRed(video.frames[i], w, 3, 19, 13, 29) < 60);
    }
    // Rows are in order (not flipped): the ramp is dark at the top.
    CHECK(video.frames[0][(2 * w + 80) * 3 + 1] < video.frames[0][(60 * w + 80) * 3 + 1]);
  }
}

TEST_CASE("a PNG sequence holds one exact image per frame") {
  const fs::path dir = kWork / "png/";
  fs::remove_all(dir);
  encodeSynthetic(dir, RecordFormat::PngSequence, 40, 36, 3);
  for (int i = 1; i <= 3; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.png", i);
    QImage img(QString::fromStdString((dir / name).string()));
    REQUIRE(!img.isNull());
    CHECK(img.width() == 40);
    CHECK(img.height() == 36);
    CHECK(qRed(img.pixel(8 * (i - 1) + 2, 20)) == 240);  // lossless
  }
  CHECK_FALSE(fs::exists(dir / "frame_000004.png"));
}

TEST_CASE("a full disk stops the recording with a sentence and a playable file") {
  const fs::path path = kWork / "full.mp4";
  std::string message;
  // Three seconds at 30 fps (three one-second fragments); the "disk" holds about half.
  encodeSynthetic(path, RecordFormat::Mp4, 96, 64, 90);
  const auto limit = fs::file_size(path) / 2;
  encodeSynthetic(path, RecordFormat::Mp4, 96, 64, 90, limit, &message);
  MESSAGE(message);
  CHECK(message.find("disk is full") != std::string::npos);
  CHECK(message.find("full.mp4") != std::string::npos);
  CHECK(fs::file_size(path) <= limit);
  auto video = test::decodeVideo(path.string());
  CHECK(video.frames.size() >= 1);
  CHECK(video.frames.size() < 90);
  if (!video.frames.empty()) CHECK(meanRed(video.frames[0], 96, 3, 19, 13, 29) > 180);
}

TEST_CASE("a recording whose header cannot be written leaves no file and no open handle") {
  fs::create_directories(kWork);
  const fs::path path = kWork / "no_header.mp4";
  fs::remove(path);
  EncoderSettings s;
  s.path = path;
  s.width = 96;
  s.height = 64;
  s.byteLimit = 16;  // the "disk" is full before the container header fits
  CHECK_THROWS_AS(Recorder(s, true), RecordingError);
  CHECK_FALSE(fs::exists(path));  // under the asan preset, LeakSanitizer checks the FILE too
}

TEST_CASE("a recording that fails before any frame reached the file leaves no file") {
  fs::create_directories(kWork);
  for (auto [name, format] :
       {std::pair{"short.mp4", RecordFormat::Mp4}, std::pair{"short.webm", RecordFormat::WebM}}) {
    CAPTURE(name);
    const fs::path path = kWork / name;
    // The header fits, nothing after it does.
    std::uint64_t header = 0;
    {
      EncoderSettings s;
      s.path = path;
      s.format = format;
      s.width = 96;
      s.height = 64;
      VideoEncoder probe(s);
      header = probe.bytesWritten();
    }
    std::string message;
    REQUIRE(header > 0);
    encodeSynthetic(path, format, 96, 64, 10, header, &message);
    MESSAGE(message);
    CHECK(message.find("disk is full") != std::string::npos);
    CHECK(message.find("No frame was recorded") != std::string::npos);
    CHECK_FALSE(fs::exists(path));
  }
}

TEST_CASE("headless recording to a bad output: a sentence, no file, no sanitizer report") {
  const fs::path dir = kWork / "bad_outputs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path err = kWork / "bad_outputs.stderr";
  // Under the asan preset LeakSanitizer reports into stderr what these error paths leak.
  for (const std::string out : {"x.avi", "noext", "missing/dir/x.mp4"}) {
    CAPTURE(out);
    const std::string cmd = "cd " + dir.string() + " && " + GVFLAB_EXE +
                            " --headless --phantom u --phantom-size 32 --frames 2 --size 64x48"
                            " --record " +
                            out + " > /dev/null 2> " + err.string();
    CHECK(std::system(cmd.c_str()) != 0);
    const std::string text = readFile(err);
    CHECK(text.find("gvflab: ") != std::string::npos);
    CHECK(text.find("Sanitizer") == std::string::npos);
    CHECK(text.find("runtime error") == std::string::npos);
    CHECK(fs::is_empty(dir));
  }
}

TEST_CASE("headless recording: right frames, size and content, and the same every time") {
  fs::create_directories(kWork);
  const std::string exe = GVFLAB_EXE;
  const fs::path mp4 = kWork / "u.mp4", pngA = kWork / "runA/", pngB = kWork / "runB/";
  fs::remove_all(pngA);
  fs::remove_all(pngB);
  const std::string common =
      " --headless --phantom u --phantom-size 96 --frames 12 --steps-per-frame 15 --size 160x120";
  REQUIRE(std::system((exe + common + " --record " + mp4.string() + " > /dev/null 2>&1").c_str()) ==
          0);
  REQUIRE(std::system(
              (exe + common + " --record " + pngA.string() + " > /dev/null 2>&1").c_str()) == 0);
  REQUIRE(std::system(
              (exe + common + " --record " + pngB.string() + " > /dev/null 2>&1").c_str()) == 0);

  auto video = test::decodeVideo(mp4.string());
  REQUIRE(video.error.empty());
  CHECK(video.width == 160);
  CHECK(video.height == 120);
  REQUIRE(video.frames.size() == 12);
  // The field diffuses: the first and the last frame differ visibly.
  double diff = 0;
  for (std::size_t i = 0; i < video.frames[0].size(); ++i)
    diff += std::abs(video.frames[0][i] - video.frames[11][i]);
  diff /= static_cast<double>(video.frames[0].size());
  MESSAGE("mean |first - last| = " << diff);
  CHECK(diff > 2.0);

  // Deterministic: two runs give byte-identical frames, and the video matches them closely.
  for (int i = 1; i <= 12; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.png", i);
    REQUIRE(fs::exists(pngA / name));
    CHECK(readFile(pngA / name) == readFile(pngB / name));
  }
  QImage last(QString::fromStdString((pngA / "frame_000012.png").string()));
  last = last.convertToFormat(QImage::Format_RGB888);
  // Luma PSNR: 4:2:0 video halves the chroma resolution, which thin arrows feel most.
  auto lumaPsnr = [&](const std::vector<std::uint8_t>& decoded) {
    double mse = 0;
    for (int y = 0; y < 120; ++y)
      for (int x = 0; x < 160; ++x) {
        const uchar* a = last.constScanLine(y) + 3 * x;
        const std::uint8_t* b = &decoded[(static_cast<std::size_t>(y) * 160 + x) * 3];
        double d = (0.299 * a[0] + 0.587 * a[1] + 0.114 * a[2]) -
                   (0.299 * b[0] + 0.587 * b[1] + 0.114 * b[2]);
        mse += d * d;
      }
    mse /= 160.0 * 120;
    return 10 * std::log10(255.0 * 255.0 / std::max(mse, 1e-9));
  };
  const double same = lumaPsnr(video.frames[11]), other = lumaPsnr(video.frames[0]);
  MESSAGE("luma PSNR of decoded frame 12 against PNG frame 12: " << same << " dB; of frame 1: "
                                                                 << other << " dB");
  CHECK(same > 30.0);
  CHECK(same > other + 5.0);  // the metric tells frames apart
}
