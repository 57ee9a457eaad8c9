// auth_client_admin.cpp: what the administration functions of the identity
// service (sql/auth/auth_client_admin_*, auth_user_suspend, ...) need from
// the extension's library. They are PL/pgSQL; corebank.staff_mfa_roles is a
// setting the library defines when it loads, and a PL/pgSQL function called
// first in a backend would find it undefined (42704). Reading it through a
// C function loads the library first, so the rule always sees the value.
#include "entry/entry.hpp"
#include "pg/check.hpp"
#include "pg/datums.hpp"
#include "pg/spi.hpp"

namespace spi = corebank::pg::spi;

/* SQL function: corebank_internal.auth_client_admin_mfa_roles() returns text */
COREBANK_FUNCTION(auth_client_admin_mfa_roles) {
    spi::connect();
    CB_CHECK(spi::execute("SELECT current_setting('corebank.staff_mfa_roles')", {}) == 1);
    const std::string roles = spi::get_text(0, 1).value_or("");
    spi::finish();
    return corebank::pg::text_datum(roles);
}
