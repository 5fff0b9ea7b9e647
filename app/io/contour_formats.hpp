#pragma once
// The formats --save-contours and the viewer's File menu write, picked by the file's extension
// (the table in io/file_formats.cpp):
//   .json     gvflab's own contours file (io/contours_json.hpp)
//   .geojson  a GeoJSON FeatureCollection of Polygons (QuPath, napari, GIS tools); each ring is
//             closed (last point = first) and each Feature has the properties force, state
//             ("converged" | "moving" | ...) and iterations; an open snake is a LineString with
//             the property boundary. The foreign member "gvflab:coordinates" says how the
//             coordinates are given (they are not WGS 84).
//   .csv      one row per point: contour,force,state,iterations,point,x,y (and z for world
//             points off the z = 0 plane)
//   .svg      the contours as closed paths (open snakes: open ones) in their force's colour
//             (io/snake_palette.hpp, as in the viewer) with a legend, over a canvas the size of
//             the image; with a background (--svg-image), the image beneath as an embedded PNG,
//             one unit a pixel.
// Coordinates (ContourCanvas, io/contours_json.hpp): image pixels, x right, y down, origin at
// the image's top-left corner by default; pixel-y-up or world (the image's geometry) on
// request. SVG is always drawn in pixels.
#include <filesystem>
#include <string>
#include <vector>

#include "io/contours_json.hpp"
#include "io/file_formats.hpp"

namespace gvflab::app {

// The format of a file name's extension; throws ParameterError naming the file and the
// extensions that are known (checked before any work, so nothing is written on a bad name).
const FileFormat& contourFormatOf(const std::filesystem::path& path);

std::string contoursGeoJson(const std::vector<ContourRecord>& contours,
                            const ContourCanvas& canvas = {});
std::string contoursCsv(const std::vector<ContourRecord>& contours,
                        const ContourCanvas& canvas = {});
std::string contoursSvg(const std::vector<ContourRecord>& contours, const ContourCanvas& canvas);

// Writes the contours atomically, in the format of the extension. Throws ParameterError
// (extension) or InputError (the file cannot be written).
void writeContours(const std::filesystem::path& path, const std::vector<ContourRecord>& contours,
                   const ContourCanvas& canvas);

// For file dialogs: "Contours (*.json *.geojson *.csv *.svg)".
const char* contourFileFilter();

}  // namespace gvflab::app
