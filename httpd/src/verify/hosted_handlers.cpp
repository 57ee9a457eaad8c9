// hosted_handlers.cpp: the hosted page's API, authorised only by the
// session's client token (Authorization: Bearer <client token>).
//
//   GET  /v1/hosted/sessions/{id}                    the page's state
//   POST /v1/hosted/sessions/{id}/consent            {granted}
//   POST /v1/hosted/sessions/{id}/captures/{kind}    raw PNG or JPEG bytes
//   POST /v1/hosted/sessions/{id}/submit             runs the checks
// Every write takes an Idempotency-Key (scoped to the session). A wrong,
// expired or absent token, and an unknown session, all answer 401: the page's
// API does not tell which sessions exist.
//
// A submission is three database calls: begin (pending -> processing, the
// key stays "in progress"), the sealed images, finish (the results; the
// extension derives the decision). If anything fails between begin and
// finish, abort returns the session to pending so the user can try again;
// if this process dies there, the maintenance pass does the same after
// stale_processing_s.
#include "api_error.hpp"
#include "core/crypto.hpp"
#include "db_errors.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "log.hpp"
#include "verify/handlers.hpp"
#include "verify/image.hpp"
#include "verify/requests.hpp"
#include "verify/statements.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;

ApiError token_refused() {
    ApiError e{401, "UNAUTHORIZED", "Client token is invalid or expired"};
    e.headers.emplace_back("WWW-Authenticate", "Bearer");
    return e;
}

std::string hosted_session_id(const HttpRequest& request) {
    const auto it = request.path_params.find("session_id");
    const auto id = it == request.path_params.end() ? std::nullopt : canonical_uuid(it->second);
    if (!id) throw token_refused();
    return *id;
}

// The state plus what the page needs to know to draw itself.
json page_state(const Context& context, json state) {
    state["imageBytesMax"] = context.config.verify_image_bytes_max;
    state["consentVersion"] = hosted_consent_version();
    state["consentText"] = hosted_consent_text();
    return state;
}

HttpResponse answer(const Context& context, const json& result) {
    HttpResponse response = json_response(result.value("status", 200), page_state(context, result.at("body")));
    if (result.value("replayed", false)) response.headers.emplace_back("Idempotent-Replayed", "true");
    return response;
}

// The state, or 401: the cheap check that comes before any costly work.
json authenticated_state(Db& db, const std::string& session_id, const std::string& token_hash) {
    const auto state = db.exec(sql::hosted_state, {session_id, bytea_param(token_hash)}).scalar();
    if (!state) throw token_refused();
    return parse_db_json(state);
}

CheckImages unsealed_images(const Context& context, Db& db, const std::string& session_id,
                            const std::string& token_hash) {
    CheckImages images;
    const QueryResult rows = db.exec(sql::hosted_images, {session_id, bytea_param(token_hash)});
    for (const auto& row : rows.rows) {
        const std::string kind = row.at(0).value_or("");
        const auto sealed = bytes_from_hex(row.at(2).value_or(""));
        const auto image = sealed ? open_image(context.keys, session_id, kind, *sealed) : std::nullopt;
        if (!image) throw std::runtime_error("a captured " + kind + " image does not open with this data key");
        if (kind == "selfie") images.selfie = *image;
        else if (kind == "document") images.document = *image;
    }
    return images;
}

}  // namespace

HttpResponse hosted_state(const Context& context, const HttpRequest& request, Db& db) {
    const std::string session_id = hosted_session_id(request);
    const std::string token_hash = client_token_hash(request);
    return json_response(200, page_state(context, authenticated_state(db, session_id, token_hash)));
}

