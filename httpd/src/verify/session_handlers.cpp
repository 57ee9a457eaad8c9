// session_handlers.cpp: the caller's API: create, read, cancel, consent,
// report and search sessions (docs/verification.md).
//
// Writes pass their Idempotency-Key and the HMAC of their canonical request
// to the extension, which decides and stores the response; a replay answers
// with the stored response and the header Idempotent-Replayed: true. The
// client token is only ever in a create response: the database keeps its
// SHA-256 and, for replays, a copy sealed under the data key.
#include "api_error.hpp"
#include "core/crypto.hpp"
#include "json_util.hpp"
#include "log.hpp"
#include "verify/handlers.hpp"
#include "verify/requests.hpp"
#include "verify/statements.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;

constexpr const char scope_write[] = "sessions:write";
constexpr const char scope_read[] = "sessions:read";

// Session ids are opaque strings to clients: one that is not a UUID names no
// session, so it is 404 like an unknown UUID, never a 400 that would tell the
// caller how ids are made.
std::string session_id_param(const HttpRequest& request) {
    const auto it = request.path_params.find("session_id");
    const auto id = it == request.path_params.end() ? std::nullopt : canonical_uuid(it->second);
    if (!id) throw not_found("Session not found");
    return *id;
}

// The session object as the API shows it: hostedUrl always, the client token
// (and the URL carrying it) only when given.
json with_urls(const Context& context, json body, const std::optional<std::string>& client_token) {
    const std::string id = json_string(body, "sessionId");
    if (client_token) {
        body["clientToken"] = *client_token;
        // The token travels in the fragment: browsers never send it to a
        // server, so it stays out of access logs and Referer headers.
        body["hostedUrl"] = hosted_url(context, id) + "#token=" + *client_token;
    } else {
        body["clientToken"] = nullptr;
        body["hostedUrl"] = hosted_url(context, id);
    }
    return body;
}

HttpResponse answer(const json& result, json body) {
    const int status = result.value("status", 200);
    HttpResponse response = json_response(status, body);
    if (result.value("replayed", false)) response.headers.emplace_back("Idempotent-Replayed", "true");
    return response;
}

Param optional_bytes(const std::optional<std::string>& bytes) {
    return bytes ? Param(bytea_param(*bytes)) : Param();
}

// Initials only: enough for an auditor to recognise, not to identify.
std::string mask_text(const std::string& text) {
    std::size_t first = 1;
    while (first < text.size() && (static_cast<unsigned char>(text[first]) & 0xC0) == 0x80) ++first;
    return text.substr(0, first) + "***";
}

json masked_subject(const json& subject) {
    json out = json::object();
    for (const char* name : {"name", "firstName", "lastName"})
        if (subject.contains(name) && subject[name].is_string()) out[name] = mask_text(subject[name].get<std::string>());
    if (subject.contains("idNumber") && subject["idNumber"].is_string()) {
        const std::string id = normalise_id_number(subject["idNumber"].get<std::string>());
        out["idNumber"] = "****" + (id.size() > 4 ? id.substr(id.size() - 4) : std::string());
    }
    if (subject.contains("dateOfBirth") && subject["dateOfBirth"].is_string()) {
        out["dateOfBirth"] = subject["dateOfBirth"].get<std::string>().substr(0, 4) + "-**-**";
    }
    if (subject.contains("country")) out["country"] = subject["country"];
    if (subject.contains("email") && subject["email"].is_string()) {
        const std::string email = subject["email"].get<std::string>();
        const auto at = email.find('@');
        out["email"] = mask_text(email.substr(0, at)) + (at == std::string::npos ? "" : email.substr(at));
    }
    if (subject.contains("phone") && subject["phone"].is_string()) {
        const std::string phone = subject["phone"].get<std::string>();
        out["phone"] = "***" + (phone.size() > 3 ? phone.substr(phone.size() - 3) : std::string());
    }
    return out;
}

}  // namespace

HttpResponse health(const Context&, const HttpRequest&, Db& db) {
    try {
        db.exec(sql::ping, {});
        return json_response(200, json{{"status", "UP"}, {"components", {{"db", {{"status", "UP"}}}}}});
    } catch (const DbUnavailable&) {
        return json_response(503, json{{"status", "DOWN"}, {"components", {{"db", {{"status", "DOWN"}}}}}});
    }
}

