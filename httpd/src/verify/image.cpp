// image.cpp: see image.hpp.
//
// libpng is used through its simplified API (png_image_*), which handles its
// own errors and returns 0 on failure. libjpeg reports errors by calling
// error_exit, which must not return: ours longjmps back into
// run_jpeg_decode, whose frame and state are plain C data (the job lives on
// the heap, allocated before setjmp, so nothing C++ is skipped or left
// indeterminate by the jump).
#include "verify/image.hpp"

#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <jpeglib.h>
#include <png.h>

namespace corebank::httpd::verify {

namespace {

// JPEGs are decoded at 1/2, 1/4 or 1/8 scale until the longer side is at
// most this: the measurements need far less, and it bounds the work.
constexpr int jpeg_decode_side_target = 1024;

struct JpegErrorManager {
    jpeg_error_mgr manager;  // first: libjpeg sees a jpeg_error_mgr*
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

extern "C" void jpeg_error_exit_jump(j_common_ptr common) {
    auto* error = reinterpret_cast<JpegErrorManager*>(common->err);
    (*common->err->format_message)(common, error->message);
    std::longjmp(error->jump, 1);
}

extern "C" void jpeg_output_message_silent(j_common_ptr) {}

enum class JpegOutcome { decoded, corrupt, too_large };

struct JpegJob {
    jpeg_decompress_struct decompress;
    JpegErrorManager error;
    const unsigned char* data;
    unsigned long size;
    int source_width;
    int source_height;
    int width;
    int height;
    unsigned char* pixels;  // malloc'd, width * height
};

// Plain C data only in this frame (see the file comment).
JpegOutcome run_jpeg_decode(JpegJob* job) {
    job->decompress.err = jpeg_std_error(&job->error.manager);
    job->error.manager.error_exit = jpeg_error_exit_jump;
    job->error.manager.output_message = jpeg_output_message_silent;
    job->error.message[0] = '\0';
    job->pixels = nullptr;
    if (setjmp(job->error.jump) != 0) {
        jpeg_destroy_decompress(&job->decompress);
        std::free(job->pixels);
        job->pixels = nullptr;
        return JpegOutcome::corrupt;
    }
    jpeg_create_decompress(&job->decompress);
    jpeg_mem_src(&job->decompress, job->data, job->size);
    jpeg_read_header(&job->decompress, TRUE);
    job->source_width = static_cast<int>(job->decompress.image_width);
    job->source_height = static_cast<int>(job->decompress.image_height);
    if (job->source_width > image_side_max || job->source_height > image_side_max ||
        static_cast<std::int64_t>(job->source_width) * job->source_height > image_pixels_max) {
        jpeg_destroy_decompress(&job->decompress);
        return JpegOutcome::too_large;
    }
    job->decompress.out_color_space = JCS_GRAYSCALE;
    unsigned int denominator = 1;
    const int longer = job->source_width > job->source_height ? job->source_width : job->source_height;
    while (longer / static_cast<int>(denominator) > jpeg_decode_side_target && denominator < 8) denominator *= 2;
    job->decompress.scale_num = 1;
    job->decompress.scale_denom = denominator;
    jpeg_start_decompress(&job->decompress);
    job->width = static_cast<int>(job->decompress.output_width);
    job->height = static_cast<int>(job->decompress.output_height);
    if (job->decompress.output_components != 1 || job->width < 1 || job->height < 1) {
        jpeg_destroy_decompress(&job->decompress);
        return JpegOutcome::corrupt;
    }
    job->pixels = static_cast<unsigned char*>(std::malloc(static_cast<std::size_t>(job->width) * job->height));
    if (job->pixels == nullptr) {
        jpeg_destroy_decompress(&job->decompress);
        return JpegOutcome::corrupt;
    }
    while (job->decompress.output_scanline < job->decompress.output_height) {
        JSAMPROW row = job->pixels + static_cast<std::size_t>(job->decompress.output_scanline) * job->width;
        jpeg_read_scanlines(&job->decompress, &row, 1);
    }
    jpeg_finish_decompress(&job->decompress);
    // A warning means the data was damaged (e.g. truncated) and libjpeg
    // filled in the gap: not an image to judge anybody by.
    const bool damaged = job->error.manager.num_warnings > 0;
    jpeg_destroy_decompress(&job->decompress);
    if (damaged) {
        std::free(job->pixels);
        job->pixels = nullptr;
        return JpegOutcome::corrupt;
    }
    return JpegOutcome::decoded;
}

DecodeResult refused(const std::string& reason) { return DecodeResult{std::nullopt, ImageProblem{reason}}; }

std::string size_limits_text() {
    return "must be at most " + std::to_string(image_side_max) + " pixels on a side and " +
           std::to_string(image_pixels_max / 1'000'000) + " megapixels";
}

DecodeResult decode_png(std::string_view bytes) {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()) == 0) {
        png_image_free(&image);
        return refused("is not a readable PNG image");
    }
    const int width = static_cast<int>(image.width);
    const int height = static_cast<int>(image.height);
    if (width > image_side_max || height > image_side_max ||
        static_cast<std::int64_t>(width) * height > image_pixels_max) {
        png_image_free(&image);
        return refused(size_limits_text());
    }
    image.format = PNG_FORMAT_GRAY;
    DecodedImage decoded;
    decoded.format = ImageFormat::png;
    decoded.width = width;
    decoded.height = height;
    decoded.gray.width = width;
    decoded.gray.height = height;
    decoded.gray.pixels.resize(PNG_IMAGE_SIZE(image));
    png_color background{255, 255, 255};  // transparent pixels count as white paper
    if (png_image_finish_read(&image, &background, decoded.gray.pixels.data(), 0, nullptr) == 0) {
        png_image_free(&image);
        return refused("is not a readable PNG image");
    }
    return DecodeResult{std::move(decoded), std::nullopt};
}

DecodeResult decode_jpeg(std::string_view bytes) {
    auto job = std::make_unique<JpegJob>();
    std::memset(job.get(), 0, sizeof(JpegJob));
    job->data = reinterpret_cast<const unsigned char*>(bytes.data());
    job->size = static_cast<unsigned long>(bytes.size());
    const JpegOutcome outcome = run_jpeg_decode(job.get());
    if (outcome == JpegOutcome::too_large) return refused(size_limits_text());
    if (outcome == JpegOutcome::corrupt) return refused("is not a readable JPEG image");
    DecodedImage decoded;
    decoded.format = ImageFormat::jpeg;
    decoded.width = job->source_width;
    decoded.height = job->source_height;
    decoded.gray.width = job->width;
    decoded.gray.height = job->height;
    decoded.gray.pixels.assign(job->pixels, job->pixels + static_cast<std::size_t>(job->width) * job->height);
    std::free(job->pixels);
    return DecodeResult{std::move(decoded), std::nullopt};
}

}  // namespace

