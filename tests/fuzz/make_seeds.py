#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/<target>/ (run once; the
files are committed). Multi-function targets take a selector byte first."""
import base64, hashlib, hmac, os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

def put(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def sel(n, body):
    return bytes([n]) + (body.encode() if isinstance(body, str) else body)

pw = "Corr3ct-Horse-Battery"
T = "fuzz_auth_requests"
put(T, "register_email", sel(0, '{"email":" Alice@Example.com ","password":"%s","firstName":"Alice","lastName":"Moyo","clientId":"web","channel":"WEB"}' % pw))
put(T, "register_phone", sel(0, '{"phone":"+263771234567","password":"%s"}' % pw))
put(T, "register_bad", sel(0, '{"email":"nope","password":"x","extra":[1,2,{}]}'))
put(T, "login_email", sel(1, '{"email":"alice@example.com","password":"%s"}' % pw))
put(T, "login_both", sel(1, '{"email":"a@b.co","phone":"263771234567","password":"p","clientId":null}'))
put(T, "refresh", sel(2, '{"refreshToken":"abc.def.ghi"}'))
put(T, "pw_change", sel(3, '{"currentPassword":"old","newPassword":"%s"}' % pw))
put(T, "pw_forgot", sel(4, '{"email":"alice@example.com","clientId":"web"}'))
put(T, "pw_reset", sel(5, '{"token":"tok_123","newPassword":"%s"}' % pw))
put(T, "deactivate", sel(6, '{"password":"%s"}' % pw))
put(T, "email", sel(7, "First.Last+tag@sub.example.co.zw"))
put(T, "phone", sel(8, "+263 77 123 4567"))
put(T, "not_json", sel(0, '{"email":"a@b.c","password":"\\ud800"'))

UUID = "123e4567-e89b-12d3-a456-426614174000"
T = "fuzz_banking_validation"
line = lambda side, amt: '{"glAccountCode":"1000","currency":"USD","side":"%s","amountMinor":%s}' % (side, amt)
put(T, "journal_ok", sel(0, '{"entries":[%s,%s],"valueDate":"2026-02-28","type":"FEE","description":"manual"}' % (line("DEBIT", 100), line("CREDIT", 100))))
put(T, "journal_big", sel(0, '{"entries":[%s,%s]}' % (line("DEBIT", 18446744073709551615), line("CREDIT", -1.5))))
put(T, "journal_unbalanced", sel(0, '{"entries":[%s,%s],"valueDate":"2026-02-30"}' % (line("DEBIT", 100), line("CREDIT", 99))))
put(T, "gl_account", sel(4, '{"code":"1000","name":"Cash","type":"ASSET","currency":"USD"}'))
put(T, "api_key", sel(8, '{"name":"ci","scopes":["read","write"]}'))
put(T, "approval", sel(9, '{"comment":"ok"}'))
put(T, "customer", sel(11, '{"type":"individual","firstName":" Tendai ","lastName":"Moyo","dateOfBirth":"1990-04-01","gender":"female","nationality":"zw","nationalId":"63-123456a-42","riskCategory":"low","branchCode":"hre","email":"T.Moyo@Example.com","phone":"+263771234567"}'))
put(T, "customer_corp", sel(11, '{"type":"CORPORATE","legalName":"Acme","registrationNumber":"R1","signingMandate":"ANY_TWO"}'))
put(T, "profile_patch", sel(13, '{"address":null,"occupation":" "}'))
put(T, "account_open", sel(25, '{"customerId":"%s","productCode":"sav-std","initialDeposit":{"amountMinor":5000,"channel":"branch"}}' % UUID))
put(T, "deposit", sel(27, '{"accountId":"%s","amountMinor":2500,"channel":"atm"}' % UUID))
put(T, "transfer", sel(29, '{"fromAccountId":"%s","toAccountId":"%s","amountMinor":1,"currency":"ZWG"}' % (UUID, UUID)))
put(T, "fx_rate", sel(31, '{"baseCurrency":"USD","quoteCurrency":"ZWG","rate":"26.5","effectiveDate":"2026-01-01"}'))
put(T, "standing_order", sel(34, '{"fromAccountId":"%s","toAccountId":"%s","amountMinor":100,"frequency":"MONTHLY","startDate":"2026-12-31"}' % (UUID, UUID)))
UUID2 = "223e4567-e89b-12d3-a456-426614174001"
item = lambda amt, extra="": '{"fromAccountId":"%s","toAccountId":"%s","amountMinor":%s%s}' % (UUID, UUID2, amt, extra)
# selector 35: the batch of transfers; 183 (= 35 mod 37, high bit set) with an Idempotency-Key header
put(T, "transfer_batch", sel(35, '{"transfers":[%s,%s],"channel":"api"}' % (item(100, ',"linked":true,"reference":" R-1 "'), item(1))))
put(T, "transfer_batch_keyed", sel(183, '{"transfers":[%s],"idempotencyKey":"idem-1"}' % item(5, ',"currency":"zwg","narrative":"caf\u00e9"')))
put(T, "transfer_batch_bad", sel(35, '{"transfers":[[[[[[1]]]]]],"transfers":{}}'))
put(T, "date", sel(35, "2024-02-29"))

T = "fuzz_auth_headers"
put(T, "form", sel(0, "grant_type=client_credentials&client_id=web%20app&scope=read+write"))
put(T, "form_bad", sel(0, "a=%zz&a=2&&="))
put(T, "basic", sel(1, "Basic " + base64.b64encode(b"web%3Aapp:s3cr%25et").decode()))
put(T, "basic_bad", sel(1, "basic !!!="))
put(T, "bearer", sel(2, "Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln"))
put(T, "bearer_bad", sel(2, "Bearer  two words"))

T = "fuzz_percent_decode"
put(T, "plain", "hello+world%20%41%e2%82%ac")
put(T, "nul", "a%00b")
put(T, "bad", "%4%g1%")
put(T, "utf8", "caf\xc3\xa9%C3%A9+")

T = "fuzz_events_envelope"
ev = '{"eventId":"e1","type":"page.viewed","occurredAt":"2026-11-21T10:00:00Z","identity":{"platform":"web","userId":"u1"},"payload":{"path":"/","n":1.50}}'
put(T, "ingest_ok", sel(0, '{"events":[%s]}' % ev))
put(T, "ingest_bom", sel(0, b'\xef\xbb\xbf' + ('{"events":[%s,%s]}' % (ev, ev)).encode()))
put(T, "ingest_missing", sel(0, '{"events":[{"eventId":"e","type":"t","identity":{}}]}'))
put(T, "ingest_badjson", sel(0, '{"events":[1,'))
put(T, "ingest_extra", sel(0, '{"events":[],"x":1}'))
put(T, "events_array", sel(1, '[%s,{"eventId":5,"schemaVersion":2147483648,"identity":{"platform":"ios","isGuest":"no","phone":"+263771234567"}}]' % ev))
put(T, "occurred_at", sel(2, "2024-02-29T23:59:59.123456789Z"))
put(T, "occurred_bad", sel(2, "0000-13-32T25:61:61Z"))
put(T, "cursor", sel(3, base64.urlsafe_b64encode(b"v1:1732183200000000:42").decode().rstrip("=")))

T = "fuzz_base64url_jwt"
put(T, "b64url", "SGVsbG8td29ybGRfPz4-")
put(T, "b64", "SGVsbG8/Pz4+dw==")
put(T, "jwt", "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImsxIn0.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl")
put(T, "jwt_bad", "a..b.c")

T = "fuzz_webhook_signature"
secret, now, body = "whsec_test_secret", 1700000000, '{"event":"session.completed","id":"s1"}'
mac = hmac.new(secret.encode(), ("%d.%s" % (now - 5, body)).encode(), hashlib.sha256).hexdigest()
put(T, "valid", sel(0, "%s\nt=%d,v1=%s\n%s" % (secret, now - 5, mac, body)))
put(T, "two_v1", sel(0, "%s\nt=%d,v1=%s,v1=%s\n%s" % (secret, now - 5, "0" * 64, mac, body)))
put(T, "stale", sel(0, "%s\nt=1,v1=%s\n%s" % (secret, mac, body)))
put(T, "malformed", sel(3, "%s\nt=-1,v1=XYZ,v0=\n%s" % (secret, body)))
put(T, "huge_t", sel(1, "%s\nt=99999999999999999999999,v1=%s\n" % (secret, mac)))