HttpResponse hosted_consent(const Context& context, const HttpRequest& request, Db& db) {
    const std::string session_id = hosted_session_id(request);
    const std::string token_hash = client_token_hash(request);
    const std::string idempotency_key = require_idempotency_key(request);
    const ConsentRequest consent = parse_hosted_consent(request.body);
    const std::string hash = request_hash(context.keys, "hosted.consent", session_id, consent.canonical);
    const json result = parse_db_json(
        db.exec(sql::hosted_consent,
                {session_id, bytea_param(token_hash), idempotency_key, bytea_param(hash),
                 consent.granted ? "true" : "false", std::string(hosted_consent_version()),
                 bytea_param(core::sha256(hosted_consent_text())), request.client_ip.substr(0, 64),
                 request.header("user-agent")})
            .scalar());
    if (!consent.granted && !result.value("replayed", false)) context.wake_webhooks();
    return answer(context, result);
}

HttpResponse hosted_capture(const Context& context, const HttpRequest& request, Db& db) {
    const std::string session_id = hosted_session_id(request);
    const std::string token_hash = client_token_hash(request);
    const std::string idempotency_key = require_idempotency_key(request);
    const std::string kind = request.path_params.count("kind") ? request.path_params.at("kind") : "";
    if (kind != "selfie" && kind != "document") throw validation_error("kind: must be selfie or document");
    const std::size_t bytes_max = static_cast<std::size_t>(context.config.verify_image_bytes_max);
    if (request.body.size() > bytes_max) {
        throw ApiError{413, "PAYLOAD_TOO_LARGE", "image: must be at most " + std::to_string(bytes_max) + " bytes"};
    }
    // The token first: decoding is the costly part, and only for the session's user.
    authenticated_state(db, session_id, token_hash);
    const DecodeResult decoded = decode_image(request.body);
    if (!decoded.image) throw validation_error("image: " + decoded.problem->reason);

    const std::string digest = core::sha256(request.body);
    const std::string hash = request_hash(context.keys, "hosted.capture", session_id, kind + ":" + core::hex_encode(digest));
    const json result = parse_db_json(
        db.exec(sql::hosted_capture,
                {session_id, bytea_param(token_hash), idempotency_key, bytea_param(hash), kind,
                 bytea_param(seal_image(context.keys, session_id, kind, request.body)),
                 std::string(image_format_name(decoded.image->format)), std::to_string(decoded.image->width),
                 std::to_string(decoded.image->height), std::to_string(request.body.size()), bytea_param(digest)})
            .scalar());
    return answer(context, result);
}

HttpResponse hosted_submit(const Context& context, const HttpRequest& request, Db& db) {
    const std::string session_id = hosted_session_id(request);
    const std::string token_hash = client_token_hash(request);
    const std::string idempotency_key = require_idempotency_key(request);
    expect_no_body(request.body);
    const std::string hash = request_hash(context.keys, "hosted.submit", session_id, "{}");
    const json begun = parse_db_json(
        db.exec(sql::hosted_submit_begin, {session_id, bytea_param(token_hash), idempotency_key, bytea_param(hash)})
            .scalar());
    if (begun.value("replayed", false)) return answer(context, begun);

    std::vector<std::string> types;
    for (const json& type : begun.at("checks")) types.push_back(type.get<std::string>());
    json finished;
    try {
        const CheckImages images = unsealed_images(context, db, session_id, token_hash);
        const std::vector<CheckResult> results = context.provider->evaluate(types, images);
        finished = parse_db_json(db.exec(sql::hosted_submit_finish,
                                         {session_id, bytea_param(token_hash), idempotency_key,
                                          context.provider->name(), check_results_json(results).dump()})
                                     .scalar());
    } catch (const std::exception& e) {
        log_error("verification checks failed", {{"session_id", session_id}, {"error", e.what()}});
        try {
            db.exec(sql::hosted_submit_abort,
                    {session_id, bytea_param(token_hash), idempotency_key, std::string(e.what()).substr(0, 200)});
        } catch (const std::exception& again) {
            // The maintenance pass returns the session to pending later.
            log_error("could not return the session to pending", {{"session_id", session_id}, {"error", again.what()}});
        }
        ApiError busy = service_unavailable("The checks could not run; try submitting again");
        busy.headers.emplace_back("Retry-After", "2");
        throw busy;
    }
    context.wake_webhooks();
    return answer(context, finished);
}

}  // namespace corebank::httpd::verify
