#pragma once
// Fields of a JSON object read one by one, each checked for its type and range before it is
// used or cast, with messages that name the field by its path in the document:
//   "solver.mu" must be a number, not a string.
//   "snake_params.window" = 1e+30 is outside its range [1, 10000].
// Missing fields take the fallback; fields this reader does not ask for are ignored.
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <string>

#include "gvflab/params.hpp"

namespace gvflab::app {

// "a string", "a number", "an array", "an object", "true or false", "null".
std::string jsonTypeName(const QJsonValue& value);

class JsonFields {
 public:
  JsonFields(QJsonObject object, std::string path = {});

  bool has(const char* key) const { return object_.contains(key); }
  // The path of a field ("solver.mu") and of an array element ("snakes[3]").
  std::string name(const char* key) const;

  double number(const char* key, double fallback) const;  // any finite number
  // In [spec.minValue, spec.maxValue] (and whole for integer specs).
  double number(const char* key, double fallback, const ParamSpec& spec) const;
  double number(const char* key, double fallback, double min, double max, bool whole = false) const;
  std::string string(const char* key, const std::string& fallback,
                     const char* meaning = nullptr) const;
  bool boolean(const char* key, bool fallback) const;
  JsonFields object(const char* key) const;  // missing: an empty object
  QJsonArray array(const char* key) const;   // missing: an empty array

 private:
  QJsonValue typed(const char* key, bool (QJsonValue::*is)() const, const char* type) const;
  QJsonObject object_;
  std::string path_;
};

// The value as a number, or InputError ""NAME" must be a number, not ..." / "... is too
// large" (not finite) / "... is outside its range [min, max]" / "... must be a whole number".
double jsonNumber(const QJsonValue& value, const std::string& name, double min, double max,
                  bool whole = false);

}  // namespace gvflab::app
