#include "router.hpp"

#include <cassert>

#include "percent_decode.hpp"

namespace corebank::httpd {

namespace {

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::string current;
    for (char c : path) {
        if (c == '/') {
            if (!current.empty()) parts.push_back(current);
            current.clear();
        } else {
            current.push_back(c);
        }
    }
    if (!current.empty()) parts.push_back(current);
    return parts;
}

bool matches(const std::vector<std::string>& pattern, const std::vector<std::string>& path,
             std::map<std::string, std::string>* params) {
    if (pattern.size() != path.size()) return false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (!pattern[i].empty() && pattern[i].front() == ':') {
            // Path segments arrive percent-encoded. A malformed escape (or an
            // encoded NUL) stays raw, so the handler refuses the value with a 400.
            const auto decoded = percent_decode(path[i], false);
            if (params != nullptr) (*params)[pattern[i].substr(1)] = decoded ? *decoded : path[i];
        } else if (pattern[i] != path[i]) {
            return false;
        }
    }
    return true;
}

}  // namespace

void Router::add(Route route) {
    assert(!route.pattern.empty() && route.pattern.front() == '/');
    assert(route.handler);
    routes_.push_back(std::move(route));
}

RouteMatch Router::match(HttpRequest& request) const {
    RouteMatch out;
    const auto path = split_path(request.path);
    // A literal segment beats a parameter: try routes without parameters first.
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto& route : routes_) {
            const bool has_param = route.pattern.find(':') != std::string::npos;
            if ((pass == 0) == has_param) continue;
            std::map<std::string, std::string> params;
            if (!matches(split_path(route.pattern), path, &params)) continue;
            out.path_known = true;
            if (route.method == request.method && out.route == nullptr) {
                out.route = &route;
                request.path_params = std::move(params);
            }
            out.allowed_methods.push_back(route.method);
        }
        if (out.route != nullptr) return out;
    }
    return out;
}

}  // namespace corebank::httpd
