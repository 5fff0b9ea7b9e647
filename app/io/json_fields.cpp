#include "io/json_fields.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "gvflab/error.hpp"

namespace gvflab::app {
namespace {

std::string field(const std::string& name) { return "\"" + name + "\""; }

[[noreturn]] void wrongType(const std::string& name, const char* type, const QJsonValue& v) {
  throw InputError(field(name) + " must be " + type + ", not " + jsonTypeName(v) + ".");
}

}  // namespace

std::string jsonTypeName(const QJsonValue& v) {
  // By QJsonValue::Type's documented values, Null (0) to Object (5); Undefined is 0x80.
  constexpr const char* kNames[] = {"null",     "true or false", "a number",
                                    "a string", "an array",      "an object"};
  const auto type = static_cast<std::size_t>(v.type());
  return type < std::size(kNames) ? kNames[type] : "nothing";
}

double jsonNumber(const QJsonValue& v, const std::string& name, double min, double max,
                  bool whole) {
  if (!v.isDouble()) wrongType(name, "a number", v);
  const double x = v.toDouble();
  std::ostringstream msg;
  msg << field(name) << " = ";
  if (!std::isfinite(x)) {
    // Qt reads numbers beyond double's range (1e400) as infinite.
    msg << "a number too large to represent; give one in [" << min << ", " << max << "].";
    throw InputError(msg.str());
  }
  msg << x;
  if (x < min || x > max) {
    msg << " is " << (std::abs(x) > 1e15 ? "too large: it must lie in [" : "outside its range [")
        << min << ", " << max << "].";
    throw InputError(msg.str());
  }
  if (whole && x != std::floor(x)) {
    msg << " must be a whole number.";
    throw InputError(msg.str());
  }
  return x;
}

JsonFields::JsonFields(QJsonObject object, std::string path)
    : object_(std::move(object)), path_(std::move(path)) {}

std::string JsonFields::name(const char* key) const {
  return path_.empty() ? key : path_ + "." + key;
}

QJsonValue JsonFields::typed(const char* key, bool (QJsonValue::*is)() const,
                             const char* type) const {
  const QJsonValue v = object_.value(key);
  if (!v.isUndefined() && !(v.*is)()) wrongType(name(key), type, v);
  return v;
}

double JsonFields::number(const char* key, double fallback) const {
  constexpr double kLargest = std::numeric_limits<double>::max();
  return number(key, fallback, -kLargest, kLargest);
}

double JsonFields::number(const char* key, double fallback, const ParamSpec& spec) const {
  return number(key, fallback, spec.minValue, spec.maxValue, spec.integer);
}

double JsonFields::number(const char* key, double fallback, double min, double max,
                          bool whole) const {
  const QJsonValue v = object_.value(key);
  if (v.isUndefined()) return fallback;
  return jsonNumber(v, name(key), min, max, whole);
}

std::string JsonFields::string(const char* key, const std::string& fallback,
                               const char* meaning) const {
  const std::string type =
      std::string("a string") + (meaning ? std::string(" (") + meaning + ")" : "");
  const QJsonValue v = object_.value(key);
  if (v.isUndefined()) return fallback;
  if (!v.isString()) wrongType(name(key), type.c_str(), v);
  return v.toString().toStdString();
}

bool JsonFields::boolean(const char* key, bool fallback) const {
  const QJsonValue v = typed(key, &QJsonValue::isBool, "true or false");
  return v.isUndefined() ? fallback : v.toBool();
}

JsonFields JsonFields::object(const char* key) const {
  return {typed(key, &QJsonValue::isObject, "an object").toObject(), name(key)};
}

QJsonArray JsonFields::array(const char* key) const {
  return typed(key, &QJsonValue::isArray, "an array").toArray();
}

}  // namespace gvflab::app
