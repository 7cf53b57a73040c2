-- Issue 24 (docs/decisions/0035): a deleted account stays as a tombstone row (no name, a placeholder
-- email, no usable password) so handovers, items and blocks keep their foreign keys; deleted_at marks it.
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;
