// posting_group.cpp: see posting_group.hpp.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "pg/posting_group.hpp"

#include <map>
#include <set>
#include <utility>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/ledger.hpp"
#include "core/money_request.hpp"
#include "core/posting_rules.hpp"
#include "core/transfer_batch.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/money_posting.hpp"
#include "pg/spi.hpp"
#include "pg/transaction_render.hpp"
#include "pg/transfer_decider.hpp"

namespace corebank::pg::posting_group {

namespace {

using core::transfer_batch::Transfer;
using nlohmann::json;
namespace mr = core::money_request;
namespace rules = core::posting_rules;
namespace td = transfer_decider;

// The single path's scope (pg/money_posting.hpp): a key claimed here replays there and back.
using money::idempotency_scope;

// Claims the keys not held by anyone (a concurrent holder is waited for, as
// the single path's claim waits) with the id each request's transaction will
// have, so the key needs no second write once posted; returns the keys this
// call now holds. In key order: two groups claiming the same keys wait for
// each other in one order and never deadlock (a single posting claims one
// key). The key's foreign key to transactions is checked at commit (1.8:
// DEFERRABLE INITIALLY DEFERRED), by when the transaction is written or the
// claim taken back.
constexpr const char claim_keys_sql[] =
    "INSERT INTO corebank.idempotency_keys (scope, key, request_hash, transaction_id) "
    "SELECT $1, k.key, decode(k.hash, 'hex'), k.id::uuid "
    "FROM unnest($2::text[], $3::text[], $4::text[]) AS k(key, hash, id) ORDER BY k.key "
    "ON CONFLICT DO NOTHING RETURNING key";

// Takes back the claims of keys whose requests this call did not post.
constexpr const char release_keys_sql[] =
    "DELETE FROM corebank.idempotency_keys k WHERE k.scope = $1 AND k.key = ANY ($2::text[]) "
    "AND k.transaction_id = ANY ($3::uuid[])";

// One request of the group as the single path reads it: its members, or why
// it goes alone.
struct Request {
    Transfer transfer;
    td::Origin origin;
    std::optional<std::string> key;
    bool claimed = false;            // this call holds the key's claim
    std::string request_hash;        // of the single path, binary
    std::optional<std::string> alone;  // set: answered ALONE with this reason
    std::optional<td::Posted> posted;
    std::string response;            // posted: the TransactionResponse's JSON text
};

[[noreturn]] void malformed(const std::string& message) { ledger::fail(core::sqlstate_validation, message); }

bool given(const mr::Member& member) {
    return member.kind != mr::Member::Kind::absent && member.kind != mr::Member::Kind::null;
}

// The members of a transfer, read with the single path's readers and limits.
// Throws CoreError for a fault (the request then goes alone, where the
// single path names the fault in its own order).
void read_transfer(const JsonbArgument& body, Request& request) {
    // Only the single path resolves a named branch and checks a value date
    // against the calendar and periods.
    for (const char* member : {"valueDate", "branchId", "branchCode"}) {
        if (given(body.member(member))) throw core::CoreError(core::sqlstate_validation, std::string(member) + " given");
    }
    Transfer& t = request.transfer;
    t.amount_minor = mr::positive_amount(body.member("amountMinor"), body.member("amount"));
    const std::optional<std::string> from = mr::uuid(body.member("fromAccountId"), "fromAccountId");
    const std::optional<std::string> to = mr::uuid(body.member("toAccountId"), "toAccountId");
    if (!from || !to) throw core::CoreError(core::sqlstate_validation, "an account is missing");
    rules::require(rules::distinct_accounts(*from, *to));
    t.from_account_id = *from;
    t.to_account_id = *to;
    t.narrative = mr::trimmed(body.member("narrative"), "narrative", mr::transfer_narrative_length_max);
    const std::optional<std::string> currency = mr::trimmed(body.member("currency"), "currency", mr::currency_length_max);
    if (currency) t.currency = core::ledger::upper_ascii(*currency);
    t.reference = mr::trimmed(body.member("reference"), "reference", mr::reference_length_max);
    // The ledger's own bound, which the single path applies after reading.
    if (t.reference && t.reference->size() > core::ledger::reference_length_max) {
        throw core::CoreError(core::sqlstate_validation, "reference longer than the ledger takes");
    }
    request.origin.channel = mr::channel(body.member("channel"));
    request.origin.description = mr::trimmed(body.member("description"), "description", mr::description_length_max);
    request.key = mr::text(body.member("idempotencyKey"), "idempotencyKey", mr::idempotency_key_length_max);
    if (request.key) request.request_hash = money::request_hash(money::Operation::transfer, body);
}

// The envelope {"operation": ..., "request": {...}} of requests[index].
Request read_request(const JsonbArgument& element, std::size_t index, const std::optional<std::string>& actor) {
    const std::string name = "requests[" + std::to_string(index) + "]";
    if (element.absent() || !element.is_object()) malformed(name + ": must be an object {operation, request}");
    const std::optional<std::string> operation = mr::text(element.member("operation"), name + ".operation", 20);
    if (!operation || !money::operation_named(*operation)) {
        malformed(name + ".operation: must be deposit, withdrawal, transfer or fee");
    }
    const JsonbArgument body = element.value("request");
    if (body.absent() || !body.is_object()) malformed(name + ".request: must be a JSON object");
    if (!actor) malformed("actors[" + std::to_string(index) + "]: is required");

    Request request;
    request.origin.actor_id = *actor;
    if (*operation != "transfer") {
        request.alone = "only transfers are decided in a group";
        return request;
    }
    try {
        read_transfer(body, request);
    } catch (const core::CoreError& error) {
        request.alone = std::string("posted alone: ") + error.what();
    }
    return request;
}

// Claims the keys of the requests still in the group; a key repeated in the
// group, or held by an earlier request, sends its request alone (the single
// path then replays the stored response or refuses another request).
void claim_keys(std::vector<Request>& requests) {
    struct Claim {
        std::string hash;  // hex
        std::string transaction_id;
    };
    std::map<std::string, Claim> claims;  // by key, in key order (the claim order)
    for (Request& r : requests) {
        if (r.alone || !r.key) continue;
        if (!claims.emplace(*r.key, Claim{core::hex_encode(r.request_hash), ledger::random_uuid()}).second) {
            r.alone = "idempotencyKey repeated in the group";
        }
    }
    if (claims.empty()) return;
    std::vector<std::string> keys, hashes, ids;
    for (const auto& [key, claim] : claims) {
        keys.push_back(key);
        hashes.push_back(claim.hash);
        ids.push_back(claim.transaction_id);
    }
    const std::uint64_t rows = spi::execute_generic(
        claim_keys_sql, {spi::Arg::text(idempotency_scope), spi::Arg::text_column(keys), spi::Arg::text_column(hashes),
                         spi::Arg::text_column(ids)});
    std::set<std::string> claimed;
    for (std::uint64_t row = 0; row < rows; ++row) claimed.insert(spi::get_text(row, 1).value());
    for (Request& r : requests) {
        if (r.alone || !r.key) continue;
        r.claimed = claimed.count(*r.key) == 1;
        if (r.claimed) {
            r.origin.transaction_id = claims.at(*r.key).transaction_id;
        } else {
            r.alone = "idempotencyKey already claimed";
        }
    }
}

// The accounts of the group, locked as a single posting locks them: debited
// by any request FOR NO KEY UPDATE, only credited shared when held
// (posting::load_accounts), with their deposit facts.
td::AccountStates load_accounts(const std::vector<Request>& requests, posting::Accounts& locked) {
    std::map<std::string, rules::Direction> directions;  // debit when any request debits the account
    for (const Request& r : requests) {
        if (r.alone) continue;
        directions[r.transfer.from_account_id] = rules::Direction::debit;
        directions.emplace(r.transfer.to_account_id, rules::Direction::credit);
    }
    locked = posting::lock_accounts(directions);
    td::AccountStates accounts;
    std::set<std::string> ids;
    for (const auto& [id, account] : locked) {
        accounts[id].ledger = account;
        ids.insert(id);
    }
    td::read_deposit_facts(ids, accounts);
    return accounts;
}

// The acting staff members' branches, read once per actor.
std::map<std::string, std::optional<std::string>> actor_branches(const std::vector<Request>& requests) {
    std::map<std::string, std::optional<std::string>> branches;
    for (const Request& r : requests) {
        if (r.alone || branches.count(r.origin.actor_id) != 0) continue;
        branches[r.origin.actor_id] = ledger::actor_branch(r.origin.actor_id);
    }
    return branches;
}

std::string jsonb_datum_text(Datum datum) {
    Jsonb* const jsonb = pg_guard([&]() noexcept { return DatumGetJsonbP(datum); });
    return JsonbArgument(jsonb).text();
}

// The response of a transfer this call wrote, from what the group holds: the
// TransactionResponse transaction_json would read back (pgTAP
// posting_group.sql holds them equal), with no statement.
render::TransactionView response_view(const td::Posted& p, const posting::ChainLink& link,
                                      const td::AccountStates& accounts, const td::GlStates& gls,
                                      const td::BranchStates& branches, const posting::ValueDate& dated) {
    const posting::Header& h = p.header;
    render::TransactionView view;
    view.id = h.id;
    view.reference = h.reference;
    view.type = h.type;
    view.status = "POSTED";
    view.description = h.description;
    view.value_date = dated.value_date;
    view.branch_id = h.branch_id;
    view.branch_code = branches.at(h.branch_id).code;
    view.channel = h.channel;
    view.maker_id = h.maker_id.value_or(h.operator_id);
    view.operator_id = h.operator_id;
    view.released = true;
    view.hash = link.hash;
    view.chain_stripe = link.stripe;
    view.chain_seq = link.seq;
    // created_at and posted_at are now(), the timestamp the chain hashed.
    view.created_at = render::iso_utc(dated.now_us);
    view.posted_at = view.created_at;
    for (const posting::Line& l : p.lines) {
        const td::GlState& gl = gls.at(l.gl_account_id);
        render::LineView line;
        line.line_no = l.line_no;
        line.gl_account_id = l.gl_account_id;
        line.gl_account_code = gl.facts.code;
        line.gl_account_name = gl.name;
        line.account_id = l.account_id;
        if (l.account_id) line.account_number = accounts.at(*l.account_id).ledger.account_number;
        line.currency = l.currency;
        line.minor_units = gl.minor_units;
        line.side = l.side;
        line.amount_minor = l.amount_minor;
        line.narrative = l.narrative;
        view.lines.push_back(std::move(line));
    }
    return view;
}

// Decides and writes the requests still in the group; those refused go alone.
void post_group(std::vector<Request>& requests) {
    posting::Accounts locked;
    td::AccountStates accounts = load_accounts(requests, locked);
    // A request may credit an account another posting holds (credited through a
    // stripe, its row shared): only an ACTIVE one takes such a credit here, since
    // reactivating a DORMANT one rewrites the row.
    for (Request& r : requests) {
        if (r.alone) continue;
        const auto target = locked.find(r.transfer.to_account_id);
        if (target != locked.end() && target->second.credit_stripe && target->second.status != "ACTIVE") {
            r.alone = "credit to a held account that is not ACTIVE";
        }
    }
    // The business date's period, FOR SHARE; closed: every request goes alone (and is refused there).
    std::optional<posting::ValueDate> dated;
    try {
        dated = posting::check_value_date(std::nullopt, true);
    } catch (const core::CoreError& error) {
        for (Request& r : requests) {
            if (!r.alone) r.alone = std::string("posted alone: ") + error.what();
        }
        return;
    }
    const td::GlStates gls = td::read_gl_accounts(accounts);
    const std::map<std::string, std::optional<std::string>> actors = actor_branches(requests);
    std::set<std::string> branch_ids;
    for (const auto& entry : actors) {
        if (entry.second) branch_ids.insert(*entry.second);
    }
    for (const auto& entry : accounts) {
        if (entry.second.deposit) branch_ids.insert(entry.second.branch_id);
    }
    const td::BranchStates branches = td::read_branches(branch_ids);

    td::Decider decider(accounts, gls, branches);
    std::vector<td::Posted> posted;
    for (std::size_t index = 0; index < requests.size(); ++index) {
        Request& r = requests[index];
        if (r.alone) continue;
        r.origin.actor_branch = actors.at(r.origin.actor_id);
        decider.begin_chain();
        try {
            posted.push_back(decider.decide(r.transfer, index, r.origin));
        } catch (const core::CoreError& error) {
            r.alone = std::string("posted alone: ") + error.what();
        }
    }
    if (posted.empty()) return;
    std::vector<posting::ChainLink> links;
    td::write(posted, accounts, gls, *dated, locked, &links);
    CB_CHECK(links.size() == posted.size());
    for (std::size_t n = 0; n < posted.size(); ++n) {
        Request& r = requests[posted[n].index];
        r.response = jsonb_datum_text(
            render::transaction_response_of(response_view(posted[n], links[n], accounts, gls, branches, *dated)));
        r.posted = std::move(posted[n]);
    }
}

}  // namespace

std::vector<Answer> run(const JsonbArgument& requests_json, const std::vector<std::optional<std::string>>& actors) {
    if (requests_json.absent() || !requests_json.is_array() || requests_json.array_size() == 0 ||
        requests_json.array_size() > requests_max) {
        malformed("requests: must be a JSON array of 1 to " + std::to_string(requests_max) + " postings");
    }
    const std::size_t count = requests_json.array_size();
    if (actors.size() != count) malformed("actors: must name one actor per request");

    std::vector<Request> requests;
    requests.reserve(count);
    for (std::size_t index = 0; index < count; ++index) {
        requests.push_back(read_request(requests_json.element(index), index, actors[index]));
    }
    claim_keys(requests);
    post_group(requests);

    // The claims of the requests that go alone are taken back: the single
    // path claims them again in its own transaction.
    // A posted request's key already names its transaction (claim_keys):
    // a replay renders the transaction as posted, the answer given here.
    std::vector<std::string> released, released_ids;
    for (const Request& r : requests) {
        if (!r.claimed) continue;
        CB_CHECK(r.origin.transaction_id.has_value());
        if (r.posted) {
            CB_CHECK(r.posted->header.id == *r.origin.transaction_id);
            continue;
        }
        released.push_back(*r.key);
        released_ids.push_back(*r.origin.transaction_id);
    }
    if (!released.empty()) {
        const std::uint64_t deleted = spi::execute_generic(
            release_keys_sql, {spi::Arg::text(idempotency_scope), spi::Arg::text_column(released),
                               spi::Arg::uuid_column(released_ids)});
        CB_CHECK(deleted == released.size());
    }

    std::vector<Answer> answers(count);
    for (std::size_t index = 0; index < count; ++index) {
        const Request& r = requests[index];
        Answer& answer = answers[index];
        if (!r.posted) {
            CB_CHECK(r.alone.has_value());
            // A reason may quote a request's bytes: invalid UTF-8 replaced, as
            // JSON text (core_postings) and a text column (core_postings_rows) need.
            answer.reason = json::parse(json(*r.alone).dump(-1, ' ', false, json::error_handler_t::replace))
                                .get<std::string>();
            continue;
        }
        CB_CHECK(!r.alone.has_value() && !r.response.empty());
        answer.posted = true;
        answer.response = r.response;
    }
    return answers;
}

std::string answers_json(const std::vector<Answer>& answers) {
    std::string out = "[";
    for (std::size_t index = 0; index < answers.size(); ++index) {
        const Answer& answer = answers[index];
        if (index > 0) out += ", ";
        if (!answer.posted) {
            out += json{{"status", "ALONE"}, {"reason", answer.reason}}.dump();
            continue;
        }
        CB_CHECK(!answer.response.empty());
        out += "{\"status\": \"POSTED\", \"response\": " + answer.response + "}";
    }
    out += "]";
    return out;
}

}  // namespace corebank::pg::posting_group
