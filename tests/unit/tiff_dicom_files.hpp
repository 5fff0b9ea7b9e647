#pragma once
// Small TIFF and DICOM files written by libtiff and GDCM themselves, for the reader tests
// (test_tiff_dicom.cpp, and the format table's fixtures in test_file_formats.cpp).
#include <doctest/doctest.h>
#include <gdcmDataSet.h>
#include <gdcmFile.h>
#include <gdcmWriter.h>
#include <tiffio.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace gvflab::test::files {
namespace fs = std::filesystem;

struct TiffPage {
  int width = 4, height = 3, bits = 8, format = SAMPLEFORMAT_UINT, samples = 1;
  std::vector<unsigned char> bytes;  // width * height * samples samples, native order
};

template <typename T>
inline TiffPage page(int w, int h, int samples, const std::vector<T>& values, int format) {
  TiffPage p;
  p.width = w;
  p.height = h;
  p.samples = samples;
  p.bits = int(sizeof(T) * 8);
  p.format = format;
  p.bytes.resize(values.size() * sizeof(T));
  std::memcpy(p.bytes.data(), values.data(), p.bytes.size());
  return p;
}

inline void writeTiff(const fs::path& path, const std::vector<TiffPage>& pages) {
  TIFF* t = TIFFOpen(path.c_str(), "w");
  REQUIRE(t);
  for (const TiffPage& p : pages) {
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, p.width);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, p.height);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, p.bits);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, p.samples);
    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, p.format);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, p.samples == 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 2);
    const std::size_t row = p.bytes.size() / p.height;
    for (int y = 0; y < p.height; ++y)
      REQUIRE(TIFFWriteScanline(t, const_cast<unsigned char*>(p.bytes.data() + y * row), y, 0) ==
              1);
    REQUIRE(TIFFWriteDirectory(t));
  }
  TIFFClose(t);
}

// Pages of 4x3 bytes, page z holding 10 z + x.
inline std::vector<TiffPage> bytePages(int n) {
  std::vector<TiffPage> pages;
  for (int z = 0; z < n; ++z) {
    std::vector<std::uint8_t> v;
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) v.push_back(std::uint8_t(10 * z + x));
    pages.push_back(page(4, 3, 1, v, SAMPLEFORMAT_UINT));
  }
  return pages;
}

inline void put(gdcm::DataSet& ds, std::uint16_t group, std::uint16_t element, gdcm::VR vr,
                std::string value) {
  if (value.size() % 2) value += vr == gdcm::VR::UI ? '\0' : ' ';
  gdcm::DataElement de(gdcm::Tag(group, element));
  de.SetVR(vr);
  de.SetByteValue(value.data(), std::uint32_t(value.size()));
  ds.Insert(de);
}

inline void putUs(gdcm::DataSet& ds, std::uint16_t element, std::uint16_t value) {
  gdcm::DataElement de(gdcm::Tag(0x0028, element));
  de.SetVR(gdcm::VR::US);
  de.SetByteValue(reinterpret_cast<const char*>(&value), 2);
  ds.Insert(de);
}

struct DicomSlice {
  int width = 3, height = 2, frames = 1;
  std::vector<std::int16_t> pixels;
  double slope = 1, intercept = 0;
  std::string position = "0\\0\\0", orientation = "1\\0\\0\\0\\1\\0", series = "1.2.3.4";
  std::string spacing = "0.5\\0.8";  // rows (y) \ columns (x)
};

inline void writeDicom(const fs::path& path, const DicomSlice& s, int instance = 1) {
  gdcm::Writer w;
  gdcm::DataSet& ds = w.GetFile().GetDataSet();
  put(ds, 0x0008, 0x0016, gdcm::VR::UI, "1.2.840.10008.5.1.4.1.1.2");  // CT Image Storage
  put(ds, 0x0008, 0x0018, gdcm::VR::UI, "1.2.3.4.5." + std::to_string(instance));
  put(ds, 0x0008, 0x0060, gdcm::VR::CS, "CT");
  put(ds, 0x0020, 0x000e, gdcm::VR::UI, s.series);
  put(ds, 0x0020, 0x0013, gdcm::VR::IS, std::to_string(instance));
  if (!s.position.empty()) put(ds, 0x0020, 0x0032, gdcm::VR::DS, s.position);
  put(ds, 0x0020, 0x0037, gdcm::VR::DS, s.orientation);
  putUs(ds, 0x0002, 1);
  put(ds, 0x0028, 0x0004, gdcm::VR::CS, "MONOCHROME2");
  if (s.frames > 1) put(ds, 0x0028, 0x0008, gdcm::VR::IS, std::to_string(s.frames));
  putUs(ds, 0x0010, std::uint16_t(s.height));
  putUs(ds, 0x0011, std::uint16_t(s.width));
  put(ds, 0x0028, 0x0030, gdcm::VR::DS, s.spacing);
  putUs(ds, 0x0100, 16);
  putUs(ds, 0x0101, 16);
  putUs(ds, 0x0102, 15);
  putUs(ds, 0x0103, 1);
  put(ds, 0x0028, 0x1052, gdcm::VR::DS, std::to_string(s.intercept));
  put(ds, 0x0028, 0x1053, gdcm::VR::DS, std::to_string(s.slope));
  gdcm::DataElement pixels(gdcm::Tag(0x7fe0, 0x0010));
  pixels.SetVR(gdcm::VR::OW);
  pixels.SetByteValue(reinterpret_cast<const char*>(s.pixels.data()),
                      std::uint32_t(s.pixels.size() * 2));
  ds.Insert(pixels);
  w.GetFile().GetHeader().SetDataSetTransferSyntax(gdcm::TransferSyntax::ExplicitVRLittleEndian);
  w.SetFileName(path.c_str());
  REQUIRE(w.Write());
}

// A 4x3 DICOM ramp of `frames` frames (a volume when more than one).
inline void writeDicomRamp(const fs::path& path, int frames) {
  DicomSlice s;
  s.width = 4;
  s.height = 3;
  s.frames = frames;
  for (int i = 0; i < 12 * frames; ++i) s.pixels.push_back(std::int16_t(i));
  writeDicom(path, s);
}

}  // namespace gvflab::test::files
