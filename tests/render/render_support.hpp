#pragma once
// Offscreen GL for render tests: one application and one current 3.3 core context per test
// binary, the SSIM-like metric, and the baseline rule (a missing baseline is written and the
// test fails). The same helpers as test_render.cpp's, shared by the newer render tests.
#include <doctest/doctest.h>

#include <QGuiApplication>
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "viewer/render/surface_format.hpp"

namespace gvflab::test {

struct GlEnvironment {
  GlEnvironment() {
    static int argc = 1;
    static char name[] = "render_test";
    static char* argv[] = {name, nullptr};
    QSurfaceFormat::setDefaultFormat(viewer::viewerSurfaceFormat());
    app = std::make_unique<QGuiApplication>(argc, argv);
    surface = std::make_unique<QOffscreenSurface>();
    surface->setFormat(viewer::viewerSurfaceFormat());
    surface->create();
    context = std::make_unique<QOpenGLContext>();
    context->setFormat(viewer::viewerSurfaceFormat());
    ok = context->create() && context->makeCurrent(surface.get()) &&
         context->format().version() >= qMakePair(3, 3) &&
         context->format().profile() == QSurfaceFormat::CoreProfile;
  }
  std::unique_ptr<QGuiApplication> app;
  std::unique_ptr<QOffscreenSurface> surface;
  std::unique_ptr<QOpenGLContext> context;
  bool ok = false;
};

inline GlEnvironment& glEnvironment() {
  static GlEnvironment env;
  return env;
}

inline std::vector<double> luminance(const QImage& image) {
  QImage rgb = image.convertToFormat(QImage::Format_RGB888);
  std::vector<double> y(static_cast<std::size_t>(rgb.width()) * rgb.height());
  for (int r = 0; r < rgb.height(); ++r) {
    const uchar* line = rgb.constScanLine(r);
    for (int c = 0; c < rgb.width(); ++c)
      y[static_cast<std::size_t>(r) * rgb.width() + c] =
          0.299 * line[3 * c] + 0.587 * line[3 * c + 1] + 0.114 * line[3 * c + 2];
  }
  return y;
}

// Mean SSIM (Wang et al. 2004 constants) over non-overlapping 8x8 windows of luminance.
inline double meanSsim(const QImage& a, const QImage& b) {
  REQUIRE(a.size() == b.size());
  auto ya = luminance(a), yb = luminance(b);
  const int w = a.width(), h = a.height(), n = 8;
  const double c1 = std::pow(0.01 * 255, 2), c2 = std::pow(0.03 * 255, 2);
  double sum = 0;
  int windows = 0;
  for (int y0 = 0; y0 + n <= h; y0 += n)
    for (int x0 = 0; x0 + n <= w; x0 += n) {
      double ma = 0, mb = 0, va = 0, vb = 0, cov = 0;
      for (int y = y0; y < y0 + n; ++y)
        for (int x = x0; x < x0 + n; ++x) ma += ya[y * w + x], mb += yb[y * w + x];
      ma /= n * n;
      mb /= n * n;
      for (int y = y0; y < y0 + n; ++y)
        for (int x = x0; x < x0 + n; ++x) {
          double da = ya[y * w + x] - ma, db = yb[y * w + x] - mb;
          va += da * da, vb += db * db, cov += da * db;
        }
      va /= n * n - 1, vb /= n * n - 1, cov /= n * n - 1;
      sum += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      ++windows;
    }
  return sum / windows;
}

inline double stddev(const std::vector<double>& v) {
  double m = 0, s = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

// Mean SSIM of image against tests/baselines/<name>; writes the baseline and fails when it is
// missing, and saves <name>.actual.png in the build tree when below threshold.
inline double compareWithBaseline(const QImage& image, const std::string& name,
                                  double threshold = 0.97) {
  const auto baseline = std::filesystem::path(GVFLAB_SOURCE_DIR) / "tests/baselines" / name;
  const QString path = QString::fromStdString(baseline.string());
  if (!std::filesystem::exists(baseline)) {
    std::filesystem::create_directories(baseline.parent_path());
    image.save(path, "PNG");
    FAIL("no baseline: wrote " << baseline.string() << "; check it by eye and run again");
  }
  QImage expected(path);
  REQUIRE_MESSAGE(!expected.isNull(), "cannot read " << baseline.string());
  const double ssim = meanSsim(image, expected);
  std::printf("mean SSIM against %s: %.4f\n", name.c_str(), ssim);
  if (ssim < threshold) {
    const auto actual = std::filesystem::path(GVFLAB_BINARY_DIR) / (name + ".actual.png");
    image.save(QString::fromStdString(actual.string()), "PNG");
    MESSAGE("rendered image saved to " << actual.string());
  }
  CHECK(ssim >= threshold);
  return ssim;
}

}  // namespace gvflab::test
