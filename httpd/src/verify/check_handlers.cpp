// check_handlers.cpp: single checks (docs/verification.md, "Single checks"):
// liveness, document or face match on images the caller captured in its own
// UI, for callers that do not send users to the hosted page.
//
// The images go through the hosted flow's functions: decode_image (the same
// formats and limits) and the configured CheckProvider (the same scoring);
// the extension (corebank.verify_check_create) validates the result as a
// session's, applies the consent rule, stores the check and keeps the
// Idempotency-Key exactly as session writes do. A biometric check without
// granted consent is refused here too, before any image is decoded: a face
// is not processed without consent. The images are not stored.
#include "api_error.hpp"
#include "core/crypto.hpp"
#include "json_util.hpp"
#include "log.hpp"
#include "verify/check_requests.hpp"
#include "verify/handlers.hpp"
#include "verify/image.hpp"
#include "verify/statements.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;

constexpr const char scope_write[] = "sessions:write";
constexpr const char scope_read[] = "sessions:read";

// The image's facts for the record: never the image.
json image_record(const char* kind, const std::string& bytes, const DecodedImage& image) {
    return json{{"kind", kind},
                {"format", image_format_name(image.format)},
                {"width", image.width},
                {"height", image.height},
                {"bytes", bytes.size()},
                {"sha256", core::hex_encode(core::sha256(bytes))}};
}

HttpResponse check_create(const char* type, const Context& context, const HttpRequest& request, Db& db) {
    const std::string key_id = authorize(request, db, scope_write);
    const std::string idempotency_key = require_idempotency_key(request);
    const CheckRequest check =
        parse_check_request(type, request.body, static_cast<std::size_t>(context.config.verify_image_bytes_max));
    if (check.consent && !check.consent->granted && std::string(type) != "document") {
        throw ApiError{422, "UNPROCESSABLE", "consent: the user's consent must be granted before a biometric check"};
    }
    json images = json::array();
    CheckImages given;
    std::string problems;
    for (const auto& [kind, bytes, slot] :
         {std::tuple<const char*, const std::optional<std::string>&, std::optional<std::string>*>{"selfie", check.selfie,
                                                                                                   &given.selfie},
          {"document", check.document, &given.document}}) {
        if (!bytes) continue;
        const DecodeResult decoded = decode_image(*bytes);
        if (!decoded.image) {
            problems += (problems.empty() ? "" : "; ") + std::string(kind) + ": " + decoded.problem->reason;
            continue;
        }
        images.push_back(image_record(kind, *bytes, *decoded.image));
        *slot = *bytes;
    }
    if (!problems.empty()) throw validation_error(problems);

    std::vector<CheckResult> results;
    try {
        results = context.provider->evaluate({type}, given);
    } catch (const std::exception& e) {
        log_error("single check could not run", {{"type", type}, {"error", e.what()}});
        ApiError busy = service_unavailable("The check could not run; try again");
        busy.headers.emplace_back("Retry-After", "2");
        throw busy;
    }
    const std::string hash = request_hash(context.keys, std::string("check.") + type, "", check.canonical);
    const auto& consent = check.consent;
    const json result = parse_db_json(
        db.exec(sql::check_create,
                {key_id, idempotency_key, bytea_param(hash), new_session_id(), std::string(type), check.reference,
                 images.dump(), context.provider->name(), check_results_json(results).dump(),
                 consent ? Param(consent->granted ? "true" : "false") : Param(),
                 consent ? Param(consent->version) : Param(),
                 consent && consent->text ? Param(bytea_param(core::sha256(*consent->text))) : Param(),
                 consent ? consent->ip : std::nullopt, consent ? consent->user_agent : std::nullopt})
            .scalar());
    const json& body = result.at("body");
    HttpResponse response = json_response(result.value("status", 201), body);
    if (result.value("replayed", false)) response.headers.emplace_back("Idempotent-Replayed", "true");
    response.headers.emplace_back("Location", "/v1/checks/" + json_string(body, "checkId"));
    return response;
}

}  // namespace

HttpResponse check_liveness(const Context& c, const HttpRequest& r, Db& db) { return check_create("liveness", c, r, db); }
HttpResponse check_document(const Context& c, const HttpRequest& r, Db& db) { return check_create("document", c, r, db); }
HttpResponse check_facematch(const Context& c, const HttpRequest& r, Db& db) { return check_create("facematch", c, r, db); }

HttpResponse check_get(const Context&, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const auto it = request.path_params.find("check_id");
    // Ids are opaque: one that is not a UUID names no check.
    const auto id = it == request.path_params.end() ? std::nullopt : canonical_uuid(it->second);
    if (!id) throw not_found("Check not found");
    const auto found = db.exec(sql::check_get, {*id}).scalar();
    if (!found) throw not_found("Check not found");
    return json_response(200, parse_db_json(found));
}

}  // namespace corebank::httpd::verify
