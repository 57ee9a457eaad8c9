-- The current state of a parked change's target, as the approvals console
-- shows it and as the approval compares it (issue 15, the approvals console):
-- parking records it in parked_changes.target_before, and approving refuses
-- with CB409 when it differs, so a checker approves exactly what was shown.
-- Only the fields a decision rests on: a user's last login or a customer's
-- unrelated bookkeeping must not block an approval. NULL for a target that
-- does not exist (yet) or an entity type without a state here.
CREATE FUNCTION corebank_internal.parked_change_target(entity_type text, entity_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    key uuid;
BEGIN
    IF entity_type = 'period' THEN
        RETURN jsonb_build_object('period', entity_id, 'status',
                   coalesce((SELECT p.status FROM corebank.accounting_periods p WHERE p.period = entity_id), 'OPEN'));
    ELSIF entity_type = 'platform' THEN
        RETURN (SELECT jsonb_build_object('branchScoping', c.branch_scoping) FROM corebank.platform_config c);
    END IF;
    IF entity_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        RETURN NULL;
    END IF;
    key := entity_id::uuid;
    IF entity_type = 'transaction' THEN
        RETURN (SELECT jsonb_build_object(
                    'reference', t.reference, 'type', t.type, 'status', t.status, 'released', t.released,
                    'description', t.description, 'valueDate', t.value_date, 'branchId', t.branch_id,
                    'reversedById', t.reversed_by_id,
                    'entries', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                        'lineNo', e.line_no, 'glAccountId', e.gl_account_id,
                                        'ledgerAccountId', e.ledger_account_id, 'currency', e.currency,
                                        'side', e.side, 'amountMinor', e.amount_minor, 'narrative', e.narrative)
                                    ORDER BY e.line_no), '[]'::jsonb)
                                FROM (SELECT j.line_no, j.gl_account_id, j.ledger_account_id, j.currency, j.side,
                                             j.amount_minor, j.narrative
                                      FROM corebank.journal_entries j WHERE j.transaction_id = t.id
                                      UNION ALL
                                      -- a captured journal's lines until it is posted
                                      SELECT l.line_no, l.gl_account_id, l.ledger_account_id, l.currency, l.side,
                                             l.amount_minor, l.narrative
                                      FROM corebank.transaction_lines_proposed l
                                      WHERE l.transaction_id = t.id
                                        AND NOT EXISTS (SELECT FROM corebank.journal_entries j
                                                        WHERE j.transaction_id = t.id)) e))
                FROM corebank.transactions t WHERE t.id = key);
    ELSIF entity_type = 'kyc_document' THEN
        RETURN (SELECT jsonb_build_object(
                    'customerId', d.customer_id, 'documentType', d.document_type,
                    'documentNumber', d.document_number, 'issuingCountry', d.issuing_country,
                    'issuedOn', d.issued_on, 'expiresOn', d.expires_on, 'status', d.status)
                FROM corebank.kyc_documents d WHERE d.id = key);
    ELSIF entity_type = 'identity_user' THEN
        RETURN (SELECT jsonb_build_object('kycTier', u.kyc_tier, 'status', u.status,
                                          'firstName', u.first_name, 'lastName', u.last_name)
                FROM corebank.auth_users u WHERE u.id = key);
    ELSIF entity_type = 'customer' THEN
        RETURN (SELECT jsonb_build_object(
                    'customerNumber', c.customer_number, 'status', c.status, 'identityUserId', c.auth_user_id,
                    'firstName', c.first_name, 'lastName', c.last_name, 'legalName', c.legal_name,
                    'dateOfBirth', c.date_of_birth, 'nationalId', c.national_id,
                    'registrationNumber', c.registration_number)
                FROM corebank.customers c WHERE c.id = key);
    END IF;
    RETURN NULL;
END
$fn$;
