-- Item search (issue 23, docs/decisions/0031): a trigram index over an item's name and description, so
-- `ILIKE '%words%'` on /api/items?q= stays fast on 10,000 items. pg_trgm ships with PostgreSQL's contrib
-- and with PGlite (@electric-sql/pglite/contrib/pg_trgm, loaded by db/client.ts). Where the extension
-- cannot be created (a managed server without it, a role without CREATE), the migration carries on
-- without the index: the search still answers, by scanning the circle's items.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): item search runs without its trigram index', SQLERRM;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS "items_search_trgm_idx" ON "items" USING gin '
      || '(("name" || '' '' || coalesce("description", '''')) gin_trgm_ops)';
  END IF;
END
$$;
--> statement-breakpoint
-- Newest first is the lists' default order; "recently handed over" reads the confirmed handovers.
CREATE INDEX IF NOT EXISTS "items_circle_created_idx" ON "items" ("circle_id", "created_at" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "handovers_item_confirmed_idx" ON "handovers" ("item_id", "answered_at" DESC) WHERE "status" = 'CONFIRMED';
