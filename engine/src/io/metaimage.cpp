// MetaImage (ITK's .mha / .mhd) reading and writing: images, volumes and vector fields, raw or
// zlib-compressed, with their world geometry.
#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <variant>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace {

// A MetaImage header is a few hundred bytes; the data may follow it in the same file.
constexpr std::size_t kMaxMetaHeaderBytes = 64 * 1024;
constexpr std::size_t kMaxMetaFields = 64;

struct Header {
  std::map<std::string, std::string> fields;
  std::size_t dataOffset = 0;  // bytes into the file (for LOCAL data)
};

// head: the file's first bytes; whole: head is the whole file.
Header parseHeader(const std::string& head, bool whole, const std::filesystem::path& path) {
  Header h;
  std::size_t pos = 0;
  int lines = 0;
  while (pos < head.size()) {
    std::size_t eol = head.find('\n', pos);
    if (eol == std::string::npos) {
      if (!whole) break;  // cut by the bound: the line is not all there
      eol = head.size();
    }
    std::string line = head.substr(pos, eol - pos);
    pos = eol + 1;
    if (++lines > kMaxTextHeaderLines) break;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto eq = line.find('=');
    if (eq == std::string::npos) {
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      throw InputError(quoted(path) + " is not a MetaImage file (bad header line).");
    }
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t") + 1);
      return s;
    };
    std::string key = trim(line.substr(0, eq));
    h.fields[key] = trim(line.substr(eq + 1));
    if (key == "ElementDataFile") {
      h.dataOffset = std::min(pos, head.size());
      return h;
    }
    if (h.fields.size() > kMaxMetaFields)
      throw InputError(quoted(path) + " is not a MetaImage file (header too long).");
  }
  if (!whole || lines > kMaxTextHeaderLines)
    throw InputError(quoted(path) + " is not a MetaImage file (no ElementDataFile in its first " +
                     byteCount(kMaxMetaHeaderBytes) + " or " + std::to_string(kMaxTextHeaderLines) +
                     " lines).");
  throw InputError(quoted(path) + " is not a MetaImage file (no ElementDataFile).");
}

Header readHeader(const InputFile& file) {
  if (file.size() == 0) throw InputError(file.label() + " is empty.");
  const std::string head = file.head(kMaxMetaHeaderBytes);
  return parseHeader(head, head.size() == file.size(), file.path());
}

// A header value, empty when the key is not there.
std::string fieldOf(const Header& h, const std::string& key) {
  const auto it = h.fields.find(key);
  return it == h.fields.end() ? std::string() : it->second;
}

// DimSize: 2 or 3 sides, each possible.
std::vector<int> dimSize(const Header& h, const std::filesystem::path& path) {
  std::istringstream in(fieldOf(h, "DimSize"));
  std::vector<int> v;
  long long x;
  while (in >> x) {
    if (x < 1 || x > 1 << 20)
      throw InputError(quoted(path) + " has an impossible size " + std::to_string(x) + ".");
    v.push_back(static_cast<int>(x));
    if (v.size() > 16) break;
  }
  if (v.size() < 2 || v.size() > 3)
    throw InputError(quoted(path) + " has no valid 2D or 3D DimSize.");
  return v;
}

// A sample's type, held as a value of that type: std::visit dispatches on it once.
using Element = std::variant<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                             std::int32_t, float, double>;

Element elementType(const std::string& type, const std::filesystem::path& path) {
  static const std::map<std::string, Element> types = {
      {"MET_UCHAR", std::uint8_t{}}, {"MET_CHAR", std::int8_t{}},   {"MET_USHORT", std::uint16_t{}},
      {"MET_SHORT", std::int16_t{}}, {"MET_UINT", std::uint32_t{}}, {"MET_INT", std::int32_t{}},
      {"MET_FLOAT", float{}},        {"MET_DOUBLE", double{}}};
  auto it = types.find(type);
  if (it == types.end())
    throw InputError(quoted(path) + " uses the unsupported element type '" + type + "'.");
  return it->second;
}

std::size_t elementSize(const Element& e) {
  return std::visit([](auto v) { return sizeof(v); }, e);
}

