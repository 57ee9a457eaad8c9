// verify_offline_provider_test.cpp: image decoding and the offline check
// provider (httpd/src/verify/image.hpp, checks.hpp).
//
// Goal: the decoder refuses what must never reach a check (empty, not an
// image, truncated, tiny, a header claiming 60000 x 60000 pixels) and reads
// real PNG and JPEG files; the offline provider passes a good selfie and
// document of the same scene, fails a blank, dark, blurred or tiny picture,
// declines different scenes in face match, marks a selfie that is the
// document file itself, sends an unusual document shape to review, and
// labels every result "offline". Method: pictures generated in memory (a
// lit oval with eyes on a gradient, fine texture), encoded with libpng and
// libjpeg, decoded and judged; all deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <zlib.h>

#include "verify/checks.hpp"
#include "verify/image.hpp"

namespace {

using namespace corebank::httpd::verify;

// A face-like scene; the same seed gives the same scene at any size.
GrayImage scene(unsigned seed, int width, int height, int brightness = 0, int noise = 10) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double angle = unit(rng) * 3.14159;
    const double low = 40 + unit(rng) * 40;
    const double high = 140 + unit(rng) * 50;
    const double cx = 0.45 + unit(rng) * 0.1, cy = 0.44 + unit(rng) * 0.08;
    const double rx = 0.22 + unit(rng) * 0.06, ry = 0.30 + unit(rng) * 0.06;
    const double skin = 170 + unit(rng) * 45;
    std::mt19937 texture(seed * 7919u + static_cast<unsigned>(width));
    std::uniform_int_distribution<int> jitter(-noise, noise);
    GrayImage image;
    image.width = width;
    image.height = height;
    image.pixels.resize(static_cast<std::size_t>(width) * height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const double u = static_cast<double>(x) / width, v = static_cast<double>(y) / height;
            double value = low + (high - low) * std::fmod(u * std::cos(angle) + v * std::sin(angle) + 2.0, 1.0);
            const double dx = (u - cx) / rx, dy = (v - cy) / ry;
            if (dx * dx + dy * dy <= 1.0) {
                value = skin - 25 * dy;
                for (double ex : {-0.38, 0.38}) {
                    const double ddx = (dx - ex) / 0.16, ddy = (dy + 0.25) / 0.09;
                    if (ddx * ddx + ddy * ddy <= 1.0) value = 35;
                }
                if (std::fabs(dx) < 0.4 && dy > 0.42 && dy < 0.5) value = 70;
            }
            value += brightness + (noise > 0 ? jitter(texture) : 0);
            image.pixels[static_cast<std::size_t>(y) * width + x] =
                static_cast<std::uint8_t>(value < 0 ? 0 : (value > 255 ? 255 : value));
        }
    }
    return image;
}

GrayImage flat(int width, int height, std::uint8_t value) {
    GrayImage image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<std::size_t>(width) * height, value);
    return image;
}

// A 9x9 box blur, repeated: a picture out of focus.
GrayImage blurred(const GrayImage& image, int passes) {
    GrayImage out = image;
    for (int pass = 0; pass < passes; ++pass) {
        GrayImage next = out;
        for (int y = 0; y < out.height; ++y)
            for (int x = 0; x < out.width; ++x) {
                int sum = 0, count = 0;
                for (int dy = -4; dy <= 4; ++dy)
                    for (int dx = -4; dx <= 4; ++dx) {
                        const int xx = x + dx, yy = y + dy;
                        if (xx < 0 || yy < 0 || xx >= out.width || yy >= out.height) continue;
                        sum += out.at(xx, yy);
                        ++count;
                    }
                next.pixels[static_cast<std::size_t>(y) * out.width + x] = static_cast<std::uint8_t>(sum / count);
            }
        out = next;
    }
    return out;
}

const CheckResult& result_of(const std::vector<CheckResult>& results, const std::string& type) {
    for (const auto& r : results)
        if (r.type == type) return r;
    throw std::runtime_error("no result for " + type);
}

bool has_reason(const CheckResult& result, const std::string& reason) {
    for (const auto& r : result.reasons)
        if (r == reason) return true;
    return false;
}

std::vector<CheckResult> run(const std::vector<std::string>& types, const std::string& selfie,
                             const std::string& document) {
    CheckImages images;
    if (!selfie.empty()) images.selfie = selfie;
    if (!document.empty()) images.document = document;
    return make_check_provider("offline")->evaluate(types, images);
}

const std::vector<std::string> all_checks{"liveness", "facematch", "document"};

/*---- decoding ----*/

