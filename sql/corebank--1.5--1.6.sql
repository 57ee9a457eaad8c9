/* sql/corebank--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.6'" to load this file. \quit

-- corebank 1.6: one place for every rule (issue 11).
--   Each section below belongs to one part of the issue; the sections are
--   independent of each other.

-- == section: limits and the money domain (issue 11, part 2) ==

-- == section: one append-only trigger (issue 11, part 3) ==

-- == section: institution data migrations and reference tables (issue 11, part 5) ==

-- == section: surfaces that tell the truth (issue 11, part 6) ==
