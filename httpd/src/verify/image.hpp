// image.hpp: decoding the captured images (PNG with libpng, JPEG with
// libjpeg-turbo) into 8-bit grayscale, and the simple measurements the
// offline check provider is built on.
//
// Every limit is checked before pixels are allocated: a small file that
// claims to be 60000 x 60000 pixels (a decompression bomb) is refused from
// its header. The format is taken from the file's magic bytes, never from a
// Content-Type the client chose.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corebank::httpd::verify {

inline constexpr int image_side_max = 8192;
inline constexpr std::int64_t image_pixels_max = 40'000'000;
inline constexpr int image_side_min = 64;         // smaller is "tiny": refused at upload
inline constexpr int analysis_side_max = 256;     // measurements run on a copy this size at most

enum class ImageFormat { png, jpeg };
const char* image_format_name(ImageFormat format);

// The format from the magic bytes, or nullopt.
std::optional<ImageFormat> sniff_image_format(std::string_view bytes);

struct GrayImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // row-major, width * height
    std::uint8_t at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
};

struct DecodedImage {
    ImageFormat format = ImageFormat::png;
    int width = 0;    // of the file
    int height = 0;
    GrayImage gray;   // possibly reduced (JPEG decodes at 1/2, 1/4, 1/8 for large files)
};

// Why an image was refused, as the "image: <reason>" text the API returns.
struct ImageProblem {
    std::string reason;  // e.g. "is empty", "is not a PNG or JPEG image"
};

// Decodes the image or explains why not: empty, unknown format, corrupt,
// larger than image_side_max / image_pixels_max, or smaller than
// image_side_min on a side ("tiny").
struct DecodeResult {
    std::optional<DecodedImage> image;
    std::optional<ImageProblem> problem;
};
DecodeResult decode_image(std::string_view bytes);

// Area-averaged copy whose longer side is at most `side_max`.
GrayImage downscale(const GrayImage& image, int side_max);
// Area-averaged resize to exactly width x height (for hashes).
GrayImage resize(const GrayImage& image, int width, int height);

struct ImageStats {
    double mean = 0;       // 0..255
    double stddev = 0;     // contrast
    double sharpness = 0;  // mean absolute 4-neighbour Laplacian
};
ImageStats image_stats(const GrayImage& image);

// 32-bin normalised histogram.
std::array<double, 32> histogram32(const GrayImage& image);
// Histogram intersection, 0..1 (1: identical distributions).
double histogram_intersection(const std::array<double, 32>& a, const std::array<double, 32>& b);
// 64-bit difference hash (9x8 resize, each pixel against its right neighbour).
std::uint64_t difference_hash(const GrayImage& image);
int hamming_distance(std::uint64_t a, std::uint64_t b);

// Test support: encodes a grayscale image as PNG (libpng) or JPEG (libjpeg).
std::string encode_png(const GrayImage& image);
std::string encode_jpeg(const GrayImage& image, int quality);

}  // namespace corebank::httpd::verify
