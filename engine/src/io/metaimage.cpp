// MetaImage (ITK's .mha / .mhd) reading and writing for 2D images and vector fields.
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab {
namespace {

struct Header {
  std::map<std::string, std::string> fields;
  std::size_t dataOffset = 0;  // bytes into the file (for LOCAL data)
};

std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("Cannot open '" + path.string() + "'.");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Header parseHeader(const std::string& bytes, const std::filesystem::path& path) {
  Header h;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t eol = bytes.find('\n', pos);
    if (eol == std::string::npos) eol = bytes.size();
    std::string line = bytes.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto eq = line.find('=');
    if (eq == std::string::npos) {
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      throw InputError("'" + path.string() + "' is not a MetaImage file (bad header line).");
    }
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t") + 1);
      return s;
    };
    std::string key = trim(line.substr(0, eq));
    h.fields[key] = trim(line.substr(eq + 1));
    if (key == "ElementDataFile") {
      h.dataOffset = pos;
      return h;
    }
    if (h.fields.size() > 64)
      throw InputError("'" + path.string() + "' is not a MetaImage file (header too long).");
  }
  throw InputError("'" + path.string() + "' is not a MetaImage file (no ElementDataFile).");
}

std::vector<int> parseInts(const std::string& s, const std::filesystem::path& path) {
  std::istringstream in(s);
  std::vector<int> v;
  long long x;
  while (in >> x) {
    if (x < 1 || x > 1 << 20)
      throw InputError("'" + path.string() + "' has an impossible size " + std::to_string(x) + ".");
    v.push_back(static_cast<int>(x));
  }
  return v;
}

// Element type name -> (bytes, converter to double)
double readElement(const char* p, const std::string& type) {
  auto get = [p](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  if (type == "MET_UCHAR") return get(std::uint8_t{});
  if (type == "MET_CHAR") return get(std::int8_t{});
  if (type == "MET_USHORT") return get(std::uint16_t{});
  if (type == "MET_SHORT") return get(std::int16_t{});
  if (type == "MET_UINT") return get(std::uint32_t{});
  if (type == "MET_INT") return get(std::int32_t{});
  if (type == "MET_FLOAT") return get(float{});
  return get(double{});
}

std::size_t elementSize(const std::string& type, const std::filesystem::path& path) {
  static const std::map<std::string, std::size_t> sizes = {
      {"MET_UCHAR", 1}, {"MET_CHAR", 1}, {"MET_USHORT", 2}, {"MET_SHORT", 2},
      {"MET_UINT", 4},  {"MET_INT", 4},  {"MET_FLOAT", 4},  {"MET_DOUBLE", 8}};
  auto it = sizes.find(type);
  if (it == sizes.end())
    throw InputError("'" + path.string() + "' uses the unsupported element type '" + type + "'.");
  return it->second;
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
      throw InputError("'" + path.string() + "' has an invalid ElementSpacing '" + text +
                       "' (positive finite sizes expected).");
  }
}

struct Raw {
  std::vector<int> dims;
  int channels = 1;
  std::vector<double> values;
};

Raw readRaw(const std::filesystem::path& path) {
  std::string bytes = readAll(path);
  if (bytes.empty()) throw InputError("'" + path.string() + "' is empty.");
  Header h = parseHeader(bytes, path);
  auto field = [&](const std::string& k) -> std::string {
    auto it = h.fields.find(k);
    return it == h.fields.end() ? std::string() : it->second;
  };
  Raw raw;
  raw.dims = parseInts(field("DimSize"), path);
  if (raw.dims.size() < 2 || raw.dims.size() > 3)
    throw InputError("'" + path.string() + "' has no valid 2D or 3D DimSize.");
  if (!field("ElementNumberOfChannels").empty())
    raw.channels = std::atoi(field("ElementNumberOfChannels").c_str());
  if (raw.channels < 1 || raw.channels > 4)
    throw InputError("'" + path.string() + "' has an unsupported channel count.");
  if (field("CompressedData") == "True")
    throw InputError("'" + path.string() + "' is compressed; only raw MetaImage is supported.");
  std::string type = field("ElementType");
  std::size_t esize = elementSize(type, path);
  bool msb = field("ElementByteOrderMSB") == "True" || field("BinaryDataByteOrderMSB") == "True";
  if (msb && esize > 1)
    throw InputError("'" + path.string() + "' is big-endian, which is not supported.");
  std::size_t count = static_cast<std::size_t>(raw.channels);
  for (int d : raw.dims) count *= static_cast<std::size_t>(d);
  if (count > (std::size_t(1) << 31))
    throw InputError("'" + path.string() + "' is too large to load.");

  checkSpacing(field("ElementSpacing"), path);
  std::string data;
  std::string file = field("ElementDataFile");
  if (file == "LOCAL") {
    data = bytes.substr(h.dataOffset);
  } else {
    const auto dataPath = path.parent_path() / file;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(dataPath, ec))
      throw InputError("'" + path.string() + "': its data file '" + file + "' is missing.");
    data = readAll(dataPath);
  }
  if (data.size() < count * esize)
    throw InputError("'" + path.string() + "' is truncated: expected " +
                     std::to_string(count * esize) + " bytes of data, found " +
                     std::to_string(data.size()) + ".");
  raw.values.resize(count);
  for (std::size_t i = 0; i < count; ++i) raw.values[i] = readElement(data.data() + i * esize, type);
  return raw;
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
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = static_cast<float>(raw.values[i]);
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
  normaliseToUnit(raw.values, vol.voxels, path);
  return vol;
}

std::vector<int> metaImageSize(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("Cannot open '" + path.string() + "'.");
  std::string head(64 * 1024, '\0');  // a header is a few hundred bytes; data may follow
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const auto eof = head.find("ElementDataFile");
  if (eof != std::string::npos) head.resize(std::min(head.size(), head.find('\n', eof)));
  Header h = parseHeader(head + "\n", path);
  const auto dims = parseInts(h.fields["DimSize"], path);
  if (dims.size() < 2 || dims.size() > 3)
    throw InputError("'" + path.string() + "' has no valid 2D or 3D DimSize.");
  return dims;
}

int metaImageDimensions(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("Cannot open '" + path.string() + "'.");
  std::string line;
  while (std::getline(in, line) && line.find("ElementDataFile") == std::string::npos) {
    if (line.rfind("NDims", 0) == 0) {
      const auto eq = line.find('=');
      if (eq != std::string::npos) return std::atoi(line.c_str() + eq + 1);
    }
  }
  throw InputError("'" + path.string() + "' is not a MetaImage file (no NDims).");
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
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = static_cast<float>(raw.values[i]);
  return f;
}

Image2D readMetaImage(const std::filesystem::path& path) {
  Raw raw = readRaw(path);
  if (raw.dims.size() != 2 || raw.channels != 1)
    throw InputError("'" + path.string() + "' is not a 2D scalar image.");
  Image2D img(raw.dims[0], raw.dims[1]);
  double lo = raw.values[0], hi = raw.values[0];
  for (double v : raw.values) {
    if (!std::isfinite(v)) throw InputError("'" + path.string() + "' contains NaN or infinity.");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  for (std::size_t i = 0; i < img.size(); ++i)
    img.pixels[i] = hi > lo ? static_cast<float>((raw.values[i] - lo) / (hi - lo)) : 0.0f;
  return img;
}

}  // namespace gvflab
