// data_key.hpp: the 32-byte key that seals secrets at rest (mail bodies now,
// verification subject data later). It lives in a file outside the
// repository (var/secrets/data.key, mode 0600), base64-encoded. Every tier
// process of one deployment must read the same key.
#pragma once

#include <string>

namespace corebank::httpd {

// Reads the key; when the file does not exist, creates it with a fresh random
// key (0600) and says so in the log. Throws std::runtime_error on a malformed
// file, and on a file the group or others may access (mode & 077), naming the
// file and the chmod that fixes it.
std::string load_or_create_data_key(const std::string& path);

}  // namespace corebank::httpd
