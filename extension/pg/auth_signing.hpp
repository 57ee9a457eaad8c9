// auth_signing.hpp: the RS256 signing keys in corebank.auth_signing_keys and
// signing with them (needs SPI connected).
//
// One key is active at a time (a partial unique index enforces it); retired
// keys stay published in the JWKS until their last token has expired. Key
// creation is serialised by a transaction-scoped advisory lock, so any number
// of tier processes starting at once create exactly one key. The private key
// never leaves the database: tokens are signed here. It is stored only sealed
// under the root key (pg/root_key.hpp, core/seal.hpp): without the root key
// file no key is created and none opens, so nothing signs.
#pragma once

#include <string>

namespace corebank::pg::auth_signing {

// The active kid; creates a key when there is none, or when the active one
// is older than rotation_days.
std::string ensure_active_key(int rotation_days);

// Retires the active key (if any) and creates a new one; returns its kid.
std::string rotate_key();

// Signs `claims_json` (a JSON object) with the active key, creating one if
// none exists; returns the compact JWS. The parsed private key is cached per
// backend, keyed by kid.
std::string sign_claims(const std::string& claims_json);

}  // namespace corebank::pg::auth_signing
