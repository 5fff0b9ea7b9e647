#pragma once
// One thing drawn on the view, with its own GL objects: the image, the |V| map, the arrows,
// the streamlines, the snakes. A layer says what it is (a static info(), model/layer_info.hpp)
// and draws from a LayerFrame; LayerStack (layer_stack.hpp) makes every registered layer
// (layer_registry.cpp) and draws them in order, for the live view and for figures alike.
#include <Qt>
#include <glm/vec2.hpp>
#include <string_view>
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
  // Draws over what is there, blended (beginOverlayDraw, set by the pass); sets the other GL
  // state it needs. GL context current; throws DeviceError on GL failures.
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

// Layers drawn into viewport only, alpha-blended; endOverlayDraw undoes it and unbinds the array
// buffer, the vertex array and the program.
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

// A program of image_quad.vert.glsl and a fragment shader, drawn on the image's quad.
class ImageQuad {
 public:
  explicit ImageQuad(std::string_view fragmentFile)
      : program_(makeProgram("image_quad.vert.glsl", fragmentFile)), vao_(makeVertexArray()) {}
  GLuint program() const { return program_.id(); }
  // With the program in use and its own uniforms set: the quad where view puts the image.
  void draw(const ViewTransform& view) const {
    auto& f = gl();
    f.glUniform2f(uniformAt(program_.id(), "uImageSize"), view.imageSize.x, view.imageSize.y);
    setImageToNdc(program_.id(), view);
    f.glBindVertexArray(vao_.id());
    f.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }

 private:
  GlProgram program_;
  GlVertexArray vao_;  // no attributes: corners come from gl_VertexID
};

// The snake shaders over one buffer of vec2s in image pixels: the snakes, the streamlines and
// the surfaces' cuts draw their lines and dots through it. GL context current.
class LineProgram {
 public:
  LineProgram()
      : program_(makeProgram("snake.vert.glsl", "snake.frag.glsl")),
        vao_(makeVertexArray()),
        vbo_(makeBuffer()) {
    setVec2Attribute(vao_, vbo_);
  }
  // beginOverlayDraw, the program with view's transform and the buffer bound; endOverlayDraw
  // ends it.
  void begin(const Viewport& viewport, const ViewTransform& view) const {
    auto& f = gl();
    beginOverlayDraw(viewport);
    f.glUseProgram(program_.id());
    setImageToNdc(program_.id(), view);
    f.glBindVertexArray(vao_.id());
    f.glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  }
  // Fills the buffer (left bound) with pts.
  void upload(const std::vector<glm::vec2>& pts, GLenum usage = GL_STREAM_DRAW) const {
    gl().glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
    gl().glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(pts.size() * sizeof(glm::vec2)),
                      pts.data(), usage);
  }
  void setStyle(const float color[4], float pointSize = 1, bool round = false) const {
    auto& f = gl();
    f.glUniform4f(uniformAt(program_.id(), "uColor"), color[0], color[1], color[2], color[3]);
    f.glUniform1f(uniformAt(program_.id(), "uPointSize"), pointSize);
    f.glUniform1i(uniformAt(program_.id(), "uRound"), round ? 1 : 0);
  }
  // After begin: pts drawn as mode in that style (nothing for none).
  void draw(GLenum mode, const std::vector<glm::vec2>& pts, const float color[4],
            float pointSize = 1, bool round = false) const {
    if (pts.empty()) return;
    upload(pts);
    setStyle(color, pointSize, round);
    gl().glDrawArrays(mode, 0, static_cast<GLsizei>(pts.size()));
  }

 private:
  GlProgram program_;
  GlVertexArray vao_;
  GlBuffer vbo_;
};

}  // namespace gvflab::viewer
