// checks.hpp: the check providers of the verification service.
//
// A provider turns a session's captured images into one result per check of
// the flow (liveness, facematch, document). The tier calls it between
// corebank.verify_hosted_submit_begin and _finish; the database then derives
// the decision from the results' statuses (pass / fail / review), so a
// provider can never approve a session by itself.
//
// The built-in provider is "offline": simple, deterministic image checks that
// need no network (what they measure is documented in docs/verification.md
// and below). It is for development, tests and air-gapped pilots, not a
// biometric system. A production provider implements CheckProvider (for
// example by calling a vendor's API with the images) and is selected with
// `verify_check_provider` in corebank.conf; make_check_provider knows the
// names.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::verify {

// The decoded-or-not images of a session, as captured (PNG or JPEG bytes).
struct CheckImages {
    std::optional<std::string> selfie;
    std::optional<std::string> document;
};

struct CheckResult {
    std::string type;                  // liveness, facematch, document
    std::string status;                // pass, fail, review
    double value = 0;                  // score (liveness, document) or similarity (facematch), 0..1
    std::vector<std::string> reasons;  // snake_case, at most 16
    nlohmann::json measurements = nlohmann::json::object();  // at most 2 KiB
};

class CheckProvider {
public:
    virtual ~CheckProvider() = default;
    // The label stored on every result (1 to 40 of a-z 0-9 _ . -).
    virtual std::string name() const = 0;
    // One result per entry of `types` (canonical order: liveness, facematch,
    // document), in that order. Throws std::exception when the provider
    // cannot run at all (a network failure, say): the submission is then
    // returned to pending and the user may try again.
    virtual std::vector<CheckResult> evaluate(const std::vector<std::string>& types, const CheckImages& images) = 0;
};

// "offline" (the only built-in provider); throws std::invalid_argument for
// an unknown name.
std::shared_ptr<CheckProvider> make_check_provider(const std::string& name);

// The results as the JSON array corebank.verify_hosted_submit_finish takes.
nlohmann::json check_results_json(const std::vector<CheckResult>& results);

/*---- the offline provider's thresholds (docs/verification.md) ----*/

namespace offline {

inline constexpr double pass_score_min = 0.70;        // liveness and document: pass at or above
inline constexpr double review_score_min = 0.45;      // review at or above, fail below
inline constexpr double match_similarity_min = 0.80;  // facematch: pass at or above
inline constexpr double review_similarity_min = 0.65; // review at or above, fail below
inline constexpr int selfie_side_min = 128;           // shorter side, pixels
inline constexpr int document_long_side_min = 400;
inline constexpr int document_short_side_min = 250;
inline constexpr double document_aspect_min = 1.25;   // ID-1 cards are 1.586, passport pages about 1.42
inline constexpr double document_aspect_max = 1.80;
inline constexpr double uniform_stddev_max = 6.0;     // below: a blank or uniform picture
inline constexpr double dark_mean_max = 25.0;
inline constexpr double bright_mean_min = 235.0;
inline constexpr double focus_sharpness_min = 2.0;    // mean |Laplacian| at 256 px: below is out of focus

}  // namespace offline

}  // namespace corebank::httpd::verify
