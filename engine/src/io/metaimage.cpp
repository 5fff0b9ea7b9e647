// MetaImage (ITK's .mha / .mhd) reading and writing for 2D images and vector fields.
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/io.hpp"

namespace gvflab {
namespace {

// A MetaImage header is a few hundred bytes; the data may follow it in the same file.
constexpr std::size_t kMaxMetaHeaderBytes = 64 * 1024;
constexpr std::size_t kMaxMetaFields = 64;

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

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

std::vector<int> parseInts(const std::string& s, const std::filesystem::path& path) {
  std::istringstream in(s);
  std::vector<int> v;
  long long x;
  while (in >> x) {
    if (x < 1 || x > 1 << 20)
      throw InputError(quoted(path) + " has an impossible size " + std::to_string(x) + ".");
    v.push_back(static_cast<int>(x));
    if (v.size() > 16) break;
  }
  return v;
}

enum class Element { U8, I8, U16, I16, U32, I32, F32, F64 };

Element elementType(const std::string& type, const std::filesystem::path& path) {
  static const std::map<std::string, Element> types = {
      {"MET_UCHAR", Element::U8},  {"MET_CHAR", Element::I8},   {"MET_USHORT", Element::U16},
      {"MET_SHORT", Element::I16}, {"MET_UINT", Element::U32},  {"MET_INT", Element::I32},
      {"MET_FLOAT", Element::F32}, {"MET_DOUBLE", Element::F64}};
  auto it = types.find(type);
  if (it == types.end())
    throw InputError(quoted(path) + " uses the unsupported element type '" + type + "'.");
  return it->second;
}

std::size_t elementSize(Element e) {
  switch (e) {
    case Element::U8:
    case Element::I8:
      return 1;
    case Element::U16:
    case Element::I16:
      return 2;
    case Element::F64:
      return 8;
    default:
      return 4;
  }
}

// Voxel sizes, when given, must be positive and finite (a NaN or negative spacing is a corrupt
// header, even though GVF runs in voxel units).
void checkSpacing(const std::string& text, const std::filesystem::path& path) {
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (*end != '\0' || !std::isfinite(v) || v <= 0 || v > 1e6)
      throw InputError(quoted(path) + " has an invalid ElementSpacing '" + text.substr(0, 80) +
                       "' (positive finite sizes expected).");
  }
}

struct Raw {
  std::vector<int> dims;
  int channels = 1;
  Element type = Element::U8;
  std::size_t count = 0;  // values (channels included)
  std::string bytes;      // exactly count values, little-endian
};

// f(i, value) for every value, the element type dispatched once.
template <class F>
void forEachValue(const Raw& raw, F&& f) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const char* p = raw.bytes.data();
    for (std::size_t i = 0; i < raw.count; ++i) {
      T v;
      std::memcpy(&v, p + i * sizeof(T), sizeof(T));
      f(i, static_cast<double>(v));
    }
  };
  switch (raw.type) {
    case Element::U8:
      return run(std::uint8_t{});
    case Element::I8:
      return run(std::int8_t{});
    case Element::U16:
      return run(std::uint16_t{});
    case Element::I16:
      return run(std::int16_t{});
    case Element::U32:
      return run(std::uint32_t{});
    case Element::I32:
      return run(std::int32_t{});
    case Element::F32:
      return run(float{});
    case Element::F64:
      return run(double{});
  }
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
  auto field = [&](const std::string& k) -> std::string {
    auto it = h.fields.find(k);
    return it == h.fields.end() ? std::string() : it->second;
  };
  Raw raw;
  raw.dims = parseInts(field("DimSize"), path);
  if (raw.dims.size() < 2 || raw.dims.size() > 3)
    throw InputError(quoted(path) + " has no valid 2D or 3D DimSize.");
  if (!field("ElementNumberOfChannels").empty())
    raw.channels = std::atoi(field("ElementNumberOfChannels").c_str());
  if (raw.channels < 1 || raw.channels > 4)
    throw InputError(quoted(path) + " has an unsupported channel count.");
  if (field("CompressedData") == "True")
    throw InputError(quoted(path) + " is compressed; only raw MetaImage is supported.");
  raw.type = elementType(field("ElementType"), path);
  const std::size_t esize = elementSize(raw.type);
  bool msb = field("ElementByteOrderMSB") == "True" || field("BinaryDataByteOrderMSB") == "True";
  if (msb && esize > 1) throw InputError(quoted(path) + " is big-endian, which is not supported.");
  raw.count = static_cast<std::size_t>(raw.channels);
  for (int d : raw.dims) raw.count *= static_cast<std::size_t>(d);
  if (raw.count > (std::size_t(1) << 31)) throw InputError(quoted(path) + " is too large to load.");
  checkSpacing(field("ElementSpacing"), path);

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
  if (found < need)
    throw InputError(quoted(path) + " is truncated: expected " + std::to_string(need) +
                     " bytes of data, found " + std::to_string(found) + ".");
  checkHostMemory(path, need + std::uint64_t(raw.count) * sizeof(float));
  raw.bytes.resize(static_cast<std::size_t>(need));
  source.readExactly(raw.bytes.data(), raw.bytes.size(), offset);
  return raw;
}

