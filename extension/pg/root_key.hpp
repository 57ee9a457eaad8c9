// root_key.hpp: the root key that seals the database's secrets, loaded from
// the file the server setting corebank.root_key_file names
// (docs/security.md, "Sealed secrets and the root key").
//
// Like pgsodium's server key, the key lives outside the data directory, so
// neither a dump, a base backup nor a replica's files hold it. Unlike
// pgsodium, corebank is not in shared_preload_libraries: the setting is
// PGC_SIGHUP (postgresql.conf, ALTER SYSTEM or the server's command line;
// no session can SET it) and each backend reads the file when it needs the
// key, so the file must stay readable by the server while it runs.
//
// The file is refused unless it is an absolute path outside the data
// directory, a regular file (not a symlink) owned by the server's OS user
// with no group or other permission bits (0600 or 0400), of exactly 32 bytes.
#pragma once

#include <string>

namespace corebank::pg::root_key {

// SQLSTATE of every refusal: F0000 (config_file_error).
inline constexpr const char* sqlstate_root_key = "F0000";

// Registers corebank.root_key_file; called by _PG_init before the prefix is
// reserved. Calls PostgreSQL only (may ereport, holds no C++ object).
void define_setting() noexcept;

// The 32 bytes of the root key. Throws CoreError (F0000) naming the setting
// or the file and what is wrong with it: unset, missing, wrong owner or mode,
// inside the data directory, wrong size.
std::string load();

// Empty when load() would succeed, else its message (for status and health).
std::string problem();

}  // namespace corebank::pg::root_key
