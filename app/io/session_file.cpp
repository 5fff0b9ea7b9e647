#include "io/session_file.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "cli/cli_params.hpp"
#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/quoted.hpp"
#include "gvflab/surface_snake.hpp"
#include "io/json_fields.hpp"

namespace gvflab::app {
namespace {

constexpr int kVersion = 1;

// The session's own limits (besides the snakes', cli/snake_options.hpp).
constexpr std::size_t kMaxSessionBytes = 16u << 20;  // the file, read whole
constexpr std::size_t kMaxSessionPoints = 1000000;   // all contours of all snakes
// JSON values in all (a point is 3: its array and two numbers) and nesting, counted before
// the document is built.
constexpr std::size_t kMaxSessionValues = 4 * kMaxSessionPoints;
constexpr std::size_t kMaxSessionDepth = 64;

QString q(const std::string& s) { return QString::fromStdString(s); }

QJsonArray pointsJson(const SavedSnake::Points& points) {
  QJsonArray out;
  for (const auto& p : points) out.append(QJsonArray{p[0], p[1]});
  return out;
}

// Counts the document's values and depth in one streaming pass (no tree is built), so a
// session of millions of small values (40 MB of [[1]] took 1.9 GB as a Qt document) is refused
// before Qt builds its tree.
class JsonCounter : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::size_t values = 0, depth = 0, snakes = 0;
  bool tooMany = false;
  bool value() {
    tooMany = tooMany || ++values > kMaxSessionValues;
    return !tooMany;
  }
  bool open() { return value() && ++depth <= kMaxSessionDepth; }
  bool close() {
    if (depth-- == snakesDepth) snakesDepth = 0;
    return true;
  }
  // The objects of the top-level "snakes" array, counted as they stream by.
  std::size_t snakesDepth = 0;
  bool snakesKey = false;
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    if (snakesDepth && depth == snakesDepth && ++snakes > kMaxSnakes) return false;
    return open();
  }
  bool key(string_t& k) override {
    snakesKey = depth == 1 && k == "snakes";
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    if (depth == 1 && snakesKey) snakesDepth = 2;
    return open();
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // Qt's parser words the syntax error below
  }
};

void checkJsonSize(const std::string& text) {
  JsonCounter counter;
  nlohmann::json::sax_parse(text, &counter, nlohmann::json::input_format_t::json, false);
  if (counter.tooMany)
    throw InputError("The session holds more than " + std::to_string(kMaxSessionValues) +
                     " JSON values, the most a session may hold.");
  if (counter.snakes > kMaxSnakes)
    throw InputError("\"snakes\" has more than " + std::to_string(kMaxSnakes) +
                     " snakes; at most " + std::to_string(kMaxSnakes) + " run at once.");
  if (counter.depth > kMaxSessionDepth)
    throw InputError("The session nests deeper than " + std::to_string(kMaxSessionDepth) +
                     " levels.");
}

// One coordinate: checked inline (a million points), worded by jsonNumber when wrong.
double coordinate(const QJsonValue& v, qsizetype point, int axis, const std::string& name) {
  const double x = v.toDouble(NAN);
  if (v.isDouble() && std::abs(x) <= kMaxSnakeCoordinate) return x;
  return jsonNumber(v, name + "[" + std::to_string(point) + "][" + std::to_string(axis) + "]",
                    -kMaxSnakeCoordinate, kMaxSnakeCoordinate);
}

// "NAME[i]" as an array of n numbers, `form` ("[x, y, z]") in the sentence when it is not.
QJsonArray tupleAt(const QJsonArray& list, qsizetype i, qsizetype n, const std::string& name,
                   const char* form) {
  const QJsonValue v = list[i];
  const QJsonArray tuple = v.toArray();
  if (!v.isArray() || tuple.size() != n)
    throw InputError(
        "\"" + name + "[" + std::to_string(i) + "]\" must be " + form + ", not " +
        (v.isArray() ? "an array of " + std::to_string(tuple.size()) : jsonTypeName(v)) + ".");
  return tuple;
}

