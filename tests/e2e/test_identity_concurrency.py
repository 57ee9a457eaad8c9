"""Concurrency: the identity rules hold when requests for one account arrive together.

docs/identity.md says every rule is decided in the database so that any number
of corebankd workers agree. Each test fires requests at the same instant from
separate threads and connections (a barrier releases them together), then
checks the outcome counts and the database rows.
"""

import collections
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


def statuses(responses):
    return collections.Counter(r.status for r in responses)


class ConcurrencyTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def parallel(self, count, call):
        """Run call(api) count times at once, each with its own connection; return the responses."""
        return cb.run_parallel([lambda: call(cb.Identity()) for _ in range(count)])

    def test_parallel_wrong_passwords_lock_account(self):
        """10 simultaneous wrong passwords: exactly 5 count as failures (401), the rest find the lock (403)."""
        user = cb.new_user(self.api)
        responses = self.parallel(10, lambda api: api.login(
            {"email": user.email, "password": "Wrong-" + cb.unique_password()}))
        for resp in responses:
            if resp.status == 401:
                cb.assert_error(resp, 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)
            else:
                cb.assert_error(resp, 403, "ACCOUNT_LOCKED")
        self.assertEqual(statuses(responses)[401], cb.LOCKOUT_FAILURES, statuses(responses))
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        self.assertTrue(cb.db().scalar("SELECT locked_until > now() FROM corebank.auth_users WHERE id = %s",
                                       (user.id,)))

    def test_parallel_logins_keep_session_cap(self):
        """8 simultaneous correct logins all succeed and leave exactly 3 live sessions."""
        user = cb.new_user(self.api)
        responses = self.parallel(8, lambda api: api.login(user.login_body()))
        self.assertEqual(statuses(responses), {200: 8}, responses)
        self.assertEqual(cb.db().live_sessions(user.id), cb.SESSIONS_MAX)
        tokens = [user.access] + [r.json["accessToken"] for r in responses]
        self.assertEqual(sum(self.api.is_live(t) for t in tokens), cb.SESSIONS_MAX)

    def test_parallel_refresh_has_one_winner(self):
        """6 simultaneous refreshes with one token: exactly one 200; the rest are replays (401) that revoke all."""
        user = cb.new_user(self.api)
        responses = self.parallel(6, lambda api: api.refresh(user.refresh))
        self.assertEqual(statuses(responses), {200: 1, 401: 5}, responses)
        for resp in responses:
            if resp.status == 401:
                cb.assert_error(resp, 401, "INVALID_CREDENTIALS")
        winner = [r for r in responses if r.status == 200][0].json
        # The losers were replays of a used token, so every session of the user is revoked.
        self.assertEqual(cb.db().live_sessions(user.id), 0)
        self.assertFalse(self.api.is_live(winner["accessToken"]))

    def test_parallel_registrations_of_one_email(self):
        """6 simultaneous registrations of one email: exactly one 201, five 409 CONFLICT, one row."""
        address = cb.unique_email()
        responses = self.parallel(6, lambda api: api.register(
            {"email": address, "password": cb.unique_password()}))
        self.assertEqual(statuses(responses), {201: 1, 409: 5}, responses)
        for resp in responses:
            if resp.status == 409:
                cb.assert_error(resp, 409, "CONFLICT")
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_users WHERE email = %s",
                                        (address,)), 1)

    def test_parallel_registrations_of_one_phone(self):
        """Simultaneous registrations of one phone, with and without '+': one 201, the rest 409."""
        digits = cb.unique_phone(plus=False)
        variants = ["+" + digits, digits] * 3
        responses = cb.run_parallel([
            (lambda phone: lambda: cb.Identity().register({"phone": phone, "password": cb.unique_password()}))(p)
            for p in variants])
        self.assertEqual(statuses(responses), {201: 1, 409: 5}, responses)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_users WHERE phone_key = %s",
                                        (digits,)), 1)

    def test_parallel_independent_registrations(self):
        """10 simultaneous registrations of different users all succeed with distinct ids."""
        responses = self.parallel(10, lambda api: api.register(
            {"email": cb.unique_email(), "password": cb.unique_password()}))
        self.assertEqual(statuses(responses), {201: 10}, responses)
        self.assertEqual(len({r.json["user"]["id"] for r in responses}), 10)

    def test_parallel_resets_with_one_token(self):
        """5 simultaneous resets with one mailed token: exactly one succeeds, and its password is the one set."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.forgot(user.email), 200, cb.MSG_FORGOT)
        links = cb.reset_links(cb.wait_for_mails(user.email)[0])
        self.assertEqual(len(links), 1)
        token = links[0][1]
        passwords = [cb.unique_password() for _ in range(5)]
        responses = cb.run_parallel([
            (lambda pw: lambda: cb.Identity().reset(token, pw))(p) for p in passwords])
        self.assertEqual(statuses(responses), {200: 1, 400: 4}, responses)
        for resp in responses:
            if resp.status == 400:
                cb.assert_error(resp, 400, "BAD_REQUEST", cb.MSG_RESET_TOKEN_BAD)
        winner = passwords[[r.status for r in responses].index(200)]
        for password in passwords:
            resp = self.api.login({"email": user.email, "password": password})
            self.assertEqual(resp.status, 200 if password == winner else 401, resp)

    def test_parallel_forgot_requests_respect_ip_limit(self):
        """10 simultaneous forgot requests from one IP: exactly 5 pass and 5 are 429."""
        ip = cb.unique_ip()
        cb.wait_for_window_room(cb.RESET_RATE_WINDOW_S, 60)
        responses = cb.run_parallel([lambda: cb.Identity().forgot(cb.unique_email("ghost"), ip=ip)
                                     for _ in range(10)])
        self.assertEqual(statuses(responses), {200: cb.RESET_RATE_LIMIT, 429: 10 - cb.RESET_RATE_LIMIT},
                         responses)

    def test_parallel_logins_respect_rate_limit(self):
        """25 simultaneous logins for one unknown identifier: exactly 20 are judged and 5 are 429.

        Of the 20 judged, 5 fail and the rest find the identifier locked, as
        they would a real account's (lockout never reveals an account).
        """
        address = cb.unique_email("ghost")
        cb.wait_for_window_room(cb.LOGIN_RATE_WINDOW_S, 40)
        responses = self.parallel(25, lambda api: api.login({"email": address, "password": "Wrong-pass-1"}))
        counts = statuses(responses)
        self.assertEqual(counts, {401: cb.LOCKOUT_FAILURES, 403: cb.LOGIN_RATE_LIMIT - cb.LOCKOUT_FAILURES,
                                  429: 25 - cb.LOGIN_RATE_LIMIT}, responses)


if __name__ == "__main__":
    unittest.main()
