#include "viewer/render/gl_resources.hpp"

#include <QOpenGLContext>
#include <QOpenGLVersionFunctionsFactory>
#include <algorithm>
#include <vector>

#include "gvflab/error.hpp"

namespace gvflab::embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& shaderSources();
}

namespace gvflab::viewer {

QOpenGLFunctions_3_3_Core& gl() {
  QOpenGLContext* context = QOpenGLContext::currentContext();
  if (!context) throw DeviceError("No OpenGL context is current.");
  auto* f = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(context);
  if (!f) throw DeviceError("The OpenGL context does not provide OpenGL 3.3 core.");
  return *f;
}

void deleteTexture(GLuint id) { gl().glDeleteTextures(1, &id); }
void deleteBuffer(GLuint id) { gl().glDeleteBuffers(1, &id); }
void deleteVertexArray(GLuint id) { gl().glDeleteVertexArrays(1, &id); }
void deleteProgram(GLuint id) { gl().glDeleteProgram(id); }

GlTexture makeTexture(GLint filter) {
  GLuint id = 0;
  auto& f = gl();
  f.glGenTextures(1, &id);
  f.glBindTexture(GL_TEXTURE_2D, id);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  return GlTexture(id);
}

GlBuffer makeBuffer() {
  GLuint id = 0;
  gl().glGenBuffers(1, &id);
  return GlBuffer(id);
}

GlVertexArray makeVertexArray() {
  GLuint id = 0;
  gl().glGenVertexArrays(1, &id);
  return GlVertexArray(id);
}

void uploadTexture(const GlTexture& texture, int& texWidth, int& texHeight, GLint internalFormat,
                   GLenum format, GLenum type, int width, int height, const void* data,
                   int alignment) {
  auto& f = gl();
  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  f.glBindTexture(GL_TEXTURE_2D, texture.id());
  f.glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  if (width != texWidth || height != texHeight) {
    f.glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, width, height, 0, format, type, data);
    texWidth = width;
    texHeight = height;
  } else {
    f.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, format, type, data);
  }
  f.glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  f.glBindTexture(GL_TEXTURE_2D, 0);
}

std::string_view shaderSource(std::string_view file) {
  for (const auto& [name, text] : embedded::shaderSources())
    if (name == file) return text;
  throw DeviceError("Shader file '" + std::string(file) + "' is not embedded in this build.");
}

namespace {

// Shader objects only live until the program is linked.
GLuint compileShader(GLenum type, std::string_view file) {
  auto& f = gl();
  std::string_view text = shaderSource(file);
  GLuint shader = f.glCreateShader(type);
  const char* src = text.data();
  GLint len = static_cast<GLint>(text.size());
  f.glShaderSource(shader, 1, &src, &len);
  f.glCompileShader(shader);
  GLint ok = 0;
  f.glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint logLen = 0;
    f.glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &logLen);
    std::string log(static_cast<std::size_t>(std::max(logLen, 1)), '\0');
    f.glGetShaderInfoLog(shader, logLen, nullptr, log.data());
    f.glDeleteShader(shader);
    throw DeviceError("Shader '" + std::string(file) + "' failed to compile:\n" + log);
  }
  return shader;
}

}  // namespace

GlProgram makeProgram(std::string_view vertexFile, std::string_view fragmentFile) {
  auto& f = gl();
  GLuint vs = compileShader(GL_VERTEX_SHADER, vertexFile);
  GLuint fs = 0;
  try {
    fs = compileShader(GL_FRAGMENT_SHADER, fragmentFile);
  } catch (...) {
    f.glDeleteShader(vs);
    throw;
  }
  GlProgram program(f.glCreateProgram());
  f.glAttachShader(program.id(), vs);
  f.glAttachShader(program.id(), fs);
  f.glLinkProgram(program.id());
  f.glDeleteShader(vs);
  f.glDeleteShader(fs);
  GLint ok = 0;
  f.glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint logLen = 0;
    f.glGetProgramiv(program.id(), GL_INFO_LOG_LENGTH, &logLen);
    std::string log(static_cast<std::size_t>(std::max(logLen, 1)), '\0');
    f.glGetProgramInfoLog(program.id(), logLen, nullptr, log.data());
    throw DeviceError("Shaders '" + std::string(vertexFile) + "' + '" + std::string(fragmentFile) +
                      "' failed to link:\n" + log);
  }
  return program;
}

}  // namespace gvflab::viewer
