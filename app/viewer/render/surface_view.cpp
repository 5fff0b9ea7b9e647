#include "viewer/render/surface_view.hpp"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "gvflab/error.hpp"
#include "gvflab/field_slice.hpp"
#include "gvflab/surface_mesh.hpp"
#include "io/snake_palette.hpp"

namespace gvflab::viewer {
namespace {
constexpr float kBackground[3] = {0.07f, 0.07f, 0.09f};
constexpr float kOutline[4] = {0.55f, 0.58f, 0.65f, 1.0f};
constexpr float kSliceAlpha = 0.9f;
constexpr float kOtherAlpha = 0.25f;                         // surfaces other than the selected one
constexpr float kSliceRim[4] = {0.95f, 0.85f, 0.35f, 1.0f};  // the slices' edges: amber-ish

// The quad of the slice across `axis` at `index` (voxel centres, index + 0.5), as triangles
// of (x, y, z, u, v); u, v run along the slice's image (volumeSlice's order: coronal and
// sagittal rows from the top plane down).
void sliceQuad(std::vector<float>& out, int axis, int index, const std::array<int, 3>& d) {
  const float c = static_cast<float>(index) + 0.5f;
  const float w = static_cast<float>(d[0]), h = static_cast<float>(d[1]),
              z = static_cast<float>(d[2]);
  auto corner = [&](float u, float v) -> std::array<float, 5> {
    switch (axis) {
      case 0:  // axial: (x, y) at z
        return {u * w, v * h, c, u, v};
      case 1:  // coronal: (x, z) at y
        return {u * w, c, (1 - v) * z, u, v};
      default:  // sagittal: (y, z) at x
        return {c, u * h, (1 - v) * z, u, v};
    }
  };
  const std::array<float, 5> q[6] = {corner(0, 0), corner(1, 0), corner(1, 1),
                                     corner(0, 0), corner(1, 1), corner(0, 1)};
  for (const auto& p : q) out.insert(out.end(), p.begin(), p.end());
}

void vertexLayout(GLuint vao, GLuint vbo, int first, int second) {
  auto& f = gl();
  f.glBindVertexArray(vao);
  f.glBindBuffer(GL_ARRAY_BUFFER, vbo);
  const GLsizei stride = static_cast<GLsizei>((first + second) * sizeof(float));
  f.glEnableVertexAttribArray(0);
  f.glVertexAttribPointer(0, first, GL_FLOAT, GL_FALSE, stride, nullptr);
  f.glEnableVertexAttribArray(1);
  f.glVertexAttribPointer(1, second, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(first * sizeof(float)));
}
}  // namespace

SurfaceView::SurfaceView()
    : surfaceProgram_(makeProgram("surface.vert.glsl", "surface.frag.glsl")),
      sliceProgram_(makeProgram("slice3d.vert.glsl", "slice3d.frag.glsl")),
      meshVao_(makeVertexArray()),
      sliceVao_(makeVertexArray()),
      lineVao_(makeVertexArray()),
      meshVbo_(makeBuffer()),
      meshEbo_(makeBuffer()),
      sliceVbo_(makeBuffer()),
      lineVbo_(makeBuffer()),
      sliceTextures_{makeTexture(), makeTexture(), makeTexture()} {
  auto& f = gl();
  vertexLayout(meshVao_.id(), meshVbo_.id(), 3, 3);
  f.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, meshEbo_.id());  // kept by the vertex array
  vertexLayout(sliceVao_.id(), sliceVbo_.id(), 3, 2);
  vertexLayout(lineVao_.id(), lineVbo_.id(), 3, 3);
  f.glBindVertexArray(0);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

SurfaceView::~SurfaceView() = default;

void SurfaceView::ensureTarget(int width, int height) {
  if (target_ && target_->width() == width && target_->height() == height) return;
  target_.reset();
  QOpenGLFramebufferObjectFormat format;
  format.setAttachment(QOpenGLFramebufferObject::Depth);
  format.setSamples(4);  // smooth silhouettes; resolved by the copy into the viewport
  target_ = std::make_unique<QOpenGLFramebufferObject>(width, height, format);
  if (!target_->isValid()) {
    format.setSamples(0);
    target_ = std::make_unique<QOpenGLFramebufferObject>(width, height, format);
  }
  if (!target_->isValid()) {
    target_.reset();
    throw DeviceError("the 3D view's framebuffer could not be made");
  }
}

// Every surface's vertices with their normals in one buffer, their faces in another (indices
// offset per surface): one upload when the meshes changed, one draw call per surface.
void SurfaceView::uploadSurfaces(const SurfaceScene& scene) {
  if (scene.surfaces == surfacesFrom_ && scene.surfacesVersion == surfacesVersion_) return;
  surfacesFrom_ = scene.surfaces;
  surfacesVersion_ = scene.surfacesVersion;
  ranges_.clear();
  std::vector<float> vertices;
  std::vector<std::uint32_t> indices;
  if (scene.surfaces)
    for (const SurfaceContour& c : *scene.surfaces) {
      const auto base = static_cast<std::uint32_t>(vertices.size() / 6);
      const std::vector<glm::vec3> normals = vertexNormals(c.mesh);
      for (std::size_t i = 0; i < c.mesh.vertices.size(); ++i) {
        const glm::vec3& p = c.mesh.vertices[i];
        const glm::vec3 n = i < normals.size() ? normals[i] : glm::vec3(0, 0, 1);
        vertices.insert(vertices.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
      }
      Range r{c.id, c.state, c.force, indices.size(), 3 * c.mesh.faces.size()};
      for (const glm::uvec3& t : c.mesh.faces)
        indices.insert(indices.end(), {base + t.x, base + t.y, base + t.z});
      ranges_.push_back(r);
    }
  auto& f = gl();
  f.glBindVertexArray(meshVao_.id());
  f.glBindBuffer(GL_ARRAY_BUFFER, meshVbo_.id());
  f.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
                 vertices.data(), GL_DYNAMIC_DRAW);
  f.glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(indices.size() * sizeof(std::uint32_t)), indices.data(),
                 GL_DYNAMIC_DRAW);
  f.glBindVertexArray(0);
}

