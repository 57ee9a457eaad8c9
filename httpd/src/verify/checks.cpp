// checks.cpp: the offline check provider.
//
// Every measurement runs on an area-averaged grayscale copy of at most
// 256 pixels on its longer side, so the cost is bounded whatever was
// uploaded (the decoder already refused anything over 40 megapixels).
//
//   liveness   on the selfie: hard failures for a picture that is too small
//              (shorter side < 128 px), uniform (stddev < 6), too dark (mean
//              < 25), too bright (mean > 235), out of focus (mean |Laplacian|
//              < 2; 8-bit quantisation alone leaves about 1), or a byte-for-byte copy of the document image; else a
//              quality score from resolution, contrast, exposure and focus.
//   document   on the document image: too small (< 400 x 250 px) fails, an
//              aspect ratio outside 1.25..1.80 (cards 1.586, passport pages
//              about 1.42) is a review, the same quality rules and score.
//   facematch  selfie against document image: similarity is the mean of the
//              32-bin histogram intersection and the agreement of the 64-bit
//              difference hashes; identical files are a review.
// Scores and similarity are rounded to 4 decimals. None of this detects a
// face or a spoof: it is honest about being an image-quality screen.
#include "verify/checks.hpp"

#include <cmath>
#include <stdexcept>

#include "core/crypto.hpp"
#include "verify/image.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;

double clamp01(double value) { return value < 0 ? 0 : (value > 1 ? 1 : value); }
double round4(double value) { return std::round(value * 10000.0) / 10000.0; }

struct Measured {
    bool readable = false;
    int width = 0;
    int height = 0;
    ImageStats stats;
    GrayImage small;  // at most analysis_side_max
};

Measured measure(const std::optional<std::string>& bytes) {
    Measured m;
    if (!bytes) return m;
    const DecodeResult decoded = decode_image(*bytes);
    if (!decoded.image) return m;
    m.readable = true;
    m.width = decoded.image->width;
    m.height = decoded.image->height;
    m.small = downscale(decoded.image->gray, analysis_side_max);
    m.stats = image_stats(m.small);
    return m;
}

// Quality score: resolution (relative to `good_side`), contrast, exposure,
// focus, weighted 0.15 / 0.30 / 0.20 / 0.35.
double quality_score(const Measured& m, int side, int good_side) {
    const double resolution = clamp01(static_cast<double>(side) / good_side);
    const double contrast = clamp01(m.stats.stddev / 48.0);
    const double exposure = clamp01(1.0 - std::fabs(m.stats.mean - 128.0) / 110.0);
    const double focus = clamp01(m.stats.sharpness / 6.0);
    return 0.15 * resolution + 0.30 * contrast + 0.20 * exposure + 0.35 * focus;
}

// The quality failures every image shares.
void quality_failures(const Measured& m, std::vector<std::string>& reasons) {
    if (m.stats.stddev < offline::uniform_stddev_max) reasons.emplace_back("image_uniform");
    if (m.stats.mean < offline::dark_mean_max) reasons.emplace_back("image_too_dark");
    if (m.stats.mean > offline::bright_mean_min) reasons.emplace_back("image_too_bright");
    if (m.stats.sharpness < offline::focus_sharpness_min) reasons.emplace_back("image_out_of_focus");
}

json quality_measurements(const Measured& m) {
    return json{{"width", m.width},
                {"height", m.height},
                {"meanBrightness", round4(m.stats.mean)},
                {"contrast", round4(m.stats.stddev)},
                {"sharpness", round4(m.stats.sharpness)}};
}

// Status from hard failures and the score.
std::string graded(std::vector<std::string>& reasons, double score, const char* pass_reason) {
    if (!reasons.empty()) return "fail";
    if (score >= offline::pass_score_min) {
        reasons.emplace_back(pass_reason);
        return "pass";
    }
    if (score >= offline::review_score_min) {
        reasons.emplace_back("quality_borderline");
        return "review";
    }
    reasons.emplace_back("quality_too_low");
    return "fail";
}

CheckResult unreadable(const char* type) {
    return CheckResult{type, "fail", 0.0, {"image_unreadable"}, json::object()};
}

class OfflineProvider : public CheckProvider {
public:
    std::string name() const override { return "offline"; }

