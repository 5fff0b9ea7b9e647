#pragma once
// A saved session as JSON: the image (path or phantom), the solver and its parameters, the
// snake parameters and contours, and the display choices. Written by the viewer (File > Save
// session), read by the viewer, `--session S.json`, and headless runs.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/params.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab::app {

struct SavedSnake {
  using Points = std::vector<std::array<float, 2>>;
  SnakeForce force = SnakeForce::Gvf;
  Points points;                   // current contour; image pixels, corner origin
  Points initial;                  // starting contour (older files and empty: = points)
  std::optional<double> pressure;  // its own; none: the session's snake pressure
  SnakeBoundary boundary = SnakeBoundary::Periodic;  // "boundary", written for open snakes only
};

// A surface snake of a volume session (issue 30), "surfaces" in the file: its meshes as
// "vertices" [[x, y, z], ...] (voxel coordinates, surface_mesh.hpp) and "faces" [[a, b, c], ...]
// (indices from 0, counter-clockwise seen from outside), the starting ones as
// "initial_vertices" and "initial_faces". Written only when there are surfaces.
struct SavedSurface {
  SnakeForce force = SnakeForce::Gvf;
  std::optional<double> pressure;  // its own; none: the session's snake pressure
  SurfaceMesh mesh;                // where it is
  SurfaceMesh initial;             // where it started (empty: = mesh)
};

// Where a loaded session's snakes start: from their saved current contours (resuming, the
// default) or from their starting contours (replaying a demo). Either way each snake keeps its
// starting contour for a later restart.
enum class SessionStart { Current, Initial };

struct SessionFile {
  std::optional<std::string> image;  // absolute path
  std::optional<std::string> phantom;
  int phantomSize = 256;
  SolverKind solver = SolverKind::Euler;
  GvfParams gvf;                // mu, sigma, v0
  bool muGiven = false;         // the file names "solver.mu" (else the default, fitted per run)
  int iterationsPerFrame = 16;  // Euler, with no frame budget
  double frameBudgetMs = 0;     // 0: fixed iterations per frame
  std::string device;           // the selector in use ("" = default)
  SnakeParams snake = SnakeParams::defaults();
  // "force_params": the GGVF, VFC and distance force numbers by their table keys ("ggvf-k",
  // "vfc-radius", ...) and "vfc-kernel".
  ForceParams forces;
  std::vector<SavedSnake> snakes;
  std::vector<SavedSurface> surfaces;
  std::string colormap = "viridis";
  bool logScale = false;
};

std::string sessionToJson(const SessionFile& session);
// Relative image paths are taken relative to baseDir. Throws InputError with a sentence for
// malformed JSON, a wrong version or out-of-range values.
SessionFile sessionFromJson(const std::string& text, const std::filesystem::path& baseDir = {});
void saveSession(const std::filesystem::path& path, const SessionFile& session);
SessionFile loadSession(const std::filesystem::path& path);

}  // namespace gvflab::app
