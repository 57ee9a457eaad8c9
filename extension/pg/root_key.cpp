// root_key.cpp: see root_key.hpp.
//
// The file is opened once with O_NOFOLLOW and every check is made on that
// descriptor (fstat, then read), so it cannot be swapped between the check
// and the read. The key is not cached: a backend needs it only to seal a new
// secret or to open one it has not opened yet (auth_signing caches the
// parsed private key), and reading it each time means a changed setting or
// a removed file takes effect at the next use.
#include "pg/root_key.hpp"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/errors.hpp"
#include "core/seal.hpp"
#include "pg/guard.hpp"
#include "pg/postgres.hpp"

namespace corebank::pg::root_key {

namespace {

constexpr const char setting_name[] = "corebank.root_key_file";
constexpr std::size_t path_length_max = 1024;

// The GUC's slot; PostgreSQL keeps its address for the life of the process.
char* root_key_file = nullptr;

bool check_root_key_file(char** new_value, void** /*extra*/, GucSource /*source*/) {
    const char* value = *new_value;
    if (value == nullptr || value[0] == '\0') return true;  // unset: nothing can be sealed or opened
    if (value[0] != '/') {
        GUC_check_errdetail("The root key file must be an absolute path.");
        return false;
    }
    if (strnlen(value, path_length_max + 1) > path_length_max) {
        GUC_check_errdetail("The root key file's path must be at most %d characters.",
                            static_cast<int>(path_length_max));
        return false;
    }
    return true;
}

[[noreturn]] void refuse(const std::string& message, const std::string& detail = {}) {
    throw core::CoreError(sqlstate_root_key, message,
                          detail.empty() ? "The database's secrets (signing keys) cannot be sealed or opened "
                                           "without it; see docs/security.md, \"Sealed secrets and the root key\"."
                                         : detail);
}

struct FdCloser {
    int fd;
    ~FdCloser() {
        if (fd >= 0) close(fd);
    }
};

// realpath, or the path itself when it cannot be resolved.
std::string resolved(const std::string& path) {
    std::unique_ptr<char, decltype(&free)> real(realpath(path.c_str(), nullptr), &free);
    return real ? std::string(real.get()) : path;
}

bool inside(const std::string& directory, const std::string& path) {
    return path == directory ||
           (path.size() > directory.size() && path.compare(0, directory.size(), directory) == 0 &&
            path[directory.size()] == '/');
}

std::string data_directory() {
    const char* value = pg_guard([]() noexcept { return GetConfigOption("data_directory", true, false); });
    return value != nullptr ? std::string(value) : std::string();
}

}  // namespace

void define_setting() noexcept {
    DefineCustomStringVariable(
        setting_name, "The file holding the 32-byte root key that seals the database's secrets.",
        "Absolute path outside the data directory, owned by the server's OS user, mode 0600. "
        "Without it the server cannot sign tokens (docs/security.md).",
        &root_key_file, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, check_root_key_file, nullptr, nullptr);
}

std::string load() {
    const std::string path = root_key_file != nullptr ? root_key_file : "";
    if (path.empty()) refuse("corebank.root_key_file is not set: this server has no root key");

    const std::string data_dir = data_directory();
    const std::string real_path = resolved(path);
    if (!data_dir.empty() && (inside(resolved(data_dir), real_path) || inside(data_dir, path)))
        refuse("the root key file " + path + " is inside the data directory",
               "A key kept with the data is copied by every backup and replica; move it outside " + data_dir + ".");

    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        refuse("the root key file " + path + " cannot be opened: " + strerror(error));
    }
    const FdCloser closer{fd};
    struct stat status {};
    if (fstat(fd, &status) != 0) refuse("the root key file " + path + " cannot be examined");
    if (!S_ISREG(status.st_mode)) refuse("the root key file " + path + " is not a regular file");
    if (status.st_uid != geteuid())
        refuse("the root key file " + path + " is not owned by the database server's OS user",
               "chown it to the user PostgreSQL runs as (postgres) and chmod 600 it.");
    if ((status.st_mode & 077) != 0) {
        char mode[8];
        snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
        refuse("the root key file " + path + " has mode " + mode + ": group and others must have no access",
               "chmod 600 " + path);
    }
    if (status.st_size != static_cast<off_t>(core::seal::root_key_bytes))
        refuse("the root key file " + path + " must hold exactly 32 bytes",
               "Create it with: openssl rand 32 > FILE (as the server's OS user, umask 077).");

    std::string key(core::seal::root_key_bytes, '\0');
    std::size_t got = 0;
    while (got < key.size()) {
        const ssize_t n = read(fd, key.data() + got, key.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) refuse("the root key file " + path + " could not be read");
        got += static_cast<std::size_t>(n);
    }
    return key;
}

std::string problem() {
    try {
        std::string key = load();
        OPENSSL_cleanse(key.data(), key.size());
        return {};
    } catch (const core::CoreError& error) {
        return error.what();
    }
}

}  // namespace corebank::pg::root_key