std::vector<float> floats(const Raw& raw) {
  std::vector<float> out(raw.count);
  forEachValue(raw, [&](std::size_t i, double v) { out[i] = static_cast<float>(v); });
  return out;
}

// Rescaled to [0, 1] as normaliseToUnit does, without a copy of the values as doubles.
std::vector<float> unitFloats(const Raw& raw, const std::filesystem::path& path) {
  double lo = 0, hi = 0;
  bool first = true, finite = true;
  forEachValue(raw, [&](std::size_t, double v) {
    finite = finite && std::isfinite(v);
    if (first) lo = hi = v, first = false;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  });
  if (!finite) throw InputError(quoted(path) + " contains NaN or infinity.");
  std::vector<float> out(raw.count, 0.0f);
  if (hi > lo)
    forEachValue(
        raw, [&](std::size_t i, double v) { out[i] = static_cast<float>((v - lo) / (hi - lo)); });
  return out;
}

std::string fieldHeader(int dims, const int* size, int channels) {
  std::ostringstream out;
  out << "ObjectType = Image\nNDims = " << dims
      << "\nBinaryData = True\nBinaryDataByteOrderMSB = False\nCompressedData = False\nDimSize =";
  for (int i = 0; i < dims; ++i) out << " " << size[i];
  out << "\nElementSpacing =";
  for (int i = 0; i < dims; ++i) out << " 1";
  out << "\nElementNumberOfChannels = " << channels
      << "\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n";
  return out.str();
}

}  // namespace

void normaliseToUnit(const std::vector<double>& in, std::vector<float>& out,
                     const std::filesystem::path& path) {
  double lo = in[0], hi = in[0];
  for (double v : in) {
    if (!std::isfinite(v)) throw InputError("'" + path.string() + "' contains NaN or infinity.");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  out.resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = hi > lo ? static_cast<float>((in[i] - lo) / (hi - lo)) : 0.0f;
}

void writeMetaImageField3D(const std::filesystem::path& path, const Field3D& field) {
  const int size[3] = {field.width, field.height, field.depth};
  std::string bytes = fieldHeader(3, size, 3);
  bytes.append(reinterpret_cast<const char*>(field.data.data()), field.data.size() * sizeof(float));
  writeFileAtomically(path, bytes);
}

Field3D readMetaImageField3D(const std::filesystem::path& path) {
  Raw raw = readRaw(path);
  if (raw.dims.size() != 3 || raw.channels != 3)
    throw InputError("'" + path.string() + "' is not a 3D field with 3 channels.");
  Field3D f(raw.dims[0], raw.dims[1], raw.dims[2]);
  f.data = floats(raw);
  return f;
}

Volume readMetaImageVolume(const std::filesystem::path& path) {
  Raw raw = readRaw(path);
  if (raw.dims.size() != 3 || raw.channels != 1)
    throw InputError("'" + path.string() + "' is not a 3D scalar volume.");
  Volume vol;
  vol.width = raw.dims[0];
  vol.height = raw.dims[1];
  vol.depth = raw.dims[2];
  vol.voxels = unitFloats(raw, path);
  return vol;
}

std::vector<int> metaImageSize(const std::filesystem::path& path) {
  const Header h = readHeader(InputFile(path));
  const auto it = h.fields.find("DimSize");
  const auto dims = parseInts(it == h.fields.end() ? std::string() : it->second, path);
  if (dims.size() < 2 || dims.size() > 3)
    throw InputError(quoted(path) + " has no valid 2D or 3D DimSize.");
  return dims;
}

int metaImageDimensions(const std::filesystem::path& path) {
  const Header h = readHeader(InputFile(path));
  const auto it = h.fields.find("NDims");
  if (it == h.fields.end()) throw InputError(quoted(path) + " is not a MetaImage file (no NDims).");
  return std::atoi(it->second.c_str());
}

void writeMetaImageField(const std::filesystem::path& path, const Field2D& field) {
  std::ostringstream out;
  out << "ObjectType = Image\nNDims = 2\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
      << "CompressedData = False\nDimSize = " << field.width << " " << field.height
      << "\nElementSpacing = 1 1\nElementNumberOfChannels = 2\nElementType = MET_FLOAT\n"
      << "ElementDataFile = LOCAL\n";
  std::string bytes = out.str();
  const auto* p = reinterpret_cast<const char*>(field.data.data());
  bytes.append(p, field.data.size() * sizeof(float));
  writeFileAtomically(path, bytes);
}

Field2D readMetaImageField(const std::filesystem::path& path) {
  Raw raw = readRaw(path);
  if (raw.dims.size() != 2 || raw.channels != 2)
    throw InputError("'" + path.string() + "' is not a 2D field with 2 channels.");
  Field2D f(raw.dims[0], raw.dims[1]);
  f.data = floats(raw);
  return f;
}

Image2D readMetaImage(const std::filesystem::path& path) {
  Raw raw = readRaw(path);
  if (raw.dims.size() != 2 || raw.channels != 1)
    throw InputError("'" + path.string() + "' is not a 2D scalar image.");
  Image2D img(raw.dims[0], raw.dims[1]);
  img.pixels = unitFloats(raw, path);
  return img;
}

}  // namespace gvflab
