ALTER TABLE "blocks" ALTER COLUMN "from_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blocks" ALTER COLUMN "to_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blocks" ADD COLUMN "from_name_salt" text;--> statement-breakpoint
ALTER TABLE "blocks" ADD COLUMN "from_name_commitment" text;--> statement-breakpoint
ALTER TABLE "blocks" ADD COLUMN "to_name_salt" text;--> statement-breakpoint
ALTER TABLE "blocks" ADD COLUMN "to_name_commitment" text;--> statement-breakpoint
-- Issue 24 (docs/decisions/0034): blocks stay append-only, with two exceptions. An UPDATE may only set
-- the names kept beside a block and their salts to NULL (erasing a person who deleted their account);
-- every other column, the hash and the commitments included, must stay as it was. A DELETE removes only
-- the blocks of the circle the transaction named in circles.delete_circle_ledger (a circle closed because
-- its last member left).
CREATE OR REPLACE FUNCTION "blocks_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	erasable CONSTANT text[] := ARRAY['from_name', 'to_name', 'from_name_salt', 'to_name_salt'];
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF (to_jsonb(NEW) - erasable) IS DISTINCT FROM (to_jsonb(OLD) - erasable)
			OR (NEW.from_name IS NOT NULL AND NEW.from_name IS DISTINCT FROM OLD.from_name)
			OR (NEW.to_name IS NOT NULL AND NEW.to_name IS DISTINCT FROM OLD.to_name)
			OR (NEW.from_name_salt IS NOT NULL AND NEW.from_name_salt IS DISTINCT FROM OLD.from_name_salt)
			OR (NEW.to_name_salt IS NOT NULL AND NEW.to_name_salt IS DISTINCT FROM OLD.to_name_salt) THEN
			RAISE EXCEPTION 'ledger blocks are append-only: UPDATE refused (only names may be erased)'
				USING ERRCODE = 'insufficient_privilege';
		END IF;
		RETURN NEW;
	END IF;
	IF OLD.circle_id::text = current_setting('circles.delete_circle_ledger', true) THEN
		RETURN OLD;
	END IF;
	RAISE EXCEPTION 'ledger blocks are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
