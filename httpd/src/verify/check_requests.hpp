// check_requests.hpp: the body of a single check (POST /v1/checks/{type};
// docs/verification.md, "Single checks").
//
//   {"selfie": "<base64 PNG or JPEG>", "document": "<base64>",
//    "consent": {granted, version, text?, ip?, userAgent?}, "reference": "..."}
//
// liveness reads `selfie`, document reads `document`, facematch both; an
// image the check does not read is refused, not ignored. consent is required
// for liveness and facematch (a face is processed) and optional for a
// document. Every problem is listed in one 400 VALIDATION_ERROR; an image
// over verify_image_bytes_max is 413.
#pragma once

#include <optional>
#include <string>

#include "verify/requests.hpp"

namespace corebank::httpd::verify {

struct CheckRequest {
    std::string type;                     // liveness, document, facematch
    std::optional<std::string> selfie;    // decoded bytes
    std::optional<std::string> document;  // decoded bytes
    std::optional<ConsentRequest> consent;
    std::optional<std::string> reference;
    std::string canonical;  // type, image digests, consent, reference: the idempotency request
};

// `type` comes from the path and must be one of the three (else 404: there
// is no such operation).
CheckRequest parse_check_request(const std::string& type, const std::string& body, std::size_t image_bytes_max);

}  // namespace corebank::httpd::verify