// "snakes[3].points": [[x, y], ...], at most kMaxSnakePoints pairs of pixel coordinates; at
// least 3 (an open snake: 2).
SavedSnake::Points pointsFromJson(const QJsonArray& list, const std::string& name,
                                  bool closed = true) {
  if (list.size() > static_cast<qsizetype>(kMaxSnakePoints))
    throw InputError("\"" + name + "\" has " + std::to_string(list.size()) +
                     " points; a snake may have at most " + std::to_string(kMaxSnakePoints) + ".");
  SavedSnake::Points out;
  out.reserve(list.size());
  for (qsizetype i = 0; i < list.size(); ++i) {
    const QJsonArray xy = tupleAt(list, i, 2, name, "a pair [x, y]");
    out.push_back({static_cast<float>(coordinate(xy[0], i, 0, name)),
                   static_cast<float>(coordinate(xy[1], i, 1, name))});
  }
  if (out.size() < (closed ? 3u : 2u))
    throw InputError("\"" + name + "\": a" +
                     (closed ? " snake needs at least 3" : "n open snake needs at least 2") +
                     " points.");
  return out;
}

QJsonObject meshJson(const SurfaceMesh& mesh, const char* prefix, QJsonObject out) {
  QJsonArray vertices, faces;
  for (const auto& v : mesh.vertices) vertices.append(QJsonArray{v.x, v.y, v.z});
  for (const auto& f : mesh.faces)
    faces.append(
        QJsonArray{static_cast<qint64>(f.x), static_cast<qint64>(f.y), static_cast<qint64>(f.z)});
  out[QString(prefix) + "vertices"] = vertices;
  out[QString(prefix) + "faces"] = faces;
  return out;
}

// "surfaces[1].vertices" [[x, y, z], ...] and ".faces" [[a, b, c], ...]: numbers in range and
// indices naming vertices; whether the mesh is closed is the run's check (SurfaceSnake).
SurfaceMesh meshFromJson(const JsonFields& o, const char* verticesKey, const char* facesKey) {
  const std::string vName = o.name(verticesKey), fName = o.name(facesKey);
  if (!o.has(verticesKey)) throw InputError("\"" + vName + "\" is missing.");
  if (!o.has(facesKey)) throw InputError("\"" + fName + "\" is missing.");
  const QJsonArray vertices = o.array(verticesKey), faces = o.array(facesKey);
  if (vertices.size() > static_cast<qsizetype>(SurfaceSnake::kMaxVertices))
    throw InputError("\"" + vName + "\" has " + std::to_string(vertices.size()) +
                     " vertices; a surface may have at most " +
                     std::to_string(SurfaceSnake::kMaxVertices) + ".");
  if (vertices.size() < 4 || faces.size() < 4)
    throw InputError("\"" + vName + "\": a closed surface needs at least 4 vertices and 4 faces.");
  SurfaceMesh mesh;
  mesh.vertices.reserve(vertices.size());
  for (qsizetype i = 0; i < vertices.size(); ++i) {
    const QJsonArray xyz = tupleAt(vertices, i, 3, vName, "[x, y, z]");
    mesh.vertices.push_back({static_cast<float>(coordinate(xyz[0], i, 0, vName)),
                             static_cast<float>(coordinate(xyz[1], i, 1, vName)),
                             static_cast<float>(coordinate(xyz[2], i, 2, vName))});
  }
  if (faces.size() > 2 * vertices.size())
    throw InputError("\"" + fName + "\" has " + std::to_string(faces.size()) +
                     " faces; a closed surface of " + std::to_string(vertices.size()) +
                     " vertices has fewer.");
  mesh.faces.reserve(faces.size());
  const double last = static_cast<double>(vertices.size() - 1);
  for (qsizetype i = 0; i < faces.size(); ++i) {
    const QJsonArray abc = tupleAt(faces, i, 3, fName, "[a, b, c]");
    std::array<std::uint32_t, 3> index{};
    for (int k = 0; k < 3; ++k)
      index[k] = static_cast<std::uint32_t>(jsonNumber(
          abc[k], fName + "[" + std::to_string(i) + "][" + std::to_string(k) + "]", 0, last, true));
    mesh.faces.push_back({index[0], index[1], index[2]});
  }
  return mesh;
}

