// credit_stripes.cpp: see credit_stripes.hpp.
#include "pg/credit_stripes.hpp"

#include <string>
#include <vector>

#include "pg/check.hpp"
#include "pg/ledger_guard.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::credit_stripes {

namespace {

constexpr int accounts_max_limit = 10000;

constexpr const char pending_sql[] =
    "SELECT DISTINCT s.account_id::text FROM corebank.account_credit_stripes s WHERE s.credit_minor <> 0 "
    "ORDER BY 1 LIMIT $1";

// The fold never waits for a lock: it holds the accounts and stripes it has
// folded until its commit, and a posting holds its accounts while it writes
// its credit stripes, so a fold that waited for an account a posting holds
// while that posting waited for a stripe the fold had zeroed was a deadlock
// (seen under the history benchmark: PostgreSQL cancelled one of the two
// after deadlock_timeout, and a transfer answered 503). An account a posting
// holds, and a stripe a posting is writing, are left to the next pass.
constexpr const char lock_account_sql[] =
    "SELECT 1 FROM corebank.ledger_accounts a WHERE a.id = $1::uuid FOR NO KEY UPDATE SKIP LOCKED";

// The stripes are zeroed, not deleted: the rows are reused by the next
// credits (at most 16 per account) and no insert races a delete.
constexpr const char fold_sql[] =
    "WITH taken AS ("
    "    SELECT s.stripe, s.credit_minor FROM corebank.account_credit_stripes s "
    "    WHERE s.account_id = $1::uuid AND s.credit_minor <> 0 ORDER BY s.stripe FOR UPDATE SKIP LOCKED), "
    "zeroed AS ("
    "    UPDATE corebank.account_credit_stripes s SET credit_minor = 0 FROM taken t "
    "    WHERE s.account_id = $1::uuid AND s.stripe = t.stripe RETURNING t.credit_minor) "
    "UPDATE corebank.ledger_accounts a "
    "SET balance_minor = a.balance_minor + f.total, version = a.version + 1, updated_at = now() "
    "FROM (SELECT sum(z.credit_minor)::bigint AS total FROM zeroed z) f "
    "WHERE a.id = $1::uuid AND f.total IS NOT NULL";

}  // namespace

int fold(int accounts_max) {
    CB_CHECK(accounts_max >= 1 && accounts_max <= accounts_max_limit);
    const std::uint64_t rows = spi::execute(pending_sql, {spi::Arg::int4(accounts_max)});
    std::vector<std::string> ids;
    for (std::uint64_t row = 0; row < rows; ++row) ids.push_back(spi::get_text(row, 1).value());
    int folded = 0;
    ledger_guard::WriterScope writer;
    for (const std::string& id : ids) {
        // Accounts are never deleted: no row means a posting or a lifecycle move holds it.
        if (spi::execute(lock_account_sql, {spi::Arg::text(id)}) == 0) continue;
        folded += static_cast<int>(spi::execute(fold_sql, {spi::Arg::text(id)}));
    }
    return folded;
}

}  // namespace corebank::pg::credit_stripes
