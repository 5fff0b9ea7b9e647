#pragma once
// The test binary's one QCoreApplication (Qt's image plugins want one; a second, made by
// another test file, crashed the binary at exit).
#include <QCoreApplication>

namespace gvflab::test {

inline QCoreApplication& qtApp() {
  static int argc = 1;
  static char name[] = "test_app";
  static char* argv[] = {name, nullptr};
  static QCoreApplication app(argc, argv);
  return app;
}

}  // namespace gvflab::test
