#include "gvflab/cancel.hpp"

#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace gvflab {
namespace {
// sig_atomic_t: the only type a handler may store to portably; volatile keeps loops polling it.
volatile std::sig_atomic_t requested = 0;
}  // namespace

int cancelSignal() noexcept { return requested; }

void requestCancel(int signal) noexcept { requested = signal; }

void resetCancel() noexcept { requested = 0; }

void throwIfCancelled(const std::string& done) {
  if (const int s = cancelSignal())
    throw Interrupted("Interrupted after " + done + "; nothing was written.", s);
}

namespace {
struct UndoSlot {
  std::atomic<long> order{0};  // 0: free; else when it was registered (newest undone first)
  char from[PATH_MAX];
  char to[PATH_MAX];
};
constexpr int kUndoSlots = 64;
UndoSlot undoSlots[kUndoSlots];
std::atomic<long> undoCount{0};
}  // namespace

SignalUndo::SignalUndo(const std::string& from, const std::string& to) {
  if (from.size() >= PATH_MAX || to.size() >= PATH_MAX) return;
  for (int i = 0; i < kUndoSlots; ++i) {
    long expected = 0;
    if (!undoSlots[i].order.compare_exchange_strong(expected, -1)) continue;  // claimed
    std::memcpy(undoSlots[i].from, from.c_str(), from.size() + 1);
    std::memcpy(undoSlots[i].to, to.c_str(), to.size() + 1);
    undoSlots[i].order.store(++undoCount);  // published after the names
    slot_ = i;
    return;
  }
}

SignalUndo& SignalUndo::operator=(SignalUndo&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void SignalUndo::release() noexcept {
  if (slot_ >= 0) undoSlots[slot_].order.store(0);
  slot_ = -1;
}

void runSignalUndo() noexcept {
  for (;;) {  // newest first: a file written twice ends as it was before the run
    int newest = -1;
    long at = 0;
    for (int i = 0; i < kUndoSlots; ++i) {
      const long o = undoSlots[i].order.load();
      if (o > at) at = o, newest = i;
    }
    if (newest < 0) return;
    UndoSlot& u = undoSlots[newest];
    // A kept file still linked to its target (the writer had not replaced it yet) makes rename
    // a no-op: the unlink then removes the kept name; after a real rename it finds nothing.
    if (u.to[0] != '\0') ::rename(u.from, u.to);
    ::unlink(u.from);
    u.order.store(0);
  }
}

}  // namespace gvflab
