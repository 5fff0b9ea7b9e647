#pragma once
// Qt's image plugins report problems through qWarning (libpng's and libjpeg's own lines end up
// there too): while a QtMessageCapture lives, those lines are kept for our sentence instead of
// going to stderr. One at a time (Qt's handler is process-wide).
#include <QtGlobal>
#include <initializer_list>
#include <string>

namespace gvflab::app {

// Installs, once at start-up, a handler that drops Qt's line about XDG_RUNTIME_DIR (unset for
// root under xvfb-run, where Qt then uses /tmp/runtime-root: nothing for the user to do) and
// passes every other message to Qt's default handler.
void dropQtRuntimeDirWarning();
// --quiet: Qt's own debug, info and warning lines are dropped too (criticals still shown).
void setQtMessagesQuiet(bool quiet);

class QtMessageCapture {
 public:
  QtMessageCapture();
  ~QtMessageCapture();
  QtMessageCapture(const QtMessageCapture&) = delete;
  QtMessageCapture& operator=(const QtMessageCapture&) = delete;
  // The last line captured, trimmed ("" when none).
  std::string last() const;
  // The first line captured that contains one of these texts ("" when none).
  std::string find(std::initializer_list<const char*> texts) const;

 private:
  QtMessageHandler previous_;
};

}  // namespace gvflab::app