// The numbers of a header value; a word that is not a finite number (or is beyond 1e9) makes
// the header corrupt, with the key named.
std::vector<double> parseNumbers(const std::string& text, const char* key,
                                 const std::filesystem::path& path) {
  std::istringstream in(text);
  std::vector<double> out;
  std::string item;
  while (in >> item && out.size() < 16) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (*end != '\0' || !std::isfinite(v) || std::abs(v) > 1e9)
      throw InputError(quoted(path) + " has an invalid " + key + " '" + text.substr(0, 80) +
                       "' (finite numbers expected).");
    out.push_back(v);
  }
  return out;
}

// The numbers of the first of the synonyms MetaIO accepts that the header has (none when it
// has none of them); key becomes the name found, for messages.
std::vector<double> numbersOf(const Header& h, std::initializer_list<const char*> keys,
                              const char*& key, const std::filesystem::path& path) {
  key = *keys.begin();
  for (const char* k : keys)
    if (const auto it = h.fields.find(k); it != h.fields.end())
      return parseNumbers(it->second, key = k, path);
  return {};
}

// ElementSpacing, Offset (or Origin, Position) and TransformMatrix (or Orientation, Rotation):
// MetaImage's world is ITK's, LPS. TransformMatrix lists each axis's direction in turn (ITK's
// MetaImageIO: axis i is values i*N .. i*N+N-1), i.e. the columns of WorldGeometry::direction.
WorldGeometry parseGeometry(const Header& h, std::size_t dims, const std::filesystem::path& path) {
  WorldGeometry g;
  const char* key = nullptr;
  const auto spacing = numbersOf(h, {"ElementSpacing"}, key, path);
  // Positive (a zero or negative spacing is a corrupt header, even though GVF runs in voxels).
  for (const double s : spacing)
    if (s <= 0 || s > 1e6)
      throw InputError(quoted(path) + " has an invalid ElementSpacing '" +
                       h.fields.at("ElementSpacing").substr(0, 80) +
                       "' (positive finite sizes expected).");
  for (std::size_t i = 0; i < dims && i < spacing.size(); ++i) g.spacing[i] = spacing[i];
  const auto origin = numbersOf(h, {"Offset", "Origin", "Position"}, key, path);
  if (!origin.empty() && origin.size() < dims)
    throw InputError(quoted(path) + " has an invalid " + key + " (" + std::to_string(dims) +
                     " numbers expected).");
  for (std::size_t i = 0; i < dims && i < origin.size(); ++i) g.origin[i] = origin[i];
  const auto matrix = numbersOf(h, {"TransformMatrix", "Orientation", "Rotation"}, key, path);
  if (!matrix.empty()) {
    if (matrix.size() < dims * dims)
      throw InputError(quoted(path) + " has an invalid " + key + " (" +
                       std::to_string(dims * dims) + " numbers expected).");
    for (std::size_t axis = 0; axis < dims; ++axis) {
      double norm = 0;
      for (std::size_t c = 0; c < dims; ++c)
        norm += matrix[axis * dims + c] * matrix[axis * dims + c];
      if (norm < 1e-12)
        throw InputError(quoted(path) + " has an invalid " + key + " (axis " +
                         std::to_string(axis) + " has no direction).");
      for (std::size_t c = 0; c < dims; ++c) g.direction[c * 3 + axis] = matrix[axis * dims + c];
    }
  }
  g.known = !spacing.empty() || !origin.empty() || !matrix.empty();
  return g;
}

// Deflate cannot expand data more than about 1032 times (258-byte matches of a 1-bit code), so
// a header that promises more than this times its compressed bytes is refused before anything
// is allocated or inflated (a decompression bomb or a corrupt DimSize).
constexpr std::uint64_t kMaxDeflateRatio = 1032;