// f(), a ParameterError it throws worded as the session's field `name` being wrong.
template <class F>
auto asField(const std::string& name, F f) {
  try {
    return f();
  } catch (const ParameterError& e) {
    throw InputError("\"" + name + "\": " + e.what());
  }
}

// Each object of the array `key` ("snakes", "surfaces"; at most `most`): its force and own
// pressure, then the rest read by `read`.
template <class Saved, class Read>
std::vector<Saved> savedList(const JsonFields& root, const std::string& key, std::size_t most,
                             Read read) {
  const QJsonArray list = root.array(key.c_str());
  if (list.size() > static_cast<qsizetype>(most))
    throw InputError("\"" + key + "\" has " + std::to_string(list.size()) + " " + key +
                     "; at most " + std::to_string(most) + " run at once.");
  std::vector<Saved> out;
  for (qsizetype i = 0; i < list.size(); ++i) {
    const std::string at = key + "[" + std::to_string(i) + "]";
    if (!list[i].isObject())
      throw InputError("\"" + at + "\" must be an object, not " + jsonTypeName(list[i]) + ".");
    const JsonFields o(list[i].toObject(), at);
    Saved saved;
    saved.force = asField(o.name("force"), [&] { return parseForce(o.string("force", "gvf")); });
    if (o.has("pressure"))
      saved.pressure = o.number("pressure", 0, findSpec(snakeParamSpecs(), "pressure"));
    read(o, saved);
    out.push_back(std::move(saved));
  }
  return out;
}

}  // namespace

