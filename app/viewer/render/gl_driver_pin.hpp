#pragma once
// LeakSanitizer builds only: keeps the GL driver modules (Mesa's *_dri.so) loaded until exit.
// Mesa unloads its DRI driver when the last context goes; LeakSanitizer then no longer sees the
// driver's globals and reports the blocks they held as leaks from an "<unknown module>", which
// no suppression can name. In other builds this does nothing.
namespace gvflab::viewer {

// Call with a GL context made current (the driver is loaded then).
void pinGlDriverModules();

}  // namespace gvflab::viewer
