#pragma once
// Surface meshes as files (--save-surfaces): PLY (binary), Wavefront OBJ and STL (binary),
// written with assimp. Coordinates are written as the mesh holds them (voxel coordinates,
// gvflab/surface_mesh.hpp), faces counter-clockwise seen from outside.
#include <cstddef>
#include <filesystem>
#include <string>

#include "gvflab/surface_mesh.hpp"

namespace gvflab::app {

// --save-surfaces F: F must end in a surface extension (.ply, .obj, .stl); ParameterError
// naming the flag and the choices otherwise.
void checkSurfaceFileName(const std::string& path);

// The file of surface `number` (1, 2, ...) of --save-surfaces F: F's name with "-N" before
// its extension ("out/cup.ply", 2 -> "out/cup-2.ply"). F must pass checkSurfaceFileName.
std::string surfaceFileName(const std::string& path, std::size_t number);

// Writes mesh to path in the format of its extension, atomically (a failure leaves the earlier
// file). Throws InputError naming the file.
void writeSurface(const std::filesystem::path& path, const SurfaceMesh& mesh);

// The writers of the format table (file_formats.cpp): assimp's exporter of that id ("plyb",
// "objnomtl", "stlb").
void writeSurfacePly(const std::filesystem::path& path, const SurfaceMesh& mesh);
void writeSurfaceObj(const std::filesystem::path& path, const SurfaceMesh& mesh);
void writeSurfaceStl(const std::filesystem::path& path, const SurfaceMesh& mesh);

}  // namespace gvflab::app
