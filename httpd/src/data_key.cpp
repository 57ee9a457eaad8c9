#include "data_key.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "log.hpp"

namespace corebank::httpd {

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
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read data key file " + path);
    std::stringstream text;
    text << in.rdbuf();
    const auto key = core::base64_decode(trim_ascii(text.str()));
    if (!key || key->size() != core::data_key_bytes)
        throw std::runtime_error("data key file " + path + " must hold 32 bytes, base64-encoded");
    return *key;
}

}  // namespace corebank::httpd
