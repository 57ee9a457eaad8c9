// password_quality.cpp: libpwquality's check, set up explicitly.
//
// Locking: cracklib keeps the open dictionary in static variables, so two
// threads inside pwquality_check at once would share them; one process-wide
// mutex serialises the checks. A check costs 0.4 to 3 ms (longer passwords
// try more of cracklib's rules; measured on the dev box), twice that with the
// stem: the callers run on the password lane, after its throttle
// (auth/router.cpp), so the lock is held by at most that lane's threads.
#include "auth/password_quality.hpp"

#include <cctype>
#include <memory>
#include <mutex>
#include <new>

#include <pwquality.h>
#include <unistd.h>

#include "api_error.hpp"
#include "core/limits.hpp"

namespace corebank::httpd::auth {

namespace {

// cracklib refuses anything shorter itself ("it is too short"), which says
// nothing about the rest of the password.
constexpr std::size_t stem_length_min = 6;

std::mutex& cracklib_mutex() {
    static std::mutex mutex;
    return mutex;
}

using Settings = std::unique_ptr<pwquality_settings_t, decltype(&pwquality_free_settings)>;

// Every option is set here rather than read from /etc/security/pwquality.conf,
// so the host's PAM policy cannot change what the API accepts. Only the
// dictionary and pattern checks are on; the length rule is the spec's
// (requests.cpp), class and repeat rules stay off (the spec has none).
Settings make_settings(const std::string& dictionary_path, std::size_t length_min) {
    Settings settings(pwquality_default_settings(), &pwquality_free_settings);
    if (!settings) throw std::bad_alloc();
    const std::pair<int, int> values[] = {
        {PWQ_SETTING_MIN_LENGTH, static_cast<int>(length_min)},
        {PWQ_SETTING_DIG_CREDIT, 0}, {PWQ_SETTING_UP_CREDIT, 0}, {PWQ_SETTING_LOW_CREDIT, 0},
        {PWQ_SETTING_OTH_CREDIT, 0}, {PWQ_SETTING_MIN_CLASS, 0}, {PWQ_SETTING_MAX_REPEAT, 0},
        {PWQ_SETTING_MAX_CLASS_REPEAT, 0}, {PWQ_SETTING_MAX_SEQUENCE, 0}, {PWQ_SETTING_GECOS_CHECK, 0},
        {PWQ_SETTING_USER_CHECK, 0}, {PWQ_SETTING_DICT_CHECK, 1},
    };
    for (const auto& [setting, value] : values)
        if (pwquality_set_int_value(settings.get(), setting, value) != 0) throw std::bad_alloc();
    if (pwquality_set_str_value(settings.get(), PWQ_SETTING_DICT_PATH, dictionary_path.c_str()) != 0)
        throw std::bad_alloc();
    return settings;
}

bool dictionary_readable(const std::string& path) {
    for (const char* suffix : {".pwd", ".pwi", ".hwm"})
        if (::access((path + suffix).c_str(), R_OK) != 0) return false;
    return true;
}

// cracklib's rules strip one character, not a run: "password123!" passes it
// while "password123" does not. The classic weak form is a word with digits
// or symbols around it, so the letters-first-to-last part is checked too.
std::string stem_of(const std::string& password) {
    auto is_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || (c & 0x80) != 0; };
    std::size_t first = 0, last = password.size();
    while (first < last && !is_letter(password[first])) ++first;
    while (last > first && !is_letter(password[last - 1])) --last;
    return password.substr(first, last - first);
}

// True when pwquality judges the text weak; throws only on allocation failure.
bool refused(const std::string& text, const std::string& dictionary_path, std::size_t length_min) {
    const Settings settings = make_settings(dictionary_path, length_min);
    // No auxiliary error: its text is not used, and one not passed on to
    // pwquality_strerror may leak (pwquality.h).
    const int score = pwquality_check(settings.get(), text.c_str(), nullptr, nullptr, nullptr);
    if (score == PWQ_ERROR_MEM_ALLOC) throw std::bad_alloc();
    return score < 0;
}

}  // namespace

PasswordQuality::PasswordQuality(std::string dictionary_path) : dictionary_path_(std::move(dictionary_path)) {}

std::optional<std::string> PasswordQuality::weakness(const std::string& password) const {
    if (!dictionary_readable(dictionary_path_))
        throw service_unavailable("Password checking is unavailable; try again later");
    const std::lock_guard<std::mutex> lock(cracklib_mutex());
    if (refused(password, dictionary_path_, core::limits::auth::password_length_min)) return password_too_guessable;
    const std::string stem = stem_of(password);
    if (stem != password && stem.size() >= stem_length_min && refused(stem, dictionary_path_, stem_length_min))
        return password_too_guessable;
    return std::nullopt;
}

const PasswordQuality& password_quality() {
    static const PasswordQuality checker;
    return checker;
}

}  // namespace corebank::httpd::auth
