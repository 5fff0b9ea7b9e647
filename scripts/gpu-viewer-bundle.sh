#!/usr/bin/env bash
# Packs what the viewer needs on a GPU machine that has no Qt and no display (the device
# tool's Ubuntu 24.04 image) into one xz tarball small enough for one call (< 64 MiB):
#   bin/ lib/ plugins/      build/app/gvflab, the Qt eglfs and xcb platforms, and the
#                           libraries they need (Qt, ICU, ImGui...)
#   lib/libegl_pbuffer_shim.so  lets eglfs draw into a pbuffer on an EGL device
#                           (scripts/egl_pbuffer_shim.c): how the viewer runs on NVIDIA there
#   xbin/ xlib/ dri/ xkb/   Xvfb, xkbcomp, the XKB data and Mesa's swrast_dri.so (which Xvfb
#                           needs to offer GLX at all), for GVFLAB_DISPLAY=xvfb: GLX clients.
#                           NVIDIA's GLX refuses Xvfb's screen (no FBConfigs), so on NVIDIA
#                           this only serves Mesa.
#   run.sh                  runs gvflab ARGS on eglfs (default) or under Xvfb
# Two large libraries are replaced by stubs that define only the symbols their users import
# (functions that return 0, data of the same size), so the loader is satisfied; 0 rather than
# abort() because swrast_dri.so calls LLVMIsMultithreaded() from a static constructor:
#   - FFmpeg (libavcodec...: with its codecs ~180 MB): only recording uses it, and the bundle
#     cannot record;
#   - LLVM (libLLVM-15 + z3: ~140 MB) under swrast_dri.so: the server runs softpipe
#     (GALLIUM_DRIVER=softpipe, DRAW_USE_LLVM=0) and renders nothing itself.
# glibc, libstdc++ and glvnd's GL/EGL/GLX loaders are left out: the machine has its own, and
# GL must come from NVIDIA's driver there (__GLX_VENDOR_LIBRARY_NAME=nvidia by default).
# BUNDLE_HEADLESS=1 packs bin/ and lib/ alone, with a run.sh that runs gvflab: --headless needs
# no platform plugin, X server or font (what scripts/gpu-dask-run.sh's tasks run).
# Usage: scripts/gpu-viewer-bundle.sh OUT.tar.xz   (BUNDLE_KEEP=DIR also keeps the folder)
set -euo pipefail
out=$(realpath "${1:?output tarball}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/viewer-bundle
sys=/usr/lib/x86_64-linux-gnu
skip='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s|libGL|libGLX|libGLdispatch|libEGL|libOpenGL|libvulkan)\.so'

collect() {  # LIBDIR FILES...: the shared libraries of the files (stubs in LIBDIR win)
  local dir=$1; shift
  mkdir -p "$dir"
  for f in "$@"; do
    LD_LIBRARY_PATH=$dir ldd "$f" | awk '/=> \//{print $3}' | while read -r l; do
      base=$(basename "$l")
      [[ $base =~ $skip ]] || [ -e "$dir/$base" ] || cp -L "$l" "$dir/"
    done
  done
}

stub() {  # LIB OUTDIR USERS...: LIB's soname with only the symbols USERS import from it
  local lib=$1 dir=$2; shift 2
  local name s=$tmp/stub
  name=$(basename "$lib")
  mkdir -p "$dir" "$s"
  for u in "$@"; do nm -D --undefined-only "$u" | awk '{print $2}'; done | sed 's/@.*//' |
    sort -u > "$s/wanted"
  # name type size version, for the defined symbols of lib that are wanted
  nm -D -S --defined-only "$lib" |
    awk 'NF == 4 {print $4, $3, $2} NF == 3 {print $3, $2, 0}' |
    sed -E 's/^([^@ ]+)@@?([^ ]+) (.*)$/\1 \3 \2/; t; s/$/ -/' | sort -k1,1 -u |
    join - "$s/wanted" > "$s/syms"
  : > "$s/c"
  local i=0
  while read -r sym type size ver; do
    case $type in
      T|t|W|w|i) echo "long f$i(void) __asm__(\"$sym\"); long f$i(void) { return 0; }" ;;
      *) echo "char d$i[$((16#$size > 0 ? 16#$size : 1))] __asm__(\"$sym\");" ;;
    esac >> "$s/c"
    i=$((i + 1))
  done < "$s/syms"
  # One version node per version the symbols carry; unversioned ones stay global.
  awk '$4 != "-" {v[$4] = v[$4] "  " $1 ";\n"} END {for (k in v) printf "%s {\n global:\n%s};\n", k, v[k]}' \
    "$s/syms" > "$s/map"
  local vs=()
  [ -s "$s/map" ] && vs=(-Wl,--version-script="$s/map")
  cat "$s/c" |
    gcc -x c -shared -fPIC -w -Wl,-soname,"$name" "${vs[@]}" -o "$dir/$name" -
  echo "stub $name: $i symbols" >&2
  rm -rf "$s"
}

# gvflab, with FFmpeg's stubs.
mkdir -p "$b/bin"
cp build/app/gvflab "$b/bin/"
for lib in $(readelf -d build/app/gvflab | sed -n 's/.*NEEDED.*\[\(lib\(av\|sw\)[a-z]*\.so\.[0-9]*\)\]/\1/p'); do
  stub "$sys/$lib" "$b/lib" "$b/bin/gvflab"
