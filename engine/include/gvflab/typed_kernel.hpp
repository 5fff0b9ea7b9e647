#pragma once
// An OpenCL kernel whose argument types are declared once, where it is held, e.g.
//   TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_float> step_;
// set(a, b, c, d) sets every argument in order, and arg<2>(c) one argument that changes between
// launches; a wrong count, an index past the end or a narrowing conversion (a double for a
// cl_float) does not compile (the constraints say which). A failing clSetKernelArg becomes a
// DeviceError naming the kernel and the argument. Like cl::KernelFunctor of the C++ bindings,
// but it leaves enqueuing to the caller (profiling, work-group shapes); it converts to
// cl::Kernel& for the launch helpers.
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "gvflab/cl.hpp"

namespace gvflab {

namespace detail {
// Throws DeviceError: "OpenCL kernel 'name' rejected argument i (n bytes): ... CL_...".
[[noreturn]] void throwKernelArgError(const std::string& kernel, std::size_t index,
                                      std::size_t bytes, const cl::Error& e);
std::string kernelName(const cl::Kernel& kernel);

template <class T>
std::size_t argBytes(const T&) {
  if constexpr (std::is_base_of_v<cl::Memory, T>)
    return sizeof(cl_mem);
  else
    return sizeof(T);
}
inline std::size_t argBytes(const cl::LocalSpaceArg& local) { return local.size_; }

template <class T>
void setKernelArg(cl::Kernel& kernel, cl_uint index, const T& value) {
  kernel.setArg(index, value);
}
// An argument that is one of several kinds, e.g. a __global pool or __local scratch memory
// chosen at build time: whichever alternative is held is set.
template <class... Ts>
void setKernelArg(cl::Kernel& kernel, cl_uint index, const std::variant<Ts...>& value) {
  std::visit([&](const auto& v) { kernel.setArg(index, v); }, value);
}
template <class... Ts>
std::size_t argBytes(const std::variant<Ts...>& value) {
  return std::visit([](const auto& v) { return argBytes(v); }, value);
}

// From converts implicitly to To, and without narrowing (To{from} is well-formed).
template <class From, class To>
concept ArgConvertible = std::is_convertible_v<From, To> && requires(From&& from) {
  To{std::forward<From>(from)};
};
}  // namespace detail

template <class... Args>
class TypedKernel {
 public:
  static constexpr std::size_t arity = sizeof...(Args);
  template <std::size_t I>
  using Arg = std::tuple_element_t<I, std::tuple<Args...>>;

  TypedKernel() = default;
  // Implicit, so that `member_ = library.kernel("file.cl", "name")` declares nothing twice.
  TypedKernel(cl::Kernel kernel) : kernel_(std::move(kernel)), name_(detail::kernelName(kernel_)) {}

  // Sets every argument, in the declared order (all of them: use arg<I>() for one).
  template <class... Ts>
  requires(sizeof...(Ts) == arity &&
           (detail::ArgConvertible<Ts, Args> && ...)) void set(Ts&&... values) {
    setEach(std::index_sequence_for<Args...>{}, std::forward<Ts>(values)...);
  }

  // Sets argument I alone; the value must convert to the declared type without narrowing.
  template <std::size_t I, class T>
  requires(I < arity && detail::ArgConvertible<T, Arg<I>>) void arg(T&& value) {
    if constexpr (std::is_same_v<std::remove_cvref_t<T>, Arg<I>>)
      setChecked(I, value);
    else
      setChecked(I, Arg<I>{std::forward<T>(value)});
  }

  cl::Kernel& get() { return kernel_; }
  operator cl::Kernel&() { return kernel_; }
  const std::string& name() const { return name_; }

 private:
  template <class T>
  void setChecked(std::size_t index, const T& value) {
    try {
      detail::setKernelArg(kernel_, static_cast<cl_uint>(index), value);
    } catch (const cl::Error& e) {
      detail::throwKernelArgError(name_, index, detail::argBytes(value), e);
    }
  }
  template <std::size_t... I, class... Ts>
  void setEach(std::index_sequence<I...>, Ts&&... values) {
    (arg<I>(std::forward<Ts>(values)), ...);
  }

  cl::Kernel kernel_;
  std::string name_;
};

}  // namespace gvflab
