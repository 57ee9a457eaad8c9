#include "data_key.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "log.hpp"

namespace corebank::httpd {

namespace {

// The key opens every sealed secret: a copy readable by the group or by
// other users is a copy of every secret (issue 13). Refuse to start rather
// than run with it; the message says how to fix it.
void refuse_shared_key_file(int fd, const std::string& path) {
    struct stat info {};
    if (::fstat(fd, &info) != 0) throw std::runtime_error("cannot read data key file " + path);
    if (!S_ISREG(info.st_mode)) throw std::runtime_error("data key file " + path + " is not a regular file");
    const unsigned mode = static_cast<unsigned>(info.st_mode) & 07777u;
    if ((mode & 077u) != 0) {
        char octal[8];
        std::snprintf(octal, sizeof octal, "%04o", mode);
        throw std::runtime_error("data key file " + path + " has mode " + octal +
                                 ": group and others must have no access to it; run chmod 600 " + path);
    }
}

// A key file is a line of base64: anything larger is not a key file.
constexpr std::size_t key_file_bytes_max = 4096;

std::string read_small_file(int fd, const std::string& path) {
    std::string text;
    char buffer[1024];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0) throw std::runtime_error("cannot read data key file " + path);
        if (got == 0) return text;
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > key_file_bytes_max)
            throw std::runtime_error("data key file " + path + " must hold 32 bytes, base64-encoded");
    }
}

}  // namespace

std::string load_or_create_data_key(const std::string& path) {
    if (!std::filesystem::exists(path)) {
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        const std::string encoded = core::base64_encode(core::random_bytes(core::data_key_bytes)) + "\n";
        // O_EXCL: two processes starting together cannot both write a key.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {
            const bool ok = ::write(fd, encoded.data(), encoded.size()) == static_cast<ssize_t>(encoded.size());
            ::close(fd);
            if (!ok) throw std::runtime_error("cannot write data key file " + path);
            log_info("created a new data key", {{"path", path}});
        }
    }
    // One descriptor for the mode check and the read: the file checked is
    // the file read, even if the path is swapped in between.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot read data key file " + path);
    std::string text;
    try {
        refuse_shared_key_file(fd, path);
        text = read_small_file(fd, path);
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    const auto key = core::base64_decode(trim_ascii(text));
    if (!key || key->size() != core::data_key_bytes)
        throw std::runtime_error("data key file " + path + " must hold 32 bytes, base64-encoded");
    return *key;
}

}  // namespace corebank::httpd
