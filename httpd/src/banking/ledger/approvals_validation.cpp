#include "banking/ledger/approvals_validation.hpp"

#include "json_body.hpp"

namespace corebank::httpd::core_banking {

std::optional<std::string> parse_approval_comment(const std::string& text) {
    if (trim_ascii(text).empty()) return std::nullopt;
    JsonBody body(text);
    auto comment = body.text("comment", TextRule{false, 0, 1000, true, false});
    body.finish();
    return comment;
}

std::string parse_rejection_reason(const std::string& text) {
    JsonBody body(text);
    auto reason = body.text("reason", TextRule{true, 1, 1000, true, true});
    body.finish();
    return *reason;
}

}  // namespace corebank::httpd::core_banking
