// cli_flags.cpp: see cli_flags.hpp.
#include "cli_flags.hpp"

#include <iostream>
#include <stdexcept>

namespace corebank::httpd::cli {

std::map<std::string, std::string> flags_of(const std::vector<std::string>& args, const std::vector<std::string>& allowed) {
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < args.size(); i += 2) {
        bool known = false;
        for (const auto& a : allowed) known = known || args[i] == "--" + a;
        if (!known) throw std::runtime_error("unknown option " + args[i]);
        if (i + 1 >= args.size()) throw std::runtime_error(args[i] + " needs a value");
        out[args[i].substr(2)] = args[i + 1];
    }
    return out;
}

int refuse(const std::string& message) {
    std::cerr << "corebankd: " << message << "\n";
    return 2;
}

}  // namespace corebank::httpd::cli