// Inflates exactly `need` bytes of a zlib (or gzip) stream into out; throws InputError when the
// stream is corrupt or ends early. Bytes past what the header promises are not inflated. The
// output grows with what the stream really holds (doubling), so a stream that ends early or a
// lying CompressedDataSize costs what it holds, not what DimSize promises.
void inflateExactly(const std::string& compressed, std::string& out, std::uint64_t need,
                    const std::filesystem::path& path) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK)  // +32: zlib or gzip header, as MetaIO
    throw InputError(quoted(path) + " cannot be decompressed (out of memory).");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  std::uint64_t inLeft = compressed.size(), done = 0;
  out.clear();
  int rc = Z_OK;
  while (done < need && rc == Z_OK) {
    if (done == out.size())
      out.resize(static_cast<std::size_t>(
          std::min<std::uint64_t>(need, std::max<std::uint64_t>(1u << 20, out.size() * 2))));
    // zlib counts in uInt: feed and drain at most 1 GiB at a time.
    const uInt inChunk = static_cast<uInt>(std::min<std::uint64_t>(inLeft, 1u << 30));
    const uInt outChunk = static_cast<uInt>(std::min<std::uint64_t>(out.size() - done, 1u << 30));
    z.next_out = reinterpret_cast<Bytef*>(out.data() + done);
    z.avail_in = inChunk;
    z.avail_out = outChunk;
    rc = inflate(&z, Z_NO_FLUSH);
    inLeft -= inChunk - z.avail_in;
    done += outChunk - z.avail_out;
    if (rc == Z_BUF_ERROR && inLeft > 0 && z.avail_out == 0) rc = Z_OK;  // more room needed
  }
  inflateEnd(&z);
  if (done < need)
    throw InputError(quoted(path) + " has corrupt or truncated compressed data: it inflates to " +
                     byteCount(done) + ", its DimSize promises " + byteCount(need) +
                     (rc == Z_DATA_ERROR ? " (bad zlib stream)." : "."));
}

std::string deflateAll(const char* data, std::size_t size, const std::filesystem::path& path) {
  uLongf bound = compressBound(static_cast<uLong>(size));
  std::string out(bound, '\0');
  // Level 1: fields are noisy floats; a higher level costs much more time for little.
  if (size > std::numeric_limits<uLong>::max() ||
      compress2(reinterpret_cast<Bytef*>(out.data()), &bound, reinterpret_cast<const Bytef*>(data),
                static_cast<uLong>(size), 1) != Z_OK)
    throw InputError("Cannot write " + quoted(path) + ": compression failed.");
  out.resize(bound);
  return out;
}

struct Raw {
  std::vector<int> dims;
  int channels = 1;
  Element type;
  std::size_t count = 0;  // values (channels included)
  std::string bytes;      // exactly count values, little-endian
  WorldGeometry geometry;
};

// f(value), value(i) reading the i-th sample as a double: the element type dispatched once.
template <class F>
void withValues(const Raw& raw, F&& f) {
  std::visit(
      [&](auto tag) {
        f([&](std::size_t i) {
          decltype(tag) v;
          std::memcpy(&v, raw.bytes.data() + i * sizeof(v), sizeof(v));
          return static_cast<double>(v);
        });
      },
      raw.type);
}

// The data files this reader follows: one file, named relative to the header's folder.
void checkDataFileName(const std::string& name, const std::filesystem::path& path) {
  if (name == "LIST" || name.rfind("LIST ", 0) == 0)
    throw InputError(quoted(path) +
                     " keeps its data in a LIST of files; only LOCAL data or one "
                     "data file is read.");
  if (name.find('%') != std::string::npos)
    throw InputError(quoted(path) + " names its data files by a pattern ('" + name.substr(0, 80) +
                     "'); only LOCAL data or one data file is read.");
}

