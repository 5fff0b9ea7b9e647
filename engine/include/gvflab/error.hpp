#pragma once
// One error hierarchy for the whole engine. Every message is a sentence a user can act on.
#include <stdexcept>
#include <string>

namespace gvflab {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad user input: unreadable or corrupt files, impossible sizes.
class InputError : public Error {
 public:
  using Error::Error;
};

// A parameter out of range, NaN, or beyond the numerical scheme's stability bound.
class ParameterError : public Error {
 public:
  using Error::Error;
};

// OpenCL is missing, no device matches, or an OpenCL call failed.
class DeviceError : public Error {
 public:
  using Error::Error;
};

// The data does not fit the device (allocation or image limits).
class ResourceError : public Error {
 public:
  using Error::Error;
};

// A kernel file failed to compile; carries the file name and the compiler's log.
class KernelBuildError : public DeviceError {
 public:
  KernelBuildError(std::string file, std::string log)
      : DeviceError("OpenCL kernel file '" + file + "' failed to build:\n" + log),
        file_(std::move(file)),
        log_(std::move(log)) {}
  const std::string& file() const { return file_; }
  const std::string& log() const { return log_; }

 private:
  std::string file_;
  std::string log_;
};

}  // namespace gvflab
