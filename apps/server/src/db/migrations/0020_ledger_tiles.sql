-- Issue 29, tiles (C2SP tlog-tiles): each circle's Merkle tree as tiles of up to 256 hashes, written by
-- every append. A log appended to before this migration gets its tiles built once, on its next append
-- or first tile read (ledger_heads.tiled_size tells how far they go).
CREATE TABLE "ledger_tiles" (
	"circle_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"idx" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "ledger_tiles_circle_id_level_idx_pk" PRIMARY KEY("circle_id","level","idx")
);
--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD COLUMN "tiled_size" integer DEFAULT 0 NOT NULL;