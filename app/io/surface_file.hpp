#pragma once
// Surface meshes as files (--save-surfaces): PLY (binary), Wavefront OBJ and STL (binary),
// written with assimp. Coordinates are written as the mesh holds them (voxel coordinates,
// gvflab/surface_mesh.hpp, or world ones from surfaceInWorld), faces counter-clockwise seen
// from outside.
#include <cstddef>
#include <filesystem>
#include <string>

#include "gvflab/surface_mesh.hpp"
#include "gvflab/world_geometry.hpp"

namespace gvflab::app {

// --save-surfaces F: F must end in a surface extension (.ply, .obj, .stl); ParameterError
// naming the flag and the choices otherwise.
void checkSurfaceFileName(const std::string& path);

// The file of surface `number` (1, 2, ...) of --save-surfaces F: F's name with "-N" before
// its extension ("out/cup.ply", 2 -> "out/cup-2.ply"). F must pass checkSurfaceFileName.
std::string surfaceFileName(const std::string& path, std::size_t number);

// --surface-coordinates: what --save-surfaces writes. Auto: world when the input has geometry
// (WorldGeometry::known), else voxel.
enum class SurfaceCoordinates { Auto, Voxel, World };
SurfaceCoordinates parseSurfaceCoordinates(const std::string& name);  // ParameterError
const char* surfaceCoordinatesName(SurfaceCoordinates c);             // "auto", "voxel", "world"
// Auto resolved for an input of this geometry (Voxel or World).
SurfaceCoordinates resolveSurfaceCoordinates(SurfaceCoordinates c, const WorldGeometry& g);

// A voxel-coordinate mesh in the world (LPS mm): origin + direction . diag(spacing) .
// (p - 0.5), voxel centres at +0.5 as everywhere; faces reversed where that transform mirrors,
// so that they stay counter-clockwise seen from outside.
SurfaceMesh surfaceInWorld(const SurfaceMesh& mesh, const WorldGeometry& g);

// Writes mesh to path in the format of its extension, atomically (a failure leaves the earlier
// file). `note`, when not empty, goes into the file's header: a PLY "comment" line, an OBJ "#"
// line, a binary STL's 80-byte header (cut there). Throws InputError naming the file.
void writeSurface(const std::filesystem::path& path, const SurfaceMesh& mesh,
                  const std::string& note = "");

// What a mesh in coordinates c says of them in its file's header (3D Slicer reads "SPACE=LPS").
std::string surfaceCoordinatesNote(SurfaceCoordinates c);

// The writers of the format table (file_formats.cpp): assimp's exporter of that id ("plyb",
// "objnomtl", "stlb").
void writeSurfacePly(const std::filesystem::path& path, const SurfaceMesh& mesh,
                     const std::string& note);
void writeSurfaceObj(const std::filesystem::path& path, const SurfaceMesh& mesh,
                     const std::string& note);
void writeSurfaceStl(const std::filesystem::path& path, const SurfaceMesh& mesh,
                     const std::string& note);

}  // namespace gvflab::app
