-- Issue 27, labels (docs/decisions/0052): every item gets a short code for its QR label, 8 characters of
-- an alphabet without 0, O, 1, I, L and U (Crockford's base32 letters and the digits 2-9). The codes
-- are no secrets (the route that resolves one checks membership), so random() is enough; the loop
-- skips a code that is taken.
CREATE FUNCTION item_code() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	alphabet constant text := '23456789ABCDEFGHJKMNPQRSTVWXYZ';
	candidate text;
BEGIN
	LOOP
		candidate := '';
		FOR i IN 1..8 LOOP
			candidate := candidate || substr(alphabet, 1 + floor(random() * 30)::int, 1);
		END LOOP;
		EXIT WHEN NOT EXISTS (SELECT 1 FROM items WHERE code = candidate);
	END LOOP;
	RETURN candidate;
END
$$;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "code" text;--> statement-breakpoint
-- Existing items one at a time, so that each sees the codes given before it.
DO $$
DECLARE
	row record;
BEGIN
	FOR row IN SELECT id FROM items ORDER BY created_at, id LOOP
		UPDATE items SET code = item_code() WHERE id = row.id;
	END LOOP;
END
$$;--> statement-breakpoint
ALTER TABLE "items" ALTER COLUMN "code" SET DEFAULT item_code();--> statement-breakpoint
ALTER TABLE "items" ALTER COLUMN "code" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "items_code_idx" ON "items" USING btree ("code");
