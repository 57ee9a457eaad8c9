"""TOTP codes for the e2e tests (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps).

Computed here with hmac rather than a library, so the tests check the
server's arithmetic against an independent one. A code is accepted once per
user and step (RFC 6238 section 5.2), so a test that signs the same user in
twice asks for the code of a later step (next_code).
"""

import base64
import hashlib
import hmac
import struct
import time

STEP_S = 30


def step_now(now=None):
    return int((time.time() if now is None else now) // STEP_S)


def code_at(secret_base32, step):
    """The 6-digit code of `step` under the base32 secret (padding optional)."""
    key = base64.b32decode(secret_base32.upper() + "=" * (-len(secret_base32) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def code(secret_base32, offset=0):
    """The code of the current step plus `offset` (the server takes -1, 0 and +1)."""
    return code_at(secret_base32, step_now() + offset)


class Authenticator:
    """A user's authenticator app: hands out codes of steps never used before,
    the current one first, then the next one; past that it waits for time to
    catch up (at most one step), as a person would."""

    def __init__(self, secret_base32):
        self.secret = secret_base32
        self.last_step = None

    def next_code(self):
        step = step_now()
        if self.last_step is not None and step <= self.last_step:
            step = self.last_step + 1
            while step > step_now() + 1:
                time.sleep(0.5)
        self.last_step = step
        return code_at(self.secret, step)