std::string sessionToJson(const SessionFile& s) {
  QJsonObject root;
  root["gvflab_session"] = kVersion;
  if (s.image) root["image"] = q(*s.image);
  if (s.phantom) {
    root["phantom"] = q(*s.phantom);
    root["phantom_size"] = s.phantomSize;
  }
  QJsonObject solver;
  solver["name"] = q(solverKindName(s.solver));
  for (const auto& f : gvfParamFields()) solver[f.key] = f.get(s.gvf);  // mu, sigma
  solver["v0"] = v0ModeName(s.gvf.v0Mode);
  solver["iterations_per_frame"] = s.iterationsPerFrame;
  solver["frame_budget_ms"] = s.frameBudgetMs;
  root["solver"] = solver;
  root["device"] = q(s.device);
  QJsonObject sp;
  for (const auto& f : snakeParamFields())
    sp[q(paramKeyword(f.key))] = f.isBool() ? QJsonValue(f.get(s.snake) != 0) : f.get(s.snake);
  root["snake_params"] = sp;
  QJsonObject fp;
  for (const ParamSpec* spec : forceParamSpecs())
    fp[q(spec->key)] = forceParam(s.forces, spec->key);
  fp["vfc-kernel"] = vfcKernelName(s.forces.vfc.kernel);
  root["force_params"] = fp;
  QJsonArray snakes;
  for (const auto& sn : s.snakes) {
    QJsonObject o;
    o["force"] = forceName(sn.force);
    if (sn.pressure) o["pressure"] = *sn.pressure;
    if (!isClosed(sn.boundary)) o["boundary"] = boundaryName(sn.boundary);
    o["points"] = pointsJson(sn.points);
    o["initial_points"] = pointsJson(sn.initial.empty() ? sn.points : sn.initial);
    snakes.append(o);
  }
  root["snakes"] = snakes;
  if (!s.surfaces.empty()) {
    QJsonArray surfaces;
    for (const auto& sf : s.surfaces) {
      QJsonObject o;
      o["force"] = forceName(sf.force);
      if (sf.pressure) o["pressure"] = *sf.pressure;
      o = meshJson(sf.mesh, "", o);
      o = meshJson(sf.initial.empty() ? sf.mesh : sf.initial, "initial_", o);
      surfaces.append(o);
    }
    root["surfaces"] = surfaces;
  }
  QJsonObject display;
  display["colormap"] = q(s.colormap);
  display["log_scale"] = s.logScale;
  root["display"] = display;
  return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

SessionFile sessionFromJson(const std::string& text, const std::filesystem::path& baseDir) {
  if (text.size() > kMaxSessionBytes)
    throw InputError("The session has " + std::to_string(text.size()) + " bytes; at most " +
                     std::to_string(kMaxSessionBytes >> 20) + " MiB are read.");
  checkJsonSize(text);
  QJsonParseError err;
  QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &err);
  if (doc.isNull() || !doc.isObject())
    throw InputError("The session is not valid JSON (" + err.errorString().toStdString() + ").");
  // Every field is checked for its type and range before it is used; fields this version does
  // not know are ignored (a newer viewer's additions).
  const JsonFields root(doc.object());
  const QJsonValue version =
      root.has("gvflab_session") ? doc.object().value("gvflab_session") : QJsonValue();
  if (!version.isDouble() || version.toDouble() != kVersion)
    throw InputError("This is not a gvflab session file (version " + std::to_string(kVersion) +
                     ").");
  SessionFile s;
  if (root.has("image")) {
    std::filesystem::path p = root.string("image", "", "a file name");
    if (p.empty()) throw InputError("\"image\" must name a file, not be empty.");
    if (p.is_relative() && !baseDir.empty()) p = baseDir / p;
    s.image = p.string();
  }
  if (root.has("phantom")) {
    s.phantom = root.string("phantom", "", "a phantom name");
    if (std::ranges::count(phantomNames(), *s.phantom) == 0)
      throw InputError("Unknown phantom " + quotedText(*s.phantom) + ".");
    s.phantomSize = static_cast<int>(
        root.number("phantom_size", 256, findSpec(cliParamSpecs(), "phantom-size")));
  }
  if (s.image && s.phantom) throw InputError("Give either an \"image\" or a \"phantom\".");
  const JsonFields solver = root.object("solver");
  const std::string name = solver.string("name", "euler");
  // Sessions hold Euler's settings only (the viewer saves none for multigrid).
  if (parseSolverKind(name) != SolverKind::Euler)
    throw InputError("Solver " + quotedText(name) + " is not available (sessions hold euler's).");
  s.solver = SolverKind::Euler;
  const auto& gvf = gvfParamSpecs();
  // Any number some solver takes; the solver's own range is checked where it runs (mu_rule.hpp).
  s.gvf.mu = solver.number("mu", s.gvf.mu);
  s.muGiven = solver.has("mu");
  asField(solver.name("mu"), [&] { requireMuForSomeSolver(s.gvf.mu); });
  s.gvf.sigma = solver.number("sigma", s.gvf.sigma, findSpec(gvf, "sigma"));
  const std::string v0 = solver.string("v0", "edge");
  const std::optional<V0Mode> mode = parseV0Mode(v0);
  if (!mode)
    throw InputError("\"solver.v0\" must be 'edge' or 'image', not " + quotedText(v0) + ".");
  s.gvf.v0Mode = *mode;
  s.iterationsPerFrame = static_cast<int>(
      solver.number("iterations_per_frame", s.iterationsPerFrame, findSpec(gvf, "iterations")));
  // 0: fixed iterations per frame; else the viewer's --frame-budget range.
  s.frameBudgetMs =
      solver.number("frame_budget_ms", 0, 0, findSpec(cliParamSpecs(), "frame-budget").maxValue);
  s.device = root.string("device", "", "a device selector");
  const JsonFields sp = root.object("snake_params");
  const auto& snake = snakeParamSpecs();
  for (const auto& f : snakeParamFields()) {
    const std::string key = paramKeyword(f.key);
    const double fallback = f.get(s.snake);
    f.set(s.snake, f.isBool() ? sp.boolean(key.c_str(), fallback != 0)
                              : sp.number(key.c_str(), fallback, findSpec(snake, f.key)));
  }
  asField("snake_params", [&] { s.snake.validate(); });  // what needs two fields: dmax >= 2 dmin
  const JsonFields fp = root.object("force_params");
  for (const ParamSpec* spec : forceParamSpecs())
    setForceParam(s.forces, spec->key,
                  fp.number(spec->key.c_str(), forceParam(s.forces, spec->key), *spec));
  try {
    s.forces.vfc.kernel =
        parseVfcKernel(fp.string("vfc-kernel", vfcKernelName(s.forces.vfc.kernel)),
                       "\"" + fp.name("vfc-kernel") + "\"");
  } catch (const ParameterError& e) {
    throw InputError(e.what());
  }
  std::size_t points = 0;
  s.snakes = savedList<SavedSnake>(root, "snakes", kMaxSnakes, [&](const JsonFields& o, auto& sn) {
    sn.boundary = asField(o.name("boundary"),
                          [&] { return parseBoundary(o.string("boundary", "periodic")); });
    if (!o.has("points")) throw InputError("\"" + o.name("points") + "\" is missing.");
    const bool closed = isClosed(sn.boundary);
    sn.points = pointsFromJson(o.array("points"), o.name("points"), closed);
    sn.initial = o.has("initial_points")
                     ? pointsFromJson(o.array("initial_points"), o.name("initial_points"), closed)
                     : sn.points;
    points += sn.points.size() + sn.initial.size();
    if (points > kMaxSessionPoints)
      throw InputError("The snakes have more than " + std::to_string(kMaxSessionPoints) +
                       " points in all, the most a session may hold.");
  });
  s.surfaces =
      savedList<SavedSurface>(root, "surfaces", kMaxSurfaces, [&](const JsonFields& o, auto& sf) {
        sf.mesh = meshFromJson(o, "vertices", "faces");
        sf.initial = o.has("initial_vertices") || o.has("initial_faces")
                         ? meshFromJson(o, "initial_vertices", "initial_faces")
                         : sf.mesh;
        points += sf.mesh.vertices.size() + sf.mesh.faces.size() + sf.initial.vertices.size() +
                  sf.initial.faces.size();
        if (points > kMaxSessionPoints)
          throw InputError("The snakes and surfaces have more than " +
                           std::to_string(kMaxSessionPoints) +
                           " points and faces in all, the most a session may hold.");
      });
  const JsonFields display = root.object("display");
  s.colormap = display.string("colormap", "viridis");
  if (s.colormap != "gray" && s.colormap != "viridis" && s.colormap != "inferno")
    throw InputError("\"display.colormap\" must be gray, viridis or inferno, not " +
                     quotedText(s.colormap) + ".");
  s.logScale = display.boolean("log_scale", false);
  return s;
}

void saveSession(const std::filesystem::path& path, const SessionFile& session) {
  writeFileAtomically(path, sessionToJson(session));
}

SessionFile loadSession(const std::filesystem::path& path) {
  // Opened as every input is (a FIFO or device refused, never waited on); bounded in size.
  const std::string text =
      InputFile(path, "The session file " + quoted(path)).readAll(kMaxSessionBytes, "session file");
  try {
    return sessionFromJson(text, path.parent_path());
  } catch (const InputError& e) {
    throw InputError(quoted(path.filename()) + ": " + e.what());
  }
}

}  // namespace gvflab::app
