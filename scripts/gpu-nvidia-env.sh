# shellcheck shell=bash
# Sourced by the GPU machine's scripts (gpu-run.sh, gpu-viewer-run.sh, gpu-dask-run.sh):
# NVIDIA's drivers where the device tool's image keeps them out of the loaders' sight.
# Vulkan and EGL: their manifests live under /usr/local/nvidia/share, not /usr/share.
nv=/usr/local/nvidia/share
[ -f $nv/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=$nv/vulkan/icd.d/nvidia_icd.json
[ -f $nv/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=$nv/glvnd/egl_vendor.d/10_nvidia.json
# OpenCL: some images ship NVIDIA's driver without registering it with the ICD loader.
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/{print $NF; exit}')
  [ -n "$nv" ] || nv=$(find / -xdev -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
  if [ -n "$nv" ]; then
    mkdir -p /tmp/gvflab-icd && cp /etc/OpenCL/vendors/*.icd /tmp/gvflab-icd/ 2>/dev/null || true
    echo "$nv" > /tmp/gvflab-icd/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/gvflab-icd
  fi
fi
true
