// password_quality.hpp: refusing common, breached and dictionary-word passwords
// (issue 13) with libpwquality and cracklib's dictionary (Debian cracklib-runtime),
// not a hand-written list.
//
// Only guessability is judged here: the spec's own rules (8..128 characters,
// no NUL) stay with the request parser (requests.cpp), which calls this after
// them for every new password: register, change and reset.
#pragma once

#include <optional>
#include <string>

namespace corebank::httpd::auth {

// The dictionary cracklib-runtime builds (update-cracklib) and libcrack2 reads by default.
inline constexpr const char* cracklib_dictionary_default = "/var/cache/cracklib/cracklib_dict";

// The VALIDATION_ERROR reason for a refused password ("newPassword: <reason>").
inline constexpr const char* password_too_guessable =
    "is too easy to guess (a common password, a dictionary word or a simple pattern)";

class PasswordQuality {
public:
    // dictionary_path: cracklib's dictionary without its .pwd/.pwi/.hwm suffix.
    explicit PasswordQuality(std::string dictionary_path = cracklib_dictionary_default);

    // nullopt when the password is acceptable, else password_too_guessable.
    // Throws ApiError 503 SERVICE_UNAVAILABLE when the dictionary cannot be read:
    // without it every password would be refused as a dictionary word, which
    // would tell a user something false about their password.
    std::optional<std::string> weakness(const std::string& password) const;

private:
    std::string dictionary_path_;
};

// The checker the tier uses, on cracklib's default dictionary.
const PasswordQuality& password_quality();

}  // namespace corebank::httpd::auth
