#include "viewer/ui/imgui_qt_bridge.hpp"

#include <imgui.h>

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>
#include <algorithm>
#include <cfloat>
#include <iterator>
#include <string>

namespace gvflab::viewer {
namespace {

// Qt codes Latin-1 keys by their character (< 256); the rest go to 256 + their row here, so
// every key has an index in io.KeysDown[512].
constexpr struct {
  int qt;
  ImGuiKey imgui;
} kSpecialKeys[] = {
    {Qt::Key_Tab, ImGuiKey_Tab},           {Qt::Key_Left, ImGuiKey_LeftArrow},
    {Qt::Key_Right, ImGuiKey_RightArrow},  {Qt::Key_Up, ImGuiKey_UpArrow},
    {Qt::Key_Down, ImGuiKey_DownArrow},    {Qt::Key_PageUp, ImGuiKey_PageUp},
    {Qt::Key_PageDown, ImGuiKey_PageDown}, {Qt::Key_Home, ImGuiKey_Home},
    {Qt::Key_End, ImGuiKey_End},           {Qt::Key_Insert, ImGuiKey_Insert},
    {Qt::Key_Delete, ImGuiKey_Delete},     {Qt::Key_Backspace, ImGuiKey_Backspace},
    {Qt::Key_Return, ImGuiKey_Enter},      {Qt::Key_Escape, ImGuiKey_Escape},
    {Qt::Key_Enter, ImGuiKey_KeyPadEnter}, {Qt::Key_Backtab, ImGuiKey_COUNT},
};

int keyIndex(int qtKey) {
  if (qtKey >= 0 && qtKey < 256) return qtKey;
  for (int i = 0; i < static_cast<int>(std::size(kSpecialKeys)); ++i)
    if (kSpecialKeys[i].qt == qtKey) return 256 + i;
  return -1;
}

int mouseButton(Qt::MouseButton b) {
  const Qt::MouseButton order[] = {Qt::LeftButton, Qt::RightButton, Qt::MiddleButton};
  const auto* at = std::find(std::begin(order), std::end(order), b);
  return at == std::end(order) ? -1 : static_cast<int>(at - std::begin(order));
}

void setModifiers(ImGuiIO& io, Qt::KeyboardModifiers m) {
  io.KeyCtrl = m & Qt::ControlModifier;
  io.KeyShift = m & Qt::ShiftModifier;
  io.KeyAlt = m & Qt::AltModifier;
  io.KeySuper = m & Qt::MetaModifier;
}

}  // namespace

void ImGuiQtBridge::setup(float fontPixels) {
  ImGuiIO& io = ImGui::GetIO();
  io.BackendPlatformName = "gvflab_qt";
  io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
  io.IniFilename = nullptr;  // layout is fixed by the viewer, nothing to remember
  for (int i = 0; i < static_cast<int>(std::size(kSpecialKeys)); ++i)
    if (kSpecialKeys[i].imgui != ImGuiKey_COUNT) io.KeyMap[kSpecialKeys[i].imgui] = 256 + i;
  const ImGuiKey typed[] = {ImGuiKey_Space, ImGuiKey_A, ImGuiKey_C, ImGuiKey_V,
                            ImGuiKey_X,     ImGuiKey_Y, ImGuiKey_Z};
  for (int i = 0; i < static_cast<int>(std::size(typed)); ++i) io.KeyMap[typed[i]] = " ACVXYZ"[i];

  io.SetClipboardTextFn = [](void*, const char* text) {
    QGuiApplication::clipboard()->setText(QString::fromUtf8(text));
  };
  io.GetClipboardTextFn = [](void*) -> const char* {
    static std::string text;  // ImGui reads it after the call
    text = QGuiApplication::clipboard()->text().toStdString();
    return text.c_str();
  };

  // A scalable font with the Greek letters of μ, σ, ε; ImGui's built-in one otherwise.
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2190,
                                   0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  for (const char* path :
       {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf"}) {
    if (QFile::exists(path) && io.Fonts->AddFontFromFileTTF(path, fontPixels, nullptr, ranges))
      return;
  }
  io.Fonts->AddFontDefault();
}

void ImGuiQtBridge::handleEvent(const QEvent* event) {
  ImGuiIO& io = ImGui::GetIO();
  switch (event->type()) {
    case QEvent::MouseMove:
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseButtonRelease: {
      const auto* e = static_cast<const QMouseEvent*>(event);
      io.MousePos =
          ImVec2(static_cast<float>(e->position().x()), static_cast<float>(e->position().y()));
      int b = mouseButton(e->button());
      if (b >= 0 && event->type() != QEvent::MouseMove)
        io.MouseDown[b] = event->type() != QEvent::MouseButtonRelease;
      setModifiers(io, e->modifiers());
      break;
    }
    case QEvent::Wheel: {
      const auto* e = static_cast<const QWheelEvent*>(event);
      io.MouseWheel += static_cast<float>(e->angleDelta().y()) / 120.0f;
      io.MouseWheelH += static_cast<float>(e->angleDelta().x()) / 120.0f;
      break;
    }
    case QEvent::Leave:
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
      break;
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
      const auto* e = static_cast<const QKeyEvent*>(event);
      bool down = event->type() == QEvent::KeyPress;
      int index = keyIndex(e->key());
      if (index >= 0) io.KeysDown[index] = down;
      setModifiers(io, e->modifiers());
      if (down)
        for (QChar c : e->text())
          if (c.isPrint()) io.AddInputCharacterUTF16(c.unicode());
      break;
    }
    case QEvent::FocusIn:
    case QEvent::FocusOut:
      io.AddFocusEvent(event->type() == QEvent::FocusIn);
      break;
    default:
      break;
  }
}

void ImGuiQtBridge::newFrame(int width, int height, float devicePixelRatio, float deltaSeconds) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  io.DisplayFramebufferScale = ImVec2(devicePixelRatio, devicePixelRatio);
  io.DeltaTime = deltaSeconds > 0 ? deltaSeconds : 1.0f / 60.0f;
}

void ImGuiQtBridge::applyCursor(QWidget* widget) {
  static constexpr std::pair<ImGuiMouseCursor, Qt::CursorShape> kShapes[] = {
      {ImGuiMouseCursor_TextInput, Qt::IBeamCursor},
      {ImGuiMouseCursor_ResizeAll, Qt::SizeAllCursor},
      {ImGuiMouseCursor_ResizeNS, Qt::SizeVerCursor},
      {ImGuiMouseCursor_ResizeEW, Qt::SizeHorCursor},
      {ImGuiMouseCursor_ResizeNESW, Qt::SizeBDiagCursor},
      {ImGuiMouseCursor_ResizeNWSE, Qt::SizeFDiagCursor},
      {ImGuiMouseCursor_Hand, Qt::PointingHandCursor},
      {ImGuiMouseCursor_NotAllowed, Qt::ForbiddenCursor}};
  Qt::CursorShape shape = Qt::ArrowCursor;
  for (const auto& [cursor, qt] : kShapes)
    if (cursor == ImGui::GetMouseCursor()) shape = qt;
  if (widget->cursor().shape() != shape) widget->setCursor(shape);
}

}  // namespace gvflab::viewer
