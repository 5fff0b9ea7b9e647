#pragma once
// Feeds Qt input events to Dear ImGui 1.86, which still has the old input API (io.MousePos,
// io.MouseDown[], io.MouseWheel, io.KeysDown[] with io.KeyMap, io.AddInputCharacter). Every
// event of the view goes through handleEvent; the view then acts on mouse or keys only when
// ImGui does not want them (!io.WantCaptureMouse / !io.WantCaptureKeyboard).
class QEvent;
class QWidget;

namespace gvflab::viewer {

class ImGuiQtBridge {
 public:
  // Call once, after ImGui::CreateContext(): key map, clipboard, fonts.
  static void setup(float fontPixels);
  static void handleEvent(const QEvent* event);
  // Display size in logical pixels, the device pixel ratio and the frame's seconds.
  static void newFrame(int width, int height, float devicePixelRatio, float deltaSeconds);
  // Shows ImGui's wanted mouse cursor on widget.
  static void applyCursor(QWidget* widget);
};

}  // namespace gvflab::viewer
