"""Actors for the identity service's admin endpoints (client administration
and suspension, docs/identity.md): staff made by staff-create and signed in
as the endpoints expect, and an admin signed in without a second factor."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402
import corebanking as C  # noqa: E402


def staff_token(*roles):
    """A fresh staff member's access token (admin signs in with a TOTP code)."""
    return C.new_staff(*roles).token


def admin_without_second_factor(api):
    """A registered user given the admin role directly (staff-create would
    enrol TOTP), so its session's amr is ["pwd"]: (user, access token)."""
    user = cb.new_user(api)
    cb.db().execute("UPDATE corebank.auth_users SET roles = '{admin}' WHERE id = %s", (user.id,))
    return user, cb.login_ok(api, user)["accessToken"]


def counts():
    """Rows the admin endpoints write: clients, audit rows, user statuses."""
    return cb.db().one(
        "SELECT (SELECT count(*) FROM corebank.auth_oauth_clients), "
        "(SELECT count(*) FROM corebank.auth_audit WHERE event IN ('client_created', 'client_updated', "
        "'client_secret_rotated', 'client_disabled', 'suspended', 'reinstated')), "
        "(SELECT string_agg(id::text || status, ',' ORDER BY id) FROM corebank.auth_users), "
        "(SELECT string_agg(client_id || status || secret_hash || array_to_string(scopes, ' ') "
        "|| array_to_string(audiences, ' '), ',' ORDER BY client_id) FROM corebank.auth_oauth_clients)")
