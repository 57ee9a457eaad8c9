"""The domain folder of an object that has none yet (docs/design/sql-layout.md).

An object already under sql/<domain>/ stays where it is: the folder, not
this rule, is the record. The rule decides only where a new object goes, in
this order:
  1. SHARED: helpers every domain calls (errors, the append-only trigger,
     the money domain amount_minor, JSON request members, paging, time and
     money text, the role policy) are `platform`, and so are the named
     limits (limit_*) and the record of institution data migrations
     (data_migration*).
  2. PREFIXES: the longest matching name prefix.
  3. RELEASES: the domain that the release introducing the object built
     (1.0 identity, 1.1 ledger, 1.2 events, 1.3 verify, 1.4 deposits).
A new object that none of these place is refused: name its domain with
`split --domain NAME=DOMAIN`, or add a prefix here.
"""

DOMAINS = ("auth", "ledger", "deposits", "events", "verify", "platform", "operations", "staff")

SHARED = frozenset({
    "fail", "refuse_change", "amount_minor", "policy_load", "role_scopes", "iso_utc", "amount_text", "require_actor",
    "require_object",
    "page_json", "page_bounds", "patch_text", "patch_object", "system_actor",
    "json_text", "json_bool", "json_int", "json_date", "json_amount_minor", "json_uuid", "json_enum",
    "json_trimmed", "json_country", "json_positive_amount", "json_member", "json_string",
    "required_id", "found_or_404",
})

# The longest matching prefix wins.
PREFIXES = (
    ("auth_", "auth"),
    ("data_migration", "platform"),
    ("limit_", "platform"),
    ("events_", "events"),
    ("verify_", "verify"),
    ("ledger_", "ledger"),
    ("gl_", "ledger"),
    ("journal_", "ledger"),
    ("trial_balance", "ledger"),
    ("parked_change", "ledger"),
    ("transaction_", "ledger"),
    ("numbering_", "ledger"),
    ("next_number", "ledger"),
    ("core_transaction_", "ledger"),
    ("core_approval", "ledger"),
    ("core_period", "ledger"),
    ("core_numbering", "ledger"),
    ("core_api_key", "ledger"),
    ("core_authorize", "ledger"),
    ("core_platform_", "ledger"),
    ("branch_scoping", "ledger"),
    ("core_branch", "ledger"),
    ("core_gl_", "ledger"),
    ("core_maintenance", "ledger"),
    ("eod_", "operations"),
    ("core_jobs", "operations"),
    ("staff_", "staff"),
    ("core_staff_", "staff"),
    ("core_customers_", "deposits"),
    ("customer_", "deposits"),
    ("kyc_", "deposits"),
    ("beneficial_owner", "deposits"),
    ("core_accounts_", "deposits"),
    ("deposit_", "deposits"),
    ("core_deposit", "deposits"),
    ("core_withdraw", "deposits"),
    ("core_transfer", "deposits"),
    ("core_fee", "deposits"),
    ("money_", "deposits"),
    ("interest_", "deposits"),
    ("core_interest", "deposits"),
    ("fx_", "deposits"),
    ("core_fx_", "deposits"),
    ("passbook", "deposits"),
    ("core_passbook", "deposits"),
    ("standing_order", "deposits"),
    ("core_standing_orders", "deposits"),
)

RELEASES = {"1.0": "auth", "1.1": "ledger", "1.2": "events", "1.3": "verify", "1.4": "deposits"}


def domain_of(name: str, version: str, overrides: dict[str, str]) -> str | None:
    """The domain of a new object named `name` first defined by release `version`."""
    if name in overrides:
        return overrides[name]
    if name in SHARED:
        return "platform"
    matches = [(len(prefix), domain) for prefix, domain in PREFIXES if name.startswith(prefix)]
    if matches:
        return max(matches)[1]
    return RELEASES.get(version)
