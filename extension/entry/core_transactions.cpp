// core_transactions.cpp: manual journals (POST /v1/transactions and its
// post and abandon actions).
//
//   corebank.core_transaction_capture  validates a CreateTransactionRequest,
//       stores it PENDING with its proposed lines (nothing in the journal),
//       and parks transaction.release with the actor as maker;
//   corebank.core_transaction_post     posts a PENDING journal once a checker
//       released it, through the posting engine (period lock, limits,
//       balances, chain); refused while the approval is pending, refused or
//       lapsed;
//   corebank.core_transaction_abandon  cancels a PENDING journal whose
//       approval was refused or lapsed.
// The transaction row is locked (FOR UPDATE) before any decision, then the
// ledger accounts: the same order as a reversal, so the paths never deadlock.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "core/crypto.hpp"
#include "core/ledger.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/parked_changes.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"


namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace posting = corebank::pg::posting;
namespace parked = corebank::pg::parked;
using corebank::pg::ledger::fail;
using core::sqlstate_conflict;
using core::sqlstate_not_found;

constexpr const char idempotency_scope[] = "transaction.capture";

constexpr const char base_currency_sql[] = "SELECT c.base_currency::text FROM corebank.platform_config c";

constexpr const char gl_by_code_sql[] =
    "SELECT g.id::text FROM corebank.gl_accounts g WHERE g.code = $1 AND g.currency = $2::bpchar";

constexpr const char branch_by_code_sql[] = "SELECT b.id::text FROM corebank.branches b WHERE b.code = $1";

// The actor's branch (identity keeps staff branch codes), else head office.
constexpr const char default_branch_sql[] =
    "SELECT coalesce((SELECT b.id FROM corebank.branches b "
    "                 JOIN corebank.auth_users u ON u.branch_code = b.code WHERE u.id = $1::uuid), "
    "                (SELECT b.id FROM corebank.branches b WHERE b.is_head_office))::text";

constexpr const char next_reference_sql[] = "SELECT corebank.next_number('TRANSACTION')";

constexpr const char insert_pending_sql[] =
    "INSERT INTO corebank.transactions (id, reference, type, status, description, value_date, branch_id, channel, "
    "    maker_id, operator_id, idempotency_key, released) "
    "VALUES ($1::uuid, $2, $3, 'PENDING', $4, $5::date, $6::uuid, $7, $8::uuid, $8::uuid, $9, false)";

constexpr const char insert_proposed_sql[] =
    "INSERT INTO corebank.transaction_lines_proposed (transaction_id, line_no, gl_account_id, ledger_account_id, "
    "    currency, side, amount_minor, narrative) "
    "SELECT $1::uuid, l.line_no, l.gl, l.account, l.currency, l.side, l.amount, l.narrative "
    "FROM jsonb_to_recordset($2) "
    "     AS l(line_no smallint, gl uuid, account uuid, currency text, side text, amount bigint, narrative text)";

constexpr const char attach_approval_sql[] =
    "UPDATE corebank.transactions SET parked_change_id = $2::uuid WHERE id = $1::uuid";

constexpr const char lock_transaction_sql[] =
    "SELECT t.status, t.released, corebank_internal.change_status(p.status, p.expires_at), t.type, t.reference, "
    "       t.description, to_char(t.value_date, 'YYYY-MM-DD'), t.branch_id::text, t.channel, t.maker_id::text, "
    "       t.idempotency_key, (extract(epoch FROM t.created_at) * 1000000)::bigint, p.id::text, p.status "
    "FROM corebank.transactions t LEFT JOIN corebank.parked_changes p ON p.id = t.parked_change_id "
    "WHERE t.id = $1::uuid FOR UPDATE OF t";

constexpr const char proposed_lines_sql[] =
    "SELECT l.line_no, l.gl_account_id::text, l.ledger_account_id::text, l.currency::text, l.side, l.amount_minor, "
    "       l.narrative "
    "FROM corebank.transaction_lines_proposed l WHERE l.transaction_id = $1::uuid ORDER BY l.line_no";

constexpr const char store_lapse_sql[] =
    "UPDATE corebank.parked_changes SET status = 'LAPSED', decided_at = now() "
    "WHERE id = $1::uuid AND status = 'PENDING'";

constexpr const char cancel_sql[] =
    "UPDATE corebank.transactions SET status = 'CANCELLED' WHERE id = $1::uuid AND status = 'PENDING'";

std::string uuid_argument(FunctionCallInfo fcinfo, int index, const char* name) {
    return pg::uuid_to_string(args::require(args::uuid(fcinfo, index), name));
}

std::string single_text(const char* sql, std::initializer_list<spi::Arg> arguments) {
    const std::uint64_t rows = spi::execute(sql, arguments);
    CB_CHECK(rows == 1);
    return spi::get_text(0, 1).value();
}

