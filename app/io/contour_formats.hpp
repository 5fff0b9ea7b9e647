#pragma once
// The formats --save-contours and the viewer's File menu write, picked by the file's extension
// (the table in io/file_formats.cpp):
//   .json     gvflab's own contours file (io/contours_json.hpp)
//   .geojson  a GeoJSON FeatureCollection of Polygons (QuPath, napari, GIS tools); each ring is
//             closed (last point = first) and each Feature has the properties force, state
//             ("converged" | "moving") and iterations; an open snake is a LineString with the
//             property boundary
//   .csv      one row per point: contour,force,state,iterations,point,x,y
//   .svg      the contours as closed paths (open snakes: open ones) over a canvas the size of
//             the image
// Coordinates everywhere: image pixels, x right, y down, origin at the image's top-left corner.
#include <filesystem>
#include <string>
#include <vector>

#include "io/contours_json.hpp"
#include "io/file_formats.hpp"

namespace gvflab::app {

// The format of a file name's extension; throws ParameterError naming the file and the
// extensions that are known (checked before any work, so nothing is written on a bad name).
const FileFormat& contourFormatOf(const std::filesystem::path& path);

std::string contoursGeoJson(const std::vector<ContourRecord>& contours);
std::string contoursCsv(const std::vector<ContourRecord>& contours);
std::string contoursSvg(const std::vector<ContourRecord>& contours, int width, int height);

// Writes the contours of an image of width x height pixels atomically, in the format of the
// extension. Throws ParameterError (extension) or InputError (the file cannot be written).
void writeContours(const std::filesystem::path& path, const std::vector<ContourRecord>& contours,
                   int width, int height);

// For file dialogs: "Contours (*.json *.geojson *.csv *.svg)".
const char* contourFileFilter();

}  // namespace gvflab::app
