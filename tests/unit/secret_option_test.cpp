// secret_option_test.cpp: where an admin command's password or secret comes
// from (httpd/src/secret_option.hpp).
//
// Goal: a secret need not be on the command line (issue 13): `--NAME -` reads
// one line of standard input and `--NAME-env VAR` reads an environment
// variable, the argument still works, and every ambiguous or empty source is
// refused with a message naming the option. Method: parsed flags, a string
// stream for standard input and a map for the environment.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "secret_option.hpp"

namespace {

using corebank::httpd::read_secret_option;
using Flags = std::map<std::string, std::string>;

const std::map<std::string, std::string> environment{{"STAFF_PW", "from-the-env-1"}, {"EMPTY", ""}};

const char* lookup(const char* name) {
    const auto it = environment.find(name);
    return it == environment.end() ? nullptr : it->second.c_str();
}

std::optional<std::string> read(const Flags& flags, const std::string& stdin_text = "") {
    std::istringstream in(stdin_text);
    return read_secret_option(flags, "password", in, lookup);
}

std::string refusal(const Flags& flags, const std::string& stdin_text = "") {
    try {
        read(flags, stdin_text);
        return "";
    } catch (const std::runtime_error& e) {
        return e.what();
    }
}

// Goal: the three sources give the value; none given is nullopt.
TEST(SecretOption, ArgumentStdinAndEnvironment) {
    EXPECT_EQ(read({{"password", "on-the-line-1"}}), "on-the-line-1");
    EXPECT_EQ(read({{"password", "-"}}, "from stdin 1\nignored second line\n"), "from stdin 1");
    EXPECT_EQ(read({{"password", "-"}}, "crlf-line-1\r\n"), "crlf-line-1");
    EXPECT_EQ(read({{"password", "-"}}, "no-line-break"), "no-line-break");
    EXPECT_EQ(read({{"password-env", "STAFF_PW"}}), "from-the-env-1");
    EXPECT_EQ(read({{"email", "a@b.co"}}), std::nullopt);
}

// Goal: both sources, an unset or empty variable, an empty or oversized
// standard input are refused, and the message names the option.
TEST(SecretOption, AmbiguousOrEmptySourcesAreRefused) {
    EXPECT_NE(refusal({{"password", "x-12345678"}, {"password-env", "STAFF_PW"}}).find("not both"), std::string::npos);
    EXPECT_NE(refusal({{"password-env", "NO_SUCH_VARIABLE"}}).find("NO_SUCH_VARIABLE"), std::string::npos);
    EXPECT_NE(refusal({{"password-env", "EMPTY"}}).find("--password-env"), std::string::npos);
    EXPECT_NE(refusal({{"password", "-"}}, "").find("--password -"), std::string::npos);
    EXPECT_NE(refusal({{"password", "-"}}, "\n").find("empty"), std::string::npos);
    const std::string huge(corebank::httpd::secret_input_bytes_max + 1, 'p');
    EXPECT_NE(refusal({{"password", "-"}}, huge + "\n").find("more than"), std::string::npos);
    const std::string largest(corebank::httpd::secret_input_bytes_max, 'p');
    EXPECT_EQ(read({{"password", "-"}}, largest + "\n"), largest);
}

}  // namespace