Raw readRaw(const std::filesystem::path& path) {
  const InputFile file(path);
  const Header h = readHeader(file);
  const auto field = [&](const std::string& k) { return fieldOf(h, k); };
  Raw raw;
  raw.dims = dimSize(h, path);
  if (!field("ElementNumberOfChannels").empty())
    raw.channels = std::atoi(field("ElementNumberOfChannels").c_str());
  if (raw.channels < 1 || raw.channels > 4)
    throw InputError(quoted(path) + " has an unsupported channel count.");
  const bool compressed = field("CompressedData") == "True";
  raw.type = elementType(field("ElementType"), path);
  const std::size_t esize = elementSize(raw.type);
  bool msb = field("ElementByteOrderMSB") == "True" || field("BinaryDataByteOrderMSB") == "True";
  if (msb && esize > 1) throw InputError(quoted(path) + " is big-endian, which is not supported.");
  raw.count = static_cast<std::size_t>(raw.channels);
  for (int d : raw.dims) raw.count *= static_cast<std::size_t>(d);
  if (raw.count > std::size_t(kMaxVoxels))
    throw InputError(quoted(path) + " is too large to load.");
  raw.geometry = parseGeometry(h, raw.dims.size(), path);

  // Only the bytes the header promises are read, from the header's own file or its one data
  // file, after checking that they are there and that the host has the memory for them.
  const std::uint64_t need = std::uint64_t(raw.count) * esize;
  const std::string name = field("ElementDataFile");
  std::optional<InputFile> dataFile;
  std::uint64_t offset = 0;
  if (name == "LOCAL") {
    offset = h.dataOffset;
  } else {
    checkDataFileName(name, path);
    dataFile.emplace(openDataFile(path, name));
  }
  const InputFile& source = dataFile ? *dataFile : file;
  const std::uint64_t found = source.size() > offset ? source.size() - offset : 0;
  if (compressed) {
    // CompressedDataSize, or (as MetaIO) the rest of the file.
    std::uint64_t size = found;
    if (const std::string s = field("CompressedDataSize"); !s.empty()) {
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), size);
      if (ec != std::errc() || end != s.data() + s.size() || size == 0)
        throw InputError(quoted(path) + " has an invalid CompressedDataSize '" + s.substr(0, 40) +
                         "'.");
      if (found < size)
        throw InputError(quoted(path) + " is truncated: CompressedDataSize promises " +
                         std::to_string(size) + " bytes, found " + std::to_string(found) + ".");
    }
    if (need > size * kMaxDeflateRatio)
      throw InputError(quoted(path) + " promises " + byteCount(need) + " of data (DimSize) in " +
                       byteCount(size) +
                       " of compressed data, more than zlib can expand it to; refused as "
                       "corrupt.");
    checkHostMemory(path, size + need + std::uint64_t(raw.count) * sizeof(float));
    std::string packed(static_cast<std::size_t>(size), '\0');
    source.readExactly(packed.data(), packed.size(), offset);
    inflateExactly(packed, raw.bytes, need, path);
    return raw;
  }
  if (found < need)
    throw InputError(quoted(path) + " is truncated: expected " + std::to_string(need) +
                     " bytes of data, found " + std::to_string(found) + ".");
  checkHostMemory(path, need + std::uint64_t(raw.count) * sizeof(float));
  raw.bytes.resize(static_cast<std::size_t>(need));
  source.readExactly(raw.bytes.data(), raw.bytes.size(), offset);
  return raw;
}

// readRaw, refused unless the file has `dims` axes of `channels` channels (it is not `what`).
Raw readRaw(const std::filesystem::path& path, std::size_t dims, int channels, const char* what) {
  Raw raw = readRaw(path);
  if (raw.dims.size() != dims || raw.channels != channels)
    throw InputError(quoted(path) + " is not " + what + ".");
  return raw;
}

std::vector<float> floats(const Raw& raw) {
  std::vector<float> out(raw.count);
  withValues(raw, [&](auto value) {
    for (std::size_t i = 0; i < raw.count; ++i) out[i] = static_cast<float>(value(i));
  });
  return out;
}

// Rescales value(i), i < count, to [0, 1] (a constant input gives 0); a non-finite value is
// refused naming the file and where (its index in the file, x fastest). Reads the values twice
// rather than copying them.
template <class Value>
void rescaleToUnit(std::size_t count, Value value, std::vector<float>& out,
                   const std::filesystem::path& path) {
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double v = value(i);
    if (!std::isfinite(v))
      throw InputError(quoted(path) + " contains " + (std::isnan(v) ? "NaN" : "infinity") +
                       " at sample " + std::to_string(i) +
                       " (x fastest); an input must be finite.");
    lo = i == 0 ? v : std::min(lo, v);
    hi = i == 0 ? v : std::max(hi, v);
  }
  out.assign(count, 0.0f);
  if (hi > lo)
    for (std::size_t i = 0; i < count; ++i)
      out[i] = static_cast<float>((value(i) - lo) / (hi - lo));
}

void unitFloats(const Raw& raw, const std::filesystem::path& path, std::vector<float>& out) {
  withValues(raw, [&](auto value) { rescaleToUnit(raw.count, value, out, path); });
}

