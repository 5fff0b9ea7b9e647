#pragma once
// Device storage of one GVF vector field (2D: 2 components, 3D: 3) in a chosen precision and
// memory kind. Kernels that touch it are built with buildOptions(), which select the matching
// accessors in kernels/gvf_storage.clh.
#include <cstdint>
#include <string>

#include "gvflab/cl.hpp"

namespace gvflab {

class ComputeContext;

enum class Precision { F32, F16, SNorm16 };
enum class MemoryKind {
  Buffer,  // global buffers, one launch per iteration
  Image,   // images (textures); RG where the device has it, else RGBA, else buffers
  Local,   // global buffers with local-memory tiles (2D: several iterations per launch)
};

const char* precisionName(Precision p);
const char* memoryName(MemoryKind m);
Precision parsePrecision(const std::string& text);  // f32 | f16 | snorm16; ParameterError
MemoryKind parseMemory(const std::string& text);    // buffer | image | local; ParameterError
int bytesPerComponent(Precision p);

struct FieldShape {
  int width = 0;
  int height = 0;
  int depth = 1;  // 1 = 2D
  int dims() const { return depth > 1 ? 3 : 2; }
  std::uint64_t count() const { return std::uint64_t(width) * height * depth; }
};

// The order of a 3D buffer's rows (gvf_storage.clh V3_INDEX): x in order, or even x first
// and then odd x (multigrid: one red-black colour is a contiguous half row). 2D fields and
// images are always in x order.
enum class RowOrder { Natural, Parity };

class FieldStorage {
 public:
  // wantImage: try an image first and fall back to a buffer (see note()).
  FieldStorage(ComputeContext& ctx, FieldShape shape, Precision precision, bool wantImage,
               RowOrder order = RowOrder::Natural);

  const cl::Memory& memory() const { return mem_; }
  // The buffer when !isImage() (a null handle otherwise).
  const cl::Buffer& buffer() const { return buffer_; }
  bool isImage() const { return image_; }
  Precision precision() const { return precision_; }
  RowOrder rowOrder() const { return order_; }  // Natural unless a 3D buffer was asked Parity
  const FieldShape& shape() const { return shape_; }
  std::uint64_t bytes() const { return bytes_; }
  // Fallbacks taken, in a sentence; empty when the request was met as asked.
  const std::string& note() const { return note_; }
  // "-DSTORAGE_F16 -DMEMORY_IMAGE -DDIMS3 -DPARITY_ROWS" etc.
  std::string buildOptions() const;

  // Copies from / to the float32 interleaved layout (float2 in 2D, packed float3 in 3D).
  void importFrom(const cl::Buffer& f32);
  void exportTo(const cl::Buffer& f32);
  // Copies another storage of the same shape, precision, kind and row order, bit for bit.
  void copyFrom(const FieldStorage& other);

 private:
  void enqueueConvert(const char* kernel, const cl::Buffer& f32);
  ComputeContext& ctx_;
  FieldShape shape_;
  Precision precision_;
  RowOrder order_ = RowOrder::Natural;
  bool image_ = false;
  cl::Memory mem_;
  cl::Buffer buffer_;
  std::uint64_t bytes_ = 0;
  std::string note_;
};

// Bytes a GVF solve needs on the device for one field in this storage (image RGBA included).
std::uint64_t fieldBytes(FieldShape shape, Precision precision);

}  // namespace gvflab
