#include "io/surface_file.hpp"

#include <assimp/scene.h>

#include <assimp/Exporter.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <memory>
#include <string_view>
#include <utility>

#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/file_names.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;
namespace {

// One mesh, one default material (exporters expect one), one node: what assimp exports.
std::unique_ptr<aiScene> sceneOf(const SurfaceMesh& mesh) {
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode();
  scene->mRootNode->mNumMeshes = 1;
  scene->mRootNode->mMeshes = new unsigned[1]{0};
  scene->mNumMaterials = 1;
  scene->mMaterials = new aiMaterial* [1] { new aiMaterial() };
  auto* m = new aiMesh();
  scene->mNumMeshes = 1;
  scene->mMeshes = new aiMesh* [1] { m };
  m->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  m->mMaterialIndex = 0;
  m->mNumVertices = static_cast<unsigned>(mesh.vertices.size());
  m->mVertices = new aiVector3D[mesh.vertices.size()];
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const auto& v = mesh.vertices[i];
    m->mVertices[i] = aiVector3D(v.x, v.y, v.z);
  }
  m->mNumFaces = static_cast<unsigned>(mesh.faces.size());
  m->mFaces = new aiFace[mesh.faces.size()];
  for (std::size_t i = 0; i < mesh.faces.size(); ++i) {
    aiFace& f = m->mFaces[i];
    f.mNumIndices = 3;
    f.mIndices = new unsigned[3]{mesh.faces[i].x, mesh.faces[i].y, mesh.faces[i].z};
  }
  return scene;
}

// assimp names the faces' list "vertex_index"; the PLY spec's example and most readers (meshio
// reads no faces otherwise) use "vertex_indices". Renamed in the text header only.
std::string facesAsVertexIndices(std::string ply) {
  const std::size_t end = ply.find("end_header\n");
  const std::string from = " vertex_index\n";
  const std::size_t at = ply.find(from);
  if (end == std::string::npos || at == std::string::npos || at > end) return ply;
  return ply.replace(at, from.size(), " vertex_indices\n");
}

// assimp's OBJ exporter smooths normals of its own (aiProcess_GenSmoothNormals, enforced) and
// shares equal ones, so "vn" lines differ in number from "v" lines, which some readers (meshio)
// refuse. The surface has no normals of its own: vertices and faces only ("f a b c").
std::string withoutNormals(const std::string& obj) {
  std::string out;
  out.reserve(obj.size());
  std::size_t start = 0;
  while (start < obj.size()) {
    std::size_t end = obj.find('\n', start);
    end = end == std::string::npos ? obj.size() : end + 1;
    const std::string_view line(obj.data() + start, end - start);
    if (line.starts_with("f ")) {
      for (std::size_t i = 0; i < line.size(); ++i) {  // "a//n" -> "a"
        if (line[i] == '/')
          while (i + 1 < line.size() && line[i + 1] != ' ' && line[i + 1] != '\n') ++i;
        else
          out.push_back(line[i]);
      }
    } else if (!line.starts_with("vn ")) {
      out.append(line);
    }
    start = end;
  }
  return out;
}

// The note in the header of each format (surface_file.hpp).
std::string withNote(std::string bytes, std::string_view formatId, const std::string& note) {
  if (note.empty()) return bytes;
  if (formatId == "plyb") {
    const std::size_t line = bytes.find('\n', bytes.find("format "));
    if (line != std::string::npos) bytes.insert(line + 1, "comment " + note + "\n");
  } else if (formatId == "objnomtl") {
    bytes.insert(0, "# " + note + "\n");
  } else if (formatId == "stlb" && bytes.size() >= 80) {
    std::string header = note.substr(0, 80);
    header.resize(80, ' ');
    bytes.replace(0, 80, header);
  }
  return bytes;
}