done
if [ -n "${BUNDLE_HEADLESS:-}" ]; then
  collect "$b/lib" "$b/bin/gvflab"
  printf '%s\n' '#!/usr/bin/env bash' 'here=$(cd "$(dirname "$0")" && pwd)' \
    'LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "$here/bin/gvflab" "$@"' \
    > "$b/run.sh"
else
# The X server side.
mkdir -p "$b/xbin" "$b/dri" "$b/xlib"
cp /usr/bin/Xvfb /usr/bin/xkbcomp "$b/xbin/"
cp "$sys/dri/swrast_dri.so" "$b/dri/"
stub "$sys/libLLVM-15.so.1" "$b/xlib" "$b/dri/swrast_dri.so"
collect "$b/xlib" "$b/xbin/Xvfb" "$b/xbin/xkbcomp" "$b/dri/swrast_dri.so"
cp -r /usr/share/X11/xkb "$b/xkb"

# The viewer side.
qtplugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo "$sys/qt6/plugins")
mkdir -p "$b/plugins/platforms" "$b/plugins/xcbglintegrations"
cp "$qtplugins/platforms/libqxcb.so" "$qtplugins/platforms/libqeglfs.so" "$b/plugins/platforms/"
cp "$qtplugins/xcbglintegrations/"*.so "$b/plugins/xcbglintegrations/"
collect "$b/lib" "$b/bin/gvflab" "$b/plugins/"*/*.so
gcc -O2 -shared -fPIC -Wall -o "$b/lib/libegl_pbuffer_shim.so" scripts/egl_pbuffer_shim.c -ldl
# The panels' font (its Greek letters: mu, sigma, epsilon); the GPU image has no fonts.
mkdir -p "$b/fonts" && cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$b/fonts/"

cat > "$b/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs gvflab ARGS. GVFLAB_DISPLAY=eglfs (default): no X server; Qt's eglfs platform on the
# first EGL device (GVFLAB_EGL_PLATFORM=surfaceless: Mesa), drawing into a pbuffer of
# GVFLAB_SCREEN (default 1280x800; the window fills it). GVFLAB_DISPLAY=xvfb: starts Xvfb on
# :$XVFB_DISPLAY (default 91) once -- Mesa's GLX in the server, softpipe, no LLVM -- and runs
# gvflab there with the GLX vendor __GLX_VENDOR_LIBRARY_NAME (default nvidia).
here=$(cd "$(dirname "$0")" && pwd)
export QT_PLUGIN_PATH=$here/plugins LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# gvflab looks for DejaVu Sans where Debian and Ubuntu put it.
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -e $font ] || { mkdir -p "$(dirname $font)" && cp "$here/fonts/DejaVuSans.ttf" $font; }
if [ "${GVFLAB_DISPLAY:-eglfs}" = eglfs ]; then
  screen=${GVFLAB_SCREEN:-1280x800}
  # eglfs opens a framebuffer device first; /dev/null will do (the size comes from here).
  export QT_QPA_PLATFORM=eglfs QT_QPA_EGLFS_INTEGRATION=none QT_QPA_EGLFS_FB=/dev/null \
    QT_QPA_EGLFS_DISABLE_INPUT=1 QT_QPA_EGLFS_WIDTH=${screen%x*} QT_QPA_EGLFS_HEIGHT=${screen#*x} \
    QT_QPA_EGLFS_PHYSICAL_WIDTH=340 QT_QPA_EGLFS_PHYSICAL_HEIGHT=210 \
    LD_PRELOAD=$here/lib/libegl_pbuffer_shim.so
  unset DISPLAY
  exec "$here/bin/gvflab" "$@"
fi
d=${XVFB_DISPLAY:-91}
if [ ! -e /tmp/.X11-unix/X$d ]; then
  # Xvfb runs xkbcomp from its compiled-in /usr/bin and reads the XKB data from -xkbdir.
  [ -x /usr/bin/xkbcomp ] || cp "$here/xbin/xkbcomp" /usr/bin/
  LD_LIBRARY_PATH=$here/xlib LIBGL_DRIVERS_PATH=$here/dri GALLIUM_DRIVER=softpipe DRAW_USE_LLVM=0 \
    setsid "$here/xbin/Xvfb" :$d -screen 0 "${XVFB_SCREEN:-1600x1000x24}" -xkbdir "$here/xkb" \
    -fp built-ins -nolisten tcp > "/tmp/xvfb$d.log" 2>&1 < /dev/null &
  for _ in $(seq 100); do [ -e /tmp/.X11-unix/X$d ] && break; sleep 0.1; done
fi
export DISPLAY=:$d __GLX_VENDOR_LIBRARY_NAME=${__GLX_VENDOR_LIBRARY_NAME:-nvidia}
exec "$here/bin/gvflab" "$@"
RUN
fi
chmod +x "$b/run.sh"
find "$b" -type f \( -name '*.so*' -o -perm -u+x \) ! -name run.sh -exec strip --strip-unneeded {} + 2>/dev/null || true
[ -n "${BUNDLE_KEEP:-}" ] && cp -r "$b" "$BUNDLE_KEEP"
tar -C "$tmp" -cf - viewer-bundle | xz -T2 -9 > "$out"
du -sh "$b"
ls -la "$out"