/*---- capture ----*/

std::string resolve_branch(const core::ledger::Request& request, const std::string& actor) {
    if (request.branch_id) return *request.branch_id;
    if (request.branch_code) {
        if (spi::execute(branch_by_code_sql, {spi::Arg::text(request.branch_code)}) == 0) {
            fail(sqlstate_not_found, "branchCode: branch not found");
        }
        return spi::get_text(0, 1).value();
    }
    return single_text(default_branch_sql, {spi::Arg::text(actor)});
}

// Lines by GL account id, GL account code (+ currency) or customer account.
std::vector<posting::Line> resolve_lines(const core::ledger::Request& request) {
    const std::string default_currency = request.currency.value_or(single_text(base_currency_sql, {}));
    std::vector<posting::Line> lines;
    for (std::size_t index = 0; index < request.lines.size(); ++index) {
        const core::ledger::Line& line = request.lines[index];
        posting::Line item;
        item.line_no = static_cast<std::int64_t>(index) + 1;
        item.field = request.lines_field + "[" + std::to_string(index) + "]";
        item.account_id = line.account_id;
        item.currency = line.currency.value_or("");
        item.side = static_cast<char>(line.side);
        item.amount_minor = line.amount_minor;
        item.narrative = line.narrative;
        item.gl_account_id = line.gl_account_id.value_or("");
        if (line.gl_account_code) {
            const std::string currency = line.currency.value_or(default_currency);
            if (spi::execute(gl_by_code_sql, {spi::Arg::text(line.gl_account_code), spi::Arg::text(currency)}) == 0) {
                fail(sqlstate_not_found, item.field + ".glAccountCode: no GL account " +
                                             *line.gl_account_code + " in " + currency);
            }
            item.gl_account_id = spi::get_text(0, 1).value();
            item.currency = currency;
        }
        lines.push_back(std::move(item));
    }
    return lines;
}

std::string lines_json(const std::vector<posting::Line>& lines) {
    nlohmann::json rows = nlohmann::json::array();
    for (const posting::Line& line : lines) {
        nlohmann::json row = {{"line_no", line.line_no}, {"gl", line.gl_account_id}, {"currency", line.currency},
                              {"side", std::string(1, line.side)}, {"amount", line.amount_minor}};
        row["account"] = line.account_id ? nlohmann::json(*line.account_id) : nlohmann::json(nullptr);
        row["narrative"] = line.narrative ? nlohmann::json(*line.narrative) : nlohmann::json(nullptr);
        rows.push_back(std::move(row));
    }
    return rows.dump();
}

// Validates like a posting would (except limits and locks, which are the
// posting's), then stores the PENDING journal and parks its release.
std::string capture(const core::ledger::Request& request, const std::string& actor) {
    const std::string id = pg::ledger::random_uuid();
    const std::string branch_id = resolve_branch(request, actor);
    std::vector<posting::Line> lines = resolve_lines(request);
    const posting::Accounts accounts = posting::load_accounts(lines, false);
    posting::bind_accounts(lines, accounts);
    posting::check_gl_accounts(lines, posting::GlRule::manual);
    posting::check_balanced(lines);
    posting::check_branch(branch_id);
    const std::string value_date = posting::check_value_date(request.value_date, false).value_date;
    const std::string reference = request.reference.value_or(single_text(next_reference_sql, {}));

    spi::execute(insert_pending_sql,
                 {spi::Arg::text(id), spi::Arg::text(reference), spi::Arg::text(request.type),
                  spi::Arg::text(request.description), spi::Arg::text(value_date), spi::Arg::text(branch_id),
                  spi::Arg::text(request.channel), spi::Arg::text(actor), spi::Arg::text(request.idempotency_key)});
    const std::uint64_t inserted = spi::execute(insert_proposed_sql, {spi::Arg::text(id), spi::Arg::jsonb(lines_json(lines))});
    CB_CHECK(inserted == lines.size());

    parked::NewChange change{"transaction.release", "transaction", id, "{}",
                             "Post manual " + *request.type + " journal " + reference + " (" +
                                 std::to_string(lines.size()) + " lines)",
                             actor};
    const std::string change_id = parked::create(change);
    spi::execute(attach_approval_sql, {spi::Arg::text(id), spi::Arg::text(change_id)});
    return id;
}

/*---- post and abandon ----*/

struct Pending {
    std::string status;
    bool released = false;
    std::optional<std::string> approval_status;  // effective (LAPSED when overdue)
    std::optional<std::string> change_id;
    std::optional<std::string> stored_change_status;
    posting::Header header;
};