const char* image_format_name(ImageFormat format) { return format == ImageFormat::png ? "png" : "jpeg"; }

std::optional<ImageFormat> sniff_image_format(std::string_view bytes) {
    static constexpr unsigned char png_magic[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (bytes.size() >= sizeof png_magic && std::memcmp(bytes.data(), png_magic, sizeof png_magic) == 0) {
        return ImageFormat::png;
    }
    if (bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xFF &&
        static_cast<unsigned char>(bytes[1]) == 0xD8 && static_cast<unsigned char>(bytes[2]) == 0xFF) {
        return ImageFormat::jpeg;
    }
    return std::nullopt;
}

DecodeResult decode_image(std::string_view bytes) {
    if (bytes.empty()) return refused("is empty");
    const auto format = sniff_image_format(bytes);
    if (!format) return refused("is not a PNG or JPEG image");
    DecodeResult result = *format == ImageFormat::png ? decode_png(bytes) : decode_jpeg(bytes);
    if (result.image && (result.image->width < image_side_min || result.image->height < image_side_min)) {
        return refused("is too small: at least " + std::to_string(image_side_min) + " x " +
                       std::to_string(image_side_min) + " pixels are needed");
    }
    return result;
}

GrayImage resize(const GrayImage& image, int width, int height) {
    GrayImage out;
    out.width = width;
    out.height = height;
    out.pixels.resize(static_cast<std::size_t>(width) * height);
    for (int oy = 0; oy < height; ++oy) {
        const int y0 = static_cast<int>(static_cast<std::int64_t>(oy) * image.height / height);
        int y1 = static_cast<int>(static_cast<std::int64_t>(oy + 1) * image.height / height);
        if (y1 <= y0) y1 = y0 + 1;
        for (int ox = 0; ox < width; ++ox) {
            const int x0 = static_cast<int>(static_cast<std::int64_t>(ox) * image.width / width);
            int x1 = static_cast<int>(static_cast<std::int64_t>(ox + 1) * image.width / width);
            if (x1 <= x0) x1 = x0 + 1;
            std::uint64_t sum = 0;
            for (int y = y0; y < y1; ++y)
                for (int x = x0; x < x1; ++x) sum += image.at(x, y);
            const std::uint64_t count = static_cast<std::uint64_t>(y1 - y0) * static_cast<std::uint64_t>(x1 - x0);
            out.pixels[static_cast<std::size_t>(oy) * width + ox] = static_cast<std::uint8_t>((sum + count / 2) / count);
        }
    }
    return out;
}

GrayImage downscale(const GrayImage& image, int side_max) {
    const int longer = image.width > image.height ? image.width : image.height;
    if (longer <= side_max) return image;
    const int width = static_cast<int>(static_cast<std::int64_t>(image.width) * side_max / longer);
    const int height = static_cast<int>(static_cast<std::int64_t>(image.height) * side_max / longer);
    return resize(image, width > 0 ? width : 1, height > 0 ? height : 1);
}

ImageStats image_stats(const GrayImage& image) {
    ImageStats stats;
    const std::size_t count = image.pixels.size();
    if (count == 0) return stats;
    double sum = 0;
    double squares = 0;
    for (const std::uint8_t p : image.pixels) {
        sum += p;
        squares += static_cast<double>(p) * p;
    }
    stats.mean = sum / static_cast<double>(count);
    const double variance = squares / static_cast<double>(count) - stats.mean * stats.mean;
    stats.stddev = variance > 0 ? std::sqrt(variance) : 0;
    double laplacian = 0;
    std::size_t inner = 0;
    for (int y = 1; y + 1 < image.height; ++y) {
        for (int x = 1; x + 1 < image.width; ++x) {
            const int value = 4 * image.at(x, y) - image.at(x - 1, y) - image.at(x + 1, y) - image.at(x, y - 1) -
                              image.at(x, y + 1);
            laplacian += value < 0 ? -value : value;
            ++inner;
        }
    }
    stats.sharpness = inner > 0 ? laplacian / static_cast<double>(inner) : 0;
    return stats;
}

std::array<double, 32> histogram32(const GrayImage& image) {
    std::array<double, 32> bins{};
    for (const std::uint8_t p : image.pixels) bins[p / 8] += 1;
    const double total = static_cast<double>(image.pixels.size());
    if (total > 0)
        for (double& bin : bins) bin /= total;
    return bins;
}

double histogram_intersection(const std::array<double, 32>& a, const std::array<double, 32>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] < b[i] ? a[i] : b[i];
    return sum;
}

