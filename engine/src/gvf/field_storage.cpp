#include "gvflab/field_storage.hpp"

#include <array>
#include <stdexcept>
#include <vector>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

namespace {
constexpr EnumNames<Precision, 3> kPrecisions{
    {{Precision::F32, "f32"}, {Precision::F16, "f16"}, {Precision::SNorm16, "snorm16"}}};
constexpr EnumNames<MemoryKind, 3> kMemories{
    {{MemoryKind::Buffer, "buffer"}, {MemoryKind::Image, "image"}, {MemoryKind::Local, "local"}}};
}  // namespace

const char* precisionName(Precision p) { return enumName(kPrecisions, p); }
const char* memoryName(MemoryKind m) { return enumName(kMemories, m); }
Precision parsePrecision(const std::string& text) {
  return parseEnum(kPrecisions, text, "Precision");
}
MemoryKind parseMemory(const std::string& text) { return parseEnum(kMemories, text, "Memory"); }

int bytesPerComponent(Precision p) { return p == Precision::F32 ? 4 : 2; }

std::uint64_t fieldBytes(FieldShape shape, Precision precision) {
  return shape.count() * shape.dims() * bytesPerComponent(precision);
}

namespace {

cl_channel_type channelType(Precision p) {
  return p == Precision::F16 ? CL_HALF_FLOAT : p == Precision::SNorm16 ? CL_SNORM_INT16 : CL_FLOAT;
}

bool formatSupported(ComputeContext& ctx, cl_mem_object_type type, cl_image_format f) {
  std::vector<cl::ImageFormat> formats;
  ctx.context().getSupportedImageFormats(CL_MEM_READ_WRITE, type, &formats);
  for (const auto& g : formats)
    if (g.image_channel_order == f.image_channel_order &&
        g.image_channel_data_type == f.image_channel_data_type)
      return true;
  return false;
}

}  // namespace

FieldStorage::FieldStorage(ComputeContext& ctx, FieldShape shape, Precision precision,
                           bool wantImage, RowOrder order)
    : ctx_(ctx), shape_(shape), precision_(precision) {
  const bool is3d = shape.dims() == 3;
  try {
    if (wantImage) {
      const cl_mem_object_type type = is3d ? CL_MEM_OBJECT_IMAGE3D : CL_MEM_OBJECT_IMAGE2D;
      const cl::Device& d = ctx.device();
      const bool devImages = d.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;
      const std::size_t w = shape.width, h = shape.height;
      const bool fits =
          is3d ? w <= d.getInfo<CL_DEVICE_IMAGE3D_MAX_WIDTH>() &&
                     h <= d.getInfo<CL_DEVICE_IMAGE3D_MAX_HEIGHT>() &&
                     std::size_t(shape.depth) <= d.getInfo<CL_DEVICE_IMAGE3D_MAX_DEPTH>()
               : w <= d.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>() &&
                     h <= d.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
      const bool writes3d = !is3d || ctx.info().hasExtension("cl_khr_3d_image_writes");
      const cl_channel_type dataType = channelType(precision);
      if (!devImages) {
        note_ = "the device has no image support: using buffers";
      } else if (!writes3d) {
        note_ = "the device lacks cl_khr_3d_image_writes: using buffers";
      } else if (!fits) {
        note_ = "the field exceeds the device's image size limits: using buffers";
      } else if (!is3d && formatSupported(ctx, type, {CL_RG, dataType})) {
        image_ = true;
        mem_ = cl::Image2D(ctx.context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_RG, dataType),
                           shape.width, shape.height);
      } else if (formatSupported(ctx, type, {CL_RGBA, dataType})) {
        image_ = true;
        const cl::ImageFormat rgba(CL_RGBA, dataType);
        if (!is3d) note_ = "the device has no CL_RG images: using RGBA images";
        if (is3d)
          mem_ = cl::Image3D(ctx.context(), CL_MEM_READ_WRITE, rgba, shape.width, shape.height,
                             shape.depth);
        else
          mem_ = cl::Image2D(ctx.context(), CL_MEM_READ_WRITE, rgba, shape.width, shape.height);
      } else {
        note_ = std::string("the device has no ") + precisionName(precision) +
                " image format: using buffers";
      }
      if (image_) {
        const int channels = (!is3d && note_.empty()) ? 2 : 4;  // RG, or RGBA (3D always RGBA)
        bytes_ = shape.count() * channels * bytesPerComponent(precision);
      }
    }
    if (!image_) {
      bytes_ = fieldBytes(shape, precision);
      ctx.checkAllocation(bytes_,
                          "A " + std::to_string(shape.width) + "x" + std::to_string(shape.height) +
                              (is3d ? "x" + std::to_string(shape.depth) : "") + " vector field");
      buffer_ = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes_);
      mem_ = buffer_;
      if (is3d) order_ = order;
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "allocating a vector field on the device");
  }
}

std::string FieldStorage::buildOptions() const {
  std::string o;
  if (precision_ == Precision::F16) o += "-DSTORAGE_F16 ";
  if (precision_ == Precision::SNorm16) o += "-DSTORAGE_SNORM16 ";
  if (image_) o += "-DMEMORY_IMAGE ";
  if (shape_.dims() == 3) o += "-DDIMS3 ";
  if (order_ == RowOrder::Parity) o += "-DPARITY_ROWS ";
  if (!o.empty()) o.pop_back();
  return o;
}

void FieldStorage::enqueueConvert(const char* name, const cl::Buffer& f32) {
  try {
    // src, dst, width, height, depth
    TypedKernel<cl::Memory, cl::Memory, cl_int, cl_int, cl_int> k =
        ctx_.kernels().kernel("gvf_convert.cl", name, buildOptions());
    const bool importing = std::string(name) == "import_field";
    k.set(importing ? cl::Memory(f32) : mem_, importing ? mem_ : cl::Memory(f32), shape_.width,
          shape_.height, shape_.depth);
    const cl::NDRange local =
        shape_.dims() == 3 ? cl::NDRange(32, 4, 2) : detail::localSize2D(ctx_.info());
    detail::enqueueRange(ctx_, k, name,
                         detail::paddedRange(shape_.width, shape_.height, shape_.depth, local),
                         local);
  } catch (const cl::Error& e) {
    rethrowClError(e, "converting a vector field");
  }
}

void FieldStorage::importFrom(const cl::Buffer& f32) { enqueueConvert("import_field", f32); }
void FieldStorage::exportTo(const cl::Buffer& f32) { enqueueConvert("export_field", f32); }

void FieldStorage::copyFrom(const FieldStorage& other) {
  if (other.order_ != order_ || other.image_ != image_ || other.bytes_ != bytes_)
    throw std::logic_error("FieldStorage::copyFrom: the two storages differ in layout");
  try {
    cl::CommandQueue& q = ctx_.queue();
    const std::array<cl::size_type, 3> origin{0, 0, 0},
        region{cl::size_type(shape_.width), cl::size_type(shape_.height),
               cl::size_type(shape_.depth)};
    if (!image_)
      q.enqueueCopyBuffer(other.buffer_, buffer_, 0, 0, bytes_);
    else if (shape_.dims() == 3)
      q.enqueueCopyImage(cl::Image3D(other.mem_(), true), cl::Image3D(mem_(), true), origin, origin,
                         region);
    else
      q.enqueueCopyImage(cl::Image2D(other.mem_(), true), cl::Image2D(mem_(), true), origin, origin,
                         region);
  } catch (const cl::Error& e) {
    rethrowClError(e, "copying a vector field");
  }
}

}  // namespace gvflab
