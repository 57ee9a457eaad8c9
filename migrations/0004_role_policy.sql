-- migrations/0004_role_policy.sql: which scopes each role grants, and which
-- roles are staff roles (corebank.auth_role_scopes).
--
-- Until now ./corebank up and the test harness loaded policies/roles.json at
-- every start. The database now gets its policy here, once, like the rest of
-- the institution's data, and this file is the policy's only source: a policy
-- change is a new migration calling policy_load with the whole new policy
-- (docs/migrations.md). policy_load upserts the roles it is given and removes
-- none: a migration that retires a role deletes it itself.
SELECT corebank.policy_load($policy$
{
  "version": 1,
  "roles": {
    "customer": {
      "staff": false,
      "description": "An end user of the bank's own applications",
      "scopes": ["profile:read", "profile:write", "banking:read"]
    },
    "teller": {
      "staff": true,
      "description": "Captures transactions and proposes changes (maker)",
      "scopes": ["profile:read", "banking:read", "banking:write", "approvals:make"]
    },
    "supervisor": {
      "staff": true,
      "description": "Approves or rejects parked changes (checker)",
      "scopes": ["profile:read", "banking:read", "approvals:make", "approvals:check"]
    },
    "branch_manager": {
      "staff": true,
      "description": "Runs a branch: checker for its changes, reads its reports",
      "scopes": ["profile:read", "banking:read", "banking:write", "approvals:make", "approvals:check", "reports:read"]
    },
    "compliance_officer": {
      "staff": true,
      "description": "KYC, screening, monitoring and regulatory returns",
      "scopes": ["profile:read", "banking:read", "compliance:read", "compliance:write", "approvals:make", "approvals:check", "reports:read"]
    },
    "auditor": {
      "staff": true,
      "description": "Read-only access to the journal, approvals and reports",
      "scopes": ["profile:read", "banking:read", "audit:read", "reports:read"]
    },
    "admin": {
      "staff": true,
      "description": "Platform configuration, staff and API key administration",
      "scopes": ["profile:read", "banking:read", "banking:write", "approvals:make", "approvals:check", "admin", "reports:read", "audit:read", "compliance:read"]
    }
  }
}
$policy$::jsonb);
