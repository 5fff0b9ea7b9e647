#include "viewer/window/startup_splash.hpp"

#include <QApplication>
#include <QPainter>
#include <QPixmap>

#include "gvflab/kernel_library.hpp"

namespace gvflab::viewer {

namespace {

QPixmap splashPicture() {
  QPixmap picture(560, 150);
  picture.fill(QColor(28, 28, 33));
  QPainter p(&picture);
  p.setPen(QColor(235, 235, 240));
  QFont title = p.font();
  title.setPointSize(20);
  title.setBold(true);
  p.setFont(title);
  p.drawText(QRect(20, 14, 520, 40), Qt::AlignLeft | Qt::AlignVCenter, "gvflab");
  QFont body = p.font();
  body.setPointSize(10);
  body.setBold(false);
  p.setFont(body);
  p.setPen(QColor(170, 170, 180));
  p.drawText(QRect(20, 54, 520, 40), Qt::AlignLeft | Qt::TextWordWrap,
             "Gradient vector flow and snakes. The first start compiles the OpenCL kernels; "
             "later starts take them from the compiler's cache.");
  return picture;
}

}  // namespace

StartupSplash::StartupSplash() : splash_(splashPicture()) {
  clock_.start();
  splash_.show();
  say("Starting OpenCL...");
  KernelLibrary::setBuildObserver([this](const std::string& file) {
    ++compiled_;
    say(QString::asprintf("Compiling OpenCL kernels: %s (%d so far, %.1f s)", file.c_str(),
                          compiled_, clock_.elapsed() / 1000.0));
  });
}

StartupSplash::~StartupSplash() { stopObserving(); }

void StartupSplash::stopObserving() { KernelLibrary::setBuildObserver({}); }

void StartupSplash::say(const QString& line) {
  splash_.showMessage(line, Qt::AlignLeft | Qt::AlignBottom, QColor(255, 200, 90));
  QApplication::processEvents();
}

}  // namespace gvflab::viewer
