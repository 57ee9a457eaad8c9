-- tests/harness/catalog.sql: a text fingerprint of the installed corebank
-- extension, one sorted line per object property.
--
-- `./corebank test` runs this in a database where the current version was
-- installed fresh and in one where an older version was installed and then
-- upgraded, and diffs the two outputs: an upgrade script that forgets a
-- change (a function body, a column default, a grant, a policy) shows up as
-- a differing line. OIDs, column positions and creation order are left out
-- because they legitimately differ between the two paths; function bodies
-- are compared with runs of white space collapsed.
WITH ext AS (
    SELECT oid FROM pg_extension WHERE extname = 'corebank'
), member AS (
    SELECT d.classid, d.objid, d.objsubid
    FROM pg_depend d JOIN ext ON d.refobjid = ext.oid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
), rel AS (
    SELECT c.oid, c.relkind, c.relowner, c.relacl, c.relrowsecurity, c.relforcerowsecurity
    FROM member m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
), proc AS (
    SELECT p.oid, p.prokind, p.proowner, p.proacl
    FROM member m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
), nsp AS (
    SELECT n.oid, n.nspname, n.nspowner, n.nspacl
    FROM member m JOIN pg_namespace n ON m.classid = 'pg_namespace'::regclass AND n.oid = m.objid
)
SELECT line FROM (
    SELECT 'member ' || pg_describe_object(classid, objid, objsubid) AS line
    FROM member
  UNION ALL
    SELECT 'function ' || p.oid::regprocedure || ' md5='
           || md5(regexp_replace(pg_get_functiondef(p.oid), '\s+', ' ', 'g'))
    FROM proc p WHERE p.prokind IN ('f', 'p')
  UNION ALL
    SELECT 'column ' || r.oid::regclass || '.' || quote_ident(a.attname) || ' '
           || format_type(a.atttypid, a.atttypmod)
           || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
           || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
    FROM rel r
    JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
  UNION ALL
    SELECT 'rls ' || r.oid::regclass || ' enabled=' || r.relrowsecurity || ' forced=' || r.relforcerowsecurity
    FROM rel r WHERE r.relkind IN ('r', 'p')
  UNION ALL
    SELECT 'view ' || r.oid::regclass || ' md5=' || md5(pg_get_viewdef(r.oid))
    FROM rel r WHERE r.relkind IN ('v', 'm')
  UNION ALL
    SELECT 'constraint ' || con.conrelid::regclass || ' ' || quote_ident(con.conname) || ' '
           || pg_get_constraintdef(con.oid)
    FROM pg_constraint con JOIN rel r ON con.conrelid = r.oid
  UNION ALL
    SELECT 'index ' || pg_get_indexdef(i.indexrelid)
    FROM pg_index i JOIN rel r ON i.indrelid = r.oid
  UNION ALL
    SELECT 'trigger ' || pg_get_triggerdef(t.oid)
    FROM pg_trigger t JOIN rel r ON t.tgrelid = r.oid WHERE NOT t.tgisinternal
  UNION ALL
    SELECT 'policy ' || pol.polrelid::regclass || ' ' || quote_ident(pol.polname)
           || ' cmd=' || pol.polcmd::text || ' permissive=' || pol.polpermissive
           || ' roles=' || (SELECT string_agg(rr::regrole::text, ',' ORDER BY rr::regrole::text)
                            FROM unnest(pol.polroles) AS rr)
           || ' using=' || coalesce(pg_get_expr(pol.polqual, pol.polrelid), '-')
           || ' check=' || coalesce(pg_get_expr(pol.polwithcheck, pol.polrelid), '-')
    FROM pg_policy pol JOIN rel r ON pol.polrelid = r.oid
  UNION ALL
    SELECT 'enum ' || t.oid::regtype || ' '
           || (SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
               FROM pg_enum e WHERE e.enumtypid = t.oid)
    FROM member m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
    WHERE t.typtype = 'e'
  UNION ALL
    SELECT 'grant ' || r.oid::regclass || ' to ' || x.grantee::regrole || ' ' || x.privilege_type
           || CASE WHEN x.is_grantable THEN ' with grant option' ELSE '' END
    FROM rel r, aclexplode(coalesce(r.relacl, acldefault('r', r.relowner))) x
  UNION ALL
    SELECT 'grant ' || p.oid::regprocedure || ' to ' || x.grantee::regrole || ' ' || x.privilege_type
           || CASE WHEN x.is_grantable THEN ' with grant option' ELSE '' END
    FROM proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) x
  UNION ALL
    SELECT 'grant schema ' || quote_ident(n.nspname) || ' to ' || x.grantee::regrole || ' '
           || x.privilege_type
           || CASE WHEN x.is_grantable THEN ' with grant option' ELSE '' END
    FROM nsp n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) x
) AS fingerprint
ORDER BY line;