TEST(ImageDecode, ReadsPngAndJpeg) {
    const GrayImage picture = scene(1, 320, 240);
    const DecodeResult png = decode_image(encode_png(picture));
    ASSERT_TRUE(png.image.has_value());
    EXPECT_EQ(png.image->format, ImageFormat::png);
    EXPECT_EQ(png.image->width, 320);
    EXPECT_EQ(png.image->height, 240);
    EXPECT_EQ(png.image->gray.pixels, picture.pixels) << "PNG is lossless";

    const DecodeResult jpeg = decode_image(encode_jpeg(picture, 90));
    ASSERT_TRUE(jpeg.image.has_value());
    EXPECT_EQ(jpeg.image->format, ImageFormat::jpeg);
    EXPECT_EQ(jpeg.image->width, 320);
    EXPECT_EQ(jpeg.image->height, 240);
}

TEST(ImageDecode, LargeJpegIsDecodedReducedButReportsItsSize) {
    const DecodeResult jpeg = decode_image(encode_jpeg(scene(2, 3000, 2000, 0, 2), 80));
    ASSERT_TRUE(jpeg.image.has_value());
    EXPECT_EQ(jpeg.image->width, 3000);
    EXPECT_EQ(jpeg.image->height, 2000);
    EXPECT_LE(jpeg.image->gray.width, 1024);
    EXPECT_GE(jpeg.image->gray.width, 375);
}

TEST(ImageDecode, RefusesEmptyUnknownAndCorrupt) {
    EXPECT_EQ(decode_image("").problem->reason, "is empty");
    EXPECT_EQ(decode_image("GIF89a....").problem->reason, "is not a PNG or JPEG image");
    EXPECT_EQ(decode_image("<svg xmlns='http://www.w3.org/2000/svg'/>").problem->reason, "is not a PNG or JPEG image");
    const std::string png = encode_png(scene(3, 200, 200));
    EXPECT_EQ(decode_image(png.substr(0, png.size() / 2)).problem->reason, "is not a readable PNG image");
    std::string flipped = png;
    flipped[flipped.size() / 2] ^= 0x55;
    EXPECT_FALSE(decode_image(flipped).image.has_value()) << "a corrupt PNG (CRC, zlib) is refused";
    const std::string jpeg = encode_jpeg(scene(3, 200, 200), 90);
    EXPECT_EQ(decode_image(jpeg.substr(0, jpeg.size() / 2)).problem->reason, "is not a readable JPEG image");
    EXPECT_EQ(decode_image(std::string("\xFF\xD8\xFF", 3)).problem->reason, "is not a readable JPEG image");
}

TEST(ImageDecode, RefusesTinyImages) {
    const DecodeResult tiny = decode_image(encode_png(scene(4, 63, 200)));
    ASSERT_TRUE(tiny.problem.has_value());
    EXPECT_EQ(tiny.problem->reason, "is too small: at least 64 x 64 pixels are needed");
    EXPECT_TRUE(decode_image(encode_png(scene(4, 64, 64))).image.has_value());
    EXPECT_FALSE(decode_image(encode_jpeg(scene(4, 32, 32), 90)).image.has_value());
}

TEST(ImageDecode, RefusesADecompressionBombFromItsHeader) {
    // A valid PNG header claiming 60000 x 60000 pixels: refused before any
    // pixel memory is allocated.
    std::string png = encode_png(flat(64, 64, 128));
    const unsigned char big[4] = {0x00, 0x00, 0xEA, 0x60};  // 60000
    std::memcpy(&png[16], big, 4);
    std::memcpy(&png[20], big, 4);
    // The IHDR chunk's CRC (type and data, bytes 12..28) must stay valid.
    const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(png.data() + 12), 17);
    for (int i = 0; i < 4; ++i) png[29 + i] = static_cast<char>((crc >> (24 - 8 * i)) & 0xFF);
    const DecodeResult result = decode_image(png);
    ASSERT_TRUE(result.problem.has_value());
    EXPECT_NE(result.problem->reason.find("at most 8192 pixels"), std::string::npos) << result.problem->reason;
}

/*---- the offline provider ----*/

TEST(OfflineProvider, PassesAGoodSelfieAndDocumentOfTheSameScene) {
    const auto results = run(all_checks, encode_png(scene(11, 400, 400)), encode_jpeg(scene(11, 640, 404, 8), 92));
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].type, "liveness");
    EXPECT_EQ(results[1].type, "facematch");
    EXPECT_EQ(results[2].type, "document");
    for (const auto& r : results) {
        EXPECT_EQ(r.status, "pass") << r.type << " " << r.value;
        EXPECT_GE(r.value, 0.0);
        EXPECT_LE(r.value, 1.0);
    }
    EXPECT_GE(result_of(results, "facematch").value, offline::match_similarity_min);
    EXPECT_TRUE(has_reason(result_of(results, "liveness"), "image_quality_ok"));
    EXPECT_EQ(make_check_provider("offline")->name(), "offline");
    const auto json = check_results_json(results);
    EXPECT_TRUE(json[0].contains("score"));
    EXPECT_TRUE(json[1].contains("similarity"));
    EXPECT_FALSE(json[1].contains("score"));
}

