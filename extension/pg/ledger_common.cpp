// ledger_common.cpp: see ledger_common.hpp.
#include "pg/ledger_common.hpp"

#include "core/crypto.hpp"
#include "core/ledger_chain.hpp"
#include "pg/postgres.hpp"
#include "pg/values.hpp"

extern "C" {
#include "miscadmin.h"
}

namespace corebank::pg::ledger {

std::string random_uuid() {
    const std::string bytes = core::random_bytes(16);
    Uuid uuid;
    for (std::size_t index = 0; index < uuid.bytes.size(); ++index) {
        uuid.bytes[index] = static_cast<unsigned char>(bytes[index]);
    }
    uuid.bytes[6] = static_cast<unsigned char>((uuid.bytes[6] & 0x0F) | 0x40);  // version 4
    uuid.bytes[8] = static_cast<unsigned char>((uuid.bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
    return uuid_to_string(uuid);
}

int backend_stripe() {
    static_assert(core::ledger::chain_stripes == 16, "the chain_heads seed and CHECKs assume 16 stripes");
    return MyProcPid % core::ledger::chain_stripes;
}

}  // namespace corebank::pg::ledger