    std::vector<CheckResult> evaluate(const std::vector<std::string>& types, const CheckImages& images) override {
        const Measured selfie = measure(images.selfie);
        const Measured document = measure(images.document);
        const bool identical = images.selfie && images.document &&
                               core::constant_time_equal(core::sha256(*images.selfie), core::sha256(*images.document));
        std::vector<CheckResult> results;
        for (const std::string& type : types) {
            if (type == "liveness") results.push_back(liveness(selfie, identical));
            else if (type == "facematch") results.push_back(facematch(selfie, document, identical));
            else if (type == "document") results.push_back(document_check(document));
            else throw std::invalid_argument("offline provider: unknown check type " + type);
        }
        return results;
    }

private:
    static CheckResult liveness(const Measured& selfie, bool identical_to_document) {
        if (!selfie.readable) return unreadable("liveness");
        const int shorter = selfie.width < selfie.height ? selfie.width : selfie.height;
        std::vector<std::string> reasons;
        if (shorter < offline::selfie_side_min) reasons.emplace_back("resolution_too_low");
        quality_failures(selfie, reasons);
        if (identical_to_document) reasons.emplace_back("selfie_is_document_copy");
        const double score = round4(quality_score(selfie, shorter, 480));
        const std::string status = graded(reasons, score, "image_quality_ok");
        return CheckResult{"liveness", status, score, reasons, quality_measurements(selfie)};
    }

    static CheckResult document_check(const Measured& document) {
        if (!document.readable) return unreadable("document");
        const int longer = document.width > document.height ? document.width : document.height;
        const int shorter = document.width < document.height ? document.width : document.height;
        std::vector<std::string> reasons;
        if (longer < offline::document_long_side_min || shorter < offline::document_short_side_min) {
            reasons.emplace_back("resolution_too_low");
        }
        quality_failures(document, reasons);
        const double aspect = static_cast<double>(longer) / shorter;
        const double score = round4(quality_score(document, longer, 1000));
        std::string status = graded(reasons, score, "document_quality_ok");
        if (status == "pass" && (aspect < offline::document_aspect_min || aspect > offline::document_aspect_max)) {
            status = "review";
            reasons.emplace_back("aspect_ratio_unusual");
        }
        json measurements = quality_measurements(document);
        measurements["aspectRatio"] = round4(aspect);
        return CheckResult{"document", status, score, reasons, measurements};
    }

    static CheckResult facematch(const Measured& selfie, const Measured& document, bool identical) {
        if (!selfie.readable || !document.readable) return unreadable("facematch");
        const double histogram = histogram_intersection(histogram32(selfie.small), histogram32(document.small));
        const int distance = hamming_distance(difference_hash(selfie.small), difference_hash(document.small));
        const double hash_agreement = 1.0 - static_cast<double>(distance) / 64.0;
        const double similarity = round4(0.5 * histogram + 0.5 * hash_agreement);
        std::vector<std::string> reasons;
        std::string status;
        if (identical) {
            status = "review";
            reasons.emplace_back("images_identical");
        } else if (similarity >= offline::match_similarity_min) {
            status = "pass";
            reasons.emplace_back("features_match");
        } else if (similarity >= offline::review_similarity_min) {
            status = "review";
            reasons.emplace_back("features_similar");
        } else {
            status = "fail";
            reasons.emplace_back("features_differ");
        }
        json measurements{{"histogramIntersection", round4(histogram)}, {"hashDistance", distance},
                          {"hashAgreement", round4(hash_agreement)}};
        return CheckResult{"facematch", status, similarity, reasons, measurements};
    }
};

}  // namespace

std::shared_ptr<CheckProvider> make_check_provider(const std::string& name) {
    if (name == "offline") return std::make_shared<OfflineProvider>();
    throw std::invalid_argument("unknown check provider '" + name + "'");
}

json check_results_json(const std::vector<CheckResult>& results) {
    json out = json::array();
    for (const CheckResult& r : results) {
        json entry{{"type", r.type}, {"status", r.status}, {"reasons", r.reasons}, {"measurements", r.measurements}};
        entry[r.type == "facematch" ? "similarity" : "score"] = r.value;
        out.push_back(entry);
    }
    return out;
}

}  // namespace corebank::httpd::verify
