// cli_flags.hpp: the small command-line plumbing the `corebankd` admin
// commands share (webhook-add/-list/-disable, key-list/-rotate/-revoke):
// "--name value" pairs checked against the options a command accepts, and one
// way to turn a refusal into a message on standard error and exit status 2.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "db.hpp"
#include "db_errors.hpp"

namespace corebank::httpd::cli {

// "--name value" pairs into {name: value}. Throws std::runtime_error naming an
// option that is not in `allowed` or has no value.
std::map<std::string, std::string> flags_of(const std::vector<std::string>& args, const std::vector<std::string>& allowed);

// "corebankd: <message>" on standard error; the exit status of a refusal (2).
int refuse(const std::string& message);

// Runs `body` (which returns the exit status) and turns any exception into a
// refusal: a database error with the message its API error would carry, so
// the command line and HTTP say the same thing.
template <typename Body>
int guarded(Body body) {
    try {
        return body();
    } catch (const DbError& e) {
        return refuse(api_error_from_db(e).what());
    } catch (const std::exception& e) {
        return refuse(e.what());
    }
}

}  // namespace corebank::httpd::cli
