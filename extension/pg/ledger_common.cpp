// ledger_common.cpp: see ledger_common.hpp.
#include "pg/ledger_common.hpp"

#include "core/ledger_chain.hpp"
#include "pg/check.hpp"
#include "pg/postgres.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

extern "C" {
#include "miscadmin.h"
}

namespace corebank::pg::ledger {

std::string random_uuid() { return uuid_to_string(random_uuid_v4()); }

namespace {

constexpr const char period_lock_sql[] =
    "SELECT p.status FROM corebank.accounting_periods p WHERE p.period = $1::bpchar FOR SHARE";

// nextval in a MATERIALIZED CTE keeps format_number inlinable (see
// numbers_sql in pg/transfer_decider.cpp).
constexpr const char next_transaction_number_sql[] =
    "WITH s AS MATERIALIZED (SELECT nextval('corebank.transaction_numbers') AS value) "
    "SELECT corebank_internal.format_number(n.prefix, n.padding, s.value) "
    "FROM corebank.numbering_config n CROSS JOIN s WHERE n.entity_type = 'TRANSACTION'";

constexpr const char actor_branch_sql[] =
    "SELECT b.id::text FROM corebank.branches b JOIN corebank.auth_users u ON u.branch_code = b.code "
    "WHERE u.id = $1::uuid AND b.active";

constexpr const char period_create_sql[] =
    "INSERT INTO corebank.accounting_periods (period) VALUES ($1::bpchar) ON CONFLICT (period) DO NOTHING";

}  // namespace

void lock_open_period(const std::string& period) {
    std::uint64_t found = spi::execute(period_lock_sql, {spi::Arg::text(period)});
    if (found == 0) {
        spi::execute(period_create_sql, {spi::Arg::text(period)});
        found = spi::execute(period_lock_sql, {spi::Arg::text(period)});
        CB_CHECK(found == 1);
    }
    if (spi::get_text(0, 1).value() == "CLOSED") {
        fail(core::sqlstate_unprocessable, "accounting period " + period + " is closed");
    }
}

std::optional<std::string> actor_branch(const std::optional<std::string>& actor_id) {
    if (!actor_id) return std::nullopt;
    return spi::execute(actor_branch_sql, {spi::Arg::text(*actor_id)}) == 0 ? std::nullopt : spi::get_text(0, 1);
}

std::string next_transaction_number() {
    CB_CHECK(spi::execute(next_transaction_number_sql, {}) == 1);  // seeded by the install script
    return spi::get_text(0, 1).value();
}

int backend_stripe() {
    static_assert(core::ledger::chain_stripes == 16, "the chain_heads seed and CHECKs assume 16 stripes");
    return MyProcPid % core::ledger::chain_stripes;
}

}  // namespace corebank::pg::ledger
