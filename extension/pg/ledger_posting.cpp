// ledger_posting.cpp: see ledger_posting.hpp.
//
// Variable-length inputs (the lines, the deltas) reach SQL as array
// parameters read with unnest(), one array per column, so every statement
// stays a static, parameterised string and nothing is parsed as JSON.
#include "pg/ledger_posting.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "core/crypto.hpp"
#include "core/ledger.hpp"
#include "core/ledger_chain.hpp"
#include "core/posting_rules.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_guard.hpp"
#include "pg/spi.hpp"
#include "pg/transaction_render.hpp"

namespace corebank::pg::posting {

namespace {

using core::sqlstate_conflict;
using core::sqlstate_not_found;
using core::sqlstate_unprocessable;
using ledger::fail;
using ledger::lock_open_period;
namespace rules = core::posting_rules;

/*---- statements ----*/

// An account a posting debits: waits for other debits and lifecycle moves
// (freeze, close: FOR UPDATE), never for credits (FOR KEY SHARE).
constexpr const char lock_debited_sql[] =
    "SELECT a.id::text, a.account_number, a.status, a.currency::text, a.gl_account_id::text, "
    "       a.balance_minor, a.allow_overdraft_minor "
    "FROM corebank.ledger_accounts a WHERE a.id = ANY ($1::uuid[]) ORDER BY a.id FOR NO KEY UPDATE";

// An account a posting credits, first without waiting: a row no other
// posting holds is credited in place (balance_minor), as before 1.8.
constexpr const char try_lock_credited_sql[] =
    "SELECT a.id::text, a.account_number, a.status, a.currency::text, a.gl_account_id::text, "
    "       a.balance_minor, a.allow_overdraft_minor "
    "FROM corebank.ledger_accounts a WHERE a.id = ANY ($1::uuid[]) ORDER BY a.id FOR NO KEY UPDATE SKIP LOCKED";

// A credited row another posting holds (a hot account): shared with the other
// credits and with a debit, so the credit does not queue; it goes into the
// backend's credit stripe. Waits only for a lifecycle move (FOR UPDATE),
// whose new status it then reads.
constexpr const char share_credited_sql[] =
    "SELECT a.id::text, a.account_number, a.status, a.currency::text, a.gl_account_id::text, "
    "       a.balance_minor, a.allow_overdraft_minor "
    "FROM corebank.ledger_accounts a WHERE a.id = ANY ($1::uuid[]) ORDER BY a.id FOR KEY SHARE";

// Credits in stripes not yet folded into balance_minor. Read after the row
// locks, in a statement of its own: its snapshot is then newer than any fold
// that committed before the lock was taken, and a fold cannot commit while
// the lock is held, so no credit is missed or counted twice.
constexpr const char credit_stripes_sql[] =
    "SELECT s.account_id::text, sum(s.credit_minor)::bigint FROM corebank.account_credit_stripes s "
    "WHERE s.account_id = ANY ($1::uuid[]) GROUP BY s.account_id";

constexpr const char read_accounts_sql[] =
    "SELECT a.id::text, a.account_number, a.status, a.currency::text, a.gl_account_id::text, "
    "       a.balance_minor, a.allow_overdraft_minor "
    "FROM corebank.ledger_accounts a WHERE a.id = ANY ($1::uuid[]) ORDER BY a.id";

constexpr const char gl_accounts_sql[] =
    "SELECT g.id::text, g.code, g.currency::text, g.active, g.allow_manual, g.first_posted_at IS NULL "
    "FROM corebank.gl_accounts g WHERE g.id = ANY ($1::uuid[])";

constexpr const char business_date_sql[] =
    "SELECT to_char(corebank_internal.business_today(), 'YYYY-MM-DD'), "
    "       (extract(epoch FROM now()) * 1000000)::bigint";

constexpr const char branch_sql[] = "SELECT b.code, b.active FROM corebank.branches b WHERE b.id = $1::uuid";

constexpr const char period_status_sql[] =
    "SELECT p.status FROM corebank.accounting_periods p WHERE p.period = $1::bpchar";

// Sets first_posted_at (freezing code and type) in id order.
constexpr const char first_posted_sql[] =
    "UPDATE corebank.gl_accounts g SET first_posted_at = now() "
    "WHERE g.id IN (SELECT x.id FROM corebank.gl_accounts x "
    "               WHERE x.id = ANY ($1::uuid[]) AND x.first_posted_at IS NULL ORDER BY x.id FOR NO KEY UPDATE)";

constexpr const char chain_lock_sql[] =
    "SELECT h.seq, h.hash FROM corebank.chain_heads h WHERE h.stripe = $1 FOR UPDATE";

constexpr const char post_pending_sql[] =
    "UPDATE corebank.transactions "
    "SET status = 'POSTED', operator_id = $2::uuid, chain_stripe = $3, chain_seq = $4, prev_hash = $5, hash = $6, "
    "    posted_at = now() "
    "WHERE id = $1::uuid AND status = 'PENDING' AND released";

// A posting's writes after its locks, as one statement: the chain head's
// advance, the transactions, the journal entries, the credit stripes, the
// GL balance stripes and the balances in place.
// Each was a statement of its own, and each statement costs a plan-cache
// lookup with its relations' locks, an executor start and end and a
// snapshot, whatever it writes (docs/performance.md). The main SELECT names
// every part, so each runs, in the order of its columns; a part whose arrays
// are empty writes nothing. Its statement triggers (the journal's reference
// check and day totals) fire at the end of the whole statement, when the
// transactions are there.
//
// The columns arrive as arrays, one element per transaction ($1-$12, $15, in
// chain order), per entry ($18-$28, in chain and line order) and per account
// credited through its stripe ($29, $30), per GL account with its debits
// and credits ($31-$33, in id order) and per account moved in place with
// its net delta ($34, $35); '' stands for NULL in the optional text columns
// (a request's empty text is absent, never ''). $13 is the value date, $14
// the backend's stripe (of the chain and of the GL balance stripes: the
// chain head's lock, taken before, serialises every writer of a GL stripe
// row, so its upsert never waits), $16 and $17 the chain head's new seq and
// hash.
//
// The balances in place are a join with unnest(): a generic plan made with
// sequential scans priced out (spi::execute_generic), so an index probe per
// account whatever the size of the table of accounts.
//
// The day totals of the entries (account_day_totals per customer account,
// $36-$38; gl_day_totals per GL account, the GL stripe's own $31-$33, as
// every entry of one write has the value date $13) are added here too, into
// the backend's stripe, in key order, exactly as the journal's statement
// trigger journal_day_totals_add adds any other INSERT's: the engine holds
// an EngineDayTotals for the statement's entries while it runs, and the
// trigger adds nothing for them (pgTAP day_totals.sql holds the totals equal
// to the entries after every kind of posting).
constexpr const char write_sql[] =
    "WITH chain AS ("
    "    UPDATE corebank.chain_heads SET seq = $16, hash = $17, updated_at = now() WHERE stripe = $14 RETURNING 1), "
    "transactions AS ("
    "    INSERT INTO corebank.transactions (id, reference, type, status, description, value_date, branch_id, "
    "        channel, maker_id, operator_id, idempotency_key, reverses_id, released, chain_stripe, chain_seq, "
    "        prev_hash, hash, created_at, posted_at) "
    "    SELECT t.id::uuid, t.reference, t.type, 'POSTED', nullif(t.description, ''), $13::date, t.branch::uuid, "
    "           t.channel, t.maker::uuid, t.operator::uuid, nullif(t.idempotency_key, ''), "
    "           nullif(t.reverses, '')::uuid, true, $14, t.seq, decode(t.prev_hash, 'hex'), decode(t.hash, 'hex'), "
    "           now(), now() "
    "    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], "
    "                $8::text[], $9::text[], $10::text[], $11::bigint[], $12::text[], $15::text[]) "
    "         AS t(id, reference, type, description, branch, channel, maker, operator, idempotency_key, reverses, "
    "              seq, prev_hash, hash) "
    "    ORDER BY t.seq RETURNING 1), "
    "entries AS ("
    "    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, ledger_account_id, currency, "
    "        side, amount_minor, branch_id, value_date, channel, operator_id, narrative, created_at) "
    "    SELECT e.tx::uuid, e.line_no, e.gl::uuid, nullif(e.account, '')::uuid, e.currency, e.side, e.amount, "
    "           e.branch::uuid, $13::date, e.channel, e.operator::uuid, nullif(e.narrative, ''), now() "
    "    FROM unnest($18::text[], $19::bigint[], $20::text[], $21::text[], $22::text[], $23::text[], "
    "                $24::bigint[], $25::text[], $26::text[], $27::text[], $28::text[]) WITH ORDINALITY "
    "         AS e(tx, line_no, gl, account, currency, side, amount, branch, channel, operator, narrative, n) "
    "    ORDER BY e.n RETURNING 1), "
    "credit_stripes AS ("
    "    INSERT INTO corebank.account_credit_stripes AS s (account_id, stripe, credit_minor) "
    "    SELECT d.id, $14, d.credit FROM unnest($29::uuid[], $30::bigint[]) AS d(id, credit) ORDER BY d.id "
    "    ON CONFLICT (account_id, stripe) DO UPDATE SET credit_minor = s.credit_minor + excluded.credit_minor "
    "    RETURNING 1), "
    "gl_stripes AS ("
    "    INSERT INTO corebank.gl_balance_stripes AS s (gl_account_id, stripe, debit_minor, credit_minor) "
    "    SELECT d.gl, $14, d.debit, d.credit "
    "    FROM unnest($31::uuid[], $32::bigint[], $33::bigint[]) AS d(gl, debit, credit) ORDER BY d.gl "
    "    ON CONFLICT (gl_account_id, stripe) DO UPDATE "
    "    SET debit_minor = s.debit_minor + excluded.debit_minor, credit_minor = s.credit_minor + excluded.credit_minor "
    "    RETURNING 1), "
    "balances AS ("
    "    UPDATE corebank.ledger_accounts a "
    "    SET balance_minor = a.balance_minor + d.delta, version = a.version + 1, updated_at = now() "
    "    FROM unnest($34::uuid[], $35::bigint[]) AS d(id, delta) WHERE a.id = d.id "
    "    RETURNING 1), "
    "account_days AS ("
    "    INSERT INTO corebank.account_day_totals AS t (account_id, day, stripe, debit_minor, credit_minor) "
    "    SELECT d.id, $13::date, $14, d.debit, d.credit "
    "    FROM unnest($36::uuid[], $37::bigint[], $38::bigint[]) AS d(id, debit, credit) ORDER BY d.id "
    "    ON CONFLICT (account_id, day, stripe) DO UPDATE "
    "    SET debit_minor = t.debit_minor + excluded.debit_minor, credit_minor = t.credit_minor + excluded.credit_minor "
    "    RETURNING 1), "
    "gl_days AS ("
    "    INSERT INTO corebank.gl_day_totals AS t (gl_account_id, day, stripe, debit_minor, credit_minor) "
    "    SELECT d.gl, $13::date, $14, d.debit, d.credit "
    "    FROM unnest($31::uuid[], $32::bigint[], $33::bigint[]) AS d(gl, debit, credit) ORDER BY d.gl "
    "    ON CONFLICT (gl_account_id, day, stripe) DO UPDATE "
    "    SET debit_minor = t.debit_minor + excluded.debit_minor, credit_minor = t.credit_minor + excluded.credit_minor "
    "    RETURNING 1) "
    "SELECT (SELECT count(*) FROM chain), (SELECT count(*) FROM transactions), (SELECT count(*) FROM entries), "
    "       (SELECT count(*) FROM credit_stripes), (SELECT count(*) FROM gl_stripes), "
    "       (SELECT count(*) FROM balances), (SELECT count(*) FROM account_days), (SELECT count(*) FROM gl_days)";

// The idempotency key's statements. The lookups and updates are key
// statements (spi::execute_generic): the keys grow without bound, and a plan
// made while the table was one page would read it whole until the next
// ANALYZE (pgtap/posting_key_probes.sql).
constexpr const char claim_sql[] =
    "INSERT INTO corebank.idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

constexpr const char stored_sql[] =
    "SELECT k.request_hash, k.response, k.transaction_id::text FROM corebank.idempotency_keys k "
    "WHERE k.scope = $1 AND k.key = $2";

constexpr const char store_sql[] =
    "UPDATE corebank.idempotency_keys k SET transaction_id = $3::uuid, response = $4::jsonb "
    "WHERE k.scope = $1 AND k.key = $2 RETURNING k.response";

// A posting answered POSTED at once: its transaction only, no copy of the
// answer (a replay renders the transaction as posted).
constexpr const char record_posted_sql[] =
    "UPDATE corebank.idempotency_keys k SET transaction_id = $3::uuid WHERE k.scope = $1 AND k.key = $2";

/*---- helpers ----*/

std::string line_name(const Line& line) {
    return line.field.empty() ? "lines[" + std::to_string(line.line_no - 1) + "]" : line.field;
}

std::vector<std::string> distinct_gl_ids(const std::vector<Line>& lines) {
    std::set<std::string> ids;
    for (const Line& line : lines) ids.insert(line.gl_account_id);
    return {ids.begin(), ids.end()};
}

struct GlAccount {
    rules::GlFacts facts;  // code, currency, active, allow_manual
    bool never_posted = false;
};

std::map<std::string, GlAccount> read_gl_accounts(const std::vector<std::string>& ids) {
    const std::uint64_t rows = spi::execute_generic(gl_accounts_sql, {spi::Arg::uuid_column(ids)});
    std::map<std::string, GlAccount> accounts;
    for (std::uint64_t row = 0; row < rows; ++row) {
        accounts[spi::get_text(row, 1).value()] =
            GlAccount{rules::GlFacts{spi::get_text(row, 2).value(), spi::get_text(row, 3).value(),
                                     spi::get_bool(row, 4).value(), spi::get_bool(row, 5).value()},
                      spi::get_bool(row, 6).value()};
    }
    return accounts;
}

// The overdraft and overflow rule (core/posting_rules.hpp: balance_limit)
// for each account, in account id order.
void check_limits(const std::vector<Line>& lines, const Accounts& accounts) {
    for (const auto& [account_id, delta] : account_deltas(lines)) {
        const auto found = accounts.find(account_id);
        CB_CHECK(found != accounts.end());
        rules::require(rules::balance_limit(account_facts(found->second), delta));
    }
}

void post_pending(const Header& header, int stripe, std::int64_t seq, const std::string& prev_hash,
                  const std::string& hash) {
    const std::uint64_t rows = spi::execute_generic(
        post_pending_sql, {spi::Arg::text(header.id), spi::Arg::text(header.operator_id), spi::Arg::int4(stripe),
                           spi::Arg::int8(seq), spi::Arg::bytea(prev_hash), spi::Arg::bytea(hash)});
    if (rows != 1) fail(sqlstate_conflict, "transaction is no longer waiting to be posted");
}

}  // namespace

// Customer-side deltas (credits minus debits) per account.
std::map<std::string, std::int64_t> account_deltas(const std::vector<Line>& lines) {
    std::map<std::string, std::int64_t> deltas;
    for (const Line& line : lines) {
        if (!line.account_id) continue;
        deltas[*line.account_id] += line.side == 'C' ? line.amount_minor : -line.amount_minor;
    }
    return deltas;
}

rules::AccountFacts account_facts(const Account& account) {
    return rules::AccountFacts{account.account_number, account.status, account.balance_minor,
                               account.allow_overdraft_minor};
}

void mark_first_postings(const std::vector<Line>& lines) {
    spi::execute_generic(first_posted_sql, {spi::Arg::uuid_column(distinct_gl_ids(lines))});
}

namespace {

// The pieces of write(). All run inside its ledger_guard::WriterScope.

// Whether every line on a customer account names an account this
// transaction holds locked, on the line's GL account and in its currency:
// with the GL accounts and branch its callers checked (write()'s contract),
// every reference of the entries was read, and journal_references_check need
// not read them again (ledger::EngineCheckedReferences). False for a caller
// that passes no accounts (the batch of transfers): the trigger checks.
bool references_read(const std::vector<Line>& lines, const Accounts& accounts) {
    for (const Line& line : lines) {
        if (!line.account_id) continue;
        const auto found = accounts.find(*line.account_id);
        if (found == accounts.end() || !found->second.locked) return false;
        // bind_accounts (or the decider, from the same row) made them equal.
        CB_CHECK(found->second.gl_account_id == line.gl_account_id && found->second.currency == line.currency);
    }
    return true;
}

// The lines' debits and credits per key, in key order, as write_sql takes
// them (three columns): per GL account, every line (the GL balance stripe
// and gl_day_totals), or per customer account, the lines that name one
// (account_day_totals; the lines of one write share a value date).
struct SideTotals {
    std::vector<std::string> ids;
    std::vector<std::int64_t> debits, credits;
};

enum class TotalsBy { gl_account, customer_account };

SideTotals side_totals(const std::vector<Line>& lines, TotalsBy by) {
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> totals;  // key -> (debit, credit)
    for (const Line& line : lines) {
        const std::string* key = by == TotalsBy::gl_account ? &line.gl_account_id
                                 : line.account_id          ? &*line.account_id
                                                            : nullptr;
        if (key == nullptr) continue;
        auto& total = totals[*key];
        (line.side == 'D' ? total.first : total.second) += line.amount_minor;
    }
    SideTotals columns;
    for (const auto& [id, total] : totals) {
        columns.ids.push_back(id);
        columns.debits.push_back(total.first);
        columns.credits.push_back(total.second);
    }
    return columns;
}

// The lines' net customer-side movement, split the way write_sql applies
// it: in place (balance_minor), or into the backend's credit stripe for an
// account loaded with credit_stripe (absent from `accounts`: in place).
struct BalanceMoves {
    std::vector<std::string> in_place_ids, striped_ids;
    std::vector<std::int64_t> in_place_deltas, striped_credits;
};

BalanceMoves balance_moves(const std::vector<Line>& lines, const Accounts& accounts) {
    BalanceMoves moves;
    for (const auto& [id, delta] : account_deltas(lines)) {
        const auto account = accounts.find(id);
        const bool credit_stripe = account != accounts.end() && account->second.credit_stripe;
        if (credit_stripe) {
            CB_CHECK(delta >= 0);  // only a credited account is held FOR KEY SHARE
            if (delta > 0) {
                moves.striped_ids.push_back(id);
                moves.striped_credits.push_back(delta);
            }
        } else {
            moves.in_place_ids.push_back(id);
            moves.in_place_deltas.push_back(delta);
        }
    }
    return moves;
}

// The hash chain record of a transaction about to be written.
core::ledger::ChainTransaction chain_record(const Header& header, const std::vector<Line>& lines,
                                           const std::string& value_date, std::int64_t now_us) {
    core::ledger::ChainTransaction record;
    record.id = header.id;
    record.type = header.type;
    record.reference = header.reference;
    record.description = header.description;
    record.value_date = value_date;
    record.branch_id = header.branch_id;
    record.channel = header.channel;
    record.maker_id = header.maker_id;
    record.operator_id = header.operator_id;
    record.reverses_id = header.reverses_id;
    record.idempotency_key = header.idempotency_key;
    record.created_at_us = header.created_at_us.value_or(now_us);
    record.posted_at_us = now_us;
    for (const Line& line : lines) {
        record.entries.push_back(core::ledger::ChainEntry{line.line_no, line.gl_account_id, line.account_id,
                                                          line.currency, line.side, line.amount_minor, line.narrative,
                                                          header.branch_id, value_date, header.channel,
                                                          header.operator_id, now_us});
    }
    return record;
}

// The head of a chain stripe, locked (FOR UPDATE) until commit.
struct ChainHead {
    std::int64_t seq = 0;
    std::string hash;  // 32 raw bytes
};

ChainHead lock_chain_head(int stripe) {
    const std::uint64_t rows = spi::execute_generic(chain_lock_sql, {spi::Arg::int4(stripe)});
    CB_CHECK(rows == 1);  // 16 heads are seeded by the install script
    ChainHead head{spi::get_int(0, 1).value(), spi::get_bytea(0, 2).value()};
    CB_CHECK(head.seq >= 0);
    CB_CHECK(head.hash.size() == core::sha256_bytes);
    return head;
}

// Moves the head to the last transaction appended.
}  // namespace

std::vector<Line> lines_from_request(const std::vector<core::ledger::Line>& request_lines) {
    std::vector<Line> lines;
    lines.reserve(request_lines.size());
    for (std::size_t index = 0; index < request_lines.size(); ++index) {
        const core::ledger::Line& line = request_lines[index];
        Line item;
        item.line_no = static_cast<std::int64_t>(index) + 1;
        item.gl_account_id = line.gl_account_id.value_or("");
        item.account_id = line.account_id;
        item.currency = line.currency.value_or("");
        item.side = static_cast<char>(line.side);
        item.amount_minor = line.amount_minor;
        item.narrative = line.narrative;
        lines.push_back(std::move(item));
    }
    return lines;
}

Header header_from_request(const core::ledger::Request& request) {
    Header header;
    header.id = ledger::random_uuid();
    header.type = request.type.value();
    header.reference = request.reference.value();
    header.description = request.description;
    header.value_date = request.value_date;
    header.branch_id = request.branch_id.value();
    header.channel = request.channel.value();
    header.operator_id = request.operator_id.value();
    header.maker_id = request.maker_id.value_or(header.operator_id);
    return header;
}

std::vector<Line> lines_from_result(std::uint64_t rows) {
    std::vector<Line> lines;
    lines.reserve(rows);
    for (std::uint64_t row = 0; row < rows; ++row) {
        Line line;
        line.line_no = spi::get_int(row, 1).value();
        line.gl_account_id = spi::get_text(row, 2).value();
        line.account_id = spi::get_text(row, 3);
        line.currency = spi::get_text(row, 4).value();
        line.side = spi::get_text(row, 5).value()[0];
        line.amount_minor = spi::get_int(row, 6).value();
        line.narrative = spi::get_text(row, 7);
        lines.push_back(std::move(line));
    }
    return lines;
}

namespace {

// The rows of the last statement (lock_debited_sql's columns) into `accounts`.
std::vector<std::string> collect_accounts(std::uint64_t rows, Accounts& accounts, bool credit_stripe) {
    std::vector<std::string> ids;
    for (std::uint64_t row = 0; row < rows; ++row) {
        Account account{spi::get_text(row, 2).value(), spi::get_text(row, 3).value(), spi::get_text(row, 4).value(),
                        spi::get_text(row, 5).value(), spi::get_int(row, 6).value(), spi::get_int(row, 7).value()};
        account.credit_stripe = credit_stripe;
        ids.push_back(spi::get_text(row, 1).value());
        accounts[ids.back()] = std::move(account);
    }
    return ids;
}

}  // namespace

namespace {

// The balance rules judge balance_minor plus the committed credit stripes.
void add_committed_credits(const std::vector<std::string>& ids, Accounts& accounts) {
    for (const auto& [id, credits] : credit_stripe_totals(ids)) {
        const auto account = accounts.find(id);
        if (account == accounts.end()) continue;
        CB_CHECK(!__builtin_add_overflow(account->second.balance_minor, credits, &account->second.balance_minor));
    }
}

}  // namespace

Accounts load_accounts(const std::vector<Line>& lines, bool for_update) {
    const std::map<std::string, std::int64_t> deltas = account_deltas(lines);
    if (for_update) {
        std::map<std::string, rules::Direction> directions;
        for (const auto& [id, delta] : deltas) directions.emplace(id, rules::direction_of(delta));
        return lock_accounts(directions);
    }
    Accounts accounts;
    if (deltas.empty()) return accounts;
    std::vector<std::string> all;
    for (const auto& entry : deltas) all.push_back(entry.first);
    collect_accounts(spi::execute_generic(read_accounts_sql, {spi::Arg::uuid_column(all)}), accounts, false);
    add_committed_credits(all, accounts);
    return accounts;
}

Accounts lock_accounts(const std::map<std::string, rules::Direction>& directions) {
    Accounts accounts;
    if (directions.empty()) return accounts;
    std::vector<std::string> all;
    // In id order (canonical UUID text orders as the uuid does), as every
    // other locker of these rows: the batch (FOR UPDATE, id order) and the
    // lifecycle moves (one row). A debit waits; a credit takes the row when
    // no other posting holds it, else shares it and goes into a stripe.
    // Only a debit or a lifecycle move makes a credit wait.
    //
    // A run of consecutive debits is one statement: its ORDER BY locks the
    // rows in id order and waits for each in turn, exactly as one statement
    // per row would. A credit stays one statement, since a credit skipped by
    // SKIP LOCKED must be shared before any higher row is taken.
    std::vector<std::string> debits;  // the run not yet locked
    auto lock_debits = [&]() {
        if (debits.empty()) return;
        const std::size_t count = debits.size();
        CB_CHECK(collect_accounts(spi::execute_generic(lock_debited_sql, {spi::Arg::uuid_column(std::move(debits))}),
                                  accounts, false).size() <= count);
        debits.clear();
    };
    for (const auto& [id, direction] : directions) {
        all.push_back(id);
        if (direction == rules::Direction::debit) {
            debits.push_back(id);
            continue;
        }
        lock_debits();
        const std::vector<std::string> one{id};
        if (!collect_accounts(spi::execute_generic(try_lock_credited_sql, {spi::Arg::uuid_column(one)}), accounts,
                              false).empty()) {
            continue;
        }
        collect_accounts(spi::execute_generic(share_credited_sql, {spi::Arg::uuid_column(one)}), accounts, true);
    }
    lock_debits();
    for (auto& entry : accounts) entry.second.locked = true;  // every row above was taken FOR UPDATE or KEY SHARE
    add_committed_credits(all, accounts);
    return accounts;
}

std::map<std::string, std::int64_t> credit_stripe_totals(const std::vector<std::string>& account_ids) {
    std::map<std::string, std::int64_t> totals;
    if (account_ids.empty()) return totals;
    const std::uint64_t rows = spi::execute_generic(credit_stripes_sql, {spi::Arg::uuid_column(account_ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        const std::int64_t credits = spi::get_int(row, 2).value();
        CB_CHECK(credits >= 0);  // CHECK credit_minor >= 0
        totals[spi::get_text(row, 1).value()] = credits;
    }
    return totals;
}

void bind_accounts(std::vector<Line>& lines, const Accounts& accounts) {
    for (Line& line : lines) {
        if (!line.account_id) continue;
        const auto found = accounts.find(*line.account_id);
        rules::require(rules::account_found(found != accounts.end(), line_name(line) + ".accountId"));
        const Account& account = found->second;
        // The deposit rules (pg/deposits_posting.cpp) replace this one for
        // deposit accounts, marking the accounts they allowed ACTIVE.
        rules::require(rules::ledger_account_active(account_facts(account)));
        if (line.currency.empty()) line.currency = account.currency;
        rules::require(
            rules::account_currency(line_name(line), account.account_number, account.currency, line.currency));
        if (line.gl_account_id.empty()) line.gl_account_id = account.gl_account_id;
        rules::require(rules::control_account(line_name(line), account.account_number, account.gl_account_id,
                                              line.gl_account_id));
    }
}

bool check_gl_accounts(std::vector<Line>& lines, GlRule rule) {
    const std::map<std::string, GlAccount> accounts = read_gl_accounts(distinct_gl_ids(lines));
    bool first_posting = false;
    for (Line& line : lines) {
        CB_CHECK(!line.gl_account_id.empty());
        const auto found = accounts.find(line.gl_account_id);
        rules::require(rules::gl_found(found != accounts.end(), line_name(line)));
        const GlAccount& gl = found->second;
        rules::require(rules::gl_active(gl.facts));
        if (line.currency.empty()) line.currency = gl.facts.currency;
        rules::require(rules::gl_currency(line_name(line), gl.facts, line.currency));
        if (rule == GlRule::manual) rules::require(rules::gl_manual(gl.facts));
        first_posting = first_posting || gl.never_posted;
    }
    return first_posting;
}

void check_balanced(const std::vector<Line>& lines) {
    std::vector<core::ledger::Line> plain;
    plain.reserve(lines.size());
    for (const Line& line : lines) {
        core::ledger::Line item;
        item.currency = line.currency;
        item.side = line.side == 'D' ? core::ledger::Side::debit : core::ledger::Side::credit;
        item.amount_minor = line.amount_minor;
        plain.push_back(std::move(item));
    }
    rules::require(rules::balanced(plain));
}

ValueDate check_value_date(const std::optional<std::string>& value_date, bool lock_period) {
    const std::uint64_t rows = spi::execute(business_date_sql, {});
    CB_CHECK(rows == 1);
    const std::string today = spi::get_text(0, 1).value();
    const std::int64_t now_us = spi::get_int(0, 2).value();
    const std::string date = value_date.value_or(today);
    CB_CHECK(core::ledger::is_iso_date(date));
    rules::require(rules::value_date_not_after(date, today));

    const std::string period = date.substr(0, 7);
    if (lock_period) {
        lock_open_period(period);
        return ValueDate{date, now_us, true};
    }
    const std::uint64_t found = spi::execute(period_status_sql, {spi::Arg::text(period)});
    if (found == 1 && spi::get_text(0, 1).value() == "CLOSED") {
        fail(sqlstate_unprocessable, "accounting period " + period + " is closed");
    }
    return ValueDate{date, now_us};
}

void check_branch(const std::string& branch_id) {
    const std::uint64_t rows = spi::execute(branch_sql, {spi::Arg::text(branch_id)});
    rules::require(rules::branch_found(rows > 0));
    rules::require(rules::branch_active(spi::get_text(0, 1).value(), spi::get_bool(0, 2).value()));
}

void write(const std::vector<Posting>& postings, const ValueDate& dated, const Accounts& accounts,
           std::vector<ChainLink>* links) {
    CB_CHECK(!postings.empty());
    if (links != nullptr) links->clear();
    std::vector<Line> all_lines;
    for (const Posting& p : postings) all_lines.insert(all_lines.end(), p.lines.begin(), p.lines.end());
    const int stripe = ledger::backend_stripe();
    ledger_guard::WriterScope writer;

    // The hash chain: one head lock, the hashes in order, one advance.
    ChainHead head = lock_chain_head(stripe);
    std::vector<std::string> ids, references, types, descriptions, branches, channels, makers, operators,
        idempotency_keys, reverses, prev_hashes, hashes;
    std::vector<std::int64_t> seqs;
    std::vector<std::string> entry_transactions, entry_gls, entry_accounts, currencies, sides, entry_branches,
        entry_channels, entry_operators, narratives;
    std::vector<std::int64_t> line_numbers, amounts;
    for (const Posting& p : postings) {
        const Header& h = p.header;
        core::ledger::ChainTransaction record = chain_record(h, p.lines, dated.value_date, dated.now_us);
        record.stripe = stripe;
        record.seq = head.seq + 1;
        const std::string hash = core::ledger::chain_hash(head.hash, record);
        if (links != nullptr) links->push_back(ChainLink{stripe, record.seq, hash});
        if (h.created_at_us) {
            // A released manual journal: its PENDING row becomes POSTED.
            CB_CHECK(postings.size() == 1);
            post_pending(h, stripe, record.seq, head.hash, hash);
        } else {
            ids.push_back(h.id);
            references.push_back(h.reference);
            types.push_back(h.type);
            descriptions.push_back(h.description.value_or(""));
            branches.push_back(h.branch_id);
            channels.push_back(h.channel);
            makers.push_back(h.maker_id.value_or(h.operator_id));
            operators.push_back(h.operator_id);
            idempotency_keys.push_back(h.idempotency_key.value_or(""));
            reverses.push_back(h.reverses_id.value_or(""));
            seqs.push_back(record.seq);
            prev_hashes.push_back(core::hex_encode(head.hash));
            hashes.push_back(core::hex_encode(hash));
        }
        for (const Line& l : p.lines) {
            CB_CHECK(!l.gl_account_id.empty() && !l.currency.empty());
            CB_CHECK(!l.narrative || !l.narrative->empty());  // '' is the column's NULL
            entry_transactions.push_back(h.id);
            line_numbers.push_back(l.line_no);
            entry_gls.push_back(l.gl_account_id);
            entry_accounts.push_back(l.account_id.value_or(""));
            currencies.push_back(l.currency);
            sides.push_back(std::string(1, l.side));
            amounts.push_back(l.amount_minor);
            entry_branches.push_back(h.branch_id);
            entry_channels.push_back(h.channel);
            entry_operators.push_back(h.operator_id);
            narratives.push_back(l.narrative.value_or(""));
        }
        head = ChainHead{record.seq, hash};
    }
    CB_CHECK(head.hash.size() == core::sha256_bytes);

    // The period is held open since check_value_date: the journal's period
    // trigger need not lock it again for this statement's entries.
    std::optional<ledger::EngineHeldPeriod> held_period;
    if (dated.period_locked) held_period.emplace(dated.value_date.substr(0, 7));
    const std::size_t transaction_count = ids.size();
    BalanceMoves moves = balance_moves(all_lines, accounts);
    const std::size_t in_place_count = moves.in_place_ids.size();
    const std::size_t striped_count = moves.striped_ids.size();
    SideTotals gl_totals = side_totals(all_lines, TotalsBy::gl_account);
    const std::size_t gl_count = gl_totals.ids.size();
    SideTotals account_totals = side_totals(all_lines, TotalsBy::customer_account);
    const std::size_t account_total_count = account_totals.ids.size();
    const ledger::EngineDayTotals day_totals(static_cast<std::int64_t>(all_lines.size()));
    std::optional<ledger::EngineCheckedReferences> checked_references;
    if (references_read(all_lines, accounts)) checked_references.emplace(static_cast<std::int64_t>(all_lines.size()));
    // Generic: with arrays as parameters a custom plan always looks cheaper,
    // and PostgreSQL's plan cache would plan the statement anew every time.
    const std::uint64_t rows = spi::execute_generic(
        write_sql,
        {spi::Arg::text_column(std::move(ids)), spi::Arg::text_column(std::move(references)),
         spi::Arg::text_column(std::move(types)), spi::Arg::text_column(std::move(descriptions)),
         spi::Arg::text_column(std::move(branches)), spi::Arg::text_column(std::move(channels)),
         spi::Arg::text_column(std::move(makers)), spi::Arg::text_column(std::move(operators)),
         spi::Arg::text_column(std::move(idempotency_keys)), spi::Arg::text_column(std::move(reverses)),
         spi::Arg::int8_column(std::move(seqs)), spi::Arg::text_column(std::move(prev_hashes)),
         spi::Arg::text(dated.value_date), spi::Arg::int4(stripe), spi::Arg::text_column(std::move(hashes)),
         spi::Arg::int8(head.seq), spi::Arg::bytea(head.hash),
         spi::Arg::text_column(std::move(entry_transactions)), spi::Arg::int8_column(std::move(line_numbers)),
         spi::Arg::text_column(std::move(entry_gls)), spi::Arg::text_column(std::move(entry_accounts)),
         spi::Arg::text_column(std::move(currencies)), spi::Arg::text_column(std::move(sides)),
         spi::Arg::int8_column(std::move(amounts)), spi::Arg::text_column(std::move(entry_branches)),
         spi::Arg::text_column(std::move(entry_channels)), spi::Arg::text_column(std::move(entry_operators)),
         spi::Arg::text_column(std::move(narratives)),
         spi::Arg::uuid_column(std::move(moves.striped_ids)), spi::Arg::int8_column(std::move(moves.striped_credits)),
         spi::Arg::uuid_column(std::move(gl_totals.ids)), spi::Arg::int8_column(std::move(gl_totals.debits)),
         spi::Arg::int8_column(std::move(gl_totals.credits)),
         spi::Arg::uuid_column(std::move(moves.in_place_ids)), spi::Arg::int8_column(std::move(moves.in_place_deltas)),
         spi::Arg::uuid_column(std::move(account_totals.ids)), spi::Arg::int8_column(std::move(account_totals.debits)),
         spi::Arg::int8_column(std::move(account_totals.credits))});
    CB_CHECK(rows == 1);
    CB_CHECK(spi::get_int(0, 1).value() == 1);  // the chain head
    CB_CHECK(spi::get_int(0, 2).value() == static_cast<std::int64_t>(transaction_count));
    CB_CHECK(spi::get_int(0, 3).value() == static_cast<std::int64_t>(all_lines.size()));
    CB_CHECK(spi::get_int(0, 4).value() == static_cast<std::int64_t>(striped_count));
    CB_CHECK(spi::get_int(0, 5).value() == static_cast<std::int64_t>(gl_count));
    CB_CHECK(spi::get_int(0, 6).value() == static_cast<std::int64_t>(in_place_count));
    CB_CHECK(spi::get_int(0, 7).value() == static_cast<std::int64_t>(account_total_count));
    CB_CHECK(spi::get_int(0, 8).value() == static_cast<std::int64_t>(gl_count));
    // The journal's trigger added nothing for these entries: their totals are the statement's.
    CB_CHECK(day_totals.used());
    CB_CHECK(!checked_references || checked_references->used());
}

void post(const Header& header, const std::vector<Line>& lines, const Accounts& accounts, GlRule rule) {
    CB_CHECK(lines.size() >= core::ledger::lines_min && lines.size() <= core::ledger::lines_max);
    std::vector<Line> checked = lines;
    const bool first_posting = check_gl_accounts(checked, rule);
    check_balanced(checked);
    check_branch(header.branch_id);
    const ValueDate dated = check_value_date(header.value_date, true);
    check_limits(checked, accounts);

    // Once per GL account ever: freezes its code and type.
    if (first_posting) mark_first_postings(checked);
    write({Posting{header, std::move(checked)}}, dated, accounts);
}

Datum render_transaction(const std::string& transaction_id) {
    // One statement, assembled in C++ (pg/transaction_render.hpp); equal to
    // transaction_json, which stays the reads' SQL face.
    bool found = false;
    const Datum rendered = render::transaction_response(transaction_id, &found);
    if (!found) fail(sqlstate_not_found, "Transaction not found");
    return rendered;
}

Claim idempotency_claim(const char* scope, const std::string& key, const std::string& request_hash) {
    CB_CHECK(request_hash.size() == core::sha256_bytes);
    // Waits on the unique index while another transaction holds the same
    // key; once it commits, the key is taken and its response readable.
    const std::uint64_t inserted =
        spi::execute(claim_sql, {spi::Arg::text(scope), spi::Arg::text(key), spi::Arg::bytea(request_hash)});
    if (inserted == 1) return Claim{};
    const std::uint64_t rows = spi::execute_generic(stored_sql, {spi::Arg::text(scope), spi::Arg::text(key)});
    CB_CHECK(rows == 1);
    if (spi::get_bytea(0, 1).value() != request_hash) {
        fail(sqlstate_conflict, "idempotencyKey was already used for a different request");
    }
    Claim claim;
    claim.replay = true;
    bool no_copy = false;
    const Datum stored = spi::get_jsonb_for_return(0, 2, &no_copy);
    if (!no_copy) {
        claim.response = stored;  // the key and its response commit together
        return claim;
    }
    const std::optional<std::string> posted_id = spi::get_text(0, 3);
    // No copy kept: the key's posting was answered POSTED at once (the key,
    // its transaction and the transaction's rows commit together).
    CB_CHECK(posted_id.has_value());
    bool found = false;
    claim.response = render::transaction_response_as_posted(*posted_id, &found);
    CB_CHECK(found);
    return claim;
}

Datum idempotency_complete(const char* scope, const std::string& key, const std::string& transaction_id) {
    // The one renderer of a posting's response (pg/transaction_render.hpp).
    return idempotency_store(scope, key, transaction_id, render_transaction(transaction_id));
}

Datum idempotency_record_posted(const char* scope, const std::string& key, const std::string& transaction_id,
                                Datum response) {
    const std::uint64_t rows = spi::execute_generic(
        record_posted_sql, {spi::Arg::text(scope), spi::Arg::text(key), spi::Arg::text(transaction_id)});
    CB_CHECK(rows == 1);  // claimed earlier in this transaction
    return response;
}

Datum idempotency_store(const char* scope, const std::string& key, const std::string& transaction_id,
                        Datum response) {
    const std::uint64_t rows = spi::execute_generic(
        store_sql, {spi::Arg::text(scope), spi::Arg::text(key), spi::Arg::text(transaction_id),
                    spi::Arg::jsonb_datum(response)});
    CB_CHECK(rows == 1);  // claimed earlier in this transaction
    return spi::get_required_jsonb_for_return(0, 1);
}

}  // namespace corebank::pg::posting
