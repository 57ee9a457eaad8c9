// verify_rules.cpp: see verify_rules.hpp.
#include "pg/verify_rules.hpp"

#include <stdexcept>

#include "core/name_text.hpp"

namespace corebank::verify {

/*---- status ----*/

std::optional<Status> parse_status(std::string_view text) {
    if (text == "pending") return Status::pending;
    if (text == "processing") return Status::processing;
    if (text == "completed") return Status::completed;
    if (text == "cancelled") return Status::cancelled;
    if (text == "expired") return Status::expired;
    return std::nullopt;
}

const char* status_name(Status status) {
    switch (status) {
        case Status::pending: return "pending";
        case Status::processing: return "processing";
        case Status::completed: return "completed";
        case Status::cancelled: return "cancelled";
        case Status::expired: return "expired";
    }
    return "pending";
}

bool is_terminal(Status status) {
    return status == Status::completed || status == Status::cancelled || status == Status::expired;
}

Status effective_status(Status stored, bool expiry_passed) {
    if (!is_terminal(stored) && expiry_passed) return Status::expired;
    return stored;
}

bool allowed(Status from, Transition transition) {
    switch (transition) {
        case Transition::cancel:
        case Transition::expire:
            return from == Status::pending || from == Status::processing;
        case Transition::consent:
        case Transition::capture:
        case Transition::submit:
            return from == Status::pending;
        case Transition::finish:
        case Transition::abort:
        case Transition::revert:
            return from == Status::processing;
    }
    return false;
}

std::string refusal_message(Status from, Transition transition) {
    if (from == Status::expired) return "Session has expired";
    if (is_terminal(from)) {
        const std::string what = transition == Transition::cancel ? "cancelled" : "changed";
        return std::string("Session is already ") + status_name(from) + "; only a pending or processing session can be " +
               what;
    }
    if (from == Status::processing) return "Session is being processed; wait for its result";
    return std::string("Session is ") + status_name(from) + "; nothing is being processed";
}

/*---- flow ----*/

std::optional<Flow> parse_flow(std::string_view text) {
    Flow flow;
    int parts = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t plus = text.find('+', start);
        const std::string_view part = text.substr(start, plus == std::string_view::npos ? text.size() - start : plus - start);
        bool* slot = nullptr;
        if (part == "liveness") slot = &flow.liveness;
        else if (part == "facematch") slot = &flow.facematch;
        else if (part == "document") slot = &flow.document;
        if (slot == nullptr || *slot) return std::nullopt;  // unknown, empty or repeated
        *slot = true;
        ++parts;
        if (plus == std::string_view::npos) break;
        start = plus + 1;
    }
    if (parts == 0) return std::nullopt;
    return flow;
}

std::string flow_name(const Flow& flow) {
    std::string out;
    for (const std::string& type : check_types(flow)) out += (out.empty() ? "" : "+") + type;
    return out;
}

std::vector<std::string> check_types(const Flow& flow) {
    std::vector<std::string> out;
    if (flow.liveness) out.emplace_back("liveness");
    if (flow.facematch) out.emplace_back("facematch");
    if (flow.document) out.emplace_back("document");
    return out;
}

bool needs_selfie(const Flow& flow) { return flow.liveness || flow.facematch; }
bool needs_document(const Flow& flow) { return flow.document || flow.facematch; }
bool needs_consent(const Flow& flow) { return flow.liveness || flow.facematch; }

bool captures_kind(const Flow& flow, std::string_view kind) {
    if (kind == "selfie") return needs_selfie(flow);
    if (kind == "document") return needs_document(flow);
    return false;
}

/*---- decision ----*/

std::optional<CheckStatus> parse_check_status(std::string_view text) {
    if (text == "pass") return CheckStatus::pass;
    if (text == "fail") return CheckStatus::fail;
    if (text == "review") return CheckStatus::review;
    return std::nullopt;
}

const char* check_status_name(CheckStatus status) {
    switch (status) {
        case CheckStatus::pass: return "pass";
        case CheckStatus::fail: return "fail";
        case CheckStatus::review: return "review";
    }
    return "review";
}

Decision decide(const std::vector<CheckOutcome>& outcomes) {
    if (outcomes.empty()) throw std::invalid_argument("decide: no check outcomes");
    bool any_fail = false;
    bool any_review = false;
    Decision out;
    for (const CheckOutcome& outcome : outcomes) {
        any_fail = any_fail || outcome.status == CheckStatus::fail;
        any_review = any_review || outcome.status == CheckStatus::review;
        out.reasons.push_back(outcome.type + "_" + check_status_name(outcome.status));
    }
    out.decision = any_fail ? "declined" : any_review ? "review" : "approved";
    return out;
}

/*---- idempotency ----*/

Replay idempotency_outcome(bool claimed, bool same_operation, bool same_session, bool same_request_hash,
                           bool has_response) {
    if (claimed) return Replay::fresh;
    if (!same_operation || !same_session || !same_request_hash) return Replay::conflict;
    if (!has_response) return Replay::in_progress;
    return Replay::replay;
}

bool idempotency_key_valid(std::string_view key) {
    if (key.empty() || key.size() > idempotency_key_length_max) return false;
    for (const char c : key)
        if (c < '!' || c > '~') return false;
    return true;
}

bool consent_version_valid(std::string_view version) {
    return core::is_name_text(version, consent_version_length_max);
}

bool http_url_valid(std::string_view url, std::size_t length_max) {
    if (url.size() > length_max) return false;
    std::size_t rest = 0;
    if (url.rfind("https://", 0) == 0) rest = 8;
    else if (url.rfind("http://", 0) == 0) rest = 7;
    else return false;
    if (rest >= url.size() || url[rest] == '/') return false;  // a host is required
    for (const char c : url) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte == 0x7F) return false;
    }
    return true;
}

}  // namespace corebank::verify