TEST(OfflineProvider, DifferentScenesDoNotMatch) {
    // An inverted, rotated scene: different features in every respect.
    GrayImage other = scene(12, 640, 404, 8);
    for (auto& p : other.pixels) p = static_cast<std::uint8_t>(255 - p);
    const auto results = run(all_checks, encode_png(scene(11, 400, 400)), encode_png(other));
    const CheckResult& match = result_of(results, "facematch");
    EXPECT_EQ(match.status, "fail") << match.value;
    EXPECT_LT(match.value, offline::review_similarity_min);
    EXPECT_TRUE(has_reason(match, "features_differ"));
}

TEST(OfflineProvider, FailsBlankDarkBrightBlurredAndTinySelfies) {
    struct Case {
        GrayImage image;
        const char* reason;
    };
    GrayImage dark = scene(13, 300, 300, -150, 3);
    GrayImage bright = scene(13, 300, 300, 150, 3);
    const std::vector<Case> cases{{flat(300, 300, 128), "image_uniform"},
                                  {dark, "image_too_dark"},
                                  {bright, "image_too_bright"},
                                  {blurred(scene(13, 300, 300, 0, 0), 3), "image_out_of_focus"},
                                  {scene(13, 100, 100), "resolution_too_low"}};
    for (const Case& c : cases) {
        const auto results = run({"liveness"}, encode_png(c.image), "");
        ASSERT_EQ(results.size(), 1u);
        EXPECT_EQ(results[0].status, "fail") << c.reason;
        EXPECT_TRUE(has_reason(results[0], c.reason)) << c.reason << ": got " << results[0].reasons.size()
                                                      << " reasons, first " << (results[0].reasons.empty() ? "" : results[0].reasons[0]);
    }
}

TEST(OfflineProvider, ASelfieThatIsTheDocumentFileIsCaught) {
    const std::string same = encode_png(scene(14, 640, 404));
    const auto results = run(all_checks, same, same);
    EXPECT_EQ(result_of(results, "liveness").status, "fail");
    EXPECT_TRUE(has_reason(result_of(results, "liveness"), "selfie_is_document_copy"));
    EXPECT_EQ(result_of(results, "facematch").status, "review");
    EXPECT_TRUE(has_reason(result_of(results, "facematch"), "images_identical"));
}

TEST(OfflineProvider, DocumentRules) {
    // Square: not the shape of a card or a passport page.
    const auto square = run({"document"}, "", encode_png(scene(15, 500, 500)));
    EXPECT_EQ(square[0].status, "review");
    EXPECT_TRUE(has_reason(square[0], "aspect_ratio_unusual"));
    // Portrait orientation of a card is fine.
    EXPECT_EQ(run({"document"}, "", encode_png(scene(15, 404, 640)))[0].status, "pass");
    // Too small to read.
    const auto small = run({"document"}, "", encode_png(scene(15, 320, 200)));
    EXPECT_EQ(small[0].status, "fail");
    EXPECT_TRUE(has_reason(small[0], "resolution_too_low"));
    EXPECT_DOUBLE_EQ(small[0].measurements["aspectRatio"].get<double>(), 1.6);
}

TEST(OfflineProvider, UnreadableOrMissingImagesFail) {
    const auto results = run(all_checks, "not an image", "");
    for (const auto& r : results) {
        EXPECT_EQ(r.status, "fail") << r.type;
        EXPECT_TRUE(has_reason(r, "image_unreadable")) << r.type;
        EXPECT_EQ(r.value, 0.0);
    }
}

TEST(OfflineProvider, IsDeterministicAndBounded) {
    const std::string selfie = encode_jpeg(scene(16, 1920, 1080, 0, 6), 85);
    const std::string document = encode_png(scene(16, 1011, 638, 5));
    const auto first = run(all_checks, selfie, document);
    const auto second = run(all_checks, selfie, document);
    for (std::size_t i = 0; i < first.size(); ++i) {
        EXPECT_EQ(first[i].status, second[i].status);
        EXPECT_EQ(first[i].value, second[i].value);
        EXPECT_LE(first[i].measurements.dump().size(), 2048u);
        EXPECT_LE(first[i].reasons.size(), 16u);
    }
    EXPECT_THROW(make_check_provider("vendor-x"), std::invalid_argument);
}

}  // namespace