Pending lock_pending(const std::string& id) {
    if (spi::execute(lock_transaction_sql, {spi::Arg::text(id)}) == 0) fail(sqlstate_not_found, "Transaction not found");
    Pending pending;
    pending.status = spi::get_text(0, 1).value();
    pending.released = spi::get_bool(0, 2).value();
    pending.approval_status = spi::get_text(0, 3);
    pending.change_id = spi::get_text(0, 13);
    pending.stored_change_status = spi::get_text(0, 14);
    posting::Header& header = pending.header;
    header.id = id;
    header.type = spi::get_text(0, 4).value();
    header.reference = spi::get_text(0, 5).value();
    header.description = spi::get_text(0, 6);
    header.value_date = spi::get_text(0, 7);
    header.branch_id = spi::get_text(0, 8).value();
    header.channel = spi::get_text(0, 9).value();
    header.maker_id = spi::get_text(0, 10);
    header.idempotency_key = spi::get_text(0, 11);
    header.created_at_us = spi::get_int(0, 12).value();
    return pending;
}

void require_postable(const Pending& pending) {
    if (pending.status == "POSTED" || pending.status == "REVERSED") {
        fail(sqlstate_conflict, "transaction is already posted");
    }
    if (pending.status == "CANCELLED") fail(sqlstate_conflict, "transaction was abandoned");
    if (pending.released) return;
    if (pending.approval_status == std::optional<std::string>("PENDING")) {
        fail(sqlstate_conflict, "transaction is still awaiting approval");
    }
    fail(sqlstate_conflict, "approval was refused or lapsed; abandon the journal");
}

std::vector<posting::Line> proposed_lines(const std::string& id) {
    const std::uint64_t rows = spi::execute(proposed_lines_sql, {spi::Arg::text(id)});
    CB_CHECK(rows >= core::ledger::lines_min && rows <= core::ledger::lines_max);
    return posting::lines_from_result(rows);
}

}  // namespace

/* SQL function: corebank.core_transaction_capture(request jsonb, actor uuid) returns jsonb */
COREBANK_FUNCTION(core_transaction_capture) {
    const std::string request_text = args::require(args::jsonb_text(fcinfo, 0), "request");
    const std::string actor = uuid_argument(fcinfo, 1, "actor");
    const core::ledger::Request request =
        core::ledger::parse_request(request_text, core::ledger::Dialect::manual_journal);

    spi::connect();
    if (request.idempotency_key) {
        // The actor is part of the request: a key reused by someone else is
        // another request.
        const std::string hash = core::sha256(std::string(idempotency_scope) + "\n" + actor + "\n" + request_text);
        const posting::Claim claim = posting::idempotency_claim(idempotency_scope, *request.idempotency_key, hash);
        if (claim.replay) {
            spi::finish();
            PG_RETURN_DATUM(claim.response);
        }
    }
    const std::string id = capture(request, actor);
    const Datum response = request.idempotency_key
                               ? posting::idempotency_complete(idempotency_scope, *request.idempotency_key, id)
                               : posting::render_transaction(id);
    spi::finish();
    PG_RETURN_DATUM(response);
}

/* SQL function: corebank.core_transaction_post(id uuid, actor uuid) returns jsonb */
COREBANK_FUNCTION(core_transaction_post) {
    const std::string id = uuid_argument(fcinfo, 0, "id");
    const std::string actor = uuid_argument(fcinfo, 1, "actor");

    spi::connect();
    Pending pending = lock_pending(id);
    require_postable(pending);
    pending.header.operator_id = actor;
    std::vector<posting::Line> lines = proposed_lines(id);
    const posting::Accounts accounts = posting::load_accounts(lines, true);
    posting::bind_accounts(lines, accounts);
    posting::post(pending.header, lines, accounts, posting::GlRule::manual);
    const Datum response = posting::render_transaction(id);
    spi::finish();
    PG_RETURN_DATUM(response);
}

/* SQL function: corebank.core_transaction_abandon(id uuid, actor uuid) returns jsonb */
COREBANK_FUNCTION(core_transaction_abandon) {
    const std::string id = uuid_argument(fcinfo, 0, "id");
    uuid_argument(fcinfo, 1, "actor");  // required: the tier always names who acts

    spi::connect();
    const Pending pending = lock_pending(id);
    const bool refused = pending.approval_status == std::optional<std::string>("REJECTED") ||
                         pending.approval_status == std::optional<std::string>("LAPSED");
    if (pending.status != "PENDING" || pending.released || !refused) {
        fail(sqlstate_conflict, "only a captured journal whose approval was refused or lapsed can be abandoned");
    }
    // An overdue approval is stored LAPSED now (this call does not raise).
    if (pending.stored_change_status == std::optional<std::string>("PENDING")) {
        spi::execute(store_lapse_sql, {spi::Arg::text(pending.change_id)});
    }
    CB_CHECK(spi::execute(cancel_sql, {spi::Arg::text(id)}) == 1);
    const Datum response = posting::render_transaction(id);
    spi::finish();
    PG_RETURN_DATUM(response);
}
