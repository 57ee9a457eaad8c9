// secret_option.hpp: where an admin command's password or secret comes from.
//
// A value on the command line is visible to every local user (ps, /proc) and
// lands in shell history (issue 13), so each secret option has two other
// sources:
//   --NAME VALUE      the argument itself (still accepted);
//   --NAME -          one line of standard input (its line break removed);
//   --NAME-env VAR    the environment variable VAR.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <map>
#include <optional>
#include <string>

namespace corebank::httpd {

// A line of standard input longer than this is not a password or a secret.
inline constexpr std::size_t secret_input_bytes_max = 4096;

using EnvironmentLookup = std::function<const char*(const char*)>;

// The value of secret option `name` from the parsed flags (name and
// name + "-env" as keys), reading `in` for "-" and `environment` for -env.
// nullopt when neither option was given. Throws std::runtime_error, naming
// the option, when both are given, the variable is unset or empty, or
// standard input holds no line or one over secret_input_bytes_max.
std::optional<std::string> read_secret_option(const std::map<std::string, std::string>& flags,
                                              const std::string& name, std::istream& in,
                                              const EnvironmentLookup& environment);

}  // namespace corebank::httpd