void exportMesh(const fs::path& path, const SurfaceMesh& mesh, const char* formatId,
                const std::string& note) {
  const std::string shown = "Cannot write the surface " + quoted(path);
  if (mesh.empty()) throw InputError(shown + ": the surface has no faces.");
  for (const auto& f : mesh.faces)
    if (f.x >= mesh.vertices.size() || f.y >= mesh.vertices.size() || f.z >= mesh.vertices.size())
      throw InputError(shown + ": a face names a vertex it does not have.");
  const std::unique_ptr<aiScene> scene = sceneOf(mesh);
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), formatId);
  if (!blob || !blob->data)
    throw InputError(shown + ": " + std::string(exporter.GetErrorString()) + ".");
  std::string bytes(static_cast<const char*>(blob->data), blob->size);
  if (std::string_view(formatId) == "plyb") bytes = facesAsVertexIndices(std::move(bytes));
  if (std::string_view(formatId) == "objnomtl") bytes = withoutNormals(bytes);
  writeFileAtomically(path, withNote(std::move(bytes), formatId, note));
}

}  // namespace

void checkSurfaceFileName(const std::string& path) {
  requireFormat(path, FormatRole::SurfaceOutput, "--save-surfaces " + quotedText(path));
}

std::string surfaceFileName(const std::string& path, std::size_t number) {
  // The longest surface extension that ends the name, its case kept.
  std::size_t suffix = 0;
  const std::string lower = lowerCase(path);
  for (const FileFormat& f : fileFormats())
    for (const FormatExtension& e : f.extensions)
      if (hasRole(e.roles, FormatRole::SurfaceOutput) && e.suffix.size() > suffix &&
          std::string_view(lower).ends_with(e.suffix))
        suffix = e.suffix.size();
  const std::size_t stem = path.size() - suffix;
  return path.substr(0, stem) + "-" + std::to_string(number) + path.substr(stem);
}

void writeSurface(const fs::path& path, const SurfaceMesh& mesh, const std::string& note) {
  const FileFormat& format =
      requireFormat(path, FormatRole::SurfaceOutput, "Cannot write the surface " + quoted(path));
  format.writeSurface(path, mesh, note);
}

void writeSurfacePly(const fs::path& path, const SurfaceMesh& mesh, const std::string& note) {
  exportMesh(path, mesh, "plyb", note);
}
void writeSurfaceObj(const fs::path& path, const SurfaceMesh& mesh, const std::string& note) {
  exportMesh(path, mesh, "objnomtl", note);
}
void writeSurfaceStl(const fs::path& path, const SurfaceMesh& mesh, const std::string& note) {
  exportMesh(path, mesh, "stlb", note);
}

namespace {
// What --surface-coordinates accepts; auto is the default, not a choice.
constexpr EnumNames<SurfaceCoordinates, 2> kSurfaceCoordinates{
    {{SurfaceCoordinates::Voxel, "voxel"}, {SurfaceCoordinates::World, "world"}}};
}  // namespace

SurfaceCoordinates parseSurfaceCoordinates(const std::string& name) {
  return parseEnum(kSurfaceCoordinates, name, "surface coordinates");
}

const char* surfaceCoordinatesName(SurfaceCoordinates c) {
  return c == SurfaceCoordinates::Auto ? "auto" : enumName(kSurfaceCoordinates, c);
}

SurfaceCoordinates resolveSurfaceCoordinates(SurfaceCoordinates c, const WorldGeometry& g) {
  if (c != SurfaceCoordinates::Auto) return c;
  return g.known ? SurfaceCoordinates::World : SurfaceCoordinates::Voxel;
}

SurfaceMesh surfaceInWorld(const SurfaceMesh& mesh, const WorldGeometry& g) {
  glm::dmat3 m;  // direction . diag(spacing), glm's m[column][row]
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[c][r] = g.direction[3 * r + c] * g.spacing[c];
  const glm::dvec3 origin(g.origin[0], g.origin[1], g.origin[2]);
  SurfaceMesh out = mesh;
  for (auto& v : out.vertices) v = glm::vec3(origin + m * (glm::dvec3(v) - 0.5));
  if (glm::determinant(m) < 0)
    for (auto& f : out.faces) std::swap(f[1], f[2]);
  return out;
}

std::string surfaceCoordinatesNote(SurfaceCoordinates c) {
  return c == SurfaceCoordinates::World
             ? "gvflab surface, world coordinates, LPS mm; SPACE=LPS"
             : "gvflab surface, voxel coordinates (voxel centres at +0.5, not world)";
}

}  // namespace gvflab::app
