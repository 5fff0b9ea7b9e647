#pragma once
// Small move-only owners for GL names, so every texture, buffer, vertex array and program is
// released exactly once. They must be created and destroyed with the GL context current.
#include <QOpenGLFunctions_3_3_Core>
#include <string_view>
#include <utility>

namespace gvflab::viewer {

// The 3.3 core functions of the current context (throws gvflab::DeviceError without one).
QOpenGLFunctions_3_3_Core& gl();

// One GL name plus the function that deletes it.
template <void (*Delete)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint id) : id_(id) {}
  ~GlName() { reset(); }
  GlName(GlName&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlName& operator=(GlName&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_ != 0) Delete(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

void deleteTexture(GLuint id);
void deleteBuffer(GLuint id);
void deleteVertexArray(GLuint id);
void deleteProgram(GLuint id);

using GlTexture = GlName<deleteTexture>;
using GlBuffer = GlName<deleteBuffer>;
using GlVertexArray = GlName<deleteVertexArray>;
using GlProgram = GlName<deleteProgram>;

// A 2D texture sampled with `filter` both ways, its edges clamped (left unbound).
GlTexture makeTexture(GLint filter = GL_LINEAR);
GlBuffer makeBuffer();
GlVertexArray makeVertexArray();
// Uploads a width x height image into texture (rows aligned to `alignment` bytes), allocating
// its storage only when that size differs from the texture's, texWidth x texHeight (updated).
void uploadTexture(const GlTexture& texture, int& texWidth, int& texHeight, GLint internalFormat,
                   GLenum format, GLenum type, int width, int height, const void* data,
                   int alignment = 4);

// Links a program from two embedded shader files (shaders/*.glsl). Throws
// gvflab::DeviceError carrying the file name and the compiler or linker log.
GlProgram makeProgram(std::string_view vertexFile, std::string_view fragmentFile);

// The text of an embedded shader file; throws gvflab::DeviceError for an unknown name.
std::string_view shaderSource(std::string_view file);

}  // namespace gvflab::viewer
