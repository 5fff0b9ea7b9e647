#include "viewer/render/gl_driver_pin.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>

#include <cstring>
#endif

namespace gvflab::viewer {

void pinGlDriverModules() {
#if defined(__SANITIZE_ADDRESS__)
  // RTLD_NOLOAD | RTLD_NODELETE on a module already loaded marks it never to be unloaded.
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void*) {
        if (info->dlpi_name && std::strstr(info->dlpi_name, "_dri.so"))
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        return 0;
      },
      nullptr);
#endif
}

}  // namespace gvflab::viewer