// Shortest text that reads back as the same double.
std::string number(double v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

// A whole .mha file: header (geometry when known: ElementSpacing, Offset, TransformMatrix),
// then the float samples, deflated when options.compressed. Unknown geometry writes unit
// spacing and nothing else, as before geometry was kept.
std::string metaImageFile(int dims, const int* size, int channels, const WorldGeometry& g,
                          const std::vector<float>& data, const MetaImageWriteOptions& options,
                          const std::filesystem::path& path) {
  const char* bytes = reinterpret_cast<const char*>(data.data());
  const std::size_t count = data.size() * sizeof(float);
  std::string packed;
  if (options.compressed) packed = deflateAll(bytes, count, path);
  std::ostringstream out;
  out << "ObjectType = Image\nNDims = " << dims
      << "\nBinaryData = True\nBinaryDataByteOrderMSB = False\nCompressedData = "
      << (options.compressed ? "True" : "False");
  if (options.compressed) out << "\nCompressedDataSize = " << packed.size();
  if (g.known) {
    out << "\nTransformMatrix =";
    for (int axis = 0; axis < dims; ++axis)
      for (int c = 0; c < dims; ++c) out << " " << number(g.direction[c * 3 + axis]);
    out << "\nOffset =";
    for (int i = 0; i < dims; ++i) out << " " << number(g.origin[i]);
  }
  out << "\nDimSize =";
  for (int i = 0; i < dims; ++i) out << " " << size[i];
  out << "\nElementSpacing =";
  for (int i = 0; i < dims; ++i) out << " " << (g.known ? number(g.spacing[i]) : "1");
  if (channels > 1) out << "\nElementNumberOfChannels = " << channels;
  out << "\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n";
  std::string file = out.str();
  if (options.compressed)
    file += packed;
  else
    file.append(bytes, count);
  return file;
}

}  // namespace

void normaliseToUnit(const std::vector<double>& in, std::vector<float>& out,
                     const std::filesystem::path& path) {
  rescaleToUnit(
      in.size(), [&](std::size_t i) { return in[i]; }, out, path);
}

void writeMetaImageField3D(const std::filesystem::path& path, const Field3D& field,
                           const MetaImageWriteOptions& options) {
  const int size[3] = {field.width, field.height, field.depth};
  writeFileAtomically(path, metaImageFile(3, size, 3, field.geometry, field.data, options, path));
}

void writeMetaImageVolume(const std::filesystem::path& path, const Volume& volume,
                          const MetaImageWriteOptions& options) {
  const int size[3] = {volume.width, volume.height, volume.depth};
  writeFileAtomically(path,
                      metaImageFile(3, size, 1, volume.geometry, volume.voxels, options, path));
}

Field3D readMetaImageField3D(const std::filesystem::path& path) {
  const Raw raw = readRaw(path, 3, 3, "a 3D field with 3 channels");
  Field3D f(raw.dims[0], raw.dims[1], raw.dims[2]);
  f.data = floats(raw);
  f.geometry = raw.geometry;
  return f;
}

Volume readMetaImageVolume(const std::filesystem::path& path) {
  const Raw raw = readRaw(path, 3, 1, "a 3D scalar volume");
  Volume vol(raw.dims[0], raw.dims[1], raw.dims[2]);
  unitFloats(raw, path, vol.voxels);  // in place: no second copy of the volume
  vol.geometry = raw.geometry;
  return vol;
}

std::vector<int> metaImageSize(const std::filesystem::path& path) {
  return dimSize(readHeader(InputFile(path)), path);
}

std::filesystem::path metaImageDataFile(const std::filesystem::path& path) {
  const std::string name = fieldOf(readHeader(InputFile(path)), "ElementDataFile");
  return name.empty() || name == "LOCAL" ? std::filesystem::path() : path.parent_path() / name;
}

int metaImageDimensions(const std::filesystem::path& path) {
  const std::string dims = fieldOf(readHeader(InputFile(path)), "NDims");
  if (dims.empty()) throw InputError(quoted(path) + " is not a MetaImage file (no NDims).");
  return std::atoi(dims.c_str());
}

void writeMetaImageField(const std::filesystem::path& path, const Field2D& field,
                         const MetaImageWriteOptions& options) {
  const int size[2] = {field.width, field.height};
  writeFileAtomically(path, metaImageFile(2, size, 2, field.geometry, field.data, options, path));
}

Field2D readMetaImageField(const std::filesystem::path& path) {
  const Raw raw = readRaw(path, 2, 2, "a 2D field with 2 channels");
  Field2D f(raw.dims[0], raw.dims[1]);
  f.data = floats(raw);
  f.geometry = raw.geometry;
  return f;
}

Image2D readMetaImage(const std::filesystem::path& path) {
  const Raw raw = readRaw(path, 2, 1, "a 2D scalar image");
  Image2D img(raw.dims[0], raw.dims[1]);
  unitFloats(raw, path, img.pixels);
  img.geometry = raw.geometry;
  return img;
}

}  // namespace gvflab
