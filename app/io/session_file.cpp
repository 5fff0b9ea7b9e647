#include "io/session_file.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <fstream>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/io.hpp"
#include "gvflab/phantoms.hpp"

namespace gvflab::app {
namespace {

constexpr int kVersion = 1;

QString q(const std::string& s) { return QString::fromStdString(s); }

double number(const QJsonObject& o, const char* key, double fallback) {
  const QJsonValue v = o.value(key);
  if (v.isUndefined()) return fallback;
  if (!v.isDouble()) throw InputError(std::string("Session: '") + key + "' must be a number.");
  return v.toDouble();
}

QJsonArray pointsJson(const SavedSnake::Points& points) {
  QJsonArray out;
  for (const auto& p : points) out.append(QJsonArray{p[0], p[1]});
  return out;
}

SavedSnake::Points pointsFromJson(const QJsonValue& value) {
  SavedSnake::Points out;
  for (const QJsonValue& p : value.toArray()) {
    const QJsonArray xy = p.toArray();
    if (xy.size() != 2 || !xy[0].isDouble() || !xy[1].isDouble())
      throw InputError("Session: snake points must be [x, y] pairs.");
    out.push_back({static_cast<float>(xy[0].toDouble()), static_cast<float>(xy[1].toDouble())});
  }
  if (out.size() < 3) throw InputError("Session: a snake needs at least 3 points.");
  return out;
}

std::vector<glm::vec2> toVec2(const SavedSnake::Points& points) {
  std::vector<glm::vec2> out;
  for (const auto& p : points) out.push_back({p[0], p[1]});
  return out;
}

double checked(const std::vector<ParamSpec>& specs, const std::string& key, double v) {
  try {
    validate(findSpec(specs, key), v);
  } catch (const ParameterError& e) {
    throw InputError(std::string("Session: ") + e.what());
  }
  return v;
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
  solver["mu"] = s.gvf.mu;
  solver["sigma"] = s.gvf.sigma;
  solver["v0"] = s.gvf.v0Mode == V0Mode::EdgeGradient ? "edge" : "image";
  solver["iterations_per_frame"] = s.iterationsPerFrame;
  solver["frame_budget_ms"] = s.frameBudgetMs;
  root["solver"] = solver;
  root["device"] = q(s.device);
  QJsonObject sp;
  sp["alpha"] = s.snake.alpha;
  sp["beta"] = s.snake.beta;
  sp["gamma"] = s.snake.gamma;
  sp["kappa"] = s.snake.kappa;
  sp["pressure"] = s.snake.pressure;
  sp["dmin"] = s.snake.dmin;
  sp["dmax"] = s.snake.dmax;
  sp["tolerance"] = s.snake.tolerance;
  sp["window"] = s.snake.window;
  sp["resample"] = s.snake.resample;
  sp["normalize"] = s.snake.normalize;
  root["snake_params"] = sp;
  QJsonArray snakes;
  for (const auto& sn : s.snakes) {
    QJsonObject o;
    o["force"] = forceName(sn.force);
    if (sn.pressure) o["pressure"] = *sn.pressure;
    o["points"] = pointsJson(sn.points);
    o["initial_points"] = pointsJson(sn.initial.empty() ? sn.points : sn.initial);
    snakes.append(o);
  }
  root["snakes"] = snakes;
  QJsonObject display;
  display["colormap"] = q(s.colormap);
  display["log_scale"] = s.logScale;
  root["display"] = display;
  return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

SessionFile sessionFromJson(const std::string& text, const std::filesystem::path& baseDir) {
  QJsonParseError err;
  QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &err);
  if (doc.isNull() || !doc.isObject())
    throw InputError("The session is not valid JSON (" + err.errorString().toStdString() + ").");
  const QJsonObject root = doc.object();
  if (root.value("gvflab_session").toInt(-1) != kVersion)
    throw InputError("This is not a gvflab session file (version " + std::to_string(kVersion) +
                     ").");
  SessionFile s;
  if (root.contains("image")) {
    std::filesystem::path p = root.value("image").toString().toStdString();
    if (p.is_relative() && !baseDir.empty()) p = baseDir / p;
    s.image = p.string();
  }
  if (root.contains("phantom")) {
    s.phantom = root.value("phantom").toString().toStdString();
    bool known = false;
    for (const auto& n : phantomNames()) known = known || n == *s.phantom;
    if (!known) throw InputError("Session: unknown phantom '" + *s.phantom + "'.");
    s.phantomSize = static_cast<int>(number(root, "phantom_size", 256));
    if (s.phantomSize < 16 || s.phantomSize > 16384)
      throw InputError("Session: phantom_size must be in [16, 16384].");
  }
  if (s.image && s.phantom) throw InputError("Session: give either an image or a phantom.");
  const QJsonObject solver = root.value("solver").toObject();
  const std::string name = solver.value("name").toString("euler").toStdString();
  // Sessions hold Euler's settings only (the viewer saves none for multigrid).
  if (parseSolverKind(name) != SolverKind::Euler)
    throw InputError("Session: solver '" + name + "' is not available.");
  s.solver = SolverKind::Euler;
  s.gvf.mu = checked(gvfParamSpecs(), "mu", number(solver, "mu", s.gvf.mu));
  s.gvf.sigma = checked(gvfParamSpecs(), "sigma", number(solver, "sigma", s.gvf.sigma));
  const std::string v0 = solver.value("v0").toString("edge").toStdString();
  if (v0 != "edge" && v0 != "image") throw InputError("Session: v0 must be 'edge' or 'image'.");
  s.gvf.v0Mode = v0 == "edge" ? V0Mode::EdgeGradient : V0Mode::ImageGradient;
  s.iterationsPerFrame =
      static_cast<int>(checked(gvfParamSpecs(), "iterations",
                               number(solver, "iterations_per_frame", s.iterationsPerFrame)));
  s.frameBudgetMs = number(solver, "frame_budget_ms", 0);
  s.device = root.value("device").toString().toStdString();
  const QJsonObject sp = root.value("snake_params").toObject();
  s.snake.alpha = number(sp, "alpha", s.snake.alpha);
  s.snake.beta = number(sp, "beta", s.snake.beta);
  s.snake.gamma = number(sp, "gamma", s.snake.gamma);
  s.snake.kappa = number(sp, "kappa", s.snake.kappa);
  s.snake.pressure = number(sp, "pressure", s.snake.pressure);
  s.snake.dmin = number(sp, "dmin", s.snake.dmin);
  s.snake.dmax = number(sp, "dmax", s.snake.dmax);
  s.snake.tolerance = number(sp, "tolerance", s.snake.tolerance);
  s.snake.window = static_cast<int>(number(sp, "window", s.snake.window));
  s.snake.resample = static_cast<int>(number(sp, "resample", s.snake.resample));
  s.snake.normalize = sp.value("normalize").toBool(s.snake.normalize);
  try {
    s.snake.validate();
  } catch (const ParameterError& e) {
    throw InputError(std::string("Session: ") + e.what());
  }
  for (const QJsonValue& v : root.value("snakes").toArray()) {
    const QJsonObject o = v.toObject();
    SavedSnake sn;
    try {
      sn.force = parseForce(o.value("force").toString("gvf").toStdString());
    } catch (const ParameterError& e) {
      throw InputError(std::string("Session: ") + e.what());
    }
    if (o.contains("pressure"))
      sn.pressure = checked(snakeParamSpecs(), "pressure", number(o, "pressure", 0));
    sn.points = pointsFromJson(o.value("points"));
    sn.initial = o.contains("initial_points") ? pointsFromJson(o.value("initial_points"))
                                              : sn.points;
    s.snakes.push_back(std::move(sn));
  }
  const QJsonObject display = root.value("display").toObject();
  s.colormap = display.value("colormap").toString("viridis").toStdString();
  if (s.colormap != "gray" && s.colormap != "viridis" && s.colormap != "inferno")
    throw InputError("Session: unknown colormap '" + s.colormap + "'.");
  s.logScale = display.value("log_scale").toBool(false);
  return s;
}

void saveSession(const std::filesystem::path& path, const SessionFile& session) {
  writeFileAtomically(path, sessionToJson(session));
}

namespace {
constexpr std::uint64_t kMaxSessionBytes = std::uint64_t(16) << 20;  // 16 MiB of JSON
}  // namespace

SessionFile loadSession(const std::filesystem::path& path) {
  // Opened as every input is (a FIFO or device refused, never waited on); bounded in size.
  const std::string text = InputFile(path, "The session file '" + path.string() + "'")
                               .readAll(kMaxSessionBytes, "session file");
  try {
    return sessionFromJson(text, path.parent_path());
  } catch (const InputError& e) {
    throw InputError("'" + path.filename().string() + "': " + e.what());
  }
}

Options parseCommandLine(const std::vector<std::string>& args) {
  Options options = parseOptions(args);
  if (!options.session) return options;
  Options base = parseOptions({});
  applySession(loadSession(*options.session), base,
               options.sessionFromInitial ? SessionStart::Initial : SessionStart::Current);
  return parseOptions(args, &base);
}

void applySession(const SessionFile& s, Options& o, SessionStart from) {
  // An image or phantom on the command line wins over the session's (which may name none).
  if (!o.image && !o.phantom) {
    o.image = s.image;
    o.phantom = s.phantom;
    o.phantomSize = s.phantomSize;
  }
  o.gvf = s.gvf;
  o.muGiven = true;  // the user's saved value: checked as asked
  o.savedIterationsPerFrame = s.iterationsPerFrame;
  o.frameBudgetMs = s.frameBudgetMs;
  if (!s.device.empty() && o.device.empty()) o.device = s.device;
  o.snakes.params = s.snake;
  o.snakes.snakes.clear();
  for (const auto& sn : s.snakes) {
    SnakeSpec spec;
    spec.text = "session snake";
    const auto& start = sn.initial.empty() ? sn.points : sn.initial;
    spec.polygon = toVec2(from == SessionStart::Initial ? start : sn.points);
    spec.initial = toVec2(start);
    spec.force = sn.force;
    spec.pressure = sn.pressure;
    o.snakes.snakes.push_back(std::move(spec));
  }
  o.colormap = s.colormap;
  o.logScale = s.logScale;
}

}  // namespace gvflab::app
