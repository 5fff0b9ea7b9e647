#include "io/qt_messages.hpp"

#include <QString>
#include <atomic>
#include <mutex>

namespace gvflab::app {
namespace {

std::mutex mutex;
std::vector<std::string> lines;

void keep(QtMsgType, const QMessageLogContext&, const QString& text) {
  std::lock_guard<std::mutex> lock(mutex);
  if (lines.size() < 64) lines.push_back(text.trimmed().toStdString());
}

QtMessageHandler qtDefault = nullptr;
std::atomic<bool> qtQuiet{false};

void filtered(QtMsgType type, const QMessageLogContext& context, const QString& text) {
  if (qtQuiet && type != QtCriticalMsg && type != QtFatalMsg) return;
  if (type == QtWarningMsg && text.startsWith("QStandardPaths: XDG_RUNTIME_DIR not set")) return;
  if (qtDefault) qtDefault(type, context, text);
}

}  // namespace

void dropQtRuntimeDirWarning() { qtDefault = qInstallMessageHandler(filtered); }

void setQtMessagesQuiet(bool quiet) { qtQuiet = quiet; }

QtMessageCapture::QtMessageCapture() {
  std::lock_guard<std::mutex> lock(mutex);
  lines.clear();
  previous_ = qInstallMessageHandler(keep);
}

QtMessageCapture::~QtMessageCapture() { qInstallMessageHandler(previous_); }

std::string QtMessageCapture::last() const {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (!it->empty()) return *it;
  return {};
}

std::string QtMessageCapture::find(std::initializer_list<const char*> texts) const {
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& line : lines)
    for (const char* text : texts)
      if (line.find(text) != std::string::npos) return line;
  return {};
}

}  // namespace gvflab::app