void SurfaceView::uploadSlices(const SurfaceScene& scene) {
  if (!scene.volume) return;
  const bool newVolume = scene.volume != volumeFrom_ || scene.volumeVersion != volumeVersion_;
  for (int axis = 0; axis < 3; ++axis) {
    const int index = scene.slices[axis];
    if (index < 0 || (!newVolume && index == slicesCut_[axis])) continue;
    const Image2D slice = volumeSlice(*scene.volume, static_cast<SliceAxis>(axis), index);
    auto& size = sliceSizes_[axis];
    uploadTexture(sliceTextures_[axis], size[0], size[1], GL_R32F, GL_RED, GL_FLOAT, slice.width,
                  slice.height, slice.pixels.data());
    slicesCut_[axis] = index;
  }
  volumeFrom_ = scene.volume;
  volumeVersion_ = scene.volumeVersion;
}

void SurfaceView::draw(const Viewport& area, const OrbitCamera& camera, const SurfaceScene& scene) {
  if (area.width <= 0 || area.height <= 0) return;
  auto& f = gl();
  GLint drawTarget = 0, readTarget = 0;
  f.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawTarget);
  f.glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &readTarget);
  ensureTarget(area.width, area.height);
  uploadSurfaces(scene);
  uploadSlices(scene);

  target_->bind();
  f.glViewport(0, 0, area.width, area.height);
  f.glDisable(GL_SCISSOR_TEST);
  f.glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
  f.glClearDepth(1.0);
  f.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  f.glEnable(GL_DEPTH_TEST);
  f.glDepthFunc(GL_LEQUAL);
  f.glDisable(GL_CULL_FACE);
  f.glDisable(GL_BLEND);

  const glm::mat4 view = camera.view();
  const glm::mat4 viewProjection =
      camera.projection(static_cast<float>(area.width) / static_cast<float>(area.height)) * view;
  const bool cut = scene.cutAway && scene.slices[1] >= 0;
  const float cutY = cut ? static_cast<float>(scene.slices[1]) + 0.5f : -1e30f;
  f.glEnable(GL_CLIP_DISTANCE0);
  const GLuint sp = surfaceProgram_.id();
  f.glUseProgram(sp);
  f.glUniform1f(uniformAt(sp, "uCutY"), cutY);
  f.glUniformMatrix4fv(uniformAt(sp, "uViewProjection"), 1, GL_FALSE,
                       glm::value_ptr(viewProjection));
  f.glUniformMatrix4fv(uniformAt(sp, "uView"), 1, GL_FALSE, glm::value_ptr(view));

  // The surfaces, in their states' colours: the selected one (or all, when none is) opaque,
  // the others see-through over it, so a twin that stopped outside does not hide it.
  f.glUniform1i(uniformAt(sp, "uLit"), 1);
  f.glBindVertexArray(meshVao_.id());
  const bool anySelected = std::any_of(ranges_.begin(), ranges_.end(),
                                       [&](const Range& r) { return r.id == scene.selectedId; });
  for (int pass = 0; pass < 2; ++pass) {
    const bool opaque = pass == 0;
    if (!opaque) {
      f.glEnable(GL_BLEND);
      f.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      f.glDepthMask(GL_FALSE);
    }
    for (const Range& r : ranges_) {
      const bool front = !anySelected || r.id == scene.selectedId;
      if (r.count == 0 || front != opaque) continue;
      const SnakeRgba c = stateColor(r.state);
      f.glUniform4f(uniformAt(sp, "uColor"), c[0], c[1], c[2], opaque ? 1.0f : kOtherAlpha);
      f.glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(r.count), GL_UNSIGNED_INT,
                       reinterpret_cast<void*>(r.first * sizeof(std::uint32_t)));
    }
  }
  f.glDepthMask(GL_TRUE);
  f.glDisable(GL_BLEND);

  // The volume's outline: its twelve edges.
  const auto& d = scene.dims;
  if (d[0] > 0) {
    std::vector<float> lines;
    const float x = static_cast<float>(d[0]), y = static_cast<float>(d[1]),
                z = static_cast<float>(d[2]);
    const glm::vec3 c[8] = {{0, 0, 0}, {x, 0, 0}, {x, y, 0}, {0, y, 0},
                            {0, 0, z}, {x, 0, z}, {x, y, z}, {0, y, z}};
    const int e[24] = {0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4, 0, 4, 1, 5, 2, 6, 3, 7};
    for (int i : e) lines.insert(lines.end(), {c[i].x, c[i].y, c[i].z, 0.0f, 0.0f, 1.0f});
    f.glUniform1i(uniformAt(sp, "uLit"), 0);
    f.glUniform1f(uniformAt(sp, "uCutY"), -1e30f);  // the whole outline
    f.glUniform4f(uniformAt(sp, "uColor"), kOutline[0], kOutline[1], kOutline[2], kOutline[3]);
    f.glBindVertexArray(lineVao_.id());
    f.glBindBuffer(GL_ARRAY_BUFFER, lineVbo_.id());
    f.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lines.size() * sizeof(float)),
                   lines.data(), GL_STREAM_DRAW);
    f.glDrawArrays(GL_LINES, 0, 24);
  }

  // The slices, a little see-through, over the surfaces (depth-tested, not written, so the
  // surfaces behind them show dimmed and those in front stay whole).
  if (scene.volume && d[0] > 0) {
    std::vector<float> quads;
    std::vector<int> drawn;
    for (int axis = 0; axis < 3; ++axis)
      if (scene.slices[axis] >= 0 && !(cut && axis == 1))
        sliceQuad(quads, axis, scene.slices[axis], d), drawn.push_back(axis);
    const GLuint lp = sliceProgram_.id();
    f.glUseProgram(lp);
    f.glUniformMatrix4fv(uniformAt(lp, "uViewProjection"), 1, GL_FALSE,
                         glm::value_ptr(viewProjection));
    f.glUniform1f(uniformAt(lp, "uBrightness"), scene.brightness);
    f.glUniform1f(uniformAt(lp, "uCutY"), cutY);
    f.glUniform1f(uniformAt(lp, "uAlpha"), kSliceAlpha);
    f.glUniform4f(uniformAt(lp, "uRim"), kSliceRim[0], kSliceRim[1], kSliceRim[2], kSliceRim[3]);
    f.glUniform1i(uniformAt(lp, "uImage"), 0);
    f.glActiveTexture(GL_TEXTURE0);
    f.glBindVertexArray(sliceVao_.id());
    f.glBindBuffer(GL_ARRAY_BUFFER, sliceVbo_.id());
    f.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(quads.size() * sizeof(float)),
                   quads.data(), GL_STREAM_DRAW);
    f.glEnable(GL_BLEND);
    f.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    f.glDepthMask(GL_FALSE);
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      f.glBindTexture(GL_TEXTURE_2D, sliceTextures_[drawn[i]].id());
      f.glDrawArrays(GL_TRIANGLES, static_cast<GLint>(6 * i), 6);
    }
    f.glDepthMask(GL_TRUE);
    f.glDisable(GL_BLEND);
    f.glBindTexture(GL_TEXTURE_2D, 0);
  }
  f.glBindVertexArray(0);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);
  f.glUseProgram(0);
  f.glDisable(GL_CLIP_DISTANCE0);
  f.glDisable(GL_DEPTH_TEST);

  // Into the viewport of the framebuffer that was bound (resolving the samples).
  f.glBindFramebuffer(GL_READ_FRAMEBUFFER, target_->handle());
  f.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(drawTarget));
  f.glBlitFramebuffer(0, 0, area.width, area.height, area.x, area.y, area.x + area.width,
                      area.y + area.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  f.glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(readTarget));
  f.glViewport(area.x, area.y, area.width, area.height);
}

}  // namespace gvflab::viewer
