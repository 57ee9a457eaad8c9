// check_requests.cpp: see check_requests.hpp.
#include "verify/check_requests.hpp"

#include <vector>

#include "api_error.hpp"
#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "pg/verify_rules.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;

void add(std::string& problems, const std::string& problem) { problems += (problems.empty() ? "" : "; ") + problem; }

// A base64 image: its bytes, or a problem. Over the byte limit is 413 (as on
// the hosted page), checked on the text's length before decoding.
std::optional<std::string> image_field(const json& body, const char* name, std::size_t bytes_max, std::string& problems) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
        add(problems, std::string(name) + ": must be a base64 string");
        return std::nullopt;
    }
    const std::string& text = it->get_ref<const std::string&>();
    if (text.size() > (bytes_max + 2) / 3 * 4) {
        throw ApiError{413, "PAYLOAD_TOO_LARGE", std::string(name) + ": must be at most " + std::to_string(bytes_max) + " bytes"};
    }
    auto bytes = core::base64_decode(text);
    if (!bytes || bytes->empty()) {
        add(problems, std::string(name) + ": must be a non-empty image in base64 (RFC 4648, standard alphabet)");
        return std::nullopt;
    }
    return bytes;
}

}  // namespace

CheckRequest parse_check_request(const std::string& type, const std::string& body_text, std::size_t image_bytes_max) {
    CheckRequest out;
    out.type = type;
    const json body = parse_request_json(body_text);
    if (body.is_discarded() || !body.is_object()) throw bad_request("Malformed JSON request body");
    const bool reads_selfie = type != "document";
    const bool reads_document = type != "liveness";
    const bool biometric = type != "document";

    std::string problems;
    for (const auto& item : body.items()) {
        const std::string& key = item.key();
        if (key != "selfie" && key != "document" && key != "consent" && key != "reference") {
            add(problems, (key.size() > 64 ? key.substr(0, 64) + "..." : key) + ": unknown field");
        }
    }
    out.selfie = image_field(body, "selfie", image_bytes_max, problems);
    out.document = image_field(body, "document", image_bytes_max, problems);
    if (reads_selfie && !out.selfie && problems.find("selfie:") == std::string::npos) add(problems, "selfie: is required");
    if (!reads_selfie && body.contains("selfie") && !body["selfie"].is_null()) {
        add(problems, "selfie: a " + type + " check reads no selfie");
    }
    if (reads_document && !out.document && problems.find("document:") == std::string::npos) {
        add(problems, "document: is required");
    }
    if (!reads_document && body.contains("document") && !body["document"].is_null()) {
        add(problems, "document: a " + type + " check reads no document image");
    }
    if (const auto it = body.find("reference"); it != body.end() && !it->is_null()) {
        if (!it->is_string() || trim_ascii(it->get<std::string>()).empty() ||
            utf8_length(it->get<std::string>()) > corebank::verify::reference_length_max) {
            add(problems, "reference: must be a string of 1 to 200 characters");
        } else {
            out.reference = it->get<std::string>();
        }
    }
    if (const auto it = body.find("consent"); it != body.end() && !it->is_null()) {
        if (!it->is_object()) {
            add(problems, "consent: must be an object {granted, version, text?, ip?, userAgent?}");
        } else {
            try {
                out.consent = parse_api_consent(it->dump());
            } catch (const ApiError& e) {
                // "granted: is required; version: ..." -> "consent.granted: ...; consent.version: ..."
                std::string message = e.what();
                std::string prefixed = "consent.";
                for (std::size_t i = 0; i < message.size(); ++i) {
                    prefixed += message[i];
                    if (message[i] == ' ' && i > 0 && message[i - 1] == ';') prefixed += "consent.";
                }
                add(problems, prefixed);
            }
        }
    } else if (biometric) {
        add(problems, "consent: is required: a " + type + " check processes the user's face");
    }
    if (!problems.empty()) throw validation_error(problems);

    json canonical{{"type", type}};
    if (out.selfie) canonical["selfie"] = core::hex_encode(core::sha256(*out.selfie));
    if (out.document) canonical["document"] = core::hex_encode(core::sha256(*out.document));
    if (out.consent) canonical["consent"] = out.consent->canonical;
    if (out.reference) canonical["reference"] = *out.reference;
    out.canonical = canonical.dump();
    return out;
}

}  // namespace corebank::httpd::verify