HttpResponse session_create(const Context& context, const HttpRequest& request, Db& db) {
    const std::string key_id = authorize(request, db, scope_write);
    const std::string idempotency_key = require_idempotency_key(request);
    const CreateSessionRequest create = parse_create_session(request.body);

    const std::string session_id = new_session_id();
    const std::string client_token = new_client_token();
    std::optional<std::string> subject_sealed;
    std::optional<std::string> lookup;
    if (create.subject) subject_sealed = seal_subject(context.keys, session_id, create.subject->dump());
    if (create.id_number) lookup = subject_lookup(context.keys, *create.id_number);
    const std::string hash = request_hash(context.keys, "session.create", "", create.canonical);

    const json result = parse_db_json(
        db.exec(sql::session_create,
                {key_id, idempotency_key, bytea_param(hash), session_id, create.flow, create.reference,
                 optional_bytes(subject_sealed), optional_bytes(lookup), create.redirect_url,
                 create.metadata ? Param(create.metadata->dump()) : Param(),
                 bytea_param(core::sha256(client_token)),
                 bytea_param(seal_client_token(context.keys, session_id, client_token)),
                 std::to_string(context.config.verify_session_lifetime_s),
                 std::to_string(context.config.verify_client_token_ttl_s)})
            .scalar());
    const json& body = result.at("body");
    const std::string created_id = json_string(body, "sessionId");
    // A replay answers with the first request's session and token.
    const auto sealed = bytes_from_hex(json_string(result, "clientTokenSealed"));
    const auto token = sealed ? open_client_token(context.keys, created_id, *sealed) : std::nullopt;
    if (!token) {
        log_error("stored client token does not open with this data key", {{"session_id", created_id}});
        throw internal_error();
    }
    HttpResponse response = answer(result, with_urls(context, body, token));
    response.headers.emplace_back("Location", "/v1/sessions/" + created_id);
    return response;
}

HttpResponse session_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string session_id = session_id_param(request);
    const auto found = db.exec(sql::session_get, {session_id}).scalar();
    if (!found) throw not_found("Session not found");
    return json_response(200, with_urls(context, parse_db_json(found), std::nullopt));
}

HttpResponse session_cancel(const Context& context, const HttpRequest& request, Db& db) {
    const std::string key_id = authorize(request, db, scope_write);
    const std::string idempotency_key = require_idempotency_key(request);
    const std::string session_id = session_id_param(request);
    const CancelSessionRequest cancel = parse_cancel_session(request.body);
    const std::string hash = request_hash(context.keys, "session.cancel", session_id, cancel.canonical);
    const json result = parse_db_json(
        db.exec(sql::session_cancel, {key_id, idempotency_key, bytea_param(hash), session_id, cancel.reason}).scalar());
    if (!result.value("replayed", false)) context.wake_webhooks();
    return answer(result, with_urls(context, result.at("body"), std::nullopt));
}

HttpResponse session_consent(const Context& context, const HttpRequest& request, Db& db) {
    const std::string key_id = authorize(request, db, scope_write);
    const std::string idempotency_key = require_idempotency_key(request);
    const std::string session_id = session_id_param(request);
    const ConsentRequest consent = parse_api_consent(request.body);
    const std::string hash = request_hash(context.keys, "session.consent", session_id, consent.canonical);
    const json result = parse_db_json(
        db.exec(sql::session_consent,
                {key_id, idempotency_key, bytea_param(hash), session_id, consent.granted ? "true" : "false",
                 consent.version, consent.text ? Param(bytea_param(core::sha256(*consent.text))) : Param(),
                 consent.ip, consent.user_agent})
            .scalar());
    if (!consent.granted && !result.value("replayed", false)) context.wake_webhooks();
    return answer(result, with_urls(context, result.at("body"), std::nullopt));
}

HttpResponse session_report(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string session_id = session_id_param(request);
    const auto found = db.exec(sql::session_report, {session_id}).scalar();
    if (!found) throw not_found("Session not found");
    json report = parse_db_json(found);
    json subject{{"provided", false}};
    if (report.contains("subjectSealed") && report["subjectSealed"].is_string()) {
        subject["provided"] = true;
        const auto sealed = bytes_from_hex(report["subjectSealed"].get<std::string>());
        const auto opened = sealed ? open_subject(context.keys, session_id, *sealed) : std::nullopt;
        const json details = opened ? json::parse(*opened, nullptr, false) : json();
        if (details.is_object()) {
            subject["masked"] = masked_subject(details);
        } else {
            subject["masked"] = nullptr;
            log_error("sealed subject does not open with this data key", {{"session_id", session_id}});
        }
    }
    report.erase("subjectSealed");
    report["subject"] = subject;
    return json_response(200, report);
}

HttpResponse sessions_search(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const SearchSessionsRequest search = parse_search_sessions(request.body);
    std::optional<std::string> lookup;
    if (search.id_number) lookup = subject_lookup(context.keys, *search.id_number);
    json result = parse_db_json(db.exec(sql::sessions_find, {search.reference, optional_bytes(lookup), search.status,
                                                             search.created_before, std::to_string(search.limit)})
                                    .scalar());
    json data = json::array();
    if (result.contains("data") && result["data"].is_array())
        for (const json& session : result["data"]) data.push_back(with_urls(context, session, std::nullopt));
    result["data"] = data;
    return json_response(200, result);
}

}  // namespace corebank::httpd::verify
