#include "secret_option.hpp"

#include <stdexcept>

namespace corebank::httpd {

namespace {

std::string read_secret_line(std::istream& in, const std::string& option) {
    std::string line;
    char c = 0;
    bool ended = false;
    while (in.get(c)) {
        if (c == '\n') {
            ended = true;
            break;
        }
        line.push_back(c);
        if (line.size() > secret_input_bytes_max)
            throw std::runtime_error(option + " -: standard input holds more than " +
                                     std::to_string(secret_input_bytes_max) + " bytes on its first line");
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty())
        throw std::runtime_error(option + " -: standard input " + (ended ? "has an empty first line" : "is empty"));
    return line;
}

}  // namespace

std::optional<std::string> read_secret_option(const std::map<std::string, std::string>& flags,
                                              const std::string& name, std::istream& in,
                                              const EnvironmentLookup& environment) {
    const std::string option = "--" + name;
    const auto direct = flags.find(name);
    const auto from_env = flags.find(name + "-env");
    if (direct != flags.end() && from_env != flags.end())
        throw std::runtime_error("give either " + option + " or " + option + "-env, not both");
    if (from_env != flags.end()) {
        const char* value = environment(from_env->second.c_str());
        if (value == nullptr || *value == '\0')
            throw std::runtime_error(option + "-env: the environment variable " + from_env->second +
                                     " is unset or empty");
        return std::string(value);
    }
    if (direct == flags.end()) return std::nullopt;
    if (direct->second == "-") return read_secret_line(in, option);
    return direct->second;
}

}  // namespace corebank::httpd
