#pragma once
// One thing drawn on the view, with its own GL objects: the image, the |V| map, the arrows,
// the streamlines, the snakes. A layer says what it is (a static info(), model/layer_info.hpp)
// and draws from a LayerFrame; LayerStack (layer_stack.hpp) makes every registered layer
// (layer_registry.cpp) and draws them in order, for the live view and for figures alike.
#include <Qt>
#include <vector>

#include "viewer/model/layer_info.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

// A rectangle of the framebuffer in GL convention (origin bottom-left).
struct Viewport {
  int x = 0, y = 0, width = 0, height = 0;
};

// A texture and its size; texture 0: none.
struct TextureRef {
  GLuint texture = 0;
  int width = 0;
  int height = 0;
};
using FieldTextureRef = TextureRef;  // RG32F, one float2 per pixel

struct SnakeScene;  // snake_layer.hpp

// What the layers draw from, one frame. GL context current.
struct LayerFrame {
  Viewport area;  // framebuffer pixels
  const ViewTransform& view;
  const LayerSettings& settings;
  TextureRef image;    // R32F: the picture under the field; texture 0: none
  TextureRef field;    // RG32F; texture 0: no field yet
  float rangeMax = 1;  // |V| drawn as the last colour (and as a full-length arrow)
  const std::vector<float>* hostField = nullptr;  // float2 per pixel (Presenter::hostField)
  long fieldVersion = 0;                          // bumped when hostField changed
  bool fieldHidden = false;                       // a mode hides the field
  const SnakeScene* snakes = nullptr;             // null: no snakes on this picture
};

class Layer {
 public:
  virtual ~Layer() = default;
  // Whether its data is there this frame (its switch in LayerSettings is checked before).
  virtual bool ready(const LayerFrame&) const { return true; }
  // Draws over what is there; sets the GL state it needs. GL context current; throws
  // DeviceError on GL failures.
  virtual void draw(const LayerFrame& frame) = 0;
};

// Shared by the layers' draw code: a uniform's location, and the image-to-NDC transform.
inline GLint uniformAt(GLuint program, const char* name) {
  return gl().glGetUniformLocation(program, name);
}
inline void setImageToNdc(GLuint program, const ViewTransform& view) {
  const auto m = view.imageToNdc();
  gl().glUniform4f(uniformAt(program, "uImageToNdc"), m[0], m[1], m[2], m[3]);
}

// Attribute 0 of vao read as packed vec2s from buffer (both left unbound).
inline void setVec2Attribute(const GlVertexArray& vao, const GlBuffer& buffer) {
  auto& f = gl();
  f.glBindVertexArray(vao.id());
  f.glBindBuffer(GL_ARRAY_BUFFER, buffer.id());
  f.glEnableVertexAttribArray(0);
  f.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  f.glBindVertexArray(0);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

// Lines over the picture: drawn into viewport only, alpha-blended; endOverlayDraw undoes it and
// unbinds the array buffer, the vertex array and the program.
inline void beginOverlayDraw(const Viewport& viewport) {
  auto& f = gl();
  f.glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  f.glEnable(GL_SCISSOR_TEST);
  f.glScissor(viewport.x, viewport.y, viewport.width, viewport.height);
  f.glEnable(GL_BLEND);
  f.glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
}
inline void endOverlayDraw() {
  auto& f = gl();
  f.glDisable(GL_SCISSOR_TEST);
  f.glDisable(GL_BLEND);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);
  f.glBindVertexArray(0);
  f.glUseProgram(0);
}

}  // namespace gvflab::viewer
