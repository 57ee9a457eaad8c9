-- migrations/0003_banks.sql: the commercial banks of the home market
-- (Zimbabwe) with their SWIFT/BIC, served by GET /v1/platform/banks.
--
-- Until extension 1.6 the tier held this list in its code; the extension now
-- creates corebank.banks empty and this migration fills it. A bank that opens,
-- merges or changes its BIC is a new migration file (docs/migrations.md).
INSERT INTO corebank.banks (code, name, swift_bic) VALUES
    ('AFC', 'AFC Commercial Bank', 'AGRZZWHA'),
    ('BANCABC', 'BancABC Zimbabwe', 'FMBZZWHX'),
    ('CABS', 'CABS', 'CABSZWHA'),
    ('CBZ', 'CBZ Bank', 'COBZZWHA'),
    ('ECOBANK', 'Ecobank Zimbabwe', 'ECOCZWHX'),
    ('FBC', 'FBC Bank', 'FBCPZWHA'),
    ('FCB', 'First Capital Bank', 'BARCZWHX'),
    ('METBANK', 'Metbank', 'METBZWHA'),
    ('NEDBANK', 'Nedbank Zimbabwe', 'MBCAZWHX'),
    ('NMB', 'NMB Bank', 'NMBLZWHA'),
    ('POSB', 'People''s Own Savings Bank', 'POSBZWHA'),
    ('STANBIC', 'Stanbic Bank Zimbabwe', 'SBICZWHX'),
    ('SCB', 'Standard Chartered Bank Zimbabwe', 'SCBLZWHX'),
    ('STEWARD', 'Steward Bank', 'STEWZWHA'),
    ('ZB', 'ZB Bank', 'ZBCOZWHA');
