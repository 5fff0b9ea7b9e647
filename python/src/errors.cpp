#include "errors.hpp"

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

// Owned for the life of the interpreter (module attributes keep them alive too).
struct Classes {
  PyObject* error = nullptr;
  PyObject* input = nullptr;
  PyObject* parameter = nullptr;
  PyObject* device = nullptr;
  PyObject* resource = nullptr;
  PyObject* kernelBuild = nullptr;
};
Classes classes;

PyObject* newClass(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  const std::string qualified = std::string("gvflab.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // the module holds a reference too
  return cls;
}

void raise(PyObject* cls, const std::exception& e) { PyErr_SetString(cls, e.what()); }

void raiseKernelBuild(const KernelBuildError& e) {
  py::object err = py::reinterpret_borrow<py::object>(classes.kernelBuild)(e.what());
  err.attr("file") = e.file();
  err.attr("log") = e.log();
  PyErr_SetObject(classes.kernelBuild, err.ptr());
}

}  // namespace

void bindErrors(py::module_& m) {
  auto builtin = [](PyObject* cls) { return py::reinterpret_borrow<py::object>(cls); };
  classes.error = newClass(m, "Error", py::make_tuple(builtin(PyExc_RuntimeError)),
                           "Any error of the gvflab engine; the message is a sentence saying "
                           "what is wrong and what to do.");
  auto error = builtin(classes.error);
  classes.input = newClass(m, "InputError", py::make_tuple(error, builtin(PyExc_ValueError)),
                           "Bad input data: an empty, oversized or non-finite array, an "
                           "unreadable file.");
  classes.parameter =
      newClass(m, "ParameterError", py::make_tuple(error, builtin(PyExc_ValueError)),
               "A parameter out of range, NaN, unknown, or beyond the scheme's stability bound.");
  classes.device = newClass(m, "DeviceError", py::make_tuple(error),
                            "OpenCL is missing, no device matches, or an OpenCL call failed.");
  classes.resource =
      newClass(m, "ResourceError", py::make_tuple(error, builtin(PyExc_MemoryError)),
               "The data does not fit the OpenCL device (allocation or image limits).");
  classes.kernelBuild = newClass(m, "KernelBuildError", py::make_tuple(builtin(classes.device)),
                                 "A kernel file failed to compile; .file and .log say which "
                                 "and why.");

  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const KernelBuildError& e) {
      raiseKernelBuild(e);
    } catch (const InputError& e) {
      raise(classes.input, e);
    } catch (const ParameterError& e) {
      raise(classes.parameter, e);
    } catch (const ResourceError& e) {
      raise(classes.resource, e);
    } catch (const DeviceError& e) {
      raise(classes.device, e);
    } catch (const Error& e) {
      raise(classes.error, e);
    } catch (const cl::Error& e) {
      // The engine wraps OpenCL failures itself; this catches any it missed.
      try {
        rethrowClError(e, "running the gvflab engine");
      } catch (const DeviceError& wrapped) {
        raise(classes.device, wrapped);
      }
    }
  });
}

}  // namespace gvflab::python
