"""The generated bad-input campaign (issue 13): malformed requests built from the
four services' OpenAPI documents.

spec.py       the operations of a served /openapi.json (parameters, body, security)
schemas.py    minimal values for a schema, and values a schema refuses
mutations.py  Hypothesis strategies: one malformed request (a Case) per draw
transport.py  sending a Case as raw HTTP; a dropped connection is an answer too
verdict.py    what a refusal must look like (4xx, the service's error body)
snapshot.py   row counts of every table of the corebank schema
runner.py     the seeded, bounded run: cases, findings, counts by kind

tests/e2e/test_bad_input_campaign.py runs it in the e2e step of ./corebank test;
./corebank fuzz-http --cases N runs it alone with a larger budget.
"""
