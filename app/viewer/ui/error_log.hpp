#pragma once
// The messages shown in the panel's log and, for a few seconds, as a toast next to the view.
// Once the window is up, every failure ends here instead of ending the program.
#include <deque>
#include <exception>
#include <new>
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab::viewer {

class ErrorLog {
 public:
  void add(std::string message) {
    if (!messages_.empty() && messages_.back() == message) return;  // no per-frame floods
    messages_.push_back(std::move(message));
    ++added_;
    while (messages_.size() > 6) messages_.pop_front();
  }
  void clear() { messages_.clear(); }
  const std::deque<std::string>& messages() const { return messages_; }
  // How many messages were ever added: a change means a new one (for the toast).
  long added() const { return added_; }

  // Runs f; any exception becomes a message starting with what was being done.
  // Returns false when f threw.
  template <class F>
  bool guard(const std::string& doing, F&& f) {
    try {
      f();
      return true;
    } catch (const Error& e) {
      add(doing + ": " + e.what());
    } catch (const cl::Error& e) {
      add(doing + ": OpenCL call " + e.what() + " failed with " + clErrorName(e.err()) + ".");
    } catch (const std::bad_alloc&) {
      add(doing + ": out of memory.");
    } catch (const std::exception& e) {
      add(doing + ": " + e.what());
    }
    return false;
  }

 private:
  std::deque<std::string> messages_;
  long added_ = 0;
};

}  // namespace gvflab::viewer