std::uint64_t difference_hash(const GrayImage& image) {
    const GrayImage small = resize(image, 9, 8);
    std::uint64_t hash = 0;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) hash = (hash << 1) | (small.at(x, y) < small.at(x + 1, y) ? 1u : 0u);
    return hash;
}

int hamming_distance(std::uint64_t a, std::uint64_t b) { return __builtin_popcountll(a ^ b); }

std::string encode_png(const GrayImage& image) {
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    png.width = static_cast<png_uint_32>(image.width);
    png.height = static_cast<png_uint_32>(image.height);
    png.format = PNG_FORMAT_GRAY;
    png_alloc_size_t size = 0;
    if (png_image_write_to_memory(&png, nullptr, &size, 0, image.pixels.data(), 0, nullptr) == 0) return {};
    std::string out(size, '\0');
    if (png_image_write_to_memory(&png, out.data(), &size, 0, image.pixels.data(), 0, nullptr) == 0) return {};
    out.resize(size);
    return out;
}

std::string encode_jpeg(const GrayImage& image, int quality) {
    // The state lives on the heap, allocated before setjmp: after a jump the
    // pointer is still valid and the buffer can be freed.
    struct EncodeJob {
        jpeg_compress_struct compress;
        JpegErrorManager error;
        unsigned char* buffer;
        unsigned long size;
    };
    const auto job = std::make_unique<EncodeJob>();
    std::memset(job.get(), 0, sizeof(EncodeJob));
    job->compress.err = jpeg_std_error(&job->error.manager);
    job->error.manager.error_exit = jpeg_error_exit_jump;
    job->error.manager.output_message = jpeg_output_message_silent;
    if (setjmp(job->error.jump) != 0) {
        jpeg_destroy_compress(&job->compress);
        std::free(job->buffer);
        return {};
    }
    jpeg_create_compress(&job->compress);
    jpeg_mem_dest(&job->compress, &job->buffer, &job->size);
    job->compress.image_width = static_cast<JDIMENSION>(image.width);
    job->compress.image_height = static_cast<JDIMENSION>(image.height);
    job->compress.input_components = 1;
    job->compress.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&job->compress);
    jpeg_set_quality(&job->compress, quality, TRUE);
    jpeg_start_compress(&job->compress, TRUE);
    while (job->compress.next_scanline < job->compress.image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(image.pixels.data() +
                                            static_cast<std::size_t>(job->compress.next_scanline) * image.width);
        jpeg_write_scanlines(&job->compress, &row, 1);
    }
    jpeg_finish_compress(&job->compress);
    jpeg_destroy_compress(&job->compress);
    std::string out(reinterpret_cast<const char*>(job->buffer), job->size);
    std::free(job->buffer);
    return out;
}

}  // namespace corebank::httpd::verify
