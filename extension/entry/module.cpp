// module.cpp: the corebank module: PG_MODULE_MAGIC and _PG_init.
//
// _PG_init registers the corebank.* settings of the identity contract
// (docs/design/identity-db-api.md): one GUC per row of the settings table
// (core/settings_table.hpp) that the database reads (Side::both), with the
// row's default and range, so the range a typo must stay inside (a zero TTL,
// a negative limit) is the same here as in the tier and in corebank.conf.
// It reserves the prefix so a misspelt corebank.* setting is reported
// instead of silently ignored. It runs inside PostgreSQL with no C++ object
// alive, so it may ereport.
#include <cstring>

#include "core/settings_table.hpp"
#include "pg/check_constraints.hpp"
#include "pg/postgres.hpp"
#include "pg/root_key.hpp"
#include "pg/settings.hpp"

extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace {

namespace table = corebank::core::settings_table;

constexpr std::size_t guc_name_length_max = 63;  // NAMEDATALEN - 1
constexpr std::string_view guc_prefix = "corebank.";
constexpr int text_setting_length_max = 255;

// Every row the database reads is an integer or a text GUC.
constexpr bool database_rows_are_integer_or_text() {
    for (const table::Setting* setting : table::all)
        if (table::read_by_database(setting->side) && setting->kind != table::Kind::integer &&
            setting->kind != table::Kind::text)
            return false;
    return true;
}
static_assert(database_rows_are_integer_or_text());

constexpr bool database_names_fit() {
    for (const table::Setting* setting : table::all)
        if (table::read_by_database(setting->side) && guc_prefix.size() + setting->name.size() > guc_name_length_max)
            return false;
    return true;
}
static_assert(database_names_fit());

/*---- GUC variables ----*/
// One slot per row of table::all, by position; PostgreSQL keeps the address
// of each slot it was given, so the arrays live as long as the process.
int integer_values[table::count];
char* text_values[table::count];

// The value of an integer row the database reads; checked at compile time.
template <const table::Setting& setting>
int integer_value() {
    constexpr std::size_t index = table::index_of(setting);
    static_assert(index < table::count, "the row is not in settings_table::all");
    static_assert(table::read_by_database(setting.side) && setting.kind == table::Kind::integer);
    return integer_values[index];
}

template <const table::Setting& setting>
std::string text_value() {
    constexpr std::size_t index = table::index_of(setting);
    static_assert(index < table::count, "the row is not in settings_table::all");
    static_assert(table::read_by_database(setting.side) && setting.kind == table::Kind::text);
    return text_values[index] != nullptr ? text_values[index] : "";
}

// Text settings end up in every token: non-empty, bounded, printable ASCII.
bool check_token_text(char** new_value, void** /*extra*/, GucSource /*source*/) {
    const char* value = *new_value;
    if (value == nullptr || value[0] == '\0') {
        GUC_check_errdetail("The value must not be empty.");
        return false;
    }
    const std::size_t length = std::strlen(value);
    if (length > static_cast<std::size_t>(text_setting_length_max)) {
        GUC_check_errdetail("The value must be at most %d characters.", text_setting_length_max);
        return false;
    }
    for (std::size_t index = 0; index < length; ++index) {
        const unsigned char c = static_cast<unsigned char>(value[index]);
        if (c < 0x21 || c > 0x7E) {
            GUC_check_errdetail("The value must be printable ASCII without spaces.");
            return false;
        }
    }
    return true;
}

// Registers one row. PostgreSQL copies the name but keeps the description
// and the boot value as given: both point into the table's string literals.
void define_setting(const table::Setting& setting, std::size_t index) {
    char name[guc_name_length_max + 1];
    std::memcpy(name, guc_prefix.data(), guc_prefix.size());
    std::memcpy(name + guc_prefix.size(), setting.name.data(), setting.name.size());
    name[guc_prefix.size() + setting.name.size()] = '\0';
    // A setting that decides security (Side::database) is superuser-only:
    // the app role's sessions, and so the tier's connections, cannot SET it.
    const GucContext context = setting.side == table::Side::database ? PGC_SUSET : PGC_USERSET;
    if (setting.kind == table::Kind::integer) {
        DefineCustomIntVariable(name, setting.description.data(), nullptr, &integer_values[index],
                                setting.default_integer, setting.minimum, setting.maximum, context, 0, nullptr,
                                nullptr, nullptr);
    } else {
        DefineCustomStringVariable(name, setting.description.data(), nullptr, &text_values[index],
                                   setting.default_text.data(), context, 0, check_token_text, nullptr, nullptr);
    }
}

}  // namespace

namespace corebank::settings {

Auth current() {
    return Auth{text_value<table::issuer>(),
                text_value<table::default_audience>(),
                integer_value<table::access_token_ttl_s>(),
                integer_value<table::refresh_token_ttl_s>(),
                integer_value<table::reset_token_ttl_s>(),
                integer_value<table::login_rate_limit>(),
                integer_value<table::login_rate_window_s>(),
                integer_value<table::reset_rate_limit>(),
                integer_value<table::reset_rate_window_s>(),
                integer_value<table::signing_key_rotation_days>()};
}

}  // namespace corebank::settings

void _PG_init(void) {
    for (std::size_t index = 0; index < table::count; ++index)
        if (table::read_by_database(table::all[index]->side)) define_setting(*table::all[index], index);
    corebank::pg::root_key::define_setting();  // corebank.root_key_file, PGC_SIGHUP (pg/root_key.hpp)
    MarkGUCPrefixReserved("corebank");
    corebank::pg::check_constraints::install();  // CHECK constraints planned once per backend
}
