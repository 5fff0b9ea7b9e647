#!/usr/bin/env bash
# Packs what the viewer needs on a GPU machine that has no Qt and no X server (the device
# tool's Ubuntu 24.04 image), as two xz tarballs, since together they exceed what one call
# may carry (64 MiB); unpack both into one folder on the same (warm) machine:
#   xserver OUT.tar.xz  Xvfb, xkbcomp, the XKB data and Mesa's software GLX for the server
#                       side only (swrast_dri.so and its LLVM), plus the libraries they need
#   viewer OUT.tar.xz   build/app/gvflab, the Qt xcb platform and GLX plugins, and the
#                       libraries it needs (Qt, ICU, ImGui, FFmpeg...), plus run.sh
# glibc, libstdc++ and glvnd's GL/EGL/GLX loaders are left out: the machine has its own, and
# GL must come from NVIDIA's driver there. run.sh starts Xvfb and runs gvflab ARGS under it
# with __GLX_VENDOR_LIBRARY_NAME=nvidia.
# Usage: scripts/gpu-viewer-bundle.sh xserver|viewer OUT.tar.xz
set -euo pipefail
part=${1:?xserver or viewer}
out=$(realpath "${2:?output tarball}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/viewer-bundle
skip='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s|libGL|libGLX|libGLdispatch|libEGL|libOpenGL|libvulkan)\.so'
collect() {  # LIBDIR FILES...: the shared libraries of the files, minus the machine's own
  local dir=$1; shift
  mkdir -p "$dir"
  for f in "$@"; do
    ldd "$f" | awk '/=> \//{print $3}' | while read -r l; do
      base=$(basename "$l")
      [[ $base =~ $skip ]] || [ -e "$dir/$base" ] || cp -L "$l" "$dir/"
    done
  done
}
case "$part" in
  xserver)
    mkdir -p "$b/xbin" "$b/dri"
    cp /usr/bin/Xvfb /usr/bin/xkbcomp "$b/xbin/"
    cp /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so "$b/dri/"
    collect "$b/xlib" "$b/xbin/Xvfb" "$b/xbin/xkbcomp" "$b/dri/swrast_dri.so"
    cp -r /usr/share/X11/xkb "$b/xkb"
    ;;
  viewer)
    qtplugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null ||
                echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
    mkdir -p "$b/bin" "$b/plugins/platforms" "$b/plugins/xcbglintegrations"
    cp build/app/gvflab "$b/bin/"
    cp "$qtplugins/platforms/libqxcb.so" "$b/plugins/platforms/"
    cp "$qtplugins/xcbglintegrations/libqxcb-glx-integration.so" "$b/plugins/xcbglintegrations/"
    collect "$b/lib" "$b/bin/gvflab" "$b/plugins/platforms/libqxcb.so" \
      "$b/plugins/xcbglintegrations/libqxcb-glx-integration.so"
    # FFmpeg's codec libraries (x265, codec2, SVT-AV1...) are half of the size and only
    # recording uses them: each one that FFmpeg needs without symbol versions and that the Qt
    # side does not need becomes an empty library of the same name, enough for the loader.
    # Kept too: what the libraries FFmpeg needs with symbol versions need (theora needs cairo).
    ff=/usr/lib/x86_64-linux-gnu
    qtside=$(for f in "$b/plugins/"*/*.so $ff/libQt6{Core,Gui,Widgets,OpenGL,OpenGLWidgets,XcbQpa}.so.6 \
               $ff/lib{theoradec.so.1,theoraenc.so.1,jxl.so.0.7,jxl_threads.so.0.7,mfx.so.1,ssh-gcrypt.so.4,gnutls.so.30,xml2.so.2,va.so.2}; do
      ldd "$f" | awk '/=> \//{print $1}'; done | sort -u)
    ff=/usr/lib/x86_64-linux-gnu
    for lib in $(for f in libavcodec.so.59 libavformat.so.59 libavutil.so.57 libswscale.so.6 libswresample.so.4; do
                   readelf -d "$ff/$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'; done | sort -u); do
      case $lib in libav*|libsw*|libc.so*|libm.so*) continue ;; esac
      versioned=$(for f in libavcodec.so.59 libavformat.so.59 libavutil.so.57; do readelf -V "$ff/$f"; done |
                  grep -c "File: $lib" || true)
      [ "$versioned" = 0 ] && ! grep -qx "$lib" <<< "$qtside" || continue
      echo "" | gcc -x c -shared -fPIC -Wl,-soname,"$lib" -o "$b/lib/$lib" -
    done
    # Drop what only the stubbed libraries needed.
    keep=$(for f in "$b/bin/gvflab" "$b/plugins/"*/*.so; do
      LD_LIBRARY_PATH=$b/lib ldd "$f" | awk -v d="$b/lib/" 'index($3, d) == 1 {print $1}'; done | sort -u)
    for f in "$b/lib/"*; do grep -qx "$(basename "$f")" <<< "$keep" || rm "$f"; done
    cat > "$b/run.sh" <<'RUN'
#!/usr/bin/env bash
# Starts Xvfb (Mesa's GLX in the server, NVIDIA's GLX in the client) once, then runs gvflab ARGS.
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -e /tmp/.X11-unix/X91 ]; then
  # Xvfb runs xkbcomp from its compiled-in /usr/bin and reads the XKB data from -xkbdir.
  [ -x /usr/bin/xkbcomp ] || cp "$here/xbin/xkbcomp" /usr/bin/
  LD_LIBRARY_PATH=$here/xlib LIBGL_DRIVERS_PATH=$here/dri setsid "$here/xbin/Xvfb" :91 \
    -screen 0 ${XVFB_SCREEN:-1600x1000x24} -xkbdir "$here/xkb" -fp built-ins -nolisten tcp \
    > /tmp/xvfb.log 2>&1 < /dev/null &
  for _ in $(seq 100); do [ -e /tmp/.X11-unix/X91 ] && break; sleep 0.1; done
fi
export DISPLAY=:91 QT_PLUGIN_PATH=$here/plugins LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export __GLX_VENDOR_LIBRARY_NAME=${__GLX_VENDOR_LIBRARY_NAME:-nvidia}
exec "$here/bin/gvflab" "$@"
RUN
    chmod +x "$b/run.sh"
    ;;
  *) echo "usage: $0 xserver|viewer OUT.tar.xz" >&2; exit 2 ;;
esac
find "$b" -type f \( -name '*.so*' -o -perm -u+x \) ! -name run.sh -exec strip --strip-unneeded {} + 2>/dev/null || true
[ -n "${BUNDLE_KEEP:-}" ] && cp -r "$b" "$BUNDLE_KEEP"
tar -C "$tmp" -cf - viewer-bundle | xz -T2 -6 > "$out"
du -sh "$b"
ls -la "$out"
