// ledger/approvals_validation.hpp: the bodies of approving and rejecting a
// pending approval. Conventions: banking/fields.hpp.
#pragma once

#include <optional>
#include <string>

namespace corebank::httpd::core_banking {

// Optional {comment} / required {reason} of approvals.
std::optional<std::string> parse_approval_comment(const std::string& body);
std::string parse_rejection_reason(const std::string& body);

}  // namespace corebank::httpd::core_banking
